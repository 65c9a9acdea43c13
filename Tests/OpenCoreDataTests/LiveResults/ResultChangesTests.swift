import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `context.resultChanges(for:sectionNameKeyPath:)`: a live query as an `AsyncStream`, for code
/// that uses Swift concurrency instead of a delegate (OpenCoreData's own API, not Apple's).
final class ResultChangesTests: XCTestCase {
    private func sortedRequest() -> NSFetchRequest<Employee> {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
        return request
    }

    func testTheStreamStartsWithTheResultsThenReportsEachEvent() async throws {
        let stack = TestStack()
        let context = stack.context
        let (aliceID, bobID) = try await context.perform {
            let alice = stack.employee("Alice"), bob = stack.employee("Bob")
            try context.save()
            return (alice.objectID, bob.objectID)
        }
        var changes = context.resultChanges(for: sortedRequest()).makeAsyncIterator()
        let first = await changes.next()
        XCTAssertEqual(first?.sections, [FetchedResultsChange.Section(name: "", objectIDs: [aliceID, bobID])])
        XCTAssertEqual(first?.objectChanges, [])

        // A perform block ends an event: its changes arrive as one element.
        try await context.perform {
            _ = stack.employee("Abe")
            let bob = try context.existingObject(with: bobID) as! Employee
            context.delete(bob)
        }
        let next = await changes.next()
        let second = try XCTUnwrap(next)
        XCTAssertNil(second.sections)
        XCTAssertEqual(second.objectChanges.map(\.type), [.insert, .delete])
        XCTAssertEqual(second.objectChanges[0].newIndexPath, IndexPath(item: 0, section: 0))
        XCTAssertEqual(second.objectChanges[1].objectID, bobID)
        XCTAssertEqual(second.objectChanges[1].indexPath, IndexPath(item: 1, section: 0))
    }

    func testSavesOfAnotherContextArriveThroughTheMerge() async throws {
        let stack = TestStack()
        let context = stack.context
        context.automaticallyMergesChangesFromParent = true
        try await context.perform { _ = stack.employee("Bob"); try context.save() }
        var changes = context.resultChanges(for: sortedRequest(), sectionNameKeyPath: "firstName").makeAsyncIterator()
        _ = await changes.next()
        let background = stack.newContext()
        try await background.perform {
            _ = stack.employee("Carol", in: background)
            try background.save()
        }
        let next = await changes.next()
        let change = try XCTUnwrap(next)
        XCTAssertEqual(change.sectionChanges, [FetchedResultsChange.SectionChange(name: "Carol", index: 1, type: .insert)])
        XCTAssertEqual(change.objectChanges.map(\.type), [.insert])
        XCTAssertEqual(change.objectChanges.first?.newIndexPath, IndexPath(item: 0, section: 1))
        XCTAssertFalse(change.objectChanges[0].objectID.isTemporaryID)
    }

    func testCancellingTheTaskEndsTheQuery() async throws {
        let stack = TestStack()
        let context = stack.context
        let stream = context.resultChanges(for: sortedRequest())
        let started = expectation(description: "first element")
        let task = Task {
            var count = 0
            for await _ in stream {
                count += 1
                if count == 1 { started.fulfill() }
            }
            return count
        }
        await fulfillment(of: [started], timeout: 10)
        task.cancel()
        let count = await task.value
        XCTAssertEqual(count, 1, "the loop ends when the task is cancelled")
        // Changes after the end are no longer tracked (and nothing waits for them).
        try await context.perform { _ = stack.employee("Late"); try context.save() }
    }

    func testARequestThatCannotRunEndsTheStream() async {
        let stack = TestStack()
        let unsorted = NSFetchRequest<Employee>(entityName: "Employee")
        var count = 0
        for await _ in stack.context.resultChanges(for: unsorted) { count += 1 }
        XCTAssertEqual(count, 0)
    }
}
