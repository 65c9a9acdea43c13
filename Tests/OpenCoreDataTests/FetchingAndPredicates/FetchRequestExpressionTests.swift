import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `NSFetchRequestExpression`: an expression whose value is what a fetch request finds in a
/// context (or how many), usable on its own and inside predicates.
final class FetchRequestExpressionTests: XCTestCase {
    private func wellPaidRequest() -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
        request.predicate = NSPredicate(format: "salary > 5000")
        return request
    }

    func testTheExpressionFetchesOrCounts() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            _ = stack.employee("Low", salary: 1000)
            let high = stack.employee("High", salary: 9000)
            try stack.context.save()
            let request = NSExpression(forConstantValue: wellPaidRequest()), context = NSExpression(forConstantValue: stack.context)
            let counting = NSFetchRequestExpression.expression(forFetch: request, context: context, countOnly: true)
            XCTAssertEqual(counting.expressionType, NSFetchRequestExpressionType)
            XCTAssertEqual(counting.expressionValue(with: nil, context: nil) as? Int, 1)
            let fetching = try XCTUnwrap(NSFetchRequestExpression.expression(forFetch: request, context: context, countOnly: false) as? NSFetchRequestExpression)
            XCTAssertFalse(fetching.isCountOnlyRequest)
            XCTAssertTrue(fetching.requestExpression === request)
            XCTAssertTrue(fetching.contextExpression === context)
            XCTAssertEqual(fetching.expressionValue(with: nil, context: nil) as? [NSManagedObject], [high])
        }
    }

    /// In a predicate: employees that are among the well-paid, matched in memory.
    func testAPredicateComparesWithTheFetchedObjects() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let low = stack.employee("Low", salary: 1000), high = stack.employee("High", salary: 9000)
            try stack.context.save()
            let wellPaid = NSFetchRequestExpression.expression(forFetch: NSExpression(forConstantValue: wellPaidRequest()),
                                                               context: NSExpression(forConstantValue: stack.context), countOnly: false)
            let predicate = NSComparisonPredicate(leftExpression: NSExpression.expressionForEvaluatedObject(), rightExpression: wellPaid,
                                                  modifier: .direct, type: .in, options: [])
            XCTAssertTrue(predicate.evaluate(with: high))
            XCTAssertFalse(predicate.evaluate(with: low))
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.predicate = predicate
            XCTAssertEqual(try stack.context.fetch(request), [high])
        }
    }

    /// A SQLite store leaves the comparison to memory and still answers it.
    func testASQLiteFetchEvaluatesItInMemory() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Low", 1000, nil), ("High", 9000, nil)])
        let (_, context) = try store.open()
        try context.performAndWait {
            let count = NSFetchRequestExpression.expression(forFetch: NSExpression(forConstantValue: wellPaidRequest()),
                                                            context: NSExpression(forConstantValue: context), countOnly: true)
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.predicate = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "salary"), rightExpression: count,
                                                      modifier: .direct, type: .greaterThan, options: [])
            XCTAssertEqual(try context.fetch(request).compactMap(\.firstName).sorted(), ["High", "Low"], "both salaries exceed 1")
        }
    }

    /// Values that are not a request and a context make evaluation fail: no value, and a
    /// predicate using it does not match.
    func testValuesOfTheWrongKindFailTheEvaluation() throws {
        let stack = TestStack()
        stack.context.performAndWait {
            let wrong = NSFetchRequestExpression.expression(forFetch: NSExpression(forConstantValue: "Employee"),
                                                            context: NSExpression(forConstantValue: stack.context), countOnly: true)
            XCTAssertNil(wrong.expressionValue(with: nil, context: nil))
            let noContext = NSFetchRequestExpression.expression(forFetch: NSExpression(forConstantValue: wellPaidRequest()),
                                                                context: NSExpression(forConstantValue: 3), countOnly: true)
            XCTAssertNil(noContext.expressionValue(with: nil, context: nil))
            let predicate = NSComparisonPredicate(leftExpression: NSExpression(forConstantValue: 0), rightExpression: wrong,
                                                  modifier: .direct, type: .equalTo, options: [])
            XCTAssertFalse(predicate.evaluate(with: nil))
        }
    }
}
