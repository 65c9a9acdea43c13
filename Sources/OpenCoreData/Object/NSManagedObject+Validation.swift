import Foundation

// Validation, as the seeds describe it: property-level checks from the model (optionality,
// type, relationship counts, validation predicates) plus custom per-key checks, and
// inter-property checks in validateForInsert/Update/Delete. The context runs them all at save.

extension NSManagedObject {
    /// Checks `value` for the property `key` against the model and, if the object's class
    /// conforms to ``PropertyValueValidating``, its `validate(_:value:)`.
    ///
    /// The Linux form of Apple's `validateValue(_:forKey:)`: the value is `inout Any?` instead of an
    /// autoreleasing pointer. A custom validator may replace it (coercion).
    ///
    /// ```swift
    /// var value: Any? = -5
    /// try employee.validateValue(&value, forKey: "salary")   // throws NSValidationNumberTooSmallError
    /// ```
    public func validateValue(_ value: inout Any?, forKey key: String) throws {
        guard let i = layout.indexByName[key] else {
            throw KeyValueCodingError.undefinedKey(key, in: "Entity '\(entity.name ?? "?")'")
        }
        try validateModelConstraints(value, property: layout.properties[i])
        try propertyValidator?.validate(key, value: &value)
    }

    /// This object as a ``PropertyValueValidating``, if its class is one. Saving asks it of
    /// every object, so for the entity's own class the answer worked out when the model froze
    /// stands in for the dynamic cast, which only a validator pays.
    private var propertyValidator: PropertyValueValidating? {
        let layout = self.layout
        let validates = type(of: self) == layout.resolvedClass ? layout.resolvedClassValidatesProperties : self is PropertyValueValidating
        return validates ? self as? PropertyValueValidating : nil
    }

    // The overridable entry points (validateForInsert/Update/Delete) are declared in
    // NSManagedObject.swift: Swift can't override methods declared in extensions.

    func defaultValidateForInsert() throws { try validateAllProperties() }

    /// Validates every property of a changed object; override to add inter-property checks.
    func defaultValidateForUpdate() throws { try validateAllProperties() }

    func defaultValidateForDelete() throws {
        var errors: [NSError] = []
        for i in layout.relationshipIndexes {
            guard let r = layout.properties[i] as? NSRelationshipDescription, r.deleteRule == .denyDeleteRule else { continue }
            let hasRelated = r.isToMany ? readToMany(i).count > 0 : readToOne(i) != nil
            if hasRelated {
                errors.append(validationError(NSValidationRelationshipDeniedDeleteError, key: r.name, value: publicValue(slot: i),
                    "\(entity.name ?? "?") can't be deleted while its '\(r.name)' relationship (delete rule Deny) has objects. Remove them first."))
            }
        }
        if let error = NSManagedObject.combine(errors) { throw error }
    }

