import Foundation

/// A property of an entity: an attribute, a relationship, or a fetched property.
///
/// ```swift
/// let name = NSAttributeDescription()
/// name.name = "name"
/// name.attributeType = .stringAttributeType
/// name.isOptional = false
/// entity.properties = [name]
/// ```
///
/// Like every description, a property may be changed only until a persistent store coordinator
/// uses its model; after that the model is frozen and a change stops with a message.
open class NSPropertyDescription: NSObject, @unchecked Sendable {
    // @unchecked Sendable: descriptions are mutable only while the model is being built, on one
    // thread; once a coordinator uses the model it is frozen and read-only from every thread.

    /// The property's name, unique within its entity and its super- and subentities.
    open var name: String = "" { willSet { checkMutable() } }
    /// The entity this property belongs to (set when it is added to `NSEntityDescription.properties`).
    ///
    /// `unowned`, as Apple's is `assign`: the entity owns its properties, so it outlives them
    /// while its model is in use. Not `weak`: a weak reference gives the entity a side table,
    /// and every retain and release of it (one per managed object made or freed) then takes
    /// the runtime's slow path. Reading it after the entity was freed stops the program, where
    /// Apple's would read freed memory.
    public internal(set) unowned var entity: NSEntityDescription!
    /// Whether a nil value (or an empty to-many) is allowed at save. Default `true`, as in Apple's.
    open var isOptional: Bool = true { willSet { checkMutable() } }
    /// Transient properties live only in memory: they are tracked and undone, never stored.
    open var isTransient: Bool = false { willSet { checkMutable() } }
    open var isIndexed: Bool = false { willSet { checkMutable() } }
    open var isIndexedBySpotlight: Bool = false { willSet { checkMutable() } }
    /// The application's own values; an empty dictionary until set, as Apple's.
    open var userInfo: [AnyHashable: Any]? = [:] { willSet { checkMutable() } }
    /// The previous name of this property, used by migration to match renamed properties.
    open var renamingIdentifier: String? { willSet { checkMutable() } }
    /// Extra input to ``versionHash`` to mark a change that does not alter the schema.
    open var versionHashModifier: String? { willSet { checkMutable() } }

    /// Predicates a value must satisfy at save; each `SELF` is the value being validated.
    public private(set) var validationPredicates: [NSPredicate] = []
    /// The error messages matching ``validationPredicates`` one to one.
    public private(set) var validationWarnings: [String] = []

    open func setValidationPredicates(_ predicates: [NSPredicate]?, withValidationWarnings warnings: [String]?) {
        checkMutable()
        validationPredicates = predicates ?? []
        validationWarnings = warnings ?? []
    }

    /// Core Data's read-only flag; kept for the version hash.
    open var isReadOnly: Bool { false }

    /// Position of this property in its entity's value storage (set when the model is frozen).
    @exclusivity(unchecked) var slotIndex: Int = -1

    /// A hash that changes when the property changes in a way that affects stored data.
    public var versionHash: Data { VersionHasher.hash(of: self) }

    func checkMutable(_ function: StaticString = #function) {
        if let model = entity?.managedObjectModel, model.isFrozen {
            preconditionFailure("Can't modify '\(name)' (\(function)): its model is in use by a persistent store coordinator and immutable. Copy the model (`model.copy()`) and change the copy.")
        }
    }

    public override var description: String {
        "(\(type(of: self))) \(name), isOptional \(isOptional), isTransient \(isTransient)"
    }

    /// Copies this description for a new model; subclasses copy their own fields.
    func copyDescription() -> NSPropertyDescription {
        let copy = type(of: self).init()
        copyCommonFields(to: copy)
        return copy
    }

    func copyCommonFields(to copy: NSPropertyDescription) {
        copy.name = name
        copy.isOptional = isOptional
        copy.isTransient = isTransient
        copy.isIndexed = isIndexed
        copy.isIndexedBySpotlight = isIndexedBySpotlight
        copy.userInfo = userInfo
        copy.renamingIdentifier = renamingIdentifier
        copy.versionHashModifier = versionHashModifier
        copy.validationPredicates = validationPredicates
        copy.validationWarnings = validationWarnings
    }

    public required override init() { super.init() }
}

extension NSPropertyDescription: KeyValueCoding {
    /// Key-value access for predicates: a fetched property's predicate reads its own description
    /// as `$FETCHED_PROPERTY`, typically `$FETCHED_PROPERTY.userInfo.someKey`.
    public func checkedValue(forKey key: String) throws -> Any? {
        switch key {
        case "name": return name
        case "isOptional", "optional": return isOptional
        case "isTransient", "transient": return isTransient
        case "isIndexed", "indexed": return isIndexed
        case "renamingIdentifier": return renamingIdentifier
        case "versionHashModifier": return versionHashModifier
        case "entity": return entity?.name
        case "userInfo":
            var info: [String: Any] = [:]
            for (k, v) in userInfo ?? [:] { info["\(k)"] = v }
            return info
        default: throw KeyValueCodingError.undefinedKey(key, in: "\(type(of: self))")
        }
    }
}
