import Foundation

/// A computed column of a dictionary fetch: an aggregate such as `sum:(salary)` over the
/// fetched rows (or over each group of ``NSFetchRequest/propertiesToGroupBy``), under a name of
/// your choosing.
///
/// ```swift
/// let total = NSExpressionDescription()
/// total.name = "total"
/// total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "salary")])
/// total.expressionResultType = .integer64AttributeType
///
/// let request = NSFetchRequest<NSDictionary>(entityName: "Employee")
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = ["department", total]
/// request.propertiesToGroupBy = ["department"]
/// let rows = try context.fetch(request)   // [["department": <ID>, "total": 4200], ...]
/// ```
///
/// Supported expressions are a key path (the value itself, under `name`) and the functions
/// `count:`, `sum:`, `average:`, `min:` and `max:` of one key path. The value in the result is
/// converted to ``expressionResultType`` when that is a number type (integers truncate toward
/// zero, as SQLite's integer read of a real does); `.undefinedAttributeType` keeps the
/// function's own type (count: Int64, average: Double, sum: the attribute's number kind,
/// min/max: the attribute's type).
open class NSExpressionDescription: NSPropertyDescription, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then only read (like every description).

    /// What to compute.
    open var expression: NSExpression?
    /// The type of the computed value.
    open var expressionResultType: NSAttributeType = .undefinedAttributeType

    override func copyDescription() -> NSPropertyDescription {
        let copy = super.copyDescription()
        if let copy = copy as? NSExpressionDescription {
            copy.expression = expression
            copy.expressionResultType = expressionResultType
        }
        return copy
    }

    public required init() { super.init() }
}
