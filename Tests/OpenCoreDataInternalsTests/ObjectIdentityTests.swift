@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Fetched objects name their records without an `NSManagedObjectID` until one is asked for
/// (`ObjectIdentity`): the IDs they then hand out must behave as IDs always did. The public
/// behaviour is checked through Apple's API; the identity itself through `@testable`.
final class ObjectIdentityTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-identity")
    }

    private func seeded() throws -> TestStack {
        let stack = try TestStack(sqliteAt: directory.appendingPathComponent("Company.sqlite"))
        try stack.context.performAndWait {
            for name in ["Ann", "Bob", "Cat"] { _ = stack.employee(name) }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    func testAFetchedObjectsIDNamesItsRecord() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            let ann = try stack.context.fetch(request)[0]
            let id = ann.objectID
            XCTAssertEqual(ann.objectID, id, "every read names the same record")
            XCTAssertEqual(ann.objectID.hash, id.hash)
            XCTAssertFalse(id.isTemporaryID)
            XCTAssertTrue(id.persistentStore === stack.coordinator.persistentStores[0])
            XCTAssertEqual(id.entity.name, "Employee")
            XCTAssertTrue(stack.context.object(with: id) === ann, "the ID finds the registered object")
            XCTAssertTrue(try stack.context.existingObject(with: id) === ann)

            // Another context makes its own ID for the record: equal, hashing alike, same URI.
            let other = stack.newContext()
            try other.performAndWait {
                let again = try other.fetch(request)[0]
                XCTAssertFalse(again.objectID === id)
                XCTAssertEqual(again.objectID, id)
                XCTAssertEqual(again.objectID.hash, id.hash)
                XCTAssertEqual(Set([again.objectID, id]).count, 1)
                XCTAssertEqual(again.objectID.uriRepresentation(), id.uriRepresentation())
            }
        }
    }

    func testFaultsOfABatchedFetchHandOutIDsThatFindThem() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            request.fetchBatchSize = 2
            let faults = try stack.context.fetch(request)
            XCTAssertTrue(faults.allSatisfy(\.isFault))
            let ids = faults.map(\.objectID)
            XCTAssertEqual(Set(ids).count, 3)
            XCTAssertEqual(faults.map(\.firstName), ["Ann", "Bob", "Cat"], "the faults fire by batch")
            XCTAssertEqual(faults.map(\.objectID), ids, "firing keeps the IDs handed out")
            let idRequest = NSFetchRequest<NSManagedObjectID>(entityName: "Employee")
            idRequest.resultType = .managedObjectIDResultType
            XCTAssertEqual(Set(try stack.context.fetch(idRequest)), Set(ids), "the store's IDs equal the objects'")
        }
    }

    func testAnIdentityHoldsAnOriginAndKeyOrAnID() throws {
        let stack = try seeded()
        let store = stack.coordinator.persistentStores[0]
        let entity = stack.model.entitiesByName["Employee"]!
        let origin = ObjectIDOrigin(entity: entity, store: store)

        let stored = ObjectIdentity.stored(origin, primaryKey: 7)
        XCTAssertNil(stored.existingObjectID, "no ID object until asked")
        XCTAssertEqual(stored.key, NSManagedObjectID(entity: entity, store: store, primaryKey: 7).key)
        XCTAssertEqual(stored.primaryKey, 7)
        XCTAssertTrue(stored.entity === entity)
        XCTAssertTrue(stored.persistentStore === store)
        XCTAssertEqual(stored.objectID, NSManagedObjectID(entity: entity, store: store, primaryKey: 7))

        let id = NSManagedObjectID(entity: entity, store: store, primaryKey: 8)
        let held = ObjectIdentity.id(id)
        XCTAssertTrue(held.existingObjectID === id)
        XCTAssertTrue(held.objectID === id)
        XCTAssertEqual(held.key, id.key)
        XCTAssertTrue(held.names(.stored(origin, primaryKey: 8)))
        XCTAssertFalse(held.names(stored))

        // The one primary key the identity uses as its marker gets an ID object at once, so it
        // is never mistaken for one.
        let extreme = ObjectIdentity.stored(origin, primaryKey: .min)
        XCTAssertNotNil(extreme.existingObjectID)
        XCTAssertEqual(extreme.primaryKey, .min)
        XCTAssertTrue(extreme.entity === entity)
    }

    /// A new object's temporary ID is made only when asked for, and each one made names the
    /// object as the one before did: through a save that validation refuses and until a save
    /// that succeeds (which gives it its permanent one). A save the store refuses after the
    /// permanent IDs were given: CoordinatorTests (cross-store relationships).
    func testANewObjectsTemporaryIDsNameItUntilItIsSaved() throws {
        let stack = try TestStack(sqliteAt: directory.appendingPathComponent("Company.sqlite"))
        try stack.context.performAndWait {
            let e = stack.employee("New")
            let id = e.objectID
            XCTAssertTrue(id.isTemporaryID)
            XCTAssertNil(id.persistentStore)
            XCTAssertEqual(e.objectID, id)
            XCTAssertEqual(e.objectID.hash, id.hash)
            XCTAssertEqual(e.objectID.uriRepresentation(), id.uriRepresentation())
            XCTAssertTrue(stack.context.object(with: id) === e, "the temporary ID finds the new object")
            XCTAssertTrue(stack.context.registeredObject(for: id) === e)
            let other = stack.employee("Other")
            XCTAssertNotEqual(other.objectID, id, "every new object has its own temporary ID")
            XCTAssertNotEqual(other.objectID.uriRepresentation(), id.uriRepresentation())

            // Never asked for before a failed save: still temporary, still found after it.
            let quiet = stack.employee("Quiet")
            e.salary = -1  // the model refuses negative salaries
            XCTAssertThrowsError(try stack.context.save())
            XCTAssertEqual(e.objectID, id, "a failed save leaves the temporary ID")
            XCTAssertTrue(quiet.objectID.isTemporaryID)
            XCTAssertTrue(stack.context.object(with: quiet.objectID) === quiet)

            e.salary = 10
            try stack.context.save()
            XCTAssertFalse(e.objectID.isTemporaryID)
            XCTAssertNotEqual(e.objectID, id)
            XCTAssertTrue(stack.context.registeredObject(for: e.objectID) === e)
            XCTAssertNil(stack.context.registeredObject(for: id), "the temporary ID names nothing once saved")
            XCTAssertFalse(quiet.objectID.isTemporaryID)
        }
    }
}
