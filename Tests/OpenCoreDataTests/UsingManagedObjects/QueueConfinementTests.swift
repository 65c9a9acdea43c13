@testable import OpenCoreData
import XCTest

/// The queue check behind the debug-build precondition ("used off its queue"). The precondition
/// itself would end the test process, so this tests what it relies on.
final class QueueConfinementTests: XCTestCase {
    func testPrivateQueueContextKnowsWhenItIsOnItsQueue() {
        let stack = TestStack()
        XCTAssertFalse(stack.context.isOnQueue, "the test thread is not the context's queue")
        stack.context.performAndWait { XCTAssertTrue(stack.context.isOnQueue) }
        let other = stack.newContext()
        stack.context.performAndWait {
            XCTAssertFalse(other.isOnQueue, "one context's queue is not another's")
            other.performAndWait { XCTAssertTrue(other.isOnQueue) }
        }
        let done = expectation(description: "perform")
        stack.context.perform {
            XCTAssertTrue(stack.context.isOnQueue)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }

    func testMainQueueContextIsOnItsQueueOnTheMainThread() {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertTrue(context.isOnQueue)
        let done = expectation(description: "background")
        DispatchQueue.global().async {
            XCTAssertFalse(context.isOnQueue)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }
}
