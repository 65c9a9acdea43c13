import Foundation

extension NSExpression {
    /// A copy with `$variables` named in `variables` replaced by constants; variables in
    /// `bound` (subquery iterators in scope) are kept.
    ///
    /// ```swift
    /// NSExpression(format: "$x + 1").substituting(["x": 2], bound: []).description // "2 + 1"
    /// ```
    func substituting(_ variables: [String: Any], bound: Set<String>) -> NSExpression {
        func sub(_ e: NSExpression) -> NSExpression { e.substituting(variables, bound: bound) }
        switch node {
        case .constant, .evaluatedObject, .anyKey:
            return self
        case .variable(let name):
            guard !bound.contains(name), let value = variables[name] else { return self }
            if let expression = value as? NSExpression { return expression }
            return NSExpression(forConstantValue: value)
        case .keyPath(let operand, let components):
            return NSExpression(node: .keyPath(operand: operand.map(sub), components: components))
        case .function(let name, let target, let arguments):
            return NSExpression(node: .function(name: name, target: target.map(sub), arguments: arguments.map(sub)))
        case .aggregate(let items):
            return NSExpression(node: .aggregate(items.map(sub)))
        case .union(let l, let r): return NSExpression(node: .union(sub(l), sub(r)))
        case .intersect(let l, let r): return NSExpression(node: .intersect(sub(l), sub(r)))
        case .minus(let l, let r): return NSExpression(node: .minus(sub(l), sub(r)))
        case .subquery(let collection, let variable, let predicate):
            return NSExpression(node: .subquery(collection: sub(collection), variable: variable,
                                                predicate: predicate.substituting(variables, bound: bound.union([variable]))))
        case .conditional(let p, let t, let f):
            return NSExpression(node: .conditional(p.substituting(variables, bound: bound), sub(t), sub(f)))
        case .assignment(let name, let value):
            return NSExpression(node: .assignment(variable: name, value: sub(value)))
        case .block(let block, let arguments):
            return NSExpression(node: .block(block, arguments.map(sub)))
        }
    }
}
