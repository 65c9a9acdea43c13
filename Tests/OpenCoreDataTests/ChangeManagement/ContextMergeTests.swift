import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Several contexts on one coordinator: saves become visible, did-save notifications merge.
final class ContextMergeTests: XCTestCase {
    func testSavedObjectsAreVisibleToAnotherContext() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let d = stack.department("Shared")
            stack.employee("One").department = d
            try stack.context.save()
        }
        let other = stack.newContext()
        try other.performAndWait {
            let d = try other.fetch(NSFetchRequest<Department>(entityName: "Department"))[0]
            XCTAssertEqual(d.name, "Shared")
            XCTAssertEqual(d.employees.map(\.firstName), ["One"])
        }
    }

    func testMergeChangesFromContextDidSave() throws {
        let stack = TestStack()
        let other = stack.newContext()
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("Before", salary: 1)
            try stack.context.save()
            return e.objectID
        }
        let mine = other.performAndWait { other.object(with: id) as! Employee }
        other.performAndWait { XCTAssertEqual(mine.firstName, "Before") }

        let box = NotificationBox()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: stack.context, queue: nil) { note in
            box.append(note.userInfo ?? [:])
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try stack.context.performAndWait {
            let e = stack.context.object(with: id) as! Employee
            e.firstName = "After"
            try stack.context.save()
        }
        let note = Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: box.infos[0])
        other.performAndWait {
            other.mergeChanges(fromContextDidSave: note)
            XCTAssertEqual(mine.firstName, "After", "updated objects are refreshed")
        }
        try stack.context.performAndWait {
            stack.context.delete(stack.context.object(with: id))
            try stack.context.save()
        }
        let deleteNote = Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: box.infos[1])
        try other.performAndWait {
            other.mergeChanges(fromContextDidSave: deleteNote)
            // As Apple's merge (FreeCoreData's tests, verified on macOS): the instance stays
            // registered with its values and is marked deleted; fetches no longer return it.
            XCTAssertTrue(other.registeredObject(for: id) === mine)
            XCTAssertTrue(mine.isDeleted)
            XCTAssertFalse(mine.isFault)
            XCTAssertEqual(mine.firstName, "After")
            XCTAssertEqual(try other.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 0)
            XCTAssertFalse(other.hasChanges, "nothing left to save")
            try other.save()
        }
    }

    func testRefreshWithoutMergeDiscardsChangesAndTurnsIntoFault() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Saved")
            try stack.context.save()
            e.firstName = "Unsaved"
            stack.context.refresh(e, mergeChanges: false)
            XCTAssertTrue(e.isFault)
            XCTAssertFalse(stack.context.hasChanges)
            XCTAssertEqual(e.firstName, "Saved")
        }
    }

    func testOptimisticLockingRejectsAStaleSave() throws {
        let stack = TestStack()
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("V1")
            try stack.context.save()
            return e.objectID
        }
        let other = stack.newContext()
        try other.performAndWait {
            let stale = try other.existingObject(with: id) as! Employee
            try stack.context.performAndWait {
                (stack.context.object(with: id) as! Employee).firstName = "V2"
                try stack.context.save()
            }
            stale.firstName = "Conflicting"
            XCTAssertThrowsError(try other.save()) { XCTAssertEqual(($0 as NSError).code, NSManagedObjectMergeError) }
        }
    }

    /// Saves a new employee named `name` in `stack`'s context; returns its ID and the save's
    /// did-save notification, as another context would receive it.
    private func saveNewEmployee(_ name: String, in stack: TestStack) throws -> (NSManagedObjectID, Notification) {
        let box = NotificationBox()
        let saved = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: stack.context, queue: nil) { box.append($0.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(saved) }
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee(name)
            try stack.context.save()
            return e.objectID
        }
        return (id, Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: box.infos[0]))
    }

    /// A merge registers the save's new objects in the other context, as Apple's does.
    func testAMergeRegistersTheSavesNewObjects() throws {
        let stack = TestStack()
        let other = stack.newContext()
        let (id, note) = try saveNewEmployee("Alice", in: stack)
        other.performAndWait {
            other.mergeChanges(fromContextDidSave: note)
            let registered = other.registeredObject(for: id)
            XCTAssertNotNil(registered)
            XCTAssertEqual(registered?.value(forKey: "firstName") as? String, "Alice")
        }
    }

    /// After merging a save, a context posts the IDs it merged (`didMergeChangesObjectIDs`),
    /// keyed as `NotificationKey` names them.
    func testAMergePostsTheMergedObjectIDs() throws {
        let stack = TestStack()
        let other = stack.newContext()
        let (id, note) = try saveNewEmployee("New", in: stack)
        let merged = NotificationBox()
        let token = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didMergeChangesObjectIDsNotification, object: other, queue: nil) { merged.append($0.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(token) }
        other.performAndWait {
            other.mergeChanges(fromContextDidSave: note)
        }
        XCTAssertEqual(merged.infos.count, 1)
        let inserted = merged.infos.first?[NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue] as? Set<NSManagedObjectID>
        XCTAssertEqual(inserted, [id])
        XCTAssertEqual(NSManagedObjectContext.NotificationKey.insertedObjects.rawValue, NSInsertedObjectsKey)
        XCTAssertEqual(NSManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue, NSInvalidatedAllObjectsKey)
        XCTAssertEqual(NSManagedObjectContext.NotificationKey.refreshedObjectIDs.rawValue, NSRefreshedObjectIDsKey)
        XCTAssertEqual(NSManagedObjectContext.NotificationKey.invalidatedObjectIDs.rawValue, NSInvalidatedObjectIDsKey)
        XCTAssertEqual(NSManagedObjectContext.didSaveObjectIDsNotification, .NSManagedObjectContextDidSaveObjectIDs)
    }
}
