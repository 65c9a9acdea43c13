import Foundation

/// Structural equality and hashing of expression trees, so that `NSPredicate(format: s)` equals
/// `NSPredicate(format: NSPredicate(format: s).predicateFormat)`.
///
/// Constants compare with ``ValueComparison`` (so `1`, `1.0` and `true` are equal constants,
/// as `NSNumber`s are); an aggregate of constants (`{1, 2}`) equals a constant array with the
/// same elements (what `%@` with an array gives), because both print as `{1, 2}`.
enum ExpressionEquality {
    static func equal(_ a: NSExpression, _ b: NSExpression) -> Bool {
        if let ca = constantElements(a), let cb = constantElements(b) {
            return ca.count == cb.count && zip(ca, cb).allSatisfy { ValueComparison.isEqual($0, $1, options: []) }
                || ValueComparison.isEqual(ca, cb, options: [])
        }
        switch (a.node, b.node) {
        case let (.constant(x), .constant(y)):
            return ValueComparison.isEqual(x, y, options: []) && sameKind(x, y)
        case (.evaluatedObject, .evaluatedObject), (.anyKey, .anyKey):
            return true
        case let (.variable(x), .variable(y)):
            return x == y
        case let (.keyPath(o1, c1), .keyPath(o2, c2)):
            return c1 == c2 && optionalEqual(o1, o2)
        case let (.function(n1, t1, a1), .function(n2, t2, a2)):
            return n1 == n2 && optionalEqual(t1, t2) && listEqual(a1, a2)
        case let (.aggregate(x), .aggregate(y)):
            return listEqual(x, y)
        case let (.union(l1, r1), .union(l2, r2)), let (.intersect(l1, r1), .intersect(l2, r2)), let (.minus(l1, r1), .minus(l2, r2)):
            return l1.isEqual(l2) && r1.isEqual(r2)
        case let (.subquery(c1, v1, p1), .subquery(c2, v2, p2)):
            return v1 == v2 && c1.isEqual(c2) && p1.isEqual(p2)
        case let (.conditional(p1, t1, f1), .conditional(p2, t2, f2)):
            return p1.isEqual(p2) && t1.isEqual(t2) && f1.isEqual(f2)
        case let (.assignment(v1, e1), .assignment(v2, e2)):
            return v1 == v2 && e1.isEqual(e2)
        default:
            return false
        }
    }

    static func hash(_ e: NSExpression, into hasher: inout Hasher) {
        if let elements = constantElements(e) {
            hasher.combine(100)
            hasher.combine(elements.count)
            return
        }
        hasher.combine(e.expressionType)
        switch e.node {
        case .constant(let value):
            if let value, let key = ValueComparison.hashKey(value) { hasher.combine(key) }
        case .variable(let name), .assignment(let name, _): hasher.combine(name)
        case .keyPath(_, let components): hasher.combine(components)
        case .function(let name, _, let arguments):
            hasher.combine(name)
            for a in arguments { hasher.combine(a.hash) }
        case .subquery(_, let variable, let predicate):
            hasher.combine(variable)
            hasher.combine(predicate.hash)
        default: break
        }
    }

    /// Dates, strings, numbers... must also agree on kind: the string "1" is not the number 1
    /// (isEqual already says so), and a Date is not its reference-date seconds.
    private static func sameKind(_ x: Any?, _ y: Any?) -> Bool {
        (x is Date) == (y is Date)
    }

    /// The element values of a constant collection or of an aggregate made only of constants.
    private static func constantElements(_ e: NSExpression) -> [Any?]? {
        switch e.node {
        case .constant(let value):
            guard let (elements, _) = KVCValueKinds.collection(value) else { return nil }
            return elements
        case .aggregate(let items):
            var values: [Any?] = []
            for item in items {
                guard case .constant(let v) = item.node else { return nil }
                values.append(v)
            }
            return values
        default:
            return nil
        }
    }

    private static func optionalEqual(_ a: NSExpression?, _ b: NSExpression?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?): return x.isEqual(y)
        default: return false
        }
    }

    private static func listEqual(_ a: [NSExpression], _ b: [NSExpression]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isEqual($1) }
    }
}
