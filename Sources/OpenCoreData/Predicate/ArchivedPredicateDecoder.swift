import Foundation

/// Rebuilds `NSPredicate`s, `NSExpression`s and `NSSortDescriptor`s from their
/// `NSKeyedArchiver` form, as Apple's tools store them: in compiled models (`.mom`, and the
/// `Z_MODELCACHE` of Apple's stores: fetch requests, validation predicates, derivations, partial
/// indexes) and in mapping models (a compiled `.cdm`, `valueexpressiondata` in an
/// `.xcmappingmodel`).
///
/// ```swift
/// let archive = KeyedArchiveObjects(data)!
/// let decoder = ArchivedPredicateDecoder(archive)
/// let predicate = try decoder.predicate(archive.top["root"])   // authorAlias == $FETCH_SOURCE.alias
/// ```
///
/// The archive is read as a plain property list (``KeyedArchiveObjects``), so a damaged one is a
/// thrown ``ArchivedPredicateDecoder/Failure`` that names what is wrong, never a trap. Blocks and
/// custom selectors cannot be archived by Apple either; an archive naming them is refused.
struct ArchivedPredicateDecoder {
    /// Why an archived predicate or expression can't be rebuilt; callers put it in their own error.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let archive: KeyedArchiveObjects

    init(_ archive: KeyedArchiveObjects) { self.archive = archive }

    /// Archives are trees; deeper nesting is a reference cycle in a damaged archive.
    static let maximumDepth = 64

    // MARK: Predicates

    /// The predicate `value` refers to, or nil for `$null`.
    func predicate(_ value: Any?, depth: Int = 0) throws -> NSPredicate? {
        guard let object = archive.dict(value) else { return nil }
        guard depth < Self.maximumDepth else { throw Failure("the archived predicate is nested too deeply (a reference cycle?)") }
        let className = archive.className(of: object) ?? "?"
        switch className {
        case "NSTruePredicate": return NSPredicate(value: true)
        case "NSFalsePredicate": return NSPredicate(value: false)
        case "NSCompoundPredicate":
            guard let rawType = archive.int(object["NSCompoundPredicateType"]), rawType >= 0,
                  let type = NSCompoundPredicate.LogicalType(rawValue: UInt(rawType)) else {
                throw Failure("a compound predicate of unknown type \(archive.int(object["NSCompoundPredicateType"]).map(String.init) ?? "?")")
            }
            let subpredicates = try archive.array(object["NSSubpredicates"]).map { element -> NSPredicate in
                guard let p = try predicate(element, depth: depth + 1) else { throw Failure("a compound predicate with a missing subpredicate") }
                return p
            }
            if type == .not && subpredicates.count != 1 { throw Failure("a NOT predicate with \(subpredicates.count) subpredicates") }
            return NSCompoundPredicate(type: type, subpredicates: subpredicates)
        case "NSComparisonPredicate":
            guard let lhs = try expression(object["NSLeftExpression"], depth: depth + 1),
                  let rhs = try expression(object["NSRightExpression"], depth: depth + 1) else {
                throw Failure("a comparison predicate without both expressions")
            }
            guard let op = archive.dict(object["NSPredicateOperator"]) else {
                throw Failure("a comparison predicate without an operator (a custom selector, which Linux can't call?)")
            }
            let (type, modifier, options) = try comparison(op)
            return NSComparisonPredicate(leftExpression: lhs, rightExpression: rhs, modifier: modifier, type: type, options: options)
        default:
            throw Failure("predicate class \(className) is not one Apple archives")
        }
    }

    /// An archived `NSPredicateOperator`: its type, modifier and string options.
    private func comparison(_ op: [String: Any]) throws -> (NSComparisonPredicate.Operator, NSComparisonPredicate.Modifier, NSComparisonPredicate.Options) {
        let className = archive.className(of: op) ?? "?"
        guard let rawType = archive.int(op["NSOperatorType"]), rawType >= 0,
              var type = NSComparisonPredicate.Operator(rawValue: UInt(rawType)) else {
            throw Failure("a \(className) of unknown operator type \(archive.int(op["NSOperatorType"]).map(String.init) ?? "?")")
        }
        if type == .customSelector { throw Failure("a comparison with a custom selector, which Linux has no runtime to call") }
        // `!=` is archived as the equality operator, negated.
        if type == .equalTo, archive.bool(op["NSNegate"]) == true { type = .notEqualTo }
        let rawModifier = archive.int(op["NSModifier"]) ?? 0
        guard rawModifier >= 0, let modifier = NSComparisonPredicate.Modifier(rawValue: UInt(rawModifier)) else {
            throw Failure("a comparison with unknown modifier \(rawModifier)")
        }
        // String operators keep their [cd] options under NSOptions, LIKE and IN under NSFlags.
        let rawOptions = archive.int(op["NSOptions"]) ?? archive.int(op["NSFlags"]) ?? 0
        return (type, modifier, NSComparisonPredicate.Options(rawValue: UInt(max(0, rawOptions))))
    }

    // MARK: Expressions

