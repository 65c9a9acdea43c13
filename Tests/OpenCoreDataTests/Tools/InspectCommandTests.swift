import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `ocd inspect`, run end to end as a user would: the built `ocd` executable on copies of
/// Apple-written stores, and on paths that are not stores.
final class InspectCommandTests: XCTestCase {

    /// Copies a fixture store with its `-wal`/`-shm` (never inspect the fixtures in place).
    private func copyStore(_ relative: String) throws -> URL {
        let source = try appleStores().appendingPathComponent(relative)
        let destination = try makeTemporaryDirectory("ocd-inspect-test").appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: destination.path + suffix)
        }
        return destination
    }

    private func assertContains(_ output: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        for text in expected { XCTAssertTrue(output.contains(text), "missing '\(text)' in:\n\(output)", file: file, line: line) }
    }

    func testInspectPrintsMetadataEntitiesAndTablesOfAStoreWithoutModel() throws {
        let url = try copyStore("log2timeline__plaso/ios/netusage.sqlite")
        let before = try Data(contentsOf: url)
        let (status, output, errors) = try runOCD(["inspect", url.path])
        XCTAssertEqual(status, 0, errors)
        assertContains(output, [
            "UUID                79881A94-1EBD-477B-AD20-E58FE334DE92",
            "type                SQLite",
            "framework version   1044",
            "model identifiers   [\"8\"]",
            "model version hashes (18):",
            "    App                      TujNzGi51XR1IPdjJOo39jYTs9cME70xoxoZmEraq0I=",
            "model               recovered from the store",
            "The model was read from the store's Z_MODELCACHE",
            "Entities (18)",
            "  App  ← Process  Z_ENT 16  table ZPROCESS  75 rows",
            "  Process  Z_ENT 15  table ZPROCESS  260 rows",
            "  LiveUsage  Z_ENT 11  table ZLIVEUSAGE  335 rows",
            "hasProcess → Process",
            "  ZPROCESS  260 rows  Z_MAX 282",
            "ZHASPROCESS INTEGER, Z15_HASPROCESS INTEGER",
            "  Z_MODELCACHE  1 rows",
        ])
        XCTAssertEqual(try Data(contentsOf: url), before, "inspect must not change the store")
    }

    func testInspectWithAModelReadsRowsThatLiveOnlyInTheWAL() throws {
        let url = try copyStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V4.sqlite")
        let wal = try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))
        let model = try appleStores().appendingPathComponent("duckduckgo__BrowserServicesKit/Bookmarks/BookmarksModel.xcdatamodeld/BookmarksModel 4.xcdatamodel")
        let (status, output, errors) = try runOCD(["inspect", url.path, "--model", model.path])
        XCTAssertEqual(status, 0, errors)
        assertContains(output, [
            "UUID                E688ECA9-D9C7-40C5-94B4-A1F8C6E6A428",
            "framework version   1333",
            "(version \"BookmarksModel 4\")",
            "  BookmarkEntity  Z_ENT 1  table ZBOOKMARKENTITY  10 rows",
            "favorites → BookmarkEntity (to-many, ordered)",
            "  ZBOOKMARKENTITY  10 rows  Z_MAX 10",
            "  Z_1FAVORITES  5 rows",
            "Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, Z_FOK_1FAVORITES INTEGER",
        ])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal")), wal, "the WAL was not checkpointed into the store")
    }

    func testEveryCommandAnswersHelpWithItsOwnUsage() throws {
        for command in ["demo", "model", "inspect", "migrate", "sql-session"] {
            for form in [[command, "--help"], [command, "-h"], ["help", command]] {
                let (status, output, errors) = try runOCD(form)
                XCTAssertEqual(status, 0, "\(form): \(errors)")
                XCTAssertTrue(output.hasPrefix("usage: ocd \(command)"), "\(form): \(output)")
            }
        }
        let (status, output, _) = try runOCD(["help", "nonsense"])
        XCTAssertEqual(status, 2)
        XCTAssertTrue(output.contains("unknown command 'nonsense'"), output)
    }

    func testInspectFailsClearlyOnWhatIsNotAStore() throws {
        let directory = try makeTemporaryDirectory("ocd-inspect-test")
        let (missing, _, missingMessage) = try runOCD(["inspect", directory.appendingPathComponent("none.sqlite").path])
        XCTAssertEqual(missing, 1)
        XCTAssertTrue(missingMessage.contains("no store file at"), missingMessage)

        let text = directory.appendingPathComponent("notes.sqlite")
        try Data("not a database".utf8).write(to: text)
        let (notSQLite, _, notSQLiteMessage) = try runOCD(["inspect", text.path])
        XCTAssertEqual(notSQLite, 1)
        XCTAssertTrue(notSQLiteMessage.contains("is not a SQLite database"), notSQLiteMessage)
        XCTAssertTrue(notSQLiteMessage.contains("The file at \(text.path) is not"), "names the user's file, not the copy: \(notSQLiteMessage)")
        XCTAssertNil(notSQLiteMessage.range(of: "ocd-inspect-[0-9A-F]{8}-", options: .regularExpression), "the temporary copy's folder: \(notSQLiteMessage)")
        XCTAssertEqual(try String(contentsOf: text, encoding: .utf8), "not a database")

        let plain = directory.appendingPathComponent("plain.sqlite")
        try SQLiteInspector.execute(at: plain.path, "CREATE TABLE notes (body TEXT)")
        let (notStore, _, notStoreMessage) = try runOCD(["inspect", plain.path])
        XCTAssertEqual(notStore, 1)
        XCTAssertTrue(notStoreMessage.contains("not a Core Data store"), notStoreMessage)

        let (usage, _, usageMessage) = try runOCD(["inspect"])
        XCTAssertEqual(usage, 2)
        XCTAssertTrue(usageMessage.contains("usage: ocd inspect"), usageMessage)
    }

    func testInspectRefusesAModelThatDoesNotFitTheStore() throws {
        let url = try copyStore("alemar11__CoreDataPlus/SampleModel3/Fixtures/SampleModel3_V1.sqlite")
        let stores = try appleStores()
        let (status, _, errors) = try runOCD(["inspect", url.path,
                                              "--model", stores.appendingPathComponent("alemar11__CoreDataPlus/SampleModel3/SampleModel3.xcdatamodeld/SampleModel3_v2.xcdatamodel").path,
                                              "--version-info", stores.appendingPathComponent("alemar11__CoreDataPlus/SampleModel3/Fixtures/SampleModel3.momd").path])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("different model"), errors)
    }
}
