import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `NSAsynchronousFetchRequest` executed through `context.execute(_:)`: the result comes back at
/// once, the fetch runs afterwards on the context's queue, and the completion block gets the
/// objects (or the error, or the cancellation).
final class AsynchronousFetchTests: XCTestCase {
    private func seededStack(_ names: [String]) throws -> TestStack {
        let stack = TestStack()
        try stack.context.performAndWait {
            for name in names { _ = stack.employee(name) }
            try stack.context.save()
        }
        return stack
    }

    private func sortedRequest() -> NSFetchRequest<Employee> {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
        return request
    }

    func testTheResultsArriveInTheCompletionBlockAfterExecuteReturns() throws {
        let stack = try seededStack(["Carol", "Alice", "Bob"])
        let context = stack.context
        let done = expectation(description: "completion")
        let names = LockedBox<[String]?>(nil)
        let running: NSAsynchronousFetchResult<Employee> = try context.performAndWait {
            let asynchronous = NSAsynchronousFetchRequest(fetchRequest: sortedRequest()) { result in
                XCTAssertTrue(result.managedObjectContext === context)
                names.value = result.finalResult?.map { $0.firstName ?? "?" }
                XCTAssertNil(result.operationError)
                done.fulfill()
            }
            asynchronous.estimatedResultCount = 10
            let result = try context.execute(asynchronous) as! NSAsynchronousFetchResult<Employee>
            XCTAssertNil(result.finalResult, "the fetch runs after execute(_:) returns")
            XCTAssertEqual(result.progress?.totalUnitCount, 10, "the estimate, until the count is known")
            XCTAssertEqual(result.progress?.completedUnitCount, 0)
            XCTAssertTrue(result.fetchRequest === asynchronous)
            return result
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(names.value, ["Alice", "Bob", "Carol"])
        context.performAndWait {
            XCTAssertEqual(running.finalResult?.count, 3)
            XCTAssertEqual(running.progress?.completedUnitCount, 3)
            XCTAssertEqual(running.progress?.totalUnitCount, 3)
            XCTAssertTrue(running.finalResult!.allSatisfy { $0.managedObjectContext === context }, "registered in the context")
        }
    }

    func testCancellingBeforeTheFetchRunsDeliversTheCancellation() throws {
        let stack = try seededStack(["Alice"])
        let context = stack.context
        let done = expectation(description: "completion")
        let outcome = LockedBox<(Int?, Bool)?>(nil)
        context.performAndWait {
            let asynchronous = NSAsynchronousFetchRequest(fetchRequest: sortedRequest()) { result in
                outcome.value = ((result.operationError as NSError?)?.code, result.finalResult == nil)
                done.fulfill()
            }
            let result = try! context.execute(asynchronous) as! NSPersistentStoreAsynchronousResult
            result.cancel()   // still on the queue: the fetch has not run
            XCTAssertEqual(result.progress?.isCancelled, true)
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(outcome.value?.0, NSUserCancelledError)
        XCTAssertEqual(outcome.value?.1, true, "no results after a cancellation")
    }

    func testAFailingFetchReportsItsError() throws {
        let stack = try seededStack(["Alice"])
        let context = stack.context
        let done = expectation(description: "completion")
        let code = LockedBox<Int?>(nil)
        context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "NoSuchEntity")
            let asynchronous = NSAsynchronousFetchRequest(fetchRequest: request) { result in
                code.value = (result.operationError as NSError?)?.code
                XCTAssertNil(result.finalResult)
                done.fulfill()
            }
            _ = try! context.execute(asynchronous)
        }
        wait(for: [done], timeout: 10)
        XCTAssertNotNil(code.value, "the fetch's error arrives as operationError")
    }

    func testTheCompletionBlockPropertyTakesTheUntypedResult() throws {
        let stack = try seededStack(["Alice", "Bob"])
        let count = LockedBox<Int?>(nil)
        let asynchronous = NSAsynchronousFetchRequest(fetchRequest: sortedRequest()) { result in count.value = result.finalResult?.count }
        XCTAssertNotNil(asynchronous.completionBlock)
        XCTAssertNil(NSAsynchronousFetchRequest(fetchRequest: sortedRequest()).completionBlock)
        let done = expectation(description: "completion")
        let untyped = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")) { result in
            asynchronous.completionBlock?(result)   // Apple's Objective-C view of the same block
            done.fulfill()
        }
        try stack.context.performAndWait { _ = try stack.context.execute(untyped) }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(count.value, 2)
    }

    func testOtherRequestsAreNotExecuted() throws {
        let stack = TestStack()
        stack.context.performAndWait {
            let error = thrownError { _ = try stack.context.execute(NSFetchRequest<Employee>(entityName: "Employee")) }
            XCTAssertEqual(error?.code, NSPersistentStoreUnsupportedRequestTypeError)
        }
    }
}

/// A value written in one closure and read after a wait, behind a lock (the completion block
/// runs on the context's queue).
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
