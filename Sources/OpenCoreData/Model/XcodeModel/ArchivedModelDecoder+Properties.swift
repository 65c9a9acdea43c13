import Foundation

extension ArchivedModelDecoder {
    /// An archived property, or nil for what is not one of Apple's property classes (the
    /// `_NSPropertyDescriptionProxy` of an inherited property: the superentity declares it).
    mutating func readProperty(_ object: [String: Any], entityName: String, compositeDepth: Int = 0) throws -> NSPropertyDescription? {
        let className = archive.className(of: object) ?? "?"
        let property: NSPropertyDescription
        switch className {
        case "NSAttributeDescription", "NSDerivedAttributeDescription", "NSCompositeAttributeDescription":
            property = try readAttribute(object, className: className, entityName: entityName, compositeDepth: compositeDepth)
        case "NSRelationshipDescription":
            let relationship = NSRelationshipDescription()
            relationship.destinationEntityName = archive.string(object["_NSDestinationEntityName"])
                ?? archive.dict(object["NSDestinationEntity"]).flatMap { archive.string($0["NSEntityName"]) }
            relationship.inverseName = archive.string(object["_NSInverseRelationshipName"])
                ?? archive.dict(object["NSInverseRelationship"]).flatMap { archive.string($0["NSPropertyName"]) }
            relationship.minCount = max(0, archive.int(object["NSMinCount"]) ?? 0)
            // Apple archives "no limit" as 0 (or -1 from older compilers).
            relationship.maxCount = max(0, archive.int(object["NSMaxCount"]) ?? 0)
            let rule = archive.int(object["NSDeleteRule"]) ?? 0
            relationship.deleteRule = NSDeleteRule(rawValue: UInt(max(0, rule))) ?? .nullifyDeleteRule
            if NSDeleteRule(rawValue: UInt(max(0, rule))) == nil {
                warn("Relationship '\(entityName).\(archive.string(object["NSPropertyName"]) ?? "?")' has delete rule \(rule), which Core Data does not know; it uses Nullify.")
            }
            property = relationship
        case "NSFetchedPropertyDescription":
            let fetched = NSFetchedPropertyDescription()
            let name = archive.string(object["NSPropertyName"]) ?? ""
            guard let request = fetchRequest(object["NSFetchRequest"], owner: "fetched property '\(entityName).\(name)'",
                                             entityName: archive.string(object["_NSFetchRequestEntityName"])) else { return nil }
            fetched.fetchRequest = request
            property = fetched
        default:
            return nil
        }
        guard let name = archive.string(object["NSPropertyName"]), !name.isEmpty else { throw Failure("a property of entity '\(entityName)' has no name") }
        property.name = name
        readCommonFields(object, into: property, label: "\(entityName).\(name)")
        return property
    }

    /// The fields every property kind archives. Apple's framework reads the Boolean settings
    /// from `_P` when the archive has it (the compilers of the last decade write it) and from
    /// their own keys otherwise; `_P` also says which optional keys are absent.
    private mutating func readCommonFields(_ object: [String: Any], into property: NSPropertyDescription, label: String) {
        let packed = archive.int(object["_P"]) ?? 0
        let flags = ArchivedPropertyFlags(rawValue: packed)
        func setting(_ flag: ArchivedPropertyFlags, _ key: String) -> Bool {
            packed != 0 ? flags.contains(flag) : archive.bool(object[key]) ?? false
        }
        property.isOptional = setting(.isOptional, "NSIsOptional")
        property.isTransient = setting(.isTransient, "NSIsTransient")
        property.isIndexedBySpotlight = setting(.isIndexedBySpotlight, "NSIndexedBySpotlight")
        property.isIndexed = archive.bool(object["NSIsIndexed"]) ?? false
        if let relationship = property as? NSRelationshipDescription {
            relationship.isOrdered = setting(.isOrdered, "NSIsOrdered")
        }
        if let attribute = property as? NSAttributeDescription {
            attribute.allowsCloudEncryption = setting(.allowsCloudEncryption, "NSAllowsCloudEncryption")
        }
        property.renamingIdentifier = renamingIdentifier(object, name: property.name)
        if !flags.contains(.hasNoVersionHashModifier) { property.versionHashModifier = archive.string(object["NSVersionHashModifier"]) }
        if !flags.contains(.hasNoUserInfo) { property.userInfo = userInfo(object["NSUserInfo"]) }
        let warnings = flags.contains(.hasNoValidationWarnings) ? [] : archive.array(object["NSValidationWarnings"]).compactMap { archive.plainValue($0).map { "\($0)" } }
        var validation: [NSPredicate] = []
        for value in flags.contains(.hasNoValidationPredicates) ? [] : archive.array(object["NSValidationPredicates"]) {
            do {
                if let predicate = try predicates.predicate(value) { validation.append(predicate) }
            } catch {
                warn("Property '\(label)' has a validation predicate that can't be read (\(error)); it was left out.")
            }
        }
        if !validation.isEmpty { property.setValidationPredicates(validation, withValidationWarnings: Array(warnings.prefix(validation.count))) }
    }

