import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Another *process* writing the same SQLite file while we save: SQLite's file locks and the
/// store's version column (`Z_OPT`) and key table (`Z_PRIMARYKEY`) are all that stand between
/// the two, so these tests drive a real second process (`ocd sql-session`, through
/// ``OtherSQLiteProcess``) one statement at a time.
final class SQLiteMultiProcessTests: XCTestCase {
    private func seededStore() throws -> TemporaryCompanyStore {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer"), ("Bob", 2000, "Baker")])
        return store
    }

    // MARK: (a) The other process holds the write lock

    func testASaveWhileAnotherProcessHoldsTheWriteLockTimesOutWritesNothingAndSucceedsOnRetry() throws {
        let store = try seededStore()
        let before = try store.sql("SELECT Z_PK, ZFIRSTNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE ORDER BY Z_PK")
        let (_, context) = try store.open(options: [NSPersistentStoreTimeoutOption: 0.4])
        let other = try OtherSQLiteProcess(store.url)
        defer { other.finish() }
        try other.run("BEGIN IMMEDIATE")

        try context.performAndWait {
            // An update alone: the save's own transaction can't start.
            try store.employee("Ann", in: context).salary = 1500
            let started = Date()
            let updateError = thrownError { try context.save() }
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.35, "the save must wait out NSPersistentStoreTimeoutOption")
            XCTAssertEqual(updateError?.domain, NSCocoaErrorDomain)
            XCTAssertEqual(updateError?.code, NSPersistentStoreTimeoutError)
            XCTAssertEqual(updateError?.userInfo["NSSQLiteErrorDomain"] as? Int, 5)  // SQLITE_BUSY
            XCTAssertTrue(context.hasChanges)

            // With an insert: reserving its primary key needs the write lock too.
            let carl = Employee(context: context)
            carl.firstName = "Carl"
            let insertError = thrownError { try context.save() }
            XCTAssertEqual(insertError?.code, NSPersistentStoreTimeoutError)
            XCTAssertEqual(insertError?.userInfo["NSSQLiteErrorDomain"] as? Int, 5)
            XCTAssertTrue(carl.objectID.isTemporaryID, "a failed save gives the temporary ID back")
            XCTAssertEqual(context.insertedObjects.count, 1)
            XCTAssertEqual(context.updatedObjects.count, 1)
        }
        // Nothing half-written (readers don't wait for a WAL writer).
        XCTAssertEqual(try store.sql("SELECT Z_PK, ZFIRSTNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE ORDER BY Z_PK"), before)
        XCTAssertEqual(try store.sql("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Employee'"), [["2"]])

