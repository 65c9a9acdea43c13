import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Nested contexts: a child reads its parent's unsaved state and saves into the parent; only the
/// root context writes to the store.
final class ChildContextTests: XCTestCase {
    private func child(of parent: NSManagedObjectContext) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return child
    }

    private func storeCount(_ stack: TestStack, _ entity: String) throws -> Int {
        let observer = stack.newContext()
        return try observer.performAndWait { try observer.count(for: NSFetchRequest<NSManagedObject>(entityName: entity)) }
    }

    func testChildSeesTheParentsUnsavedState() throws {
        let stack = TestStack()
        let departmentID: NSManagedObjectID = stack.context.performAndWait {
            let d = stack.department("Unsaved in parent")
            return d.objectID
        }
        let child = child(of: stack.context)
        try child.performAndWait {
            let request = NSFetchRequest<Department>(entityName: "Department")
            request.predicate = NSPredicate(format: "name BEGINSWITH %@", "Unsaved")
            let found = try child.fetch(request)
            XCTAssertEqual(found.count, 1)
            XCTAssertEqual(found.first?.objectID, departmentID)
            XCTAssertEqual((child.object(with: departmentID) as! Department).name, "Unsaved in parent")
        }
    }

    func testChildSavePushesIntoTheParentNotTheStore() throws {
        let stack = TestStack()
        let departmentID: NSManagedObjectID = try stack.context.performAndWait {
            let d = stack.department("Sales")
            try stack.context.save()
            return d.objectID
        }
        let child = child(of: stack.context)
        let employeeID: NSManagedObjectID = try child.performAndWait {
            let d = child.object(with: departmentID) as! Department
            let e = stack.employee("Made in child", in: child)
            e.department = d
            d.name = "Sales (renamed in child)"
            try child.save()
            XCTAssertFalse(child.hasChanges)
            return e.objectID
        }
        XCTAssertEqual(try storeCount(stack, "Employee"), 0, "a child's save stops at the parent")
        try stack.context.performAndWait {
            let e = stack.context.object(with: employeeID) as! Employee
            XCTAssertTrue(stack.context.insertedObjects.contains(e))
            XCTAssertEqual(e.firstName, "Made in child")
            let d = stack.context.object(with: departmentID) as! Department
            XCTAssertEqual(d.name, "Sales (renamed in child)")
            XCTAssertEqual(d.employees, [e], "relationships arrive with both sides")
            try stack.context.save()
        }
        XCTAssertEqual(try storeCount(stack, "Employee"), 1)
    }

    func testChildDeletesAndFailedValidationAndRollback() throws {
        let stack = TestStack()
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("Target")
            try stack.context.save()
            return e.objectID
        }
        let child = child(of: stack.context)
        try child.performAndWait {
            let e = child.object(with: id) as! Employee
            e.salary = -10                                   // invalid
            XCTAssertThrowsError(try child.save())
            stack.context.performAndWait { XCTAssertFalse(stack.context.hasChanges, "a failed child save leaves the parent alone") }
            child.rollback()
            child.delete(e)
            try child.save()
        }
        try stack.context.performAndWait {
            XCTAssertEqual(stack.context.deletedObjects.map(\.objectID), [id])
            try stack.context.save()
        }
        XCTAssertEqual(try storeCount(stack, "Employee"), 0)
    }

    func testAutomaticallyMergesChangesFromParent() throws {
        let stack = TestStack()
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("Before")
            try stack.context.save()
            return e.objectID
        }
        let child = child(of: stack.context)
        child.automaticallyMergesChangesFromParent = true
        let mine = child.performAndWait { child.object(with: id) as! Employee }
        child.performAndWait { XCTAssertEqual(mine.firstName, "Before") }
        try stack.context.performAndWait {
            (stack.context.object(with: id) as! Employee).firstName = "After"
            try stack.context.save()
        }
        child.performAndWait { XCTAssertEqual(mine.firstName, "After", "the parent's save was merged on the child's queue") }
    }

    func testRootContextMergesSavesOfItsSiblingsWhenAsked() throws {
        let stack = TestStack()
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("One")
            try stack.context.save()
            return e.objectID
        }
        let viewLike = stack.newContext()
        viewLike.automaticallyMergesChangesFromParent = true
        let mine = viewLike.performAndWait { viewLike.object(with: id) as! Employee }
        viewLike.performAndWait { XCTAssertEqual(mine.firstName, "One") }
        try stack.context.performAndWait {
            stack.context.delete(stack.context.object(with: id))
            try stack.context.save()
        }
        // Merged as Apple merges a deletion: still registered, marked deleted.
        viewLike.performAndWait {
            XCTAssertTrue(viewLike.registeredObject(for: id) === mine)
            XCTAssertTrue(mine.isDeleted)
        }
    }

    func testMergeChangesFromRemoteContextSaveAcceptsURIs() throws {
        let stack = TestStack()
        let (id, uri): (NSManagedObjectID, URL) = try stack.context.performAndWait {
            let e = stack.employee("Remote")
            try stack.context.save()
            return (e.objectID, e.objectID.uriRepresentation())
        }
        let other = stack.newContext()
        let mine = other.performAndWait { other.object(with: id) as! Employee }
        other.performAndWait { XCTAssertEqual(mine.firstName, "Remote") }
        try stack.context.performAndWait {
            (stack.context.object(with: id) as! Employee).firstName = "Changed remotely"
            try stack.context.save()
        }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: [uri]], into: [other])
        other.performAndWait { XCTAssertEqual(mine.firstName, "Changed remotely") }
    }

    /// A child's save hands its transient values to the parent too, as Apple's does: they are
    /// part of the object's state, though no store keeps them.
    func testAChildsSaveCarriesTransientValuesToItsParent() throws {
        let stack = TestStack()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        let id = try stack.context.performAndWait { () -> NSManagedObjectID in
            let ann = stack.employee("Ann")
            try stack.context.save()
            return ann.objectID
        }
        try child.performAndWait {
            let ann = try XCTUnwrap(child.object(with: id) as? Employee)
            ann.isSelected = true
            ann.salary = 7
            try child.save()
        }
        stack.context.performAndWait {
            let ann = stack.context.object(with: id) as! Employee
            XCTAssertEqual(ann.salary, 7)
            XCTAssertTrue(ann.isSelected, "the transient value came with the save")
        }
        // A new object's transient value too.
        let newID = try child.performAndWait { () -> NSManagedObjectID in
            let bob = Employee(context: child)
            bob.firstName = "Bob"
            bob.isSelected = true
            try child.save()
            return bob.objectID
        }
        stack.context.performAndWait {
            XCTAssertTrue((stack.context.object(with: newID) as! Employee).isSelected)
        }
    }

    /// A child that merges its main-queue parent's saves does not deadlock when the main thread
    /// waits for it (`performAndWait`) while a merge is queued: the merge takes the parent's
    /// records from the save itself instead of waiting for the main queue, which is blocked.
    func testAMergingChildDoesNotDeadlockWithTheMainThreadWaitingForIt() throws {
        XCTAssertTrue(Thread.isMainThread, "the deadlock needs the main thread to wait")
        let model = CompanyModel.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let parent = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        parent.persistentStoreCoordinator = coordinator
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        child.automaticallyMergesChangesFromParent = true
        let ann = Employee(context: parent)
        ann.firstName = "Ann"
        try parent.save()
        let id = ann.objectID
        // Registered in the child and not a fault (held here: a context keeps only changed objects).
        let childAnn = child.performAndWait { () -> NSManagedObject in
            let object = child.object(with: id)
            _ = object.value(forKey: "firstName")
            return object
        }

        // Keep the child's queue busy, so the merge of the next save waits behind it.
        let gate = DispatchSemaphore(value: 0)
        child.perform { gate.wait() }
        ann.firstName = "Annie"
        try parent.save()                                   // queues the merge on the child
        // A deadlock would block this thread for good: fail loudly instead of hanging the suite.
        let finished = UncheckedFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
            if !finished.isSet {
                FileHandle.standardError.write(Data("testAMergingChildDoesNotDeadlockWithTheMainThreadWaitingForIt: deadlock\n".utf8))
                exit(1)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { gate.signal() }
        let merged = child.performAndWait { childAnn.value(forKey: "firstName") as? String }
        finished.set()
        XCTAssertEqual(merged, "Annie")
    }
}

/// A flag one thread sets and another reads.
final class UncheckedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
