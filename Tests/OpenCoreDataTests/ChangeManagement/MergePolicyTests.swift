import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Optimistic locking and the five merge policies on one conflict (seed 003, "Change Management"):
/// the store changed `salary` and `lastName`; this context changed `salary` and `firstName`.
final class MergePolicyTests: XCTestCase {
    private struct Outcome { let firstName: String?; let lastName: String?; let salary: Int64 }

    /// Saves an employee, changes it from a second context, then saves a conflicting change from
    /// the first with `policy`; returns what the store holds afterwards.
    private func conflict(policy: Any, file: StaticString = #filePath, line: UInt = #line) throws -> (Outcome, Error?) {
        let stack = TestStack()
        // Held (and so loaded) in the first context, as an app editing it would.
        let mine: Employee = try stack.context.performAndWait {
            let e = stack.employee("Original", salary: 1)
            try stack.context.save()
            return e
        }
        let id = stack.context.performAndWait { mine.objectID }
        let store = stack.newContext()
        try store.performAndWait {
            let e = store.object(with: id) as! Employee
            e.salary = 2
            e.lastName = "FromStore"
            try store.save()
        }
        var saveError: Error?
        stack.context.performAndWait {
            let e = mine
            e.salary = 3
            e.firstName = "FromObject"
            stack.context.mergePolicy = policy
            do { try stack.context.save() } catch { saveError = error }
        }
        let check = stack.newContext()
        let outcome = try check.performAndWait {
            let e = try check.existingObject(with: id) as! Employee
            return Outcome(firstName: e.firstName, lastName: e.lastName, salary: e.salary)
        }
        return (outcome, saveError)
    }

    func testErrorPolicyFailsWithAConflictList() throws {
        let (outcome, error) = try conflict(policy: NSErrorMergePolicy)
        let nsError = try XCTUnwrap(error as NSError?)
        XCTAssertEqual(nsError.code, NSManagedObjectMergeError)
        let list = try XCTUnwrap(nsError.userInfo["conflictList"] as? [NSMergeConflict])
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list[0].oldVersionNumber, 1)
        XCTAssertEqual(list[0].newVersionNumber, 2)
        XCTAssertEqual(list[0].cachedSnapshot?["salary"] as? Int, 1)
        XCTAssertEqual(list[0].persistedSnapshot?["salary"] as? Int, 2)
        XCTAssertEqual(list[0].objectSnapshot?["salary"] as? Int, 3)
        XCTAssertEqual(outcome.salary, 2, "nothing of the failed save reached the store")
        XCTAssertEqual(outcome.firstName, "Original")
    }

    func testStoreTrumpKeepsTheStoresChangesAndMyOtherChanges() throws {
        let (o, error) = try conflict(policy: NSMergeByPropertyStoreTrumpMergePolicy)
        XCTAssertNil(error)
        XCTAssertEqual(o.salary, 2); XCTAssertEqual(o.lastName, "FromStore"); XCTAssertEqual(o.firstName, "FromObject")
    }

    func testObjectTrumpKeepsMyChangesAndTheStoresOtherChanges() throws {
        let (o, error) = try conflict(policy: NSMergeByPropertyObjectTrumpMergePolicy)
        XCTAssertNil(error)
        XCTAssertEqual(o.salary, 3); XCTAssertEqual(o.lastName, "FromStore"); XCTAssertEqual(o.firstName, "FromObject")
    }

    func testOverwriteWritesMyWholeState() throws {
        let (o, error) = try conflict(policy: NSOverwriteMergePolicy)
        XCTAssertNil(error)
        XCTAssertEqual(o.salary, 3); XCTAssertNil(o.lastName); XCTAssertEqual(o.firstName, "FromObject")
    }

    func testRollbackDiscardsMyChanges() throws {
        let (o, error) = try conflict(policy: NSRollbackMergePolicy)
        XCTAssertNil(error)
        XCTAssertEqual(o.salary, 2); XCTAssertEqual(o.lastName, "FromStore"); XCTAssertEqual(o.firstName, "Original")
    }

    func testCustomPolicySeesTheConflictsAndDelegates() throws {
        let policy = CountingPolicy()
        let (o, error) = try conflict(policy: policy)
        XCTAssertNil(error)
        XCTAssertEqual(policy.seen, 1)
        XCTAssertEqual(o.salary, 3, "super applied object-trump")
    }

    func testDetectConflictsLocksAnUnchangedObject() throws {
        let stack = TestStack()
        let (department, employee): (Department, Employee) = try stack.context.performAndWait {
            let d = stack.department("Budget holder"), e = stack.employee("Spender")
            try stack.context.save()
            return (d, e)
        }
        // Another context raises the department's budget; this context, which read the budget,
        // gives the employee a raise and asks Core Data to check the department too.
        let other = stack.newContext()
        let theirs: Department = try other.performAndWait {
            let d = try other.existingObject(with: department.objectID) as! Department
            d.budget = 10
            try other.save()
            return d
        }
        try stack.context.performAndWait {
            stack.context.detectConflicts(for: department)
            employee.salary = 2000
            XCTAssertThrowsError(try stack.context.save()) { error in
                let list = (error as NSError).userInfo["conflictList"] as? [NSMergeConflict]
                XCTAssertEqual(list?.map(\.sourceObject), [department])
            }
            stack.context.refresh(department, mergeChanges: true)
            stack.context.detectConflicts(for: department)
            try stack.context.save()
        }
        // The locked save bumped the department's version: a stale writer now conflicts.
        try other.performAndWait {
            theirs.budget = 20
            XCTAssertThrowsError(try other.save()) { XCTAssertEqual(($0 as NSError).code, NSManagedObjectMergeError) }
        }
    }

    func testDeletingWhatAnotherContextDeletedIsNotAConflict() throws {
        let stack = TestStack()
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("Doomed")
            try stack.context.save()
            return e.objectID
        }
        let other = stack.newContext()
        try other.performAndWait {
            let e = try other.existingObject(with: id)
            try stack.context.performAndWait {
                stack.context.delete(stack.context.object(with: id))
                try stack.context.save()
            }
            other.delete(e)
            XCTAssertNoThrow(try other.save())
        }
    }

    /// The policy kinds have Apple's values, the shared policies are `NSMergePolicy` objects of
    /// their kind, and a context takes them as its `mergePolicy`.
    func testPolicyTypesAndSharedPolicies() {
        let kinds: [(NSMergePolicyType, UInt, AnyObject)] = [
            (.errorMergePolicyType, 0, NSErrorMergePolicy),
            (.mergeByPropertyStoreTrumpMergePolicyType, 1, NSMergeByPropertyStoreTrumpMergePolicy),
            (.mergeByPropertyObjectTrumpMergePolicyType, 2, NSMergeByPropertyObjectTrumpMergePolicy),
            (.overwriteMergePolicyType, 3, NSOverwriteMergePolicy),
            (.rollbackMergePolicyType, 4, NSRollbackMergePolicy),
        ]
        for (kind, raw, shared) in kinds {
            XCTAssertEqual(kind.rawValue, raw)
            XCTAssertEqual(NSMergePolicyType(rawValue: raw), kind)
            XCTAssertEqual((shared as? NSMergePolicy)?.mergeType, kind)
            XCTAssertEqual(NSMergePolicy(merge: kind).mergeType, kind)
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.mergePolicy = NSRollbackMergePolicy
        XCTAssertTrue(context.mergePolicy as AnyObject === NSRollbackMergePolicy)
    }

}

