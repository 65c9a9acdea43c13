@testable import OpenCoreData
import OpenCoreDataTestSupport
import CSQLite
import XCTest

/// Store files made to hurt: whatever a file holds, reading it costs bounded time and memory
/// and ends in an error or a warning, never a crash.
final class HostileStoreFileTests: XCTestCase {
    /// Raw DEFLATE data (no zlib header) that inflates to `megabytes` MiB of zero bytes with
    /// about 13 bits per 258 bytes: a zero literal, then back-references of length 258 at
    /// distance 1, in one block of the fixed Huffman code (RFC 1951, 3.2.6).
    private func deflateBomb(megabytes: Int) -> Data {
        var bytes: [UInt8] = []
        var current: UInt32 = 0, filled = 0
        /// Appends `count` bits of `value`, least significant first (header fields, extra bits).
        func bits(_ value: UInt32, _ count: Int) {
            for i in 0..<count {
                current |= ((value >> UInt32(i)) & 1) << UInt32(filled)
                filled += 1
                if filled == 8 { bytes.append(UInt8(current)); current = 0; filled = 0 }
            }
        }
        /// Appends a Huffman code of `count` bits, most significant first.
        func code(_ value: UInt32, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits((value >> UInt32(i)) & 1, 1) }
        }
        bits(1, 1)                 // BFINAL
        bits(1, 2)                 // BTYPE 01: fixed Huffman codes
        code(0b0011_0000, 8)       // literal 0
        let copies = (megabytes << 20) / 258
        for _ in 0..<copies {
            code(0b1100_0101, 8)   // length code 285: 258 bytes
            code(0, 5)             // distance code 0: distance 1
        }
        code(0, 7)                 // end of block (256)
        if filled > 0 { bytes.append(UInt8(current)) }
        return Data(bytes)
    }

    func testTheBombGeneratorMakesValidDeflateData() throws {
        let inflated = try SQLiteModelCache.inflate(deflateBomb(megabytes: 1))
        XCTAssertEqual(inflated.count, 1 + ((1 << 20) / 258) * 258)
        XCTAssertTrue(inflated.allSatisfy { $0 == 0 })
    }

    func testAModelCacheThatInflatesBeyondTheLimitIsRefusedEarly() throws {
        let bomb = deflateBomb(megabytes: 64)
        XCTAssertLessThan(bomb.count, 500_000)
        XCTAssertThrowsError(try SQLiteModelCache.model(from: bomb)) { error in
            XCTAssertTrue("\(error)".contains("inflates to more than \(SQLiteModelCache.maximumInflatedSize) bytes"), "\(error)")
        }
    }

    func testAStoreWithABombInItsModelCacheIsReadFromItsSchemaInstead() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer")])
        try SQLiteInspector.execute(at: store.url.path, "DROP TABLE IF EXISTS Z_MODELCACHE")
        try SQLiteInspector.execute(at: store.url.path, "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        let hex = deflateBomb(megabytes: 64).map { String(format: "%02x", $0) }.joined()
        try SQLiteInspector.execute(at: store.url.path, "INSERT INTO Z_MODELCACHE VALUES (x'\(hex)')")

        let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: store.url)
        XCTAssertNotNil(model.entitiesByName["Employee"], "rebuilt from the schema")
        XCTAssertTrue(model.loadingWarnings.contains { $0.contains("inflates to more than") }, "\(model.loadingWarnings)")
    }

    // MARK: Damaged stores are refused as they are

    /// A store of 1,500 employees in rollback-journal mode (as a file copied without its WAL
    /// and checkpointed is), big enough to span dozens of pages.
    private func rollbackModeStore() throws -> TemporaryCompanyStore {
        let store = try TemporaryCompanyStore()
        try store.seed((0..<1500).map { ("Employee \($0)", Int64($0), "Last name " + String(repeating: "x", count: 60)) })
        try SQLiteInspector.execute(at: store.url.path, "PRAGMA journal_mode = DELETE")
        XCTAssertGreaterThan(try Data(contentsOf: store.url).count, 150_000)
        return store
    }

    private func assertRefusedUnchanged(_ store: TemporaryCompanyStore, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: store.url)
        let error = thrownError { _ = try store.open() }
        XCTAssertEqual(error?.domain, NSCocoaErrorDomain, label, file: file, line: line)
        XCTAssertEqual(error?.code, NSFileReadCorruptFileError, "\(label): \(String(describing: error))", file: file, line: line)
        XCTAssertEqual(error?.userInfo["NSSQLiteErrorDomain"] as? Int, 11, label, file: file, line: line)
        XCTAssertEqual(error?.userInfo[NSFilePathErrorKey] as? String, store.url.path, label, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: store.url), before, "\(label): nothing may be written to a damaged store", file: file, line: line)
    }

    func testAStoreCutOffPartWayIsRefusedWithoutBeingWritten() throws {
        for cut in [40_000, 90_000, 150_000] {
            let store = try rollbackModeStore()
            let whole = try Data(contentsOf: store.url)
            try whole.prefix(cut).write(to: store.url)
            try assertRefusedUnchanged(store, "cut at \(cut)")
        }
    }

    func testAStoreWithOverwrittenPagesIsRefusedWithoutBeingWritten() throws {
        let store = try rollbackModeStore()
        var bytes = try Data(contentsOf: store.url)
        // Pages past the schema and metadata (page 1 and the first few) filled with garbage.
        let start = bytes.count / 2, end = start + 16_384
        var rng = SplitMix64(seed: 7)
        for i in start..<end { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        try bytes.write(to: store.url)
        try assertRefusedUnchanged(store, "overwritten pages")
    }

    func testASoundRollbackModeStoreStillOpensAndSwitchesToWAL() throws {
        let store = try rollbackModeStore()
        let (_, context) = try store.open()
        XCTAssertEqual(try context.performAndWait { try context.count(for: NSFetchRequest<Employee>(entityName: "Employee")) }, 1500)
        XCTAssertEqual(try store.sql("PRAGMA journal_mode"), [["wal"]])
    }

    /// A store file SQLite can only read, not yet in WAL mode, can't be switched into it; the
    /// error says to open it read-only instead of blaming another process. (Tests run as root,
    /// whom file permissions don't stop, so the message is checked where it is chosen.)
    func testAStoreThatCanOnlyBeReadIsPointedToTheReadOnlyOption() throws {
        let readOnly = SQLiteError(code: SQLITE_READONLY, extendedCode: SQLITE_READONLY, message: "attempt to write a readonly database", sql: nil)
        let message = SQLiteStore.journalSwitchFailure(path: "/data/Store.sqlite", error: readOnly, fileIsReadOnly: true)
        XCTAssertTrue(message.contains("NSReadOnlyPersistentStoreOption"), message)
        XCTAssertFalse(message.contains("Another process"), message)
        let busy = SQLiteError(code: SQLITE_BUSY, extendedCode: SQLITE_BUSY, message: "database is locked", sql: nil)
        XCTAssertTrue(SQLiteStore.journalSwitchFailure(path: "/data/Store.sqlite", error: busy, fileIsReadOnly: false).contains("Another process"))

        // And the option does open such a store, in rollback-journal mode, without writing to it.
        let store = try rollbackModeStore()
        let before = try Data(contentsOf: store.url)
        let (_, context) = try store.open(options: [NSReadOnlyPersistentStoreOption: true])
        XCTAssertEqual(try context.performAndWait { try context.count(for: NSFetchRequest<Employee>(entityName: "Employee")) }, 1500)
        XCTAssertEqual(try Data(contentsOf: store.url), before)
    }

    /// A binary property list holding a set of dictionaries crashes Foundation's parser on
    /// Linux (found by FuzzTests; `FuzzCorpus/version-info/regressions/`). Every reader of
    /// property lists from files refuses it instead.
    func testABinaryPropertyListThatCrashesFoundationIsRefusedByEveryReader() throws {
        let bytes = try Data(contentsOf: FuzzRunner.corpus("version-info").appendingPathComponent("regressions/set-of-dictionaries.bplist"))
        XCTAssertNotNil(UntrustedPropertyList.binaryProblem(bytes))
        XCTAssertThrowsError(try UntrustedPropertyList.propertyList(from: bytes))
        XCTAssertNil(SQLiteMetadata.decode(bytes), "store metadata")
        XCTAssertNil(KeyedArchiveObjects(bytes), "keyed archives")
        XCTAssertThrowsError(try SQLiteModelCache.model(fromArchive: bytes), "model caches")
        let info = try makeTemporaryDirectory("ocd-plist").appendingPathComponent("VersionInfo.plist")
        try bytes.write(to: info)
        XCTAssertThrowsError(try CompiledModelVersionInfo(contentsOf: info)) { XCTAssertEqual(($0 as NSError).code, NSFileReadCorruptFileError) }
        // Property lists Foundation writes still read.
        let written = try PropertyListSerialization.data(fromPropertyList: ["a": [1, 2], "b": Data([1])], format: .binary, options: 0)
        XCTAssertNil(UntrustedPropertyList.binaryProblem(written))
        XCTAssertNotNil(try UntrustedPropertyList.propertyList(from: written) as? [String: Any])
    }
}
