import Foundation

// The walk that turns a Foundation `Predicate<T>` expression tree into an `NSPredicate`.
//
// Each supported `PredicateExpressions` node type adopts `NSPredicateTranslatable` (in
// PredicateExpressionTranslations.swift). Children are translated through `translated(_:)`,
// which dispatches on the child's dynamic type, so the conformances need no constraints on
// their generic arguments. A node that is not supported is still fine when it does not depend
// on the evaluated object: it is evaluated once and becomes a constant. Anything else throws;
// the bridge never guesses.

/// What a translated node became: a value (`NSExpression`) or a condition (`NSPredicate`).
enum TranslatedNode {
    case expression(NSExpression)
    case predicate(NSPredicate)
}

/// The expressions that `Predicate` variables stand for while translating.
struct PredicateTranslationState {
    private var variables: [PredicateExpressions.VariableID: NSExpression] = [:]
    private var nextLocal = 1

    /// The state for a predicate whose input variable is `SELF`.
    init(input: PredicateExpressions.VariableID) {
        variables[input] = .expressionForEvaluatedObject()
    }

    func expression(for id: PredicateExpressions.VariableID) throws -> NSExpression {
        guard let e = variables[id] else {
            throw PredicateTranslation.failure("a closure variable is used outside the closure that binds it")
        }
        return e
    }

    mutating func bind(_ id: PredicateExpressions.VariableID, to expression: NSExpression) {
        variables[id] = expression
    }

    /// A fresh `SUBQUERY` iteration variable bound to `id` (Apple's converter also names them `_local_n`).
    mutating func bindLocal(_ id: PredicateExpressions.VariableID) -> String {
        let name = "_local_\(nextLocal)"
        nextLocal += 1
        variables[id] = NSExpression(forVariable: name)
        return name
    }
}

/// A `PredicateExpressions` node with an `NSPredicate` equivalent.
protocol NSPredicateTranslatable {
    func translate(_ state: inout PredicateTranslationState) throws -> TranslatedNode
}

extension PredicateExpression {
    /// This node translated, or folded to a constant when it does not depend on the input.
    func translated(_ state: inout PredicateTranslationState) throws -> TranslatedNode {
        // A node that does not read the input is worked out once, in Swift, so it means exactly
        // what Swift says (`-2500`, `7 / 2`, `Date.now.addingTimeInterval(60)` captured ...).
        // Evaluating with no bindings fails exactly when the node reads a variable.
        if let value = try? evaluate(PredicateBindings()), let constant = try? PredicateTranslation.constant(value) {
            return .expression(NSExpression(forConstantValue: constant))
        }
        if let node = self as? any NSPredicateTranslatable {
            return try node.translate(&state)
        }
        throw PredicateTranslation.unsupported(self)
    }

    func translatedExpression(_ state: inout PredicateTranslationState) throws -> NSExpression {
        switch try translated(&state) {
        case .expression(let e): return e
        case .predicate(let p):
            // A condition used as a value (`(a > b) == flag`): Apple's converter does the same.
            return NSExpression(forConditional: p, trueExpression: NSExpression(forConstantValue: true),
                                falseExpression: NSExpression(forConstantValue: false))
        }
    }

    func translatedPredicate(_ state: inout PredicateTranslationState) throws -> NSPredicate {
        switch try translated(&state) {
        case .predicate(let p): return p
        case .expression(let e):
            if case .constant(let value) = e.node, let flag = value as? Bool { return NSPredicate(value: flag) }
            // A Boolean value used as a condition (`$0.isSelected`).
            return NSComparisonPredicate(leftExpression: e, rightExpression: NSExpression(forConstantValue: true),
                                         modifier: .direct, type: .equalTo)
        }
    }
}

