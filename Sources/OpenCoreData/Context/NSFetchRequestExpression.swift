import Foundation

/// The kind of an ``NSFetchRequestExpression``.
public let NSFetchRequestExpressionType = NSExpression.ExpressionType.fetchRequest

/// An expression whose value is the result of a fetch: the objects (or their count) a fetch
/// request finds in a context, both given as expressions.
///
/// ```swift
/// let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
/// request.predicate = NSPredicate(format: "salary > 5000")
/// let wellPaid = NSFetchRequestExpression.expression(forFetch: NSExpression(forConstantValue: request),
///                                                    context: NSExpression(forConstantValue: context),
///                                                    countOnly: true)
/// wellPaid.expressionValue(with: nil, context: nil)   // NSNumber: how many
/// ```
///
/// The request expression must evaluate to an `NSFetchRequest`, the context expression to an
/// `NSManagedObjectContext`; the fetch runs on that context's queue. Stores evaluate it in
/// memory, after their own part of a predicate that uses it. Evaluation fails (a predicate
/// using it does not match) when the values are not a request and a context or the fetch
/// throws.
open class NSFetchRequestExpression: NSExpression, @unchecked Sendable {
    // @unchecked Sendable: like NSExpression, immutable after init.

    /// The expression that gives the fetch request.
    public let requestExpression: NSExpression
    /// The expression that gives the managed object context.
    public let contextExpression: NSExpression
    /// Whether the value is the number of matching objects rather than the objects.
    public let isCountOnlyRequest: Bool

    init(request: NSExpression, context: NSExpression, countOnly: Bool) {
        requestExpression = request
        contextExpression = context
        isCountOnlyRequest = countOnly
        super.init(node: .block({ _, arguments, _ in
            Self.fetch(request: arguments[0].constantValue, context: arguments[1].constantValue, countOnly: countOnly)
        }, [request, context]))
    }

    /// An expression that fetches with the request `fetch` gives in the context `context` gives;
    /// with `countFlag`, its value is their number (`NSNumber`).
    open class func expression(forFetch fetch: NSExpression, context: NSExpression, countOnly countFlag: Bool) -> NSExpression {
        NSFetchRequestExpression(request: fetch, context: context, countOnly: countFlag)
    }

    open override var expressionType: NSExpression.ExpressionType { .fetchRequest }

    /// The fetch's result, or an ``ExpressionBlockFailure`` saying why there is none.
    private static func fetch(request: Any?, context: Any?, countOnly: Bool) -> Any {
        guard let request = request as? FetchRequestConvertible else {
            return ExpressionBlockFailure(error: PredicateEvaluationError.make("The request expression of an NSFetchRequestExpression gave \(String(describing: request)), not an NSFetchRequest."))
        }
        guard let context = context as? NSManagedObjectContext else {
            return ExpressionBlockFailure(error: PredicateEvaluationError.make("The context expression of an NSFetchRequestExpression gave \(String(describing: context)), not an NSManagedObjectContext."))
        }
        let copy = request.resultRequestCopy()
        do {
            return try context.performAndWait { () throws -> Any in
                countOnly ? NSNumber(value: try context.count(for: copy)) : try context.fetch(copy)
            }
        } catch {
            return ExpressionBlockFailure(error: error)
        }
    }
}
