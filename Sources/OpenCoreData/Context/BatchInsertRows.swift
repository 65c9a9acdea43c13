import Foundation

/// One record of a batch insert: its values (defaults filled in) and, for an entity with
/// uniqueness constraints, the attribute slots the request gave (an upsert writes only those).
struct BatchInsertRow {
    var values: RowValues
    var given: [Int]
}

/// Turns a batch insert's dictionaries, or the objects its handler filled, into rows: the
/// entity's defaults, then the values given, checked (names, types, required attributes).
///
/// ```swift
/// var builder = BatchInsertRowBuilder(entity: quake, layout: quake.layout!)
/// try builder.add(["code": "a", "magnitude": 4.5])
/// builder.rows   // one row, `place` nil, every other attribute its default
/// ```
///
/// Everything the rows need from the model is looked up once here, not per value: a batch
/// insert converts millions of values, and a model property read (an `open` class property)
/// costs more than the conversion itself.
struct BatchInsertRowBuilder {
    private let entityName: String
    private let layout: EntityLayout
    private let defaults: RowValues
    /// By slot: how a stored attribute's values convert; nil for other properties.
    private let conversions: [AttributeConversion?]
    private let attributeSlots: [Int]
    private let requiredSlots: [Int]
    /// Whether rows record the slots given (only an upsert needs them).
    private let recordsGiven: Bool
    private(set) var rows: [BatchInsertRow] = []

    init(entity: NSEntityDescription, layout: EntityLayout) {
        entityName = entity.name ?? "?"
        self.layout = layout
        defaults = RowValues(layout.initialSlots.map { slot -> StoredValue in
            if case .toMany = slot { return .objectIDs([]) }
            return slot.storedValue
        })
        let conversions = layout.kinds.map { kind -> AttributeConversion? in
            guard case .attribute(let attribute) = kind, !attribute.isTransient else { return nil }
            return AttributeConversion(attribute)
        }
        self.conversions = conversions
        let attributeSlots = conversions.indices.filter { conversions[$0] != nil }
        self.attributeSlots = attributeSlots
        requiredSlots = attributeSlots.filter { !layout.properties[$0].isOptional }
        recordsGiven = !UniquenessRule.rules(for: entity).isEmpty
    }

    /// A record from attribute names and values; `NSNull` (or no value) takes the default.
    mutating func add(_ dictionary: [String: Any]) throws {
        var row = BatchInsertRow(values: defaults, given: [])
        for (name, value) in dictionary {
            guard let slot = layout.indexByName[name] else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchInsertRequest: '\(entityName)' has no attribute '\(name)'. Keys of the dictionaries are attribute names.")
            }
            guard let conversion = conversions[slot] else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchInsertRequest can't set '\(entityName).\(name)': a batch insert sets stored attributes only; relationships are set on the objects afterwards, in a context.")
            }
            if recordsGiven { row.given.append(slot) }
            if isNSNull(value) { continue }  // Apple's batch insert: NSNull takes the default
            guard let stored = conversion.storedValue(value) else { throw conversion.mismatch(value, entityName: entityName) }
            row.values[slot] = stored
        }
        try finish(row)
    }

    /// A record from a dictionary handler's dictionary (keys must be attribute names).
    mutating func add(_ dictionary: NSMutableDictionary) throws {
        // Enumerated, not iterated: Foundation's iterator looks every value up again by its key.
        var values: [String: Any] = Dictionary(minimumCapacity: dictionary.count)
        var badKey: Any?
        dictionary.enumerateKeysAndObjects { key, value, stop in
            guard let name = key as? String else { badKey = key; stop.pointee = true; return }
            values[name] = value
        }
        if let badKey {
            throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchInsertRequest's dictionary handler used the key \(badKey), which is not an attribute name. Use the entity's attribute names as keys.")
        }
        try add(values)
    }

    /// A record from an object a managed-object handler filled: every attribute, no
    /// relationship.
    mutating func add(_ object: NSManagedObject) throws {
        var row = BatchInsertRow(values: defaults, given: recordsGiven ? attributeSlots : [])
        for slot in attributeSlots {
            let value = object.readStored(slot)
            guard let conversion = conversions[slot], value.fits(conversion.type) else {
                throw CoreDataError.make(NSManagedObjectValidationError, "NSBatchInsertRequest: the managed object handler gave '\(entityName).\(layout.properties[slot].name)' a value its attribute type can't hold. Nothing was inserted.",
                                         [NSValidationKeyErrorKey: layout.properties[slot].name])
            }
            row.values[slot] = value
        }
        for slot in layout.relationshipIndexes where !layout.properties[slot].isTransient {
            switch object.readStored(slot) {
            case .null: continue
            case .objectIDs(let ids) where ids.isEmpty: continue
            default:
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchInsertRequest can't set '\(entityName).\(layout.properties[slot].name)': a batch insert sets attributes only; relationships are set on the objects afterwards, in a context.")
            }
        }
        try finish(row)
    }

    private mutating func finish(_ row: BatchInsertRow) throws {
        for slot in requiredSlots where row.values[slot].isNull {
            throw CoreDataError.make(NSValidationMissingMandatoryPropertyError,
                "NSBatchInsertRequest: a record of '\(entityName)' has no value for the required attribute '\(layout.properties[slot].name)', and the attribute has no default. Give it a value; nothing was inserted.",
                [NSValidationKeyErrorKey: layout.properties[slot].name])
        }
        rows.append(row)
    }
}

/// How a batch request converts public values for one attribute, with the attribute's type
/// read once.
struct AttributeConversion {
    let attribute: NSAttributeDescription
    let type: NSAttributeType

    init(_ attribute: NSAttributeDescription) {
        self.attribute = attribute
        type = attribute.attributeType
    }

    /// `value` in stored form; nil when the attribute's type can't hold it.
    func storedValue(_ value: Any) -> StoredValue? {
        // The type's own Swift value first: one cast (the general conversion tries several).
        // An NSNumber (what a dictionary handler's NSMutableDictionary holds) is read directly,
        // as the general conversion reads it; the metatype test comes first because casting a
        // Swift number to NSNumber would bridge it, allocating a number per test.
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let i = value as? Int64 { return .integer(i) }
            if Swift.type(of: value) is NSNumber.Type, let number = value as? NSNumber, number.doubleValue.isFinite,
               abs(number.doubleValue) < 9.2e18 { return .integer(number.int64Value) }
        case .doubleAttributeType, .floatAttributeType:
            if let d = value as? Double { return .double(d) }
            if Swift.type(of: value) is NSNumber.Type, let number = value as? NSNumber { return .double(number.doubleValue) }
        case .stringAttributeType:
            if let s = value as? String { return .string(s) }
        default:
            break
        }
        let stored = StoredValue(value, for: attribute)
        return stored.fits(type) ? stored : nil
    }

    /// The error for a value of the wrong type (`NSManagedObjectValidationError`, 1550).
    func mismatch(_ value: Any?, entityName: String) -> NSError {
        CoreDataError.make(NSManagedObjectValidationError,
            "A batch request gives '\(entityName).\(attribute.name)' the value \(value.map { "\($0)" } ?? "nil") of type \(value.map { "\(Swift.type(of: $0))" } ?? "nil"), which its attribute type can't hold. Give a value of the attribute's type; nothing was changed.",
            [NSValidationKeyErrorKey: attribute.name])
    }
}
