import Foundation

/// The state of one evaluation: substitution variables, `SUBQUERY` iterator bindings and
/// `$x := ...` assignments. Created per `evaluate(with:)` call and never shared across threads.
final class PredicateEvaluationContext {
    var variables: [String: Any]
    let userContext: NSMutableDictionary?

    init(variables: [String: Any], userContext: NSMutableDictionary?) {
        self.variables = variables
        self.userContext = userContext
    }
}

/// Errors raised while evaluating a predicate or expression (unbound variable, unsupported
/// function, type mismatch). Key paths naming nothing throw ``KeyValueCodingError`` instead.
public enum PredicateEvaluationError {
    /// `NSCocoaErrorDomain` code 2048 (`NSFormattingError`), like Apple's evaluation exceptions.
    public static func make(_ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: CocoaError.formatting.rawValue, userInfo: [
            NSLocalizedDescriptionKey: message,
        ])
    }
}

extension NSExpression {
    /// Evaluates the tree. Internal hot path: no re-parsing, no boxing beyond the values themselves.
    func evaluate(_ object: Any?, _ context: PredicateEvaluationContext) throws -> Any? {
        switch node {
        case .constant(let value):
            return value
        case .evaluatedObject:
            return KVCValueKinds.unwrap(object)
        case .variable(let name):
            guard let value = context.variables[name] else {
                throw PredicateEvaluationError.make("The variable $\(name) has no value. Pass it in substitutionVariables (evaluate(with:substitutionVariables:)) or bind it with withSubstitutionVariables(_:).")
            }
            return KVCValueKinds.unwrap(value)
        case .keyPath(let operand, let components):
            let base = try operand.map { try $0.evaluate(object, context) } ?? KVCValueKinds.unwrap(object)
            return try KeyPathEvaluator.value(of: base, forKeyPathComponents: components[...])
        case .function(let name, let target, let arguments):
            if let target {
                return try ExpressionFunctions.callMethod(name, on: target.evaluate(object, context), arguments: arguments.map { try $0.evaluate(object, context) })
            }
            return try ExpressionFunctions.call(name, arguments: arguments, object: object, context: context)
        case .aggregate(let elements):
            return try elements.map { try $0.evaluate(object, context) ?? NSNull() } as [Any]
        case .union(let l, let r), .intersect(let l, let r), .minus(let l, let r):
            return try setOperation(l.evaluate(object, context), r.evaluate(object, context))
        case .subquery(let collectionExpression, let variable, let predicate):
            let value = try collectionExpression.evaluate(object, context)
            guard let (elements, _) = KVCValueKinds.collection(value) else {
                if KVCValueKinds.isNull(value) { return [Any]() }
                throw PredicateEvaluationError.make("SUBQUERY needs a collection, but \(collectionExpression) is a \(String(describing: type(of: value!))). Use a to-many key path.")
            }
            let saved = context.variables[variable]
            defer { context.variables[variable] = saved }
            var result: [Any] = []
            for element in elements {
                context.variables[variable] = element
                if try predicate.evaluate(element, context) { result.append(element) }
            }
            return result
        case .conditional(let predicate, let t, let f):
            return try predicate.evaluate(object, context) ? t.evaluate(object, context) : f.evaluate(object, context)
        case .assignment(let variable, let value):
            let result = try value.evaluate(object, context)
            context.variables[variable] = result ?? NSNull()
            context.userContext?[variable] = result ?? NSNull()
            return result
        case .block(let block, let arguments):
            let values = try arguments.map { NSExpression(forConstantValue: try $0.evaluate(object, context)) }
            let result = block(object, values, context.userContext)
            if let failure = result as? ExpressionBlockFailure { throw failure.error }
            return KVCValueKinds.unwrap(result)
        case .anyKey:
            throw PredicateEvaluationError.make("ANYKEY is a Spotlight expression; no OpenCoreData store can evaluate it. Name the key path explicitly.")
        }
    }

    private func setOperation(_ l: Any?, _ r: Any?) throws -> Any {
        func elements(_ v: Any?, side: String) throws -> [Any] {
            if KVCValueKinds.isNull(v) { return [] }
            guard let (e, _) = KVCValueKinds.collection(v) else {
                throw PredicateEvaluationError.make("The \(side) side of \(self) is not a collection. UNION, INTERSECT and MINUS need collections.")
            }
            return e
        }
        let a = try elements(l, side: "left"), b = try elements(r, side: "right")
        let result: [Any]
        switch node {
        case .union: result = KeyPathCollectionOperators.distinct(a + b)
        case .intersect: result = KeyPathCollectionOperators.distinct(a).filter { x in b.contains { ValueComparison.isEqual(x, $0, options: []) } }
        default: result = KeyPathCollectionOperators.distinct(a).filter { x in !b.contains { ValueComparison.isEqual(x, $0, options: []) } }
        }
        return KVCValueKinds.makeCollection(result, kind: .set)
    }
}

/// What a block expression built by the framework returns to fail its evaluation with `error`
/// (a block's type cannot throw): `NSFetchRequestExpression` whose fetch fails.
struct ExpressionBlockFailure {
    let error: Error
}