    private mutating func readAttribute(_ object: [String: Any], className: String, entityName: String, compositeDepth: Int) throws -> NSAttributeDescription {
        let name = archive.string(object["NSPropertyName"]) ?? "?"
        let label = "\(entityName).\(name)"
        let rawType = archive.int(object["NSAttributeType"]) ?? 0
        var type = NSAttributeType(rawValue: UInt(max(0, rawType)))
        if type == nil {
            warn("Attribute '\(label)' has type \(rawType), which Core Data does not know; it was loaded as Undefined.")
            type = .undefinedAttributeType
        }
        let attribute: NSAttributeDescription
        switch className {
        case "NSDerivedAttributeDescription":
            let derived = NSDerivedAttributeDescription()
            do { derived.derivationExpression = try predicates.expression(object["NSDerivationExpression"]) } catch {
                warn("Derived attribute '\(label)' has a derivation that can't be read (\(error)); it has no derivation expression.")
            }
            attribute = derived
        case "NSCompositeAttributeDescription":
            let composite = NSCompositeAttributeDescription()
            // Composites may nest; an archive whose composite contains itself must not recurse forever.
            guard compositeDepth < 16 else { throw Failure("composite attribute '\(label)' nests more than 16 levels deep") }
            composite.elements = try archive.array(object["NSCompositeElements"]).compactMap { value in
                guard let element = archive.dict(value) else { return nil }
                return try readProperty(element, entityName: label, compositeDepth: compositeDepth + 1) as? NSAttributeDescription
            }
            attribute = composite
        default:
            attribute = NSAttributeDescription()
        }
        attribute.attributeType = type!
        if let valueClass = archive.string(object["NSAttributeValueClassName"]), valueClass != attribute.attributeValueClassName {
            attribute.attributeValueClassName = valueClass
        }
        attribute.valueTransformerName = archive.string(object["NSValueTransformerName"])
        let flags = ArchivedAttributeFlags(rawValue: archive.int(object["NSFlagsKey"]) ?? 0)
        attribute.allowsExternalBinaryDataStorage = flags.contains(.allowsExternalBinaryDataStorage)
        attribute.preservesValueInHistoryOnDeletion = flags.contains(.preservesValueInHistoryOnDeletion)
        attribute.defaultValue = defaultValue(object["NSDefaultValue"], type: type!, label: label)
        let bounds = boundPredicates(object, flags: flags, type: type!)
        if !bounds.isEmpty {
            attribute.setValidationPredicates(attribute.validationPredicates + bounds, withValidationWarnings: attribute.validationWarnings)
        }
        return attribute
    }

    /// A minimum and maximum kept as numbers (`NSMinValueName`, `NSMaxValueName`, flagged in
    /// `NSFlagsKey`) rather than as predicates: the predicates Xcode's constraints compile to,
    /// `length >= min` for strings and `SELF >= min` for numbers and dates (seconds since 2001).
    private func boundPredicates(_ object: [String: Any], flags: ArchivedAttributeFlags, type: NSAttributeType) -> [NSPredicate] {
        var predicates: [NSPredicate] = []
        for (flag, key, op) in [(ArchivedAttributeFlags.hasMinValue, "NSMinValueName", NSComparisonPredicate.Operator.greaterThanOrEqualTo),
                                (.hasMaxValue, "NSMaxValueName", .lessThanOrEqualTo)] where flags.contains(flag) {
            guard let number = archive.resolve(object[key]) as? NSNumber else { continue }
            let subject: NSExpression = type == .stringAttributeType ? NSExpression(forKeyPath: "length") : .expressionForEvaluatedObject()
            let limit: Any
            switch type {
            case .stringAttributeType, .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: limit = NSNumber(value: number.int64Value)
            case .dateAttributeType: limit = Date(timeIntervalSinceReferenceDate: number.doubleValue)
            default: limit = NSNumber(value: number.doubleValue)
            }
            predicates.append(NSComparisonPredicate(leftExpression: subject, rightExpression: NSExpression(forConstantValue: limit), modifier: .direct, type: op))
        }
        return predicates
    }

    /// `NSDefaultValue` as a value of the attribute's type: numbers as `NSNumber` of the type's
    /// width (a property list integer is 64 bits), the rest as archived.
    private mutating func defaultValue(_ value: Any?, type: NSAttributeType, label: String) -> Any? {
        guard value != nil, archive.resolve(value) != nil else { return nil }
        guard let plain = archive.plainValue(value) else {
            let className = archive.dict(value).flatMap { archive.className(of: $0) } ?? "?"
            warn("Attribute '\(label)' has a default value of class \(className), which can't be read without that class; it has no default value.")
            return nil
        }
        guard let number = plain as? NSNumber else { return plain }
        return type.number(number) ?? number
    }
}

/// `_P` of an archived property: its Boolean settings, and which optional keys it lacks.
struct ArchivedPropertyFlags: OptionSet {
    let rawValue: Int
    static let isOptional = ArchivedPropertyFlags(rawValue: 0x2)
    static let isReadOnly = ArchivedPropertyFlags(rawValue: 0x4)
    static let isTransient = ArchivedPropertyFlags(rawValue: 0x8)
    static let hasNoValidationPredicates = ArchivedPropertyFlags(rawValue: 0x10)
    static let hasNoValidationWarnings = ArchivedPropertyFlags(rawValue: 0x20)
    static let hasNoUserInfo = ArchivedPropertyFlags(rawValue: 0x40)
    static let hasNoVersionHashModifier = ArchivedPropertyFlags(rawValue: 0x80)
    static let isIndexedBySpotlight = ArchivedPropertyFlags(rawValue: 0x100)
    static let isStoredInExternalRecord = ArchivedPropertyFlags(rawValue: 0x200)
    static let isOrdered = ArchivedPropertyFlags(rawValue: 0x400)
    static let allowsCloudEncryption = ArchivedPropertyFlags(rawValue: 0x800)
}

/// `NSFlagsKey` of an archived attribute.
struct ArchivedAttributeFlags: OptionSet {
    let rawValue: Int
    static let hasMaxValue = ArchivedAttributeFlags(rawValue: 1 << 0)
    static let hasMinValue = ArchivedAttributeFlags(rawValue: 1 << 1)
    static let allowsExternalBinaryDataStorage = ArchivedAttributeFlags(rawValue: 1 << 2)
    static let preservesValueInHistoryOnDeletion = ArchivedAttributeFlags(rawValue: 1 << 4)
}
