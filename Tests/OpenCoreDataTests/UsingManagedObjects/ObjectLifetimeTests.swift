import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Uniquing and object lifetime ("Object Lifetime Management", "Faulting and Uniquing").
final class ObjectLifetimeTests: XCTestCase {
    func testUnchangedObjectIsReleasedWhenTheAppDropsIt() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            var id: NSManagedObjectID?
            weak var weakEmployee: Employee?
            try autoreleasepoolCompat {
                let e = stack.employee("Transient")
                try stack.context.save()
                id = e.objectID
                weakEmployee = e
            }
            XCTAssertNil(weakEmployee, "the context holds unchanged objects weakly")
            XCTAssertNil(stack.context.registeredObject(for: id!))
            XCTAssertEqual(stack.context.registeredObjects.count, 0)
        }
    }

    func testAnObjectThatOutlivesItsContextHasNoContext() throws {
        let stack = TestStack()
        var kept: [Employee] = []
        try autoreleasepoolCompat {
            let context = stack.newContext()
            try context.performAndWait {
                let e = stack.employee("Kept", salary: 7, in: context)
                try context.save()
                let fetched = try context.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
                XCTAssertTrue(fetched.first === e)
                let unsaved = stack.employee("Unsaved", in: context)
                kept = [e, unsaved]
                XCTAssertTrue(kept.allSatisfy { $0.managedObjectContext === context })
            }
        }
        XCTAssertEqual(kept.count, 2)
        for e in kept { XCTAssertNil(e.managedObjectContext, "the context is gone, and nothing points at it") }
        XCTAssertEqual(kept[0].salary, 7, "a realized object keeps its values")
    }

    func testChangedObjectIsKeptUntilSave() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            weak var weakEmployee: Employee?
            autoreleasepoolCompat {
                let e = stack.employee("Pending")
                weakEmployee = e
            }
            XCTAssertNotNil(weakEmployee, "an inserted object is held strongly until saved")
            try stack.context.save()
            XCTAssertNil(weakEmployee, "after the save nothing holds it")
        }
    }

    func testUniquingGivesOneObjectPerRecord() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Unique")
            try stack.context.save()
            let fetched = try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
            XCTAssertTrue(fetched[0] === e)
            XCTAssertTrue(stack.context.object(with: e.objectID) === e)
            XCTAssertTrue(try stack.context.existingObject(with: e.objectID) === e)
            XCTAssertTrue(stack.context.registeredObject(for: e.objectID) === e)
        }
    }

    func testManagedObjectsAreEqualOnlyToThemselves() throws {
        let stack = TestStack()
        stack.context.performAndWait {
            let a = stack.employee("Twin", salary: 5)
            let b = stack.employee("Twin", salary: 5)
            XCTAssertTrue(a.isEqual(a))
            XCTAssertFalse(a.isEqual(b), "equal values do not make equal objects")
            XCTAssertFalse(a.isEqual(nil))
            XCTAssertFalse(a.isEqual("Twin"))
            XCTAssertFalse(a.isEqual(a.objectID))
            XCTAssertEqual(a.hash, a.hash)
            let set: Set<NSManagedObject> = [a, b, a]
            XCTAssertEqual(set.count, 2)
            XCTAssertEqual(stack.context.insertedObjects, [a, b])
        }
    }

    func testObjectWithIDReturnsAFaultThatFiresOnAccess() throws {
        let stack = TestStack()
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("Faulty", salary: 77)
            try stack.context.save()
            return e.objectID
        }
        let other = stack.newContext()
        other.performAndWait {
            let fault = other.object(with: id) as! Employee
            XCTAssertTrue(fault.isFault)
            XCTAssertEqual(fault.salary, 77)
            XCTAssertFalse(fault.isFault)
        }
    }

    func testExistingObjectThrowsForAMissingRecord() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Gone")
            try stack.context.save()
            let id = e.objectID
            stack.context.delete(e)
            try stack.context.save()
            XCTAssertThrowsError(try stack.context.existingObject(with: id)) { XCTAssertEqual(($0 as NSError).code, NSManagedObjectReferentialIntegrityError) }
        }
    }

    func testResetForgetsEverything() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("R")
            try stack.context.save()
            e.salary = 3
            stack.context.reset()
            XCTAssertFalse(stack.context.hasChanges)
            XCTAssertNil(e.managedObjectContext)
            XCTAssertEqual(stack.context.registeredObjects.count, 0)
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 1)
        }
    }

    func testObjectIDsAndURIs() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("U")
            let temporary = e.objectID
            XCTAssertTrue(temporary.uriRepresentation().absoluteString.hasPrefix("x-coredata:///Employee/t"))
            try stack.context.obtainPermanentIDs(for: [e])
            XCTAssertFalse(e.objectID.isTemporaryID)
            XCTAssertNotEqual(e.objectID, temporary)
            try stack.context.save()
            let uri = e.objectID.uriRepresentation()
            let storeID = stack.coordinator.persistentStores[0].identifier!
            XCTAssertEqual(uri.absoluteString, "x-coredata://\(storeID)/Employee/p1", "the first key of the Employee hierarchy")
            XCTAssertEqual(stack.coordinator.managedObjectID(forURIRepresentation: uri), e.objectID)
            XCTAssertTrue(e.objectID.persistentStore === stack.coordinator.persistentStores[0])
        }
    }

    /// With `retainsRegisteredObjects` the context keeps unchanged objects alive after the
    /// application lets them go; turning it off, or a reset, lets them go.
    func testARetainingContextKeepsItsObjectsUntilToldOtherwise() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            XCTAssertFalse(stack.context.retainsRegisteredObjects)
            stack.context.retainsRegisteredObjects = true
            var id: NSManagedObjectID?
            weak var weakEmployee: Employee?
            try autoreleasepoolCompat {
                let e = stack.employee("Kept")
                try stack.context.save()
                id = e.objectID
                weakEmployee = e
            }
            XCTAssertNotNil(weakEmployee, "the context keeps its registered objects")
            XCTAssertNotNil(stack.context.registeredObject(for: id!))
            stack.context.retainsRegisteredObjects = false
            XCTAssertNil(weakEmployee, "turned off, it lets go of objects nothing else holds")
            XCTAssertNil(stack.context.registeredObject(for: id!))

            stack.context.retainsRegisteredObjects = true
            weak var fetched: NSManagedObject?
            autoreleasepoolCompat { fetched = stack.context.object(with: id!) }
            XCTAssertNotNil(fetched)
            stack.context.reset()
            XCTAssertNil(fetched, "a reset lets go of them too")
            XCTAssertTrue(stack.context.retainsRegisteredObjects, "and leaves the setting on")
        }
    }

    /// A context keeps the application's values in `userInfo`.
    func testAContextKeepsTheApplicationsUserInfo() {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.userInfo["importer"] = "nightly"
        XCTAssertEqual(context.userInfo["importer"] as? String, "nightly")
        XCTAssertTrue(context.userInfo === context.userInfo)
    }
}
