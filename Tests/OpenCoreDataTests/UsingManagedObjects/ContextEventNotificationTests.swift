import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// When a context posts objects-did-change, as Apple's does: for `reset()` (all objects
/// invalidated), for refreshed objects, and at the end of each event — a `perform` block, or a
/// turn of the main queue for a main-queue context — without an explicit `processPendingChanges()`.
final class ContextEventNotificationTests: XCTestCase {
    private func observe(_ context: NSManagedObjectContext) -> (NotificationBox, NSObjectProtocol) {
        let box = NotificationBox()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil) { note in
            box.append(note.userInfo ?? [:])
        }
        return (box, token)
    }

    /// `reset()` invalidates every object and says so with `NSInvalidatedAllObjectsKey`.
    func testResetPostsThatAllObjectsWereInvalidated() throws {
        let stack = TestStack()
        let (box, token) = observe(stack.context)
        defer { NotificationCenter.default.removeObserver(token) }
        try stack.context.performAndWait {
            let ann = stack.employee("Ann")
            try stack.context.save()
            box.removeAll()
            stack.context.reset()
            XCTAssertEqual(box.infos.count, 1)
            let invalidated = box.infos.first?[NSInvalidatedAllObjectsKey] as? [NSManagedObject]
            XCTAssertEqual(invalidated?.contains(ann), true)
        }
    }

    /// Refreshed objects are reported under `NSRefreshedObjectsKey` when the event ends.
    func testRefreshingReportsTheRefreshedObjects() throws {
        let stack = TestStack()
        let (box, token) = observe(stack.context)
        defer { NotificationCenter.default.removeObserver(token) }
        try stack.context.performAndWait {
            let ann = stack.employee("Ann"), bob = stack.employee("Bob")
            try stack.context.save()
            box.removeAll()
            stack.context.refresh(ann, mergeChanges: true)
            stack.context.processPendingChanges()
            XCTAssertEqual(box.infos.last?[NSRefreshedObjectsKey] as? Set<NSManagedObject>, [ann])
            box.removeAll()
            _ = ann.firstName   // a fault again after the refresh: loaded, so that it is refreshed
            stack.context.refreshAllObjects()
            stack.context.processPendingChanges()
            XCTAssertEqual(box.infos.last?[NSRefreshedObjectsKey] as? Set<NSManagedObject>, [ann, bob])
        }
    }

    /// A `perform` block ends the event: its changes are posted without processPendingChanges().
    func testAPerformBlockEndsTheEvent() throws {
        let stack = TestStack()
        let (box, token) = observe(stack.context)
        defer { NotificationCenter.default.removeObserver(token) }
        let done = expectation(description: "block ran")
        stack.context.perform {
            _ = stack.employee("Ann")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        stack.context.performAndWait {}   // the queue has finished the block
        XCTAssertEqual((box.infos.first?[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.count, 1)
    }

    /// A main-queue context ends the event when the main queue finishes its current work.
    func testAMainQueueContextEndsTheEventWhenTheMainQueueTurns() throws {
        XCTAssertTrue(Thread.isMainThread)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let posted = expectation(forNotification: .NSManagedObjectContextObjectsDidChange, object: context)
        Employee(context: context).firstName = "Ann"
        wait(for: [posted], timeout: 10)   // runs the main queue
        XCTAssertTrue(context.hasChanges, "ending the event does not save")
    }
}