    /// Validates every property at save. Model constraints are checked on the stored values —
    /// no boxing — and only a ``PropertyValueValidating`` object gets each value in its public
    /// form.
    func validateAllProperties() throws {
        var errors: [NSError] = []
        let validator = propertyValidator
        let layout = self.layout
        for i in layout.kinds.indices {
            do {
                // Attributes first, from their checks: a property's description is touched (a
                // retain each) only when there is more to check than optionality and type.
                let check = layout.attributeChecks[i]
                if check.isAttribute {
                    let stored = readAttribute(i)
                    if check.hasMoreChecks || !(stored.isNull ? check.isOptional : stored.fits(check.type)),
                       case .attribute(let a) = layout.kinds[i] {
                        try validateAttribute(stored, a)
                    }
                } else if case .relationship(let r) = layout.kinds[i] {
                    try validateRelationshipCount(relatedCount(slot: i, toMany: r.isToMany), r)
                } else {
                    continue  // fetched properties are not stored
                }
                if let validator {
                    var value = publicValue(slot: i)
                    try validator.validate(layout.properties[i].name, value: &value)
                }
            } catch let error as NSError {
                if error.code == NSValidationMultipleErrorsError, let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
                    errors += details
                } else {
                    errors.append(error)
                }
            }
        }
        if let error = NSManagedObject.combine(errors) { throw error }
    }

    /// How many objects a relationship holds, without loading them.
    private func relatedCount(slot i: Int, toMany: Bool) -> Int {
        fireFaultIfNeeded()
        switch slots[i] {
        case .toMany(let related): return related.count
        case .toOne: return 1
        case .value(.objectIDs(let ids)): return ids.count
        case .value(.null): return 0
        case .value: return 1
        }
    }

    /// One error for one failure; `NSValidationMultipleErrorsError` with the failures in
    /// `NSDetailedErrorsKey` for several.
    static func combine(_ errors: [NSError]) -> NSError? {
        switch errors.count {
        case 0: return nil
        case 1: return errors[0]
        default:
            return CoreDataError.make(NSValidationMultipleErrorsError,
                "Multiple validation errors occurred: " + errors.map(\.localizedDescription).joined(separator: " "),
                [NSDetailedErrorsKey: errors])
        }
    }

    func validationError(_ code: Int, key: String, value: Any?, predicate: NSPredicate? = nil, _ message: String) -> NSError {
        var info: [String: Any] = [NSValidationObjectErrorKey: self, NSValidationKeyErrorKey: key]
        if let value { info[NSValidationValueErrorKey] = value }
        if let predicate { info[NSValidationPredicateErrorKey] = predicate }
        return CoreDataError.make(code, message, info)
    }

    /// The model's constraints on a value given in public form (`validateValue(_:forKey:)`).
    private func validateModelConstraints(_ value: Any?, property: NSPropertyDescription) throws {
        var unwrapped = value
        if let optional = value as? OptionalProtocol { unwrapped = optional.wrappedAny }
        if unwrapped is NSNull { unwrapped = nil }
        if let r = property as? NSRelationshipDescription {
            let count: Int
            switch unwrapped {
            case nil: count = 0
            case let s as Set<NSManagedObject>: count = s.count
            case let s as NSOrderedSet: count = s.count
            case let s as NSSet: count = s.count
            case let a as [Any]: count = a.count
            default: count = 1
            }
            try validateRelationshipCount(count, r)
        } else if let a = property as? NSAttributeDescription {
            try validateAttribute(StoredValue(unwrapped, for: a), a)
        }
    }

    private func validateRelationshipCount(_ count: Int, _ r: NSRelationshipDescription) throws {
        let what = "\(entity.name ?? "?").\(r.name)"
        if r.isToMany {
            if count == 0 && !r.isOptional && r.minCount == 0 {
                throw validationError(NSValidationMissingMandatoryPropertyError, key: r.name, value: nil, "\(what) is required but empty.")
            }
            if (count > 0 || !r.isOptional) && count < r.minCount {
                throw validationError(NSValidationRelationshipLacksMinimumCountError, key: r.name, value: publicValue(slot: requireSlot(r.name)), "\(what) has \(count) objects; it needs at least \(r.minCount).")
            }
            if r.maxCount > 0 && count > r.maxCount {
                throw validationError(NSValidationRelationshipExceedsMaximumCountError, key: r.name, value: publicValue(slot: requireSlot(r.name)), "\(what) has \(count) objects; at most \(r.maxCount) are allowed.")
            }
        } else if count == 0 && !r.isOptional {
            throw validationError(NSValidationMissingMandatoryPropertyError, key: r.name, value: nil, "\(what) is required. Set it before saving.")
        }
    }

    /// Optionality, type, integer range and validation predicates of one attribute value. The
    /// value is boxed only to evaluate predicates or report an error.
    /// `keyPath`: where the value is, for a composite's element (`location.latitude`).
    func validateAttribute(_ stored: StoredValue, _ a: NSAttributeDescription, keyPath: String? = nil) throws {
        let key = keyPath ?? a.name
        // Built only for a message: this runs for every attribute of every saved object.
        var what: String { "\(entity.name ?? "?").\(key)" }
        if stored.isNull {
            if !a.isOptional {
                throw validationError(NSValidationMissingMandatoryPropertyError, key: key, value: nil, "\(what) is required. Set it before saving, or make the attribute optional.")
            }
            return
        }
        guard stored.fits(a) else {
            let shown = stored.publicValue(for: a)
            throw validationError(NSManagedObjectValidationError, key: key, value: shown,
                "\(what) holds a \(shown.map { "\(type(of: $0))" } ?? "value") of the wrong type; the attribute's type is \(a.attributeValueClassName ?? "\(a.attributeType)"). Store a value of that type.")
        }
        if let composite = a as? NSCompositeAttributeDescription, case .boxed(let box) = stored {
            try validateComposite(box.value, composite, keyPath: key)
        }
        if a.attributeType == .integer16AttributeType || a.attributeType == .integer32AttributeType, case .integer(let n) = stored {
            let small = a.attributeType == .integer16AttributeType
            let range: ClosedRange<Int64> = small ? Int64(Int16.min)...Int64(Int16.max) : Int64(Int32.min)...Int64(Int32.max)
            if n > range.upperBound { throw validationError(NSValidationNumberTooLargeError, key: key, value: n, "\(what) is \(n), too large for \(small ? "Integer 16" : "Integer 32").") }
            if n < range.lowerBound { throw validationError(NSValidationNumberTooSmallError, key: key, value: n, "\(what) is \(n), too small for \(small ? "Integer 16" : "Integer 32").") }
        }
        guard !a.validationPredicates.isEmpty, let value = stored.publicValue(for: a) else { return }
        for (index, predicate) in a.validationPredicates.enumerated() {
            let warning = index < a.validationWarnings.count ? a.validationWarnings[index] : nil
            if let failure = ValidationPredicateCheck.failure(of: predicate, value: value) {
                throw validationError(failure.code, key: key, value: value, predicate: predicate,
                    warning ?? "\(what) = \(value) does not satisfy \(predicate.predicateFormat) (\(failure.reason)).")
            }
        }
    }
}