        try other.run("ROLLBACK")
        try context.performAndWait {
            try context.save()
            XCTAssertFalse(context.hasChanges)
        }
        XCTAssertEqual(try store.sql("SELECT ZFIRSTNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE ORDER BY ZFIRSTNAME"),
                       [["Ann", "1500", "2"], ["Bob", "2000", "1"], ["Carl", "0", "1"]])
        XCTAssertEqual(try store.sql("PRAGMA integrity_check"), [["ok"]])
    }

    // MARK: (b) The other process commits a change to a row we changed too

    private struct ConflictOutcome {
        var error: NSError?
        var contextSalary: Int64
        var contextLastName: String?
        var file: [[String?]]  // ZSALARY, ZLASTNAME of Ann
    }

    /// We fetch Ann (1000, "Archer") and raise her salary to 1500; the other process meanwhile
    /// commits salary 5000 and last name "Other" (bumping Z_OPT, as Core Data does); then we save
    /// under `policy`.
    private func conflict(policy: Any) throws -> ConflictOutcome {
        let store = try seededStore()
        let (_, context) = try store.open()
        let ann: Employee = try context.performAndWait {
            context.mergePolicy = policy
            let ann = try store.employee("Ann", in: context)
            ann.salary = 1500
            return ann
        }
        let other = try OtherSQLiteProcess(store.url)
        try other.run("UPDATE ZEMPLOYEE SET ZSALARY = 5000, ZLASTNAME = 'Other', Z_OPT = Z_OPT + 1 WHERE ZFIRSTNAME = 'Ann'")
        other.finish()
        return try context.performAndWait {
            let error = thrownError { try context.save() }
            return ConflictOutcome(error: error, contextSalary: ann.salary, contextLastName: ann.lastName,
                                   file: try store.sql("SELECT ZSALARY, ZLASTNAME FROM ZEMPLOYEE WHERE ZFIRSTNAME = 'Ann'"))
        }
    }

    func testAnotherProcessCommittingTheSameRowFailsTheSaveWith133020UnderTheDefaultPolicy() throws {
        let outcome = try conflict(policy: NSErrorMergePolicy)
        XCTAssertEqual(outcome.error?.domain, NSCocoaErrorDomain)
        XCTAssertEqual(outcome.error?.code, NSManagedObjectMergeError)
        let conflicts = try XCTUnwrap(outcome.error?.userInfo["conflictList"] as? [NSMergeConflict])
        XCTAssertEqual(conflicts.count, 1)
        XCTAssertEqual((conflicts.first?.sourceObject as? Employee)?.firstName, "Ann")
        XCTAssertEqual(conflicts.first?.oldVersionNumber, 1)
        XCTAssertEqual(conflicts.first?.newVersionNumber, 2)
        XCTAssertEqual(conflicts.first?.persistedSnapshot?["salary"] as? Int64, 5000)
        XCTAssertEqual(conflicts.first?.persistedSnapshot?["lastName"] as? String, "Other")
        // Nothing written; our change is still pending.
        XCTAssertEqual(outcome.file, [["5000", "Other"]])
        XCTAssertEqual(outcome.contextSalary, 1500)
    }

    func testMergeByPropertyObjectTrumpKeepsOurChangedPropertyAndTheirOthers() throws {
        let outcome = try conflict(policy: NSMergeByPropertyObjectTrumpMergePolicy)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.file, [["1500", "Other"]])
        XCTAssertEqual(outcome.contextSalary, 1500)
        XCTAssertEqual(outcome.contextLastName, "Other")
    }

    func testMergeByPropertyStoreTrumpTakesTheirValuesForConflictingProperties() throws {
        let outcome = try conflict(policy: NSMergeByPropertyStoreTrumpMergePolicy)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.file, [["5000", "Other"]])
        XCTAssertEqual(outcome.contextSalary, 5000)
        XCTAssertEqual(outcome.contextLastName, "Other")
    }

    func testOverwriteWritesOurWholeObject() throws {
        let outcome = try conflict(policy: NSOverwriteMergePolicy)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.file, [["1500", "Archer"]])
        XCTAssertEqual(outcome.contextLastName, "Archer")
    }

    func testRollbackDiscardsOurChangesForTheirs() throws {
        let outcome = try conflict(policy: NSRollbackMergePolicy)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.file, [["5000", "Other"]])
        XCTAssertEqual(outcome.contextSalary, 5000)
        XCTAssertEqual(outcome.contextLastName, "Other")
    }

    func testAnotherProcessDeletingARowWeChangedFailsTheWholeSaveWith133020() throws {
        let store = try seededStore()
        let (_, context) = try store.open()
        try context.performAndWait {
            try store.employee("Ann", in: context).salary = 1500
            try store.employee("Bob", in: context).salary = 2500
        }
        let other = try OtherSQLiteProcess(store.url)
        try other.run("DELETE FROM ZEMPLOYEE WHERE ZFIRSTNAME = 'Ann'")
        other.finish()
        let error: NSError? = context.performAndWait { thrownError { try context.save() } }
        XCTAssertEqual(error?.code, NSManagedObjectMergeError)
        let conflicts = try XCTUnwrap(error?.userInfo["conflictList"] as? [NSMergeConflict])
        XCTAssertEqual(conflicts.map { ($0.sourceObject as? Employee)?.firstName }, ["Ann"])
        XCTAssertNil(conflicts.first?.persistedSnapshot)
        XCTAssertEqual(conflicts.first?.newVersionNumber, 0)  // Apple: 0 for a record deleted in the store
        // All or nothing: Bob's change is not written either.
        XCTAssertEqual(try store.sql("SELECT ZFIRSTNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE"), [["Bob", "2000", "1"]])
    }

    // MARK: (c) The other process inserts while we insert

    func testInsertsFromAnotherProcessDuringOurSaveKeepBothSetsAndDistinctKeys() throws {
        let store = try seededStore()
        let (_, context) = try store.open()
        context.performAndWait {
            for name in ["Ours1", "Ours2", "Ours3"] { Employee(context: context).firstName = name }
        }
        // The other process reserves three keys the way Core Data does (raising Z_MAX) and
        // inserts, holding its transaction open while our save starts.
        let other = try OtherSQLiteProcess(store.url)
        defer { other.finish() }
        try other.run("BEGIN IMMEDIATE")
        try other.run("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 3 WHERE Z_NAME = 'Employee'")
        for (offset, name) in [(2, "Theirs1"), (1, "Theirs2"), (0, "Theirs3")] {
            try other.run("INSERT INTO ZEMPLOYEE (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZSALARY) SELECT Z_MAX - \(offset), Z_ENT, 1, '\(name)', 10 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Employee'")
        }

        let saved = DispatchSemaphore(value: 0)
        let failures = FailureBox()
        DispatchQueue.global().async {
            context.performAndWait {
                do { try context.save() } catch { failures.append("\(error)") }
            }
            saved.signal()
        }
        XCTAssertEqual(saved.wait(timeout: .now() + 0.5), .timedOut, "our save must wait for the other process's transaction")
        try other.run("COMMIT")
        XCTAssertEqual(saved.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(failures.messages, [])

        XCTAssertEqual(try store.sql("SELECT count(*), count(DISTINCT Z_PK), max(Z_PK) FROM ZEMPLOYEE"), [["8", "8", "8"]])
        XCTAssertEqual(try store.sql("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Employee'"), [["8"]])
        XCTAssertEqual(try store.sql("SELECT ZFIRSTNAME FROM ZEMPLOYEE WHERE Z_PK BETWEEN 3 AND 5 ORDER BY Z_PK"),
                       [["Theirs1"], ["Theirs2"], ["Theirs3"]])
        // Ours took the keys after theirs (their order among themselves is the save's).
        XCTAssertEqual(try store.sql("SELECT ZFIRSTNAME FROM ZEMPLOYEE WHERE Z_PK > 5 ORDER BY ZFIRSTNAME"),
                       [["Ours1"], ["Ours2"], ["Ours3"]])
        // Our context sees both sets.
        try context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            XCTAssertEqual(try context.fetch(request).map { $0.firstName ?? "" },
                           ["Ann", "Bob", "Ours1", "Ours2", "Ours3", "Theirs1", "Theirs2", "Theirs3"])
        }
    }
}