    /// The expression `value` refers to, or nil for `$null`.
    func expression(_ value: Any?, depth: Int = 0) throws -> NSExpression? {
        guard let object = archive.dict(value) else { return nil }
        guard depth < Self.maximumDepth else { throw Failure("the archived expression is nested too deeply (a reference cycle?)") }
        let className = archive.className(of: object) ?? "?"
        func required(_ key: String) throws -> NSExpression {
            guard let e = try expression(object[key], depth: depth + 1) else { throw Failure("a \(className) without its \(key)") }
            return e
        }
        switch archive.int(object["NSExpressionType"]) {
        case 0:
            // A class as a constant is archived by name: only the built-in functions' target,
            // `_NSPredicateUtilities`, has a meaning here (see `function`).
            if object["NSConstantValue"] == nil, let className = archive.string(object["NSConstantValueClassName"]) {
                throw Failure("a constant holding the class \(className), which OpenCoreData can't name")
            }
            return NSExpression(forConstantValue: archive.plainValue(object["NSConstantValue"]))
        case 1:
            return NSExpression.expressionForEvaluatedObject()
        case 2:
            guard let name = archive.string(object["NSVariable"]) else { throw Failure("a variable expression without a name") }
            return NSExpression(forVariable: name)
        case 3, 10:
            if let keyPath = archive.string(object["NSKeyPath"]) { return NSExpression(forKeyPath: keyPath) }
            return try function(object, className: className, depth: depth)
        case 4:
            return try function(object, className: className, depth: depth)
        case 5, 6, 7:
            let left = try required("NSLeftExpression"), right = try required("NSRightExpression")
            switch archive.int(object["NSExpressionType"]) {
            case 5: return NSExpression(forUnionSet: left, with: right)
            case 6: return NSExpression(forIntersectSet: left, with: right)
            default: return NSExpression(forMinusSet: left, with: right)
            }
        case 13:
            let collection = try required("NSExpression")
            guard let variable = archive.string(object["NSVariable"]) else { throw Failure("a subquery without its variable") }
            guard let predicate = try predicate(object["NSSubpredicate"], depth: depth + 1) else { throw Failure("a subquery without its predicate") }
            return NSExpression(forSubquery: collection, usingIteratorVariable: variable, predicate: predicate)
        case 14:
            let elements = try archive.array(object["NSCollection"]).map { element -> NSExpression in
                guard let e = try expression(element, depth: depth + 1) else { throw Failure("an aggregate with a missing element") }
                return e
            }
            return NSExpression(forAggregate: elements)
        case 15:
            return NSExpression(node: .anyKey)
        case 20:
            guard let predicate = try predicate(object["NSPredicate"], depth: depth + 1) else { throw Failure("a conditional expression without its predicate") }
            return NSExpression(forConditional: predicate, trueExpression: try required("NSTrueExpression"), falseExpression: try required("NSFalseExpression"))
        case 50:
            return try required("NSFRExpression")
        case let type:
            throw Failure("expression type \(type.map(String.init) ?? "?") (\(className)) can't be archived by Apple's framework or is not known here")
        }
    }

    /// The built-in functions Apple's predicates archive as `FUNCTION(_NSPredicateUtilities, "count:", x)`
    /// and that are written as a collection operator on a key path (`pages.@count`).
    private static let collectionOperatorFunctions: [String: String] = [
        "count:": "@count", "sum:": "@sum", "average:": "@avg", "max:": "@max", "min:": "@min",
    ]

    /// `NSFunctionExpression` and `NSKeyPathExpression`: a key path is archived as the function
    /// `valueForKey:` / `valueForKeyPath:` of its operand, with the path as a type-10 argument;
    /// a built-in function (`count:`, `now`, ...) has as its operand a constant that holds the
    /// class `_NSPredicateUtilities`, archived by name (`NSConstantValueClassName`).
    private func function(_ object: [String: Any], className: String, depth: Int) throws -> NSExpression {
        let isBuiltIn = archive.dict(object["NSOperand"]).map { archive.string($0["NSConstantValueClassName"]) == "_NSPredicateUtilities" } ?? true
        let operand = isBuiltIn ? nil : try expression(object["NSOperand"], depth: depth + 1)
        guard let selector = archive.string(object["NSSelectorName"]) else { throw Failure("a \(className) without a selector") }
        let arguments = try archive.array(object["NSArguments"]).map { argument -> NSExpression in
            guard let e = try expression(argument, depth: depth + 1) else { throw Failure("a missing argument of '\(selector)'") }
            return e
        }
        if selector == "valueForKey:" || selector == "valueForKeyPath:",
           arguments.count == 1, case .keyPath(nil, let components) = arguments[0].node {
            var base = operand
            if let operand, case .evaluatedObject = operand.node { base = nil }
            // `$source.owner.name`: the operand is itself a key path on the variable.
            if let b = base, case .keyPath(let inner, let first) = b.node { return NSExpression(node: .keyPath(operand: inner, components: first + components)) }
            return NSExpression(node: .keyPath(operand: base, components: components))
        }
        if let operand { return NSExpression(forFunction: operand, selectorName: selector, arguments: arguments) }
        // Xcode's model compiler stores the derivation `pages.@count` as `count:(pages)`; read
        // back as the key path its author wrote, which evaluates the same.
        if let op = Self.collectionOperatorFunctions[selector], arguments.count == 1,
           case .keyPath(let base, let components) = arguments[0].node, !(components.last ?? "").hasPrefix("@") {
            return NSExpression(node: .keyPath(operand: base, components: components + [op]))
        }
        return NSExpression(forFunction: selector, arguments: arguments)
    }

    // MARK: Sort descriptors

    /// An archived `NSSortDescriptor`: key, direction and comparison selector (kept by name;
    /// ``NSSortDescriptor`` performs the comparison selectors it knows).
    func sortDescriptor(_ value: Any?) -> NSSortDescriptor? {
        guard let object = archive.dict(value) else { return nil }
        let ascending = archive.bool(object["NSAscending"]) ?? true
        let key = archive.string(object["NSKey"])
        guard let selector = archive.string(object["NSSelector"]), selector != "compare:" else {
            return NSSortDescriptor(key: key, ascending: ascending)
        }
        return NSSortDescriptor(key: key, ascending: ascending, selector: Selector(selector))
    }
}