/// Helpers shared by the node translations.
enum PredicateTranslation {
    /// An `NSError` (`NSCocoaErrorDomain`, code 2048) for a predicate that cannot be translated.
    static func failure(_ reason: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: CocoaError.formatting.rawValue, userInfo: [
            NSLocalizedDescriptionKey: "Cannot translate the Predicate to an NSPredicate: \(reason).",
        ])
    }

    /// The error for a node type with no `NSPredicate` equivalent.
    static func unsupported(_ node: any PredicateExpression) -> NSError {
        failure("\(nodeName(node)) has no NSPredicate equivalent. Rewrite that part of the predicate (docs/DEVIATIONS.md lists what translates), or write it with NSPredicate(format:)")
    }

    /// `PredicateExpressions.StringCaseInsensitiveCompare` for a node of that type (generic arguments dropped).
    static func nodeName(_ node: Any) -> String {
        let full = String(describing: type(of: node))
        let base = full.prefix { $0 != "<" }
        return "PredicateExpressions." + base
    }

    /// A key path read on `base`: `SELF` + `name` is `name`, `a.b` + `c` is `a.b.c`, and
    /// anything else (a variable, a subquery, an `@count`) keeps `base` as the operand.
    static func appending(_ name: String, to base: NSExpression) -> NSExpression {
        let components = KeyPathEvaluator.components(of: name)
        switch base.node {
        case .evaluatedObject:
            return NSExpression(node: .keyPath(operand: nil, components: components))
        case .keyPath(let operand, let existing) where !existing.contains(where: { $0.hasPrefix("@") }):
            return NSExpression(node: .keyPath(operand: operand, components: existing + components))
        default:
            return NSExpression(node: .keyPath(operand: base, components: components))
        }
    }

    /// Whether `e` is a plain key path (no `@` operators): reading it through a nil link gives
    /// nil, exactly like Swift's optional chaining.
    static func isPlainKeyPath(_ e: NSExpression) -> Bool {
        guard case .keyPath(let operand, let components) = e.node, !components.contains(where: { $0.hasPrefix("@") }) else { return false }
        guard let operand else { return true }
        return isVariable(operand) || isPlainKeyPath(operand)
    }

    /// Whether `e` reads `base` and then more keys (`department.name` extends `department`), so
    /// that `e` is nil whenever `base` is.
    static func isKeyPath(_ e: NSExpression, extending base: NSExpression) -> Bool {
        guard case .keyPath(let operand, let components) = e.node else { return false }
        switch base.node {
        case .keyPath(let baseOperand, let baseComponents):
            let sameOperand = operand.map { o in baseOperand.map { o.isEqual($0) } ?? false } ?? (baseOperand == nil)
            return sameOperand && components.count > baseComponents.count && components.starts(with: baseComponents)
        case .variable:
            return operand.map { $0.isEqual(base) } ?? false
        default:
            return false
        }
    }

    private static func isVariable(_ e: NSExpression) -> Bool {
        if case .variable = e.node { return true }
        return false
    }

    static func comparison(_ lhs: NSExpression, _ type: NSComparisonPredicate.Operator, _ rhs: NSExpression,
                           _ options: NSComparisonPredicate.Options = []) -> NSPredicate {
        NSComparisonPredicate(leftExpression: lhs, rightExpression: rhs, modifier: .direct, type: type, options: options)
    }

    /// `AND`/`OR` of `parts`, with nested compounds of the same kind spliced in, so `a && b && c`
    /// prints as `a AND b AND c` rather than `(a AND b) AND c`.
    static func compound(_ type: NSCompoundPredicate.LogicalType, _ parts: [NSPredicate]) -> NSPredicate {
        var flat: [NSPredicate] = []
        for p in parts {
            if let c = p as? NSCompoundPredicate, c.compoundPredicateType == type { flat += c.predicates } else { flat.append(p) }
        }
        return NSCompoundPredicate(type: type, subpredicates: flat)
    }

    /// A Swift constant as an `NSExpression` constant value, or a thrown error for a type
    /// predicates cannot hold.
    static func constant(_ value: Any) throws -> Any? {
        guard let value = KVCValueKinds.unwrap(value) else { return nil }
        switch value {
        case is String, is Bool, is Int, is Int8, is Int16, is Int32, is Int64,
             is UInt, is UInt8, is UInt16, is UInt32, is UInt64, is Double, is Float, is Decimal,
             is Date, is Data, is UUID, is URL, is NSManagedObject, is NSManagedObjectID, is NSNull:
            return value
        case let c as Character: return String(c)
        case let s as Substring: return String(s)
        case let r as ComparisonResult: return r.rawValue
        case is any PredicateRangeBounds:
            // `(1...5).contains($0.x)` is handled by the containment nodes; a range anywhere else
            // would become the list of its elements, which is rarely meant and can be huge.
            throw failure("a range (\(type(of: value))) can only be used with contains(_:)")
        case let sequence as any Sequence:
            return try sequence.map { try constant($0) as Any }
        default:
            throw failure("the constant \(String(reflecting: value)) of type \(type(of: value)) has no NSPredicate equivalent. Compare with one of its properties that is a number, string, date, UUID, URL or data (an enum's rawValue, for example)")
        }
    }
}

/// `Range` and `ClosedRange` constants, for `contains` → `BETWEEN` / `>= AND <`.
protocol PredicateRangeBounds {
    var predicateBounds: (lower: Any, upper: Any, closed: Bool) { get }
}

extension ClosedRange: PredicateRangeBounds {
    var predicateBounds: (lower: Any, upper: Any, closed: Bool) { (lowerBound, upperBound, true) }
}

extension Range: PredicateRangeBounds {
    var predicateBounds: (lower: Any, upper: Any, closed: Bool) { (lowerBound, upperBound, false) }
}
