import Foundation

extension XcodeModelReader {
    /// Xcode's `attributeType` strings and the types they mean.
    static let attributeTypes: [String: NSAttributeType] = [
        "Integer 16": .integer16AttributeType, "Integer 32": .integer32AttributeType,
        "Integer 64": .integer64AttributeType, "Decimal": .decimalAttributeType,
        "Double": .doubleAttributeType, "Float": .floatAttributeType,
        "String": .stringAttributeType, "Boolean": .booleanAttributeType,
        "Date": .dateAttributeType, "Binary": .binaryDataAttributeType,
        "UUID": .UUIDAttributeType, "URI": .URIAttributeType,
        "Transformable": .transformableAttributeType, "Object ID": .objectIDAttributeType,
        "ObjectID": .objectIDAttributeType, "Composite": .compositeAttributeType,
        "Undefined": .undefinedAttributeType,
    ]

    /// An `<attribute>`, as a plain, derived (`derived="YES"`) or composite attribute.
    func readAttribute(_ element: XcodeXMLElement, entityName: String, compositeDepth: Int = 0) -> NSAttributeDescription {
        let name = element.string("name") ?? ""
        let label = "\(entityName).\(name)"
        let typeName = element.string("attributeType") ?? "Undefined"
        var type = Self.attributeTypes[typeName]
        if type == nil {
            warn("Attribute '\(label)' has type '\(typeName)', which Core Data does not know; it was loaded as Undefined.")
            type = .undefinedAttributeType
        }

        let attribute: NSAttributeDescription
        if element.bool("derived") {
            let derived = NSDerivedAttributeDescription()
            if let text = element.string("derivationExpression") {
                do { derived.derivationExpression = try NSExpression(validatingFormat: text, argumentArray: []) } catch {
                    warn("Derived attribute '\(label)' has derivation '\(text)', which does not parse (\(error.localizedDescription)); it has no derivation expression.")
                }
            }
            attribute = derived
        } else if type == .compositeAttributeType {
            let composite = NSCompositeAttributeDescription()
            composite.elements = compositeElements(named: element.string("composite"), for: label, depth: compositeDepth)
            attribute = composite
        } else {
            attribute = NSAttributeDescription()
        }
        attribute.name = name
        attribute.attributeType = type!
        readCommonFlags(element, into: attribute)
        attribute.valueTransformerName = element.string("valueTransformerName")
        if let className = element.string("customClassName") { attribute.attributeValueClassName = className }
        attribute.allowsExternalBinaryDataStorage = element.bool("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = element.bool("preserveAfterDeletion")
        attribute.allowsCloudEncryption = element.bool("allowsCloudEncryption")
        attribute.defaultValue = defaultValue(of: element, type: type!, label: label)
        attribute.setValidationPredicates(validationPredicates(of: element, type: type!, label: label), withValidationWarnings: [])
        return attribute
    }

    /// The flags every property kind shares.
    func readCommonFlags(_ element: XcodeXMLElement, into property: NSPropertyDescription) {
        // Absent `optional` means NO: Xcode writes optional="YES" only for optional properties.
        property.isOptional = element.bool("optional")
        property.isTransient = element.bool("transient")
        property.isIndexed = element.bool("indexed")
        property.isIndexedBySpotlight = element.bool("spotlightIndexingEnabled")
        property.renamingIdentifier = element.string("elementID")
        property.versionHashModifier = element.string("versionHashModifier")
        property.userInfo = element.userInfoEntries
    }

    /// The sub-attributes of the `<composite name>` a Composite attribute refers to.
    private func compositeElements(named compositeName: String?, for label: String, depth: Int) -> [NSAttributeDescription] {
        guard let compositeName else {
            warn("Composite attribute '\(label)' names no composite; it has no elements.")
            return []
        }
        guard let composite = compositesByName[compositeName] else {
            warn("Composite attribute '\(label)' uses composite '\(compositeName)', which is not in the model; it has no elements.")
            return []
        }
        // Composites may nest; a composite that contains itself would recurse forever.
        guard depth < 16 else {
            warn("Composite '\(compositeName)' nests more than 16 levels deep (probably contains itself); the deeper levels were left out.")
            return []
        }
        return composite.elements(forName: "attribute").map {
            readAttribute($0, entityName: "\(label)", compositeDepth: depth + 1)
        }
    }

    /// `defaultValueString` (or, for dates, `defaultDateTimeInterval`) as a value of the
    /// attribute's type — the object a new managed object starts with.
    private func defaultValue(of element: XcodeXMLElement, type: NSAttributeType, label: String) -> Any? {
        if type == .dateAttributeType, let interval = element.string("defaultDateTimeInterval").flatMap(Double.init) {
            return Date(timeIntervalSinceReferenceDate: interval)
        }
        guard let text = element.string("defaultValueString") else { return nil }
        if let value = XcodeValueParser.value(text, as: type) { return value }
        if let number = XcodeValueParser.foundationNumber(text, as: type) {
            warn("Attribute '\(label)' has default value '\(text)', which is not a valid \(XcodeValueParser.typeName(type)); it is read as \(number.stringValue), as Apple's model compiler reads it (NSString's conversion).")
            return number
        }
        warn("Attribute '\(label)' has default value '\(text)', which is not a valid \(XcodeValueParser.typeName(type)); it has no default value.")
        return nil
    }

    /// Xcode's value constraints compiled the way Apple's model compiler does: numbers and dates
    /// to `SELF >= min` / `SELF <= max`, strings to `length >= min` / `length <= max`, patterns
    /// to `SELF MATCHES "…"`. Validation turns failures of these shapes into Apple's specific
    /// codes (1610/1620 numbers, 1630/1640 dates, 1660/1670 string length, 1680 pattern).
    private func validationPredicates(of element: XcodeXMLElement, type: NSAttributeType, label: String) -> [NSPredicate] {
        var predicates: [NSPredicate] = []
        for (bound, op) in [("min", NSComparisonPredicate.Operator.greaterThanOrEqualTo), ("max", .lessThanOrEqualTo)] {
            let text = element.string("\(bound)ValueString")
            let limit: Any?
            let subject: NSExpression
            switch type {
            case .stringAttributeType:
                subject = NSExpression(forKeyPath: "length")
                limit = text.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            case .dateAttributeType:
                subject = .expressionForEvaluatedObject()
                limit = element.string("\(bound)DateTimeInterval").flatMap(Double.init).map { Date(timeIntervalSinceReferenceDate: $0) }
                    ?? text.flatMap { XcodeValueParser.value($0, as: .dateAttributeType) }
            case _ where type.isNumeric:
                subject = .expressionForEvaluatedObject()
                limit = text.flatMap { XcodeValueParser.value($0, as: type) }
            default:
                if let text { warn("Attribute '\(label)' has a \(bound)imum '\(text)', which Core Data ignores for type \(XcodeValueParser.typeName(type)).") }
                continue
            }
            guard let text = text ?? element.string("\(bound)DateTimeInterval") else { continue }
            guard let limit else {
                warn("Attribute '\(label)' has \(bound)imum '\(text)', which is not a valid \(type == .stringAttributeType ? "length" : XcodeValueParser.typeName(type)); the constraint was left out.")
                continue
            }
            predicates.append(NSComparisonPredicate(leftExpression: subject, rightExpression: NSExpression(forConstantValue: limit), modifier: .direct, type: op))
        }
        if let pattern = element.string("regularExpressionString"), !pattern.isEmpty {
            if type == .stringAttributeType {
                predicates.append(NSComparisonPredicate(leftExpression: .expressionForEvaluatedObject(), rightExpression: NSExpression(forConstantValue: pattern), modifier: .direct, type: .matches))
            } else {
                warn("Attribute '\(label)' has a regular expression but is not a String; the pattern was left out.")
            }
        }
        return predicates
    }
}
