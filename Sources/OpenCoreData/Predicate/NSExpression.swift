import Foundation

/// An expression in a predicate: a constant, a key path, a variable, a function call, a
/// subquery, ... Built by the format parser or by hand, evaluated against an object.
///
/// ```swift
/// let e = NSExpression(format: "salary * 12")
/// e.expressionValue(with: ["salary": 1000], context: nil) as? Int   // 12000
/// NSExpression(forKeyPath: "department.name").keyPath                 // "department.name"
/// NSExpression(forFunction: "sum:", arguments: [NSExpression(forConstantValue: [1, 2, 3])])
/// ```
///
/// Expressions are immutable trees parsed once; evaluation walks the tree without re-parsing.
/// Two expressions are equal (`==`, `isEqual`, `hash`) when their trees are equal.
///
/// Accessors for a property that does not apply to the expression's type (`keyPath` of a
/// constant, ...) return an empty value instead of raising as Apple's do.
// @unchecked Sendable: every stored property is a `let` holding an immutable tree; constants are
// values read from format arguments, which callers hand over and do not mutate afterwards.
open class NSExpression: NSObject, @unchecked Sendable {
    /// The kinds of expression, with Apple's raw values.
    public enum ExpressionType: UInt, Sendable {
        case constantValue = 0
        case evaluatedObject = 1
        case variable = 2
        case keyPath = 3
        case function = 4
        case unionSet = 5
        case intersectSet = 6
        case minusSet = 7
        case subquery = 13
        case aggregate = 14
        case anyKey = 15
        case block = 19
        case conditional = 20
        /// A fetch request run when the expression is evaluated: Core Data's
        /// `NSFetchRequestExpressionType` (an `NSFetchRequestExpression`).
        case fetchRequest = 50
    }

    /// The closure type of `init(block:arguments:)`: (evaluated object, arguments, context) -> value.
    public typealias Block = (Any?, [NSExpression], NSMutableDictionary?) -> Any

    /// The parsed tree node. Internal: the public surface is Apple's accessors.
    enum Node {
        case constant(Any?)
        case evaluatedObject
        case variable(String)
        /// A key path, applied to `operand` (nil: the evaluated object). Components are split once.
        case keyPath(operand: NSExpression?, components: [String])
        /// A built-in function by selector name (`sum:`, `add:to:`, `now`), or with `target`
        /// set, `FUNCTION(target, 'selector', args...)`.
        case function(name: String, target: NSExpression?, arguments: [NSExpression])
        case aggregate([NSExpression])
        case union(NSExpression, NSExpression)
        case intersect(NSExpression, NSExpression)
        case minus(NSExpression, NSExpression)
        case subquery(collection: NSExpression, variable: String, predicate: NSPredicate)
        case conditional(NSPredicate, NSExpression, NSExpression)
        /// `$name := value`: evaluates `value`, binds it to `name` for the rest of the evaluation.
        case assignment(variable: String, value: NSExpression)
        case block(Block, [NSExpression])
        case anyKey
    }

    final let node: Node

    init(node: Node) {
        self.node = node
        super.init()
    }

    // MARK: Creating expressions

    /// An expression parsed from `format` (the expression half of the predicate format grammar).
    /// A malformed format stops the program with a message quoting it; use
    /// ``init(validatingFormat:argumentArray:)`` to get a thrown error instead.
    public convenience init(format: String, _ args: Any...) {
        self.init(format: format, argumentArray: args)
    }

    /// An expression parsed from `format`, with `%@`/`%K`/`%d`... arguments taken from `argumentArray`.
    public convenience init(format: String, argumentArray: [Any]?) {
        do {
            try self.init(validatingFormat: format, argumentArray: argumentArray ?? [])
        } catch {
            preconditionFailure(PredicateSyntaxError.message(of: error))
        }
    }

    /// An expression parsed from `format`, throwing an `NSError` (domain `NSCocoaErrorDomain`,
    /// code 2048) that quotes the format and the failing position.
    public convenience init(validatingFormat format: String, argumentArray: [Any]) throws {
        let parsed = try PredicateParser(format: format, arguments: argumentArray).parseStandaloneExpression()
        self.init(node: parsed.node)
    }

