import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Queue confinement: private-queue contexts working at once on one coordinator. Run under
/// Thread Sanitizer with `swift test --sanitize=thread --filter ConcurrencyTests`.
final class ConcurrencyTests: XCTestCase {
    func testSeveralPrivateQueueContextsSaveConcurrently() throws {
        let stack = TestStack()
        let workers = 4, perWorker = 50
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let context = stack.newContext()
            context.performAndWait {
                for i in 0..<perWorker {
                    let e = stack.employee("W\(worker)-\(i)", salary: Int64(i), in: context)
                    e.lastName = "worker \(worker)"
                    if i % 10 == 9 { try! context.save() }
                }
                try! context.save()
                let request = NSFetchRequest<Employee>(entityName: "Employee")
                request.predicate = NSPredicate(format: "lastName == %@", "worker \(worker)")
                XCTAssertEqual(try! context.count(for: request), perWorker)
            }
        }
        let total = try stack.context.performAndWait { try stack.context.count(for: NSFetchRequest<Employee>(entityName: "Employee")) }
        XCTAssertEqual(total, workers * perWorker)
    }

    func testObjectIDsCrossQueuesAndPerformRunsOnTheContextQueue() async throws {
        let stack = TestStack()
        let id = try await stack.context.perform {
            let e = stack.employee("Async", salary: 9)
            try stack.context.save()
            return e.objectID
        }
        let other = stack.newContext()
        let salary = await other.perform { (other.object(with: id) as! Employee).salary }
        XCTAssertEqual(salary, 9)
        let done = expectation(description: "perform")
        enqueue(on: other) {
            XCTAssertEqual((other.object(with: id) as! Employee).firstName, "Async")
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 5)
    }

    /// The callback form of perform; in an async function Swift would pick the async overload.
    private func enqueue(on context: NSManagedObjectContext, _ block: @escaping @Sendable () -> Void) {
        context.perform(block)
    }

    func testPerformAndWaitIsReentrant() {
        let stack = TestStack()
        let result = stack.context.performAndWait {
            stack.context.performAndWait { 42 }
        }
        XCTAssertEqual(result, 42)
    }

    /// A fetched object's `objectID` is made from its row's identity on each read and never
    /// written back, so several threads may read it at once, as apps do with Apple's (Thread
    /// Sanitizer reported the write-back this replaced).
    func testFetchedObjectsIDsMayBeReadFromSeveralThreads() throws {
        let stack = try TestStack(sqliteAt: makeTemporaryDirectory("ocd-ids-threads").appendingPathComponent("Company.sqlite"))
        let employees: [Employee] = try stack.context.performAndWait {
            for i in 0..<50 { _ = stack.employee("E\(i)") }
            try stack.context.save()
            stack.context.reset()
            return try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
        }
        nonisolated(unsafe) let shared = employees
        let expected = Set(employees.map(\.objectID))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            XCTAssertEqual(Set(shared.map(\.objectID)), expected)
        }
        withExtendedLifetime(stack) {}
    }
}
