import Foundation

// One `NSPredicateTranslatable` conformance per supported `PredicateExpressions` node. Each says
// what the node means in the predicate format language; where Swift's meaning and the format's
// differ, the node is refused instead (see docs/DEVIATIONS.md, "Swift-native queries").

// MARK: Values and key paths

extension PredicateExpressions.Value: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .expression(NSExpression(forConstantValue: try PredicateTranslation.constant(value)))
    }
}

extension PredicateExpressions.NilLiteral: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .expression(NSExpression(forConstantValue: nil))
    }
}

extension PredicateExpressions.Variable: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .expression(try state.expression(for: key))
    }
}

/// `count` and `isEmpty` of the to-many collections `@Managed` declares.
private protocol ToManyCollection {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Set: ToManyCollection {
    static var countKeyPath: AnyKeyPath { \Set<Element>.count }
    static var isEmptyKeyPath: AnyKeyPath { \Set<Element>.isEmpty }
}

extension Array: ToManyCollection {
    static var countKeyPath: AnyKeyPath { \[Element].count }
    static var isEmptyKeyPath: AnyKeyPath { \[Element].isEmpty }
}

extension PredicateExpressions.KeyPath: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        let base = try root.translatedExpression(&state)
        if let collection = Root.Output.self as? any ToManyCollection.Type {
            if keyPath == collection.countKeyPath { return .expression(PredicateTranslation.appending("@count", to: base)) }
            if keyPath == collection.isEmptyKeyPath {
                return .predicate(PredicateTranslation.comparison(PredicateTranslation.appending("@count", to: base), .equalTo, NSExpression(forConstantValue: 0)))
            }
        }
        if Root.Output.self == String.self || Root.Output.self == Substring.self {
            if keyPath == \String.isEmpty || keyPath == \Substring.isEmpty {
                return .predicate(PredicateTranslation.comparison(PredicateTranslation.appending("length", to: base), .equalTo, NSExpression(forConstantValue: 0)))
            }
            if keyPath == \String.count || keyPath == \Substring.count {
                throw PredicateTranslation.failure("String.count counts characters, but NSPredicate's length counts UTF-16 code units, so they differ for emoji and other composed characters. Use isEmpty, or write NSPredicate(format: \"name.length > 3\") if UTF-16 length is what you mean")
            }
        }
        let name = try KeyPathNames.resolve(keyPath).name
        return .expression(PredicateTranslation.appending(name, to: base))
    }
}

// MARK: Comparisons and logic

extension PredicateExpressions.Equal: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .predicate(PredicateTranslation.comparison(try lhs.translatedExpression(&state), .equalTo, try rhs.translatedExpression(&state)))
    }
}

extension PredicateExpressions.NotEqual: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .predicate(PredicateTranslation.comparison(try lhs.translatedExpression(&state), .notEqualTo, try rhs.translatedExpression(&state)))
    }
}

extension PredicateExpressions.Comparison: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        let type: NSComparisonPredicate.Operator
        switch op {
        case .lessThan: type = .lessThan
        case .lessThanOrEqual: type = .lessThanOrEqualTo
        case .greaterThan: type = .greaterThan
        case .greaterThanOrEqual: type = .greaterThanOrEqualTo
        }
        return .predicate(PredicateTranslation.comparison(try lhs.translatedExpression(&state), type, try rhs.translatedExpression(&state)))
    }
}

extension PredicateExpressions.Conjunction: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .predicate(PredicateTranslation.compound(.and, [try lhs.translatedPredicate(&state), try rhs.translatedPredicate(&state)]))
    }
}

extension PredicateExpressions.Disjunction: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .predicate(PredicateTranslation.compound(.or, [try lhs.translatedPredicate(&state), try rhs.translatedPredicate(&state)]))
    }
}

extension PredicateExpressions.Negation: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .predicate(NSCompoundPredicate(notPredicateWithSubpredicate: try wrapped.translatedPredicate(&state)))
    }
}

extension PredicateExpressions.Conditional: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .expression(NSExpression(forConditional: try test.translatedPredicate(&state),
                                 trueExpression: try trueBranch.translatedExpression(&state),
                                 falseExpression: try falseBranch.translatedExpression(&state)))
    }
}

// MARK: Arithmetic

extension PredicateExpressions.Arithmetic: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        let function: String
        switch op {
        case .add: function = "add:to:"
        case .subtract: function = "from:subtract:"
        case .multiply: function = "multiply:by:"
        }
        return .expression(NSExpression(forFunction: function, arguments: [try lhs.translatedExpression(&state), try rhs.translatedExpression(&state)]))
    }
}

extension PredicateExpressions.FloatDivision: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .expression(NSExpression(forFunction: "divide:by:", arguments: [try lhs.translatedExpression(&state), try rhs.translatedExpression(&state)]))
    }
}

extension PredicateExpressions.IntDivision: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        // divide:by: divides in floating point (7 / 2 is 3.5), Swift's Int division truncates.
        throw PredicateTranslation.failure("integer division (/ on integers) truncates in Swift but not in NSPredicate (7 / 2 is 3.5 there). Multiply the other side instead (a / 2 > b  →  a > b * 2 + 1), or divide Doubles")
    }
}

extension PredicateExpressions.IntRemainder: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .expression(NSExpression(forFunction: "modulus:by:", arguments: [try lhs.translatedExpression(&state), try rhs.translatedExpression(&state)]))
    }
}