    /// An expression that always evaluates to `value`.
    public convenience init(forConstantValue value: Any?) {
        self.init(node: .constant(KVCValueKinds.unwrap(value)))
    }

    /// An expression that reads `keyPath` from the evaluated object (`"department.name"`, `"employees.@count"`).
    public convenience init(forKeyPath keyPath: String) {
        self.init(node: .keyPath(operand: nil, components: KeyPathEvaluator.components(of: keyPath)))
    }

    /// An expression that reads the substitution variable `name` (written `$name` in formats).
    public convenience init(forVariable name: String) {
        self.init(node: .variable(name))
    }

    /// A built-in function call by selector name, for example `"sum:"`, `"add:to:"`, `"now"`,
    /// `"uppercase:"`. `arguments` are `NSExpression`s (other values become constants).
    public convenience init(forFunction name: String, arguments: [Any]) {
        self.init(node: .function(name: name, target: nil, arguments: arguments.map(NSExpression.wrap)))
    }

    /// `FUNCTION(target, 'selector', args...)`: a method call on the value of `target`. Without
    /// the Objective-C runtime only argument-less selectors answered by key-value coding
    /// (`uppercaseString`, `length`, a ``KeyValueCoding`` property...) can be evaluated.
    public convenience init(forFunction target: NSExpression, selectorName name: String, arguments: [Any]?) {
        self.init(node: .function(name: name, target: target, arguments: (arguments ?? []).map(NSExpression.wrap)))
    }

    /// A collection literal, `{a, b, c}`, evaluating to an array of its elements' values.
    public convenience init(forAggregate subexpressions: [NSExpression]) {
        self.init(node: .aggregate(subexpressions))
    }

    /// The union of two collection expressions (evaluates to a set).
    public convenience init(forUnionSet left: NSExpression, with right: NSExpression) {
        self.init(node: .union(left, right))
    }

    /// The intersection of two collection expressions (evaluates to a set).
    public convenience init(forIntersectSet left: NSExpression, with right: NSExpression) {
        self.init(node: .intersect(left, right))
    }

    /// The elements of `left` not in `right` (evaluates to a set).
    public convenience init(forMinusSet left: NSExpression, with right: NSExpression) {
        self.init(node: .minus(left, right))
    }

