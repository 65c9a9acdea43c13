import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `ocd copy`, run end to end as a user would: the built `ocd` executable copying copies of
/// Apple-written stores into new ones. (Copies to and from PostgreSQL: PostgreSQLToolTests.)
final class CopyCommandTests: XCTestCase {


    func testCopyWritesANewStoreWithTheSameObjectsUnderTheSamePrimaryKeys() throws {
        let original = try copyAppleStore("log2timeline__plaso/ios/netusage.sqlite")
        let before = try Data(contentsOf: original)
        let copy = original.deletingLastPathComponent().appendingPathComponent("copy.sqlite")
        let (status, output, errors) = try runOCD(["copy", original.path, copy.path])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("  Process                260 objects"), output)
        XCTAssertTrue(output.contains("  703 objects; primary keys kept"), output)

        let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: original)
        let expected = try storeSnapshot(at: original, type: NSSQLiteStoreType, model: model)
        XCTAssertEqual(expected.count, 703)
        XCTAssertEqual(try storeSnapshot(at: copy, type: NSSQLiteStoreType, model: model), expected)
        XCTAssertEqual(try Data(contentsOf: original), before, "the source is only read")
    }

    func testCopyWithAModelKeepsOrderedRelationshipsAndRowsThatLiveOnlyInTheWAL() throws {
        let original = try copyAppleStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V4.sqlite")
        let modelURL = try appleStores().appendingPathComponent("duckduckgo__BrowserServicesKit/Bookmarks/BookmarksModel.xcdatamodeld/BookmarksModel 4.xcdatamodel")
        let copy = original.deletingLastPathComponent().appendingPathComponent("copy.sqlite")
        let (status, output, errors) = try runOCD(["copy", original.path, copy.path, "--model", modelURL.path])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("BookmarkEntity") && output.contains("10 objects"), output)

        let model = try NSManagedObjectModel.load(contentsOf: modelURL)
        let expected = try storeSnapshot(at: original, type: NSSQLiteStoreType, model: model)
        XCTAssertEqual(expected.count, 10)
        XCTAssertTrue(expected.values.contains { $0.contains("favorites=[BookmarkEntity/p") }, "an ordered to-many with members: \(expected)")
        XCTAssertEqual(try storeSnapshot(at: copy, type: NSSQLiteStoreType, model: model), expected)
    }

    func testCopyRefusesADestinationThatExistsAndLeavesItAlone() throws {
        let original = try copyAppleStore("log2timeline__plaso/ios/netusage.sqlite")
        let existing = original.deletingLastPathComponent().appendingPathComponent("existing.sqlite")
        try Data("keep me".utf8).write(to: existing)
        let (status, output, errors) = try runOCD(["copy", original.path, existing.path])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(output, "")
        XCTAssertTrue(errors.contains("\(existing.path) exists: ocd copy writes a new store"), errors)
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "keep me")
    }

    func testCopyFailsClearlyOnWhatIsNotAStoreAndWritesNothing() throws {
        let directory = try makeTemporaryDirectory("ocd-copy-test")
        let destination = directory.appendingPathComponent("copy.sqlite")
        let (missing, _, missingMessage) = try runOCD(["copy", directory.appendingPathComponent("none.sqlite").path, destination.path])
        XCTAssertEqual(missing, 1)
        XCTAssertTrue(missingMessage.contains("There is no store file at"), missingMessage)

        let text = directory.appendingPathComponent("notes.sqlite")
        try Data("not a database".utf8).write(to: text)
        let (notSQLite, _, notSQLiteMessage) = try runOCD(["copy", text.path, destination.path])
        XCTAssertEqual(notSQLite, 1)
        XCTAssertTrue(notSQLiteMessage.contains("The file at \(text.path) is not"), "names the user's file, not the temporary copy: \(notSQLiteMessage)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path), "nothing is written when the source can't be read")

        let (usage, _, usageMessage) = try runOCD(["copy", text.path])
        XCTAssertEqual(usage, 2)
        XCTAssertTrue(usageMessage.contains("usage: ocd copy"), usageMessage)
        let (help, helpOutput, _) = try runOCD(["help", "copy"])
        XCTAssertEqual(help, 0)
        XCTAssertTrue(helpOutput.hasPrefix("usage: ocd copy"), helpOutput)
    }
}