extension PredicateExpressions.UnaryMinus: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .expression(NSExpression(forFunction: "from:subtract:", arguments: [NSExpression(forConstantValue: 0), try wrapped.translatedExpression(&state)]))
    }
}

// MARK: Optionals

extension PredicateExpressions.OptionalFlatMap: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        let base = try wrapped.translatedExpression(&state)
        state.bind(variable.key, to: base)
        let transformed = try transform.translatedExpression(&state)
        // `$0.department?.name`: a key path read through a nil link is nil, as in Swift. Only when
        // the transform reads on from the unwrapped value; `e.department.flatMap { _ in e.firstName }`
        // must still be nil when there is no department.
        if PredicateTranslation.isPlainKeyPath(transformed), PredicateTranslation.isKeyPath(transformed, extending: base) {
            return .expression(transformed)
        }
        // Anything else would be evaluated on nil, so guard it the way Swift does.
        let isPresent = PredicateTranslation.comparison(base, .notEqualTo, NSExpression(forConstantValue: nil))
        return .expression(NSExpression(forConditional: isPresent, trueExpression: transformed, falseExpression: NSExpression(forConstantValue: nil)))
    }
}

extension PredicateExpressions.NilCoalesce: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        let value = try lhs.translatedExpression(&state)
        let fallback = try rhs.translatedExpression(&state)
        let isPresent = PredicateTranslation.comparison(value, .notEqualTo, NSExpression(forConstantValue: nil))
        return .expression(NSExpression(forConditional: isPresent, trueExpression: value, falseExpression: fallback))
    }
}

// MARK: Collections

/// `element IN collection`, or `BETWEEN` / `>= AND <` when the collection is a constant range.
private func containment(_ element: NSExpression, in collection: some PredicateExpression, _ state: inout PredicateTranslationState) throws -> NSPredicate {
    if let range = try? collection.evaluate(PredicateBindings()), let bounds = (range as? any PredicateRangeBounds)?.predicateBounds {
        let lower = NSExpression(forConstantValue: try PredicateTranslation.constant(bounds.lower))
        let upper = NSExpression(forConstantValue: try PredicateTranslation.constant(bounds.upper))
        if bounds.closed {
            return PredicateTranslation.comparison(element, .between, NSExpression(forAggregate: [lower, upper]))
        }
        return PredicateTranslation.compound(.and, [PredicateTranslation.comparison(element, .greaterThanOrEqualTo, lower),
                                                    PredicateTranslation.comparison(element, .lessThan, upper)])
    }
    return PredicateTranslation.comparison(element, .in, try collection.translatedExpression(&state))
}

extension PredicateExpressions.SequenceContains: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .predicate(try containment(try element.translatedExpression(&state), in: sequence, &state))
    }
}

extension PredicateExpressions.RangeExpressionContains: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        let value = try element.translatedExpression(&state)
        guard (try? range.evaluate(PredicateBindings())) is any PredicateRangeBounds else {
            throw PredicateTranslation.failure("only a constant closed or half-open range (a...b, a..<b) can be tested with contains(_:)")
        }
        return .predicate(try containment(value, in: range, &state))
    }
}

extension PredicateExpressions.SequenceContainsWhere: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        // SUBQUERY(collection, $x, test).@count > 0 — what Apple's own converter produces.
        let collection = try sequence.translatedExpression(&state)
        let local = state.bindLocal(variable.key)
        let subquery = NSExpression(forSubquery: collection, usingIteratorVariable: local, predicate: try test.translatedPredicate(&state))
        return .predicate(PredicateTranslation.comparison(PredicateTranslation.appending("@count", to: subquery), .greaterThan, NSExpression(forConstantValue: 0)))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        // No element fails the test: SUBQUERY(collection, $x, NOT test).@count == 0.
        let collection = try sequence.translatedExpression(&state)
        let local = state.bindLocal(variable.key)
        let failing = NSCompoundPredicate(notPredicateWithSubpredicate: try test.translatedPredicate(&state))
        let subquery = NSExpression(forSubquery: collection, usingIteratorVariable: local, predicate: failing)
        return .predicate(PredicateTranslation.comparison(PredicateTranslation.appending("@count", to: subquery), .equalTo, NSExpression(forConstantValue: 0)))
    }
}

extension PredicateExpressions.Filter: NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        let collection = try sequence.translatedExpression(&state)
        let local = state.bindLocal(variable.key)
        return .expression(NSExpression(forSubquery: collection, usingIteratorVariable: local, predicate: try filter.translatedPredicate(&state)))
    }
}

// MARK: Strings
// `localizedStandardContains` and `caseInsensitiveCompare` have no `#Predicate` support in Linux
// Foundation (the macro reports "no member build_localizedStandardContains"), so there is
// nothing to translate for them here.

extension PredicateExpressions.CollectionContainsCollection: NSPredicateTranslatable where Base.Output: StringProtocol, Other.Output: StringProtocol {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .predicate(PredicateTranslation.comparison(try base.translatedExpression(&state), .contains, try other.translatedExpression(&state)))
    }
}

extension PredicateExpressions.SequenceStartsWith: NSPredicateTranslatable where Base.Output: StringProtocol, Prefix.Output: StringProtocol {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        .predicate(PredicateTranslation.comparison(try base.translatedExpression(&state), .beginsWith, try prefix.translatedExpression(&state)))
    }
}