    /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` for which
    /// `predicate` holds with `$variable` bound to the element.
    public convenience init(forSubquery expression: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate) {
        self.init(node: .subquery(collection: expression, variable: variable, predicate: predicate))
    }

    /// `TERNARY(predicate, trueExpression, falseExpression)`.
    public convenience init(forConditional predicate: NSPredicate, trueExpression: NSExpression, falseExpression: NSExpression) {
        self.init(node: .conditional(predicate, trueExpression, falseExpression))
    }

    /// An expression computed by `block` from the evaluated object and the evaluated `arguments`.
    public convenience init(block: @escaping Block, arguments: [NSExpression]?) {
        self.init(node: .block(block, arguments ?? []))
    }

    /// `SELF`: the object being evaluated.
    open class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(node: .evaluatedObject)
    }

    /// `ANYKEY` (Spotlight): evaluating it throws, as no Linux store supports it.
    open class func expressionForAnyKey() -> NSExpression {
        NSExpression(node: .anyKey)
    }

    static func wrap(_ value: Any) -> NSExpression {
        (value as? NSExpression) ?? NSExpression(forConstantValue: value)
    }

    // MARK: Inspecting expressions

    open var expressionType: ExpressionType {
        switch node {
        case .constant: return .constantValue
        case .evaluatedObject: return .evaluatedObject
        case .variable, .assignment: return .variable
        case .keyPath: return .keyPath
        case .function: return .function
        case .aggregate: return .aggregate
        case .union: return .unionSet
        case .intersect: return .intersectSet
        case .minus: return .minusSet
        case .subquery: return .subquery
        case .conditional: return .conditional
        case .block: return .block
        case .anyKey: return .anyKey
        }
    }

    /// The value of a constant expression (nil for other kinds).
    open var constantValue: Any? {
        if case .constant(let value) = node { return value }
        return nil
    }

    /// The key path of a key-path expression (`""` for other kinds).
    open var keyPath: String {
        if case .keyPath(_, let components) = node { return components.joined(separator: ".") }
        return ""
    }

    /// The variable name of a variable or assignment expression (`""` for other kinds).
    open var variable: String {
        switch node {
        case .variable(let name), .assignment(let name, _): return name
        case .subquery(_, let name, _): return name
        default: return ""
        }
    }

    /// The selector name of a function expression (`"sum:"`, `"add:to:"`; `""` for other kinds).
    open var function: String {
        if case .function(let name, _, _) = node { return name }
        return ""
    }

    /// The arguments of a function or block expression.
    open var arguments: [NSExpression]? {
        switch node {
        case .function(_, _, let arguments), .block(_, let arguments): return arguments
        default: return nil
        }
    }

    /// The receiver: a key path's base object, a `FUNCTION(...)` target, an assignment's value
    /// (`SELF` when there is none).
    open var operand: NSExpression {
        switch node {
        case .keyPath(let operand?, _), .function(_, let operand?, _): return operand
        case .assignment(_, let value): return value
        default: return .expressionForEvaluatedObject()
        }
    }

    /// An aggregate's elements (`[NSExpression]`) or a subquery's collection expression.
    open var collection: Any {
        switch node {
        case .aggregate(let elements): return elements
        case .subquery(let collection, _, _): return collection
        default: return [NSExpression]()
        }
    }

    /// A subquery's or conditional's predicate (`TRUEPREDICATE` for other kinds).
    open var predicate: NSPredicate {
        switch node {
        case .subquery(_, _, let predicate), .conditional(let predicate, _, _): return predicate
        default: return NSPredicate(value: true)
        }
    }

    /// The left side of a set expression.
    open var left: NSExpression {
        switch node {
        case .union(let l, _), .intersect(let l, _), .minus(let l, _): return l
        default: return .expressionForEvaluatedObject()
        }
    }

    /// The right side of a set expression.
    open var right: NSExpression {
        switch node {
        case .union(_, let r), .intersect(_, let r), .minus(_, let r): return r
        default: return .expressionForEvaluatedObject()
        }
    }

    open var `true`: NSExpression {
        if case .conditional(_, let t, _) = node { return t }
        return .expressionForEvaluatedObject()
    }

    open var `false`: NSExpression {
        if case .conditional(_, _, let f) = node { return f }
        return .expressionForEvaluatedObject()
    }

    /// The block of a block expression.
    open var expressionBlock: Block {
        if case .block(let block, _) = node { return block }
        return { object, _, _ in object as Any }
    }

    // MARK: Evaluating

    /// The value of the expression for `object`. `context` supplies variables (string keys) and
    /// receives `$x := ...` assignments. Errors (unknown key, unbound variable) give nil; use
    /// ``value(with:variables:)`` to see them.
    open func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        var variables: [String: Any] = [:]
        context?.forEach { key, value in
            if let name = key as? String { variables[name] = value }
        }
        let evaluation = PredicateEvaluationContext(variables: variables, userContext: context)
        return try? evaluate(object, evaluation)
    }

    /// The value of the expression for `object`, with `$variables` bound from `variables`;
    /// throws the key-value coding or evaluation error instead of hiding it.
    public func value(with object: Any?, variables: [String: Any] = [:]) throws -> Any? {
        try evaluate(object, PredicateEvaluationContext(variables: variables, userContext: nil))
    }

    /// Whether the expression can be evaluated (Apple's secure-coding hook; always allowed here).
    open func allowEvaluation() {}

    // MARK: Equality and printing

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return self === other || ExpressionEquality.equal(self, other)
    }

    open override var hash: Int {
        var hasher = Hasher()
        ExpressionEquality.hash(self, into: &hasher)
        return hasher.finalize()
    }

    open override var description: String {
        PredicateFormatter.format(self)
    }
}