/// Evaluates a validation predicate and maps a failure to Apple's specific code: the model
/// editor writes ranges as `SELF >= 1`, lengths as `length <= 30` and patterns as
/// `SELF MATCHES "…"`, and Apple reports those as too small/large, too short/long and pattern errors.
enum ValidationPredicateCheck {
    struct Failure { let code: Int; let reason: String }

    static func failure(of predicate: NSPredicate, value: Any) -> Failure? {
        if let comparison = predicate as? NSComparisonPredicate,
           comparison.rightExpression.expressionType == .constantValue {
            let left = comparison.leftExpression
            let op = comparison.predicateOperatorType
            if left.expressionType == .keyPath, left.keyPath == "length", let s = value as? String {
                let length = s.utf16.count
                guard let limit = comparison.rightExpression.constantValue.flatMap({ NumericConversion.int64($0 as Any) }) else { return generic(predicate, value) }
                let ok = compare(Int64(length), op, limit)
                if ok { return nil }
                let tooShort = op == .greaterThan || op == .greaterThanOrEqualTo
                return Failure(code: tooShort ? NSValidationStringTooShortError : NSValidationStringTooLongError,
                               reason: tooShort ? "too short" : "too long")
            }
            if left.expressionType == .evaluatedObject {
                if op == .matches {
                    return predicate.evaluate(with: value) ? nil : Failure(code: NSValidationStringPatternMatchingError, reason: "does not match the pattern")
                }
                if [.greaterThan, .greaterThanOrEqualTo, .lessThan, .lessThanOrEqualTo].contains(op) {
                    if predicate.evaluate(with: value) { return nil }
                    let low = op == .greaterThan || op == .greaterThanOrEqualTo
                    if value is Date {
                        return Failure(code: low ? NSValidationDateTooSoonError : NSValidationDateTooLateError, reason: low ? "too early" : "too late")
                    }
                    return Failure(code: low ? NSValidationNumberTooSmallError : NSValidationNumberTooLargeError, reason: low ? "too small" : "too large")
                }
            }
        }
        return generic(predicate, value)
    }

    private static func generic(_ predicate: NSPredicate, _ value: Any) -> Failure? {
        predicate.evaluate(with: value) ? nil : Failure(code: NSManagedObjectValidationError, reason: "validation predicate failed")
    }

    private static func compare(_ a: Int64, _ op: NSComparisonPredicate.Operator, _ b: Int64) -> Bool {
        switch op {
        case .lessThan: return a < b
        case .lessThanOrEqualTo: return a <= b
        case .greaterThan: return a > b
        case .greaterThanOrEqualTo: return a >= b
        case .equalTo: return a == b
        case .notEqualTo: return a != b
        default: return true
        }
    }
}