final class CountingPolicy: NSMergePolicy, @unchecked Sendable {
    var seen = 0
    init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }
    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        seen += list.count
        try super.resolve(optimisticLockingConflicts: list)
    }
}

/// Optimistic locking on objects whose values this context never read: a fault from
/// `object(with:)`, one `refresh(_:mergeChanges: false)` emptied, the faults of a fetch (batched
/// or not). Deleting one must not fail with 133020 because the fault's version was never set;
/// the record's version is the one the context would read. A record another context changed
/// after this context read it is still a conflict. The model is one entity without
/// relationships or constraints, so no delete rule fires the fault before the save.
final class FaultDeletionLockingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-faultdelete")
    }

    private lazy var model: NSManagedObjectModel = {
        let note = NSEntityDescription(name: "Note", className: nil)
        let text = NSAttributeDescription(name: "text", type: .stringAttributeType)
        let revision = NSAttributeDescription(name: "revision", type: .integer64AttributeType)
        revision.defaultValue = 0
        note.properties = [text, revision]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }()

    /// A coordinator on a store of `type` (SQLite: one file per test, shared by every coordinator).
    private func coordinator(_ type: String) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: type, configurationName: nil,
                                           at: type == NSSQLiteStoreType ? directory.appendingPathComponent("Notes.sqlite") : nil)
        return coordinator
    }

    /// Inserts `count` notes and saves each of them `saves` times; returns their IDs.
    private func insertNotes(_ count: Int, saves: Int, in context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        try context.performAndWait {
            let notes = (0..<count).map { i -> NSManagedObject in
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                note.setValue("note \(i)", forKey: "text")
                return note
            }
            for revision in 0..<saves {
                for note in notes { note.setValue(revision, forKey: "revision") }
                try context.save()
            }
            return notes.map(\.objectID)
        }
    }

    private func noteCount(_ coordinator: NSPersistentStoreCoordinator) throws -> Int {
        let check = newContext(coordinator)
        return try check.performAndWait { try check.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) }
    }

    func testDeletingAFaultFromObjectWithAfterSeveralSavesIsNotAConflict() throws {
        for type in [NSInMemoryStoreType, NSSQLiteStoreType] {
            let coordinator = try coordinator(type)
            let context = newContext(coordinator)
            try context.performAndWait {
                // Saved three times (version 3), then released: the identity map does not keep it.
                let id = try insertNotes(1, saves: 3, in: context)[0]
                let fault = context.object(with: id)
                XCTAssertTrue(fault.isFault, type)
                context.delete(fault)
                XCTAssertNoThrow(try context.save(), type)
            }
            XCTAssertEqual(try noteCount(coordinator), 0, type)
        }
    }

    func testDeletingARefreshedObjectAfterAnotherSaveIsNotAConflict() throws {
        for type in [NSInMemoryStoreType, NSSQLiteStoreType] {
            let coordinator = try coordinator(type)
            let mine = newContext(coordinator), theirs = newContext(coordinator)
            let id = try insertNotes(1, saves: 1, in: mine)[0]
            let note = try mine.performAndWait {
                let note = try mine.existingObject(with: id)
                XCTAssertEqual(note.value(forKey: "text") as? String, "note 0")
                mine.refresh(note, mergeChanges: false)   // values (and their version) dropped
                return note
            }
            try theirs.performAndWait {
                try theirs.existingObject(with: id).setValue(7, forKey: "revision")
                try theirs.save()
            }
            try mine.performAndWait {
                XCTAssertTrue(note.isFault, type)
                mine.delete(note)
                XCTAssertNoThrow(try mine.save(), type)
            }
            XCTAssertEqual(try noteCount(coordinator), 0, type)
        }
    }

    /// A fetch's faults: plain (holding their cached rows), batched (`fetchBatchSize`: IDs only
    /// until a batch loads) and lazily batched (`fetchBatched`).
    func testDeletingFetchedFaultsIsNotAConflict() throws {
        for (batchSize, lazily) in [(0, false), (2, false), (2, true)] {
            let label = "batch size \(batchSize)\(lazily ? ", fetchBatched" : "")"
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("Notes.sqlite"))
            let coordinator = try coordinator(NSSQLiteStoreType)
            _ = try insertNotes(5, saves: 2, in: newContext(coordinator))
            let context = newContext(coordinator)
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
                request.fetchBatchSize = batchSize
                let notes = lazily ? Array(try context.fetchBatched(request)) : try context.fetch(request)
                XCTAssertEqual(notes.count, 5, label)
                XCTAssertTrue(notes.allSatisfy(\.isFault), label)
                for note in notes { context.delete(note) }
                XCTAssertNoThrow(try context.save(), label)
            }
            XCTAssertEqual(try noteCount(coordinator), 0, label)
        }
    }

    /// Genuine conflicts stay conflicts: an object read here, then changed and saved by another
    /// context; and a fetched fault whose snapshot is older than a save by another coordinator
    /// on the same SQLite file (this coordinator's cache still holds the old row).
    func testDeletingWhatChangedSinceThisContextReadItIsAConflict() throws {
        for type in [NSInMemoryStoreType, NSSQLiteStoreType] {
            let coordinator = try coordinator(type)
            let mine = newContext(coordinator), theirs = newContext(coordinator)
            let id = try insertNotes(1, saves: 2, in: mine)[0]
            let note = try mine.performAndWait {
                let note = try mine.existingObject(with: id)
                _ = note.value(forKey: "text")
                return note
            }
            try theirs.performAndWait {
                try theirs.existingObject(with: id).setValue(9, forKey: "revision")
                try theirs.save()
            }
            mine.performAndWait {
                mine.delete(note)
                XCTAssertEqual(thrownError { try mine.save() }?.code, NSManagedObjectMergeError, type)
            }
            XCTAssertEqual(try noteCount(coordinator), 1, type)
        }

        try? FileManager.default.removeItem(at: directory.appendingPathComponent("Notes.sqlite"))
        let first = try coordinator(NSSQLiteStoreType), second = try coordinator(NSSQLiteStoreType)
        let id = try insertNotes(1, saves: 1, in: newContext(first))[0]
        let mine = newContext(first)
        let faults = try mine.performAndWait { try mine.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")) }
        let theirs = newContext(second)
        try theirs.performAndWait {
            try theirs.existingObject(with: id).setValue(3, forKey: "revision")
            try theirs.save()
        }
        mine.performAndWait {
            XCTAssertEqual(faults.map(\.isFault), [true])
            mine.delete(faults[0])
            XCTAssertEqual(thrownError { try mine.save() }?.code, NSManagedObjectMergeError)
        }
        XCTAssertEqual(try noteCount(second), 1)
    }

}
