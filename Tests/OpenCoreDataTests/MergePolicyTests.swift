import OpenCoreData
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
        try stack.context.performAndWait {
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
}

final class CountingPolicy: NSMergePolicy, @unchecked Sendable {
    var seen = 0
    init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }
    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        seen += list.count
        try super.resolve(optimisticLockingConflicts: list)
    }
}
