import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// A save the disk can't hold, a store SQLite refuses to write, and a damaged page: each throws
/// Apple's error in NSCocoaErrorDomain, leaves the file as it was, and keeps the context's
/// changes so the save can be retried.
final class SQLiteDiskFullTests: XCTestCase {
    /// `PRAGMA max_page_count` (through NSSQLitePragmasOption) caps the file a few pages above
    /// its size: SQLite then fails the write that needs more with SQLITE_FULL, exactly as on a
    /// full disk, with no need for a small file system.
    func testASaveThatFillsTheDiskThrows134030KeepsItsChangesAndCanBeRetriedAfterFreeingSpace() throws {
        let store = try TemporaryCompanyStore()
        let ballast = String(repeating: "b", count: 600_000)
        try store.seed([("Ann", 1000, "Archer"), ("Bob", 2000, "Baker"), ("Ballast", 0, ballast)])
        let pages = try XCTUnwrap(Int(try XCTUnwrap(store.sql("PRAGMA page_count").first?.first ?? nil)))
        let before = try store.sql("SELECT Z_PK, ZFIRSTNAME, ZSALARY, Z_OPT, length(ZLASTNAME) FROM ZEMPLOYEE ORDER BY Z_PK")

        let (_, context) = try store.open(options: [NSSQLitePragmasOption: ["max_page_count": pages + 4]])
        let error: NSError? = try context.performAndWait {
            try store.employee("Ann", in: context).salary = 1234
            for i in 0..<100 {
                let e = Employee(context: context)
                e.firstName = "New\(i)"
                e.lastName = String(repeating: "n", count: 4000)  // 400 KB in all
            }
            let error = thrownError { try context.save() }
            XCTAssertTrue(context.hasChanges)
            XCTAssertEqual(context.insertedObjects.count, 100)
            XCTAssertEqual(try store.employee("Ann", in: context).salary, 1234)
            return error
        }
        XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
        XCTAssertEqual(error?.code, NSPersistentStoreSaveError)
        XCTAssertEqual(error?.userInfo["NSSQLiteErrorDomain"] as? Int, 13)  // SQLITE_FULL
        XCTAssertEqual(try store.sql("PRAGMA integrity_check"), [["ok"]])
        XCTAssertEqual(try store.sql("SELECT Z_PK, ZFIRSTNAME, ZSALARY, Z_OPT, length(ZLASTNAME) FROM ZEMPLOYEE ORDER BY Z_PK"), before)

        // Free space (another connection deletes the ballast: its pages go to the free list,
        // which the capped file reuses), then the same context saves the same changes.
        try SQLiteInspector.execute(at: store.url.path, "DELETE FROM ZEMPLOYEE WHERE ZFIRSTNAME = 'Ballast'")
        try context.performAndWait {
            try context.save()
            XCTAssertFalse(context.hasChanges)
        }
        XCTAssertEqual(try store.sql("SELECT count(*), sum(length(ZLASTNAME)) FROM ZEMPLOYEE WHERE ZFIRSTNAME LIKE 'New%'"), [["100", "400000"]])
        XCTAssertEqual(try store.sql("SELECT ZSALARY FROM ZEMPLOYEE WHERE ZFIRSTNAME = 'Ann'"), [["1234"]])
        XCTAssertEqual(try store.sql("PRAGMA integrity_check"), [["ok"]])
    }

    /// SQLite refuses writes to a file it can only read (permissions, a read-only mount) with
    /// SQLITE_READONLY. `PRAGMA query_only` gives the same refusal whoever runs the tests
    /// (root ignores file permissions); a non-root run also checks a real 0444 file.
    func testASaveToAStoreSQLiteCanOnlyReadThrows134030AndKeepsItsChanges() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer")])
        let (_, context) = try store.open(options: [NSSQLitePragmasOption: ["query_only": 1]])
        try context.performAndWait {
            try store.employee("Ann", in: context).salary = 1500
            let error = thrownError { try context.save() }
            XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
            XCTAssertEqual(error?.code, NSPersistentStoreSaveError)
            XCTAssertEqual(error?.userInfo["NSSQLiteErrorDomain"] as? Int, 8)  // SQLITE_READONLY
            XCTAssertTrue(context.hasChanges)
        }
        XCTAssertEqual(try store.sql("SELECT ZSALARY, Z_OPT FROM ZEMPLOYEE"), [["1000", "1"]])

        guard geteuid() != 0 else { return }
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store.url.path + suffix)
        }
        defer {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.url.path + suffix)
            }
        }
        let bytes = try Data(contentsOf: store.url)
        do {
            let (_, readOnly) = try store.open()
            try readOnly.performAndWait {
                try store.employee("Ann", in: readOnly).salary = 1500
                let error = thrownError { try readOnly.save() }
                XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
                XCTAssertTrue([NSPersistentStoreSaveError, NSPersistentStoreOpenError].contains(error?.code ?? 0), "\(String(describing: error))")
                XCTAssertTrue(readOnly.hasChanges)
            }
        } catch let error as NSError {
            XCTAssertEqual(error.code, NSPersistentStoreOpenError)  // refused at open is fine too
        }
        XCTAssertEqual(try Data(contentsOf: store.url), bytes)
    }

    /// A store whose header and schema are sound but whose ZEMPLOYEE pages are garbage opens
    /// (nothing reads those pages at open), and then every read of them fails with
    /// NSSQLiteError (134180, SQLITE_CORRUPT underlying) — never a trap, never a partial answer —
    /// and leaves the file alone. (A truncated file failing at open is in SQLiteStoreTests.)
    func testACorruptTablePageFailsFetchesWithNSSQLiteErrorAndLeavesTheFileUnchanged() throws {
        let store = try TemporaryCompanyStore()
        try store.seed((0..<200).map { ("E\($0)", Int64($0), String(repeating: "x", count: 50)) })
        // seed closed its store, which checkpoints the WAL into the file.
        let pageSize = try XCTUnwrap(Int(try XCTUnwrap(store.sql("PRAGMA page_size").first?.first ?? nil)))
        let root = try XCTUnwrap(Int(try XCTUnwrap(store.sql("SELECT rootpage FROM sqlite_master WHERE name = 'ZEMPLOYEE'").first?.first ?? nil)))
        var bytes = try Data(contentsOf: store.url)
        let start = (root - 1) * pageSize
        XCTAssertLessThanOrEqual(start + pageSize, bytes.count)
        bytes.replaceSubrange(start..<start + pageSize, with: Data(repeating: 0xA5, count: pageSize))
        try bytes.write(to: store.url)

        let (_, context) = try store.open()
        context.performAndWait {
            let filtered = NSFetchRequest<Employee>(entityName: "Employee")
            filtered.predicate = NSPredicate(format: "salary > 100")
            filtered.fetchLimit = 5
            // (A count is left out: SQLite may answer COUNT(*) from an intact index, correctly.)
            for request in [NSFetchRequest<Employee>(entityName: "Employee"), filtered] {
                let error = thrownError { _ = try context.fetch(request) }
                XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
                XCTAssertEqual(error?.code, NSSQLiteError)
                XCTAssertEqual((error?.userInfo["NSSQLiteErrorDomain"] as? Int).map { $0 & 0xff }, 11)  // SQLITE_CORRUPT
            }
        }
        XCTAssertEqual(try Data(contentsOf: store.url), bytes)
    }
}
