import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import OpenCoreDataTestSupport
import XCTest

/// `ocd copy` and `ocd inspect` with `postgresql://` URLs, run end to end as a user would: the
/// built `ocd`, which hands such URLs to `ocd-postgresql`, against the test cluster.
final class PostgreSQLToolTests: XCTestCase {
    private var storeURL: URL!

    override func setUpWithError() throws {
        storeURL = try newTestStoreURL(prefix: "ocd_tool")
    }


    func testOCDCopiesAnAppleStoreToPostgreSQLAndBackWithTheSameObjectsAndKeys() throws {
        let original = try copyAppleStore("log2timeline__plaso/ios/netusage.sqlite")
        let (toServer, toOutput, toErrors) = try runOCD(["copy", original.path, storeURL.absoluteString])
        XCTAssertEqual(toServer, 0, toErrors)
        XCTAssertTrue(toOutput.contains("  703 objects; primary keys kept"), toOutput)

        let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: original)
        let expected = try storeSnapshot(at: original, type: NSSQLiteStoreType, model: model)
        XCTAssertEqual(try storeSnapshot(at: storeURL, type: OCDPostgreSQLStoreType, model: model), expected, "the PostgreSQL store holds the same objects under the same keys")

        let back = original.deletingLastPathComponent().appendingPathComponent("back.sqlite")
        let (fromServer, fromOutput, fromErrors) = try runOCD(["copy", storeURL.absoluteString, back.path])
        XCTAssertEqual(fromServer, 0, fromErrors)
        XCTAssertTrue(fromOutput.contains("  703 objects; primary keys kept"), fromOutput)
        XCTAssertEqual(try storeSnapshot(at: back, type: NSSQLiteStoreType, model: model), expected, "and so does the copy back, read with the model the server kept")
        let hashes = { (url: URL) in try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreModelVersionHashesKey] as? [String: Data] }
        XCTAssertEqual(try hashes(back), try hashes(original), "the copy back carries Apple's version hashes again, as Apple's framework would check them")
    }

    func testOCDInspectsAPostgreSQLStoreWithoutItsModel() throws {
        let original = try copyAppleStore("log2timeline__plaso/ios/netusage.sqlite")
        XCTAssertEqual(try runOCD(["copy", original.path, storeURL.absoluteString]).0, 0)
        let uuid = try XCTUnwrap(NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL)[NSStoreUUIDKey] as? String)
        // The test cluster trusts local logins: a password is accepted and must not be printed.
        var withPassword = URLComponents(url: storeURL, resolvingAgainstBaseURL: false)!
        withPassword.password = "secret"
        let (status, output, errors) = try runOCD(["inspect", withPassword.url!.absoluteString])
        XCTAssertEqual(status, 0, errors)
        for expected in [
            "UUID                \(uuid)",
            "type                \(OCDPostgreSQLStoreType)",
            "model identifiers   [\"8\"]",
            "model version hashes (18):",
            // The store compares its own hashes, and keeps Apple's for copies back to SQLite.
            "OCDAppleVersionHashes",
            "Store postgresql://postgres:***@",
            "model               recovered from the store's Z_MODELCACHE",
            "  App  ← Process  Z_ENT 16  table ZPROCESS  75 rows",
            "  Process  Z_ENT 15  table ZPROCESS  260 rows",
            "  ZPROCESS  260 rows  Z_MAX 282",
            "Z_PK bigint, Z_ENT integer, Z_OPT bigint",
            "  Z_METADATA  1 rows",
        ] {
            XCTAssertTrue(output.contains(expected), "missing '\(expected)' in:\n\(output)")
        }
        XCTAssertFalse(output.contains("secret"), "the password is never printed")
    }

    func testACopyThatFailsPartWayLeavesNoStoreBehind() throws {
        // PostgreSQL's text can't hold U+0000: the INSERT of this row fails after the new
        // store's tables were made.
        let original = try copyAppleStore("log2timeline__plaso/ios/netusage.sqlite")
        try SQLiteInspector.execute(at: original.path, "UPDATE ZPROCESS SET ZPROCNAME = 'a' || char(0) || 'b' WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZPROCESS)")
        let (status, _, errors) = try runOCD(["copy", original.path, storeURL.absoluteString])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("Nothing was saved"), errors)
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL), "the partial copy was destroyed") {
            XCTAssertEqual(($0 as NSError).code, NSFileReadNoSuchFileError)
        }
    }

    func testOCDRefusesASchemaThatHoldsAStoreAndReadsNoStoreWhereThereIsNone() throws {
        let (none, _, noneErrors) = try runOCD(["inspect", storeURL.absoluteString])
        XCTAssertEqual(none, 1)
        XCTAssertTrue(noneErrors.contains("There is no store at"), noneErrors)
        let (noSource, _, noSourceErrors) = try runOCD(["copy", storeURL.absoluteString, try makeTemporaryDirectory("ocd-pg-tool-test").appendingPathComponent("x.sqlite").path])
        XCTAssertEqual(noSource, 1)
        XCTAssertTrue(noSourceErrors.contains("There is no store at"), noSourceErrors)
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL), "reading created nothing")

        let original = try copyAppleStore("log2timeline__plaso/ios/netusage.sqlite")
        XCTAssertEqual(try runOCD(["copy", original.path, storeURL.absoluteString]).0, 0)
        let uuid = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL)[NSStoreUUIDKey] as? String
        let (again, _, againErrors) = try runOCD(["copy", original.path, storeURL.absoluteString])
        XCTAssertEqual(again, 1)
        XCTAssertTrue(againErrors.contains("already holds a store"), againErrors)
        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL)[NSStoreUUIDKey] as? String, uuid, "the store there is left as it was")
    }
}
