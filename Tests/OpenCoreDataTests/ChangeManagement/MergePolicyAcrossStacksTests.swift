import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The merge policies with two independent stacks — two coordinators on one SQLite file, as two
/// processes would have — and object URIs that resolve across them.
final class MergePolicyAcrossStacksTests: XCTestCase {
    private var directory: URL!
    private let model = CompanyModel.make()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-stacks")
    }

    /// A new stack (its own coordinator) on the shared store file.
    private func openStack() throws -> TestStack {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Company.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return TestStack(model: model, coordinator: coordinator, context: context)
    }

    private struct Outcome { let firstName: String?; let lastName: String?; let salary: Int64 }

    /// Stack A reads an employee; stack B changes salary and lastName and saves; A changes salary
    /// and firstName and saves with `policy`. Returns what a third stack reads afterwards.
    private func conflict(policy: Any) throws -> (Outcome, Error?) {
        let a = try openStack()
        let mine: Employee = try a.context.performAndWait {
            let e = a.employee("Original", salary: 1)
            try a.context.save()
            return e
        }
        let uri = a.context.performAndWait { mine.objectID.uriRepresentation() }

        let b = try openStack()
        try b.context.performAndWait {
            let id = try XCTUnwrap(b.coordinator.managedObjectID(forURIRepresentation: uri), "the URI resolves in another stack")
            let theirs = try b.context.existingObject(with: id) as! Employee
            theirs.salary = 2
            theirs.lastName = "FromStore"
            try b.context.save()
        }

        var saveError: Error?
        a.context.performAndWait {
            mine.salary = 3
            mine.firstName = "FromObject"
            a.context.mergePolicy = policy
            do { try a.context.save() } catch { saveError = error }
        }

        let c = try openStack()
        let outcome = try c.context.performAndWait {
            let e = try c.context.existingObject(with: c.coordinator.managedObjectID(forURIRepresentation: uri)!) as! Employee
            return Outcome(firstName: e.firstName, lastName: e.lastName, salary: e.salary)
        }
        return (outcome, saveError)
    }

    func testErrorPolicy() throws {
        let (o, error) = try conflict(policy: NSErrorMergePolicy)
        XCTAssertEqual((error as NSError?)?.code, NSManagedObjectMergeError)
        let list = (error as NSError?)?.userInfo["conflictList"] as? [NSMergeConflict]
        XCTAssertEqual(list?.first?.oldVersionNumber, 1)
        XCTAssertEqual(list?.first?.newVersionNumber, 2)
        XCTAssertEqual(list?.first?.persistedSnapshot?["lastName"] as? String, "FromStore")
        XCTAssertEqual(o.salary, 2); XCTAssertEqual(o.firstName, "Original")
    }

    func testStoreTrump() throws {
        let (o, error) = try conflict(policy: NSMergeByPropertyStoreTrumpMergePolicy)
        XCTAssertNil(error)
        XCTAssertEqual(o.salary, 2); XCTAssertEqual(o.lastName, "FromStore"); XCTAssertEqual(o.firstName, "FromObject")
    }

    func testObjectTrump() throws {
        let (o, error) = try conflict(policy: NSMergeByPropertyObjectTrumpMergePolicy)
        XCTAssertNil(error)
        XCTAssertEqual(o.salary, 3); XCTAssertEqual(o.lastName, "FromStore"); XCTAssertEqual(o.firstName, "FromObject")
    }

    func testOverwrite() throws {
        let (o, error) = try conflict(policy: NSOverwriteMergePolicy)
        XCTAssertNil(error)
        XCTAssertEqual(o.salary, 3); XCTAssertNil(o.lastName); XCTAssertEqual(o.firstName, "FromObject")
    }

    func testRollback() throws {
        let (o, error) = try conflict(policy: NSRollbackMergePolicy)
        XCTAssertNil(error)
        XCTAssertEqual(o.salary, 2); XCTAssertEqual(o.lastName, "FromStore"); XCTAssertEqual(o.firstName, "Original")
    }

    func testCustomPolicy() throws {
        let policy = CountingPolicy()
        let (o, error) = try conflict(policy: policy)
        XCTAssertNil(error)
        XCTAssertEqual(policy.seen, 1)
        XCTAssertEqual(o.salary, 3)
    }

    func testDeletingWhatAnotherStackDeletedIsNotAConflict() throws {
        let a = try openStack()
        let mine: Employee = try a.context.performAndWait {
            let e = a.employee("Doomed")
            try a.context.save()
            return e
        }
        let uri = a.context.performAndWait { mine.objectID.uriRepresentation() }
        let b = try openStack()
        try b.context.performAndWait {
            b.context.delete(try b.context.existingObject(with: b.coordinator.managedObjectID(forURIRepresentation: uri)!))
            try b.context.save()
        }
        try a.context.performAndWait {
            a.context.delete(mine)
            XCTAssertNoThrow(try a.context.save())
        }
    }
}
