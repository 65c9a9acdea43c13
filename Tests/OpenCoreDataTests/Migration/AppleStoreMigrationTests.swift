import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Migrating stores Apple's framework wrote, with the Xcode model versions beside them: the work
/// is done (tables and metadata of the new version), the metadata carries the new version's
/// hashes (Apple's own when the compiled model's VersionInfo.plist is given), a failure leaves
/// the original's bytes as they were, and `ocd migrate` reports success only for work done.
final class AppleStoreMigrationTests: XCTestCase {
    private let sampleModel = "alemar11__CoreDataPlus/SampleModel/SampleModel.xcdatamodeld"
    private let sampleCompiled = "alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel.momd"
    private let bookmarks = "duckduckgo__BrowserServicesKit/Bookmarks/BookmarksModel.xcdatamodeld"

    private func path(_ relative: String) throws -> String { try appleStores().appendingPathComponent(relative).path }

    private func metadataHashes(_ url: URL) throws -> [String: Data] {
        try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
    }

    private func columns(_ url: URL, _ table: String) throws -> [String] {
        try SQLiteInspector.rows(at: url.path, "SELECT name FROM pragma_table_info(?)", [table]).compactMap { $0[0] }
    }

    func testOcdMigrateRewritesAnAppleStoreFromV1ToV2() throws {
        let store = try copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let before = try Data(contentsOf: store)
        let (status, output, errors) = try runOCD(["migrate", store.path, "--from", try path(sampleModel + "/SampleModel.xcdatamodel"),
                                                  "--to", try path(sampleModel + "/SampleModel2.xcdatamodel")])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("Migrated: the store's metadata now carries OpenCoreData's version hashes"), output)
        XCTAssertNotEqual(try Data(contentsOf: store), before, "the file was rewritten")
        XCTAssertEqual(try metadataHashes(store).keys.sorted(), ["Car", "LuxuryCar", "Person", "SportCar"])
        XCTAssertFalse(try columns(store, "ZCAR").contains("ZCOLOR"), "V2 removed Car.color")
        XCTAssertEqual(try SQLiteInspector.rows(at: store.path, "SELECT count(*) FROM ZCAR"), [["125"]])
        // The migrated store opens with V2, and V1 no longer fits it.
        let v2 = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: try path(sampleModel + "/SampleModel2.xcdatamodel")))
        XCTAssertNoThrow(try NSPersistentStoreCoordinator(managedObjectModel: v2).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store))
    }

    /// With the compiled model's VersionInfo.plist, the migrated store carries exactly the hashes
    /// Apple's own migration of the same store wrote (SampleModel_V2.sqlite is V1 migrated by
    /// Apple's framework).
    func testWithVersionInfoTheMigratedStoreCarriesApplesHashesOfTheNewVersion() throws {
        let store = try copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let compiled = try path(sampleCompiled)
        let (status, output, errors) = try runOCD(["migrate", store.path, "--from", try path(sampleModel + "/SampleModel.xcdatamodel"),
                                                  "--to", try path(sampleModel + "/SampleModel2.xcdatamodel"),
                                                  "--from-version-info", compiled, "--to-version-info", compiled])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("carries Apple's version hashes"), output)
        let applesMigration = try copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V2.sqlite")
        XCTAssertEqual(try metadataHashes(store), try metadataHashes(applesMigration))
    }

    func testSchemaChangesOfAppleStoresMigrateWithTheirOwnXcodeModels() throws {
        let bookmarksStore = try copyAppleStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V5.sqlite")
        let (status, output, errors) = try runOCD(["migrate", bookmarksStore.path, "--from", try path(bookmarks + "/BookmarksModel 5.xcdatamodel"),
                                                  "--to", try path(bookmarks + "/BookmarksModel 6.xcdatamodel")])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("BookmarkEntity: attribute isStub added"), output)
        XCTAssertTrue(try columns(bookmarksStore, "ZBOOKMARKENTITY").contains("ZISSTUB"))
        XCTAssertEqual(try SQLiteInspector.rows(at: bookmarksStore.path, "SELECT count(*) FROM ZBOOKMARKENTITY"), [["10"]])

        // V1 -> V3 through addPersistentStore's automatic migration, the old model passed along.
        let sample = try copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let v1 = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: try path(sampleModel + "/SampleModel.xcdatamodel")))
        let v3 = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: try path(sampleModel + "/SampleModel3.xcdatamodel")))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v3)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: sample, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true, OCDMigrationSourceModelsOption: [v1],
        ])
        XCTAssertTrue(try SQLiteInspector.rows(at: sample.path, "SELECT name FROM sqlite_master WHERE type = 'table'").contains(["ZMAKER"]))
        let context = newContext(coordinator)
        XCTAssertEqual(try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) }, 20)
    }

    func testAWrongFromModelIsReportedAndNothingIsWritten() throws {
        let store = try copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let before = try Data(contentsOf: store)
        let (status, _, errors) = try runOCD(["migrate", store.path, "--from", try path(sampleModel + "/SampleModel3.xcdatamodel"),
                                             "--to", try path(sampleModel + "/SampleModel2.xcdatamodel")])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("none of the 1 models in OCDMigrationSourceModelsOption has its tables and columns"), errors)
        XCTAssertEqual(try Data(contentsOf: store), before)
    }

    /// A migration that fails after reading the original (the new version's uniqueness
    /// constraint is broken by the old rows) leaves the original's main file and WAL byte for
    /// byte as they were, and the error names the user's file. The `-shm` file is not compared:
    /// it holds no data, only SQLite's index of the WAL, which any reader rebuilds when it is
    /// the first to open the store (Apple's framework and the `sqlite3` shell too).
    func testAFailedMigrationLeavesTheOriginalsBytesAndNamesTheUsersFile() throws {
        let store = try copyAppleStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V5.sqlite")
        let files = ["", "-wal"].map { store.path + $0 }
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let v5 = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: try path(bookmarks + "/BookmarksModel 5.xcdatamodel")))
        let v6 = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: try path(bookmarks + "/BookmarksModel 6.xcdatamodel")))
        v6.entitiesByName["BookmarkEntity"]!.uniquenessConstraints = [["isFolder"]]  // ten rows, two values
        let error = thrownError {
            try NSPersistentStoreCoordinator(managedObjectModel: v6).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: [
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true, OCDMigrationSourceModelsOption: [v5],
            ])
        }
        XCTAssertEqual(error?.code, NSMigrationError, "\(String(describing: error))")
        XCTAssertFalse(error?.localizedDescription.contains(".migrating") ?? true, "\(String(describing: error))")
        XCTAssertEqual(try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, before)
        XCTAssertEqual(try SQLiteInspector.rows(at: store.path, "SELECT count(*) FROM ZBOOKMARKENTITY"), [["10"]])
    }
}
