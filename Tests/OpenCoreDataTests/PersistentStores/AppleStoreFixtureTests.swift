import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Every store in `apple-stores/` whose model is in the fixtures, opened with THAT model loaded
/// from its Xcode bundle (the version `MANIFEST.md` names), its rows fetched as objects with
/// concrete values read from the file with the sqlite3 tool, and — for the writable ones —
/// saved to, after which Apple's layout must be intact: the same `sqlite_master`, `Z_MAX`
/// raised on the hierarchy root, `Z_OPT` bumped on the changed row.
///
/// Fixtures are found through `OCD_FIXTURES` (default `../shared/fixtures` beside the package);
/// without them the tests skip with a message (`.ci/run` sets it and fails on skips). A store is
/// never opened in place: it is copied with its `-wal`/`-shm` first (several keep every row in
/// the WAL, and SQLite checkpoints and deletes it when the last connection closes).
final class AppleStoreFixtureTests: XCTestCase {

    // MARK: - Fixtures

    private func copyStore(_ relative: String) throws -> URL { try copyAppleStore(relative) }

    /// The model version `version` of the bundle at `bundle`, with Apple's version hashes from
    /// `compiled` (a `.momd`) when given.
    private func model(_ bundle: String, version: String, compiled: String? = nil) throws -> NSManagedObjectModel {
        let stores = try appleStores()
        let url = stores.appendingPathComponent(bundle).appendingPathComponent(version + ".xcdatamodel")
        return try NSManagedObjectModel.load(contentsOf: url, versionInfo: compiled.map { stores.appendingPathComponent($0) })
    }

    private func open(_ model: NSManagedObjectModel, at url: URL, readOnly: Bool = false) throws -> (NSPersistentStore, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
                                                       options: readOnly ? [NSReadOnlyPersistentStoreOption: true] : nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (store, context)
    }

    private func fetch(_ context: NSManagedObjectContext, _ entity: String, _ format: String? = nil, _ args: Any...) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        if let format { request.predicate = NSPredicate(format: format, argumentArray: args) }
        return try context.fetch(request)
    }

    private func one(_ context: NSManagedObjectContext, _ entity: String, _ format: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: format, argumentArray: args)
        let found = try context.fetch(request)
        XCTAssertEqual(found.count, 1, "\(entity) where \(format)", file: file, line: line)
        return try XCTUnwrap(found.first, file: file, line: line)
    }

    private func titles(_ value: Any?, _ key: String = "title") -> [String] {
        if let ordered = value as? NSOrderedSet { return ordered.array.compactMap { ($0 as? NSManagedObject)?.value(forKey: key) as? String } }
        if let array = value as? [NSManagedObject] { return array.compactMap { $0.value(forKey: key) as? String } }
        if let set = value as? Set<NSManagedObject> { return set.compactMap { $0.value(forKey: key) as? String }.sorted() }
        return ["<\(type(of: value))>"]
    }

    // MARK: - Apple's layout after our save

    /// Every `sqlite_master` row (type, name, table, SQL), to compare before and after a save.
    private func layout(_ url: URL) throws -> [[String?]] {
        try SQLiteInspector.rows(at: url.path, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    }

    private func integer(_ url: URL, _ sql: String, _ bindings: [String] = []) throws -> Int? {
        (try SQLiteInspector.rows(at: url.path, sql, bindings).first?.first ?? nil).flatMap { Int($0) }
    }

    /// Runs `change` (which must insert one object into the hierarchy whose root is
    /// `rootEntityNumber` and update the row `updatedPK` of `table`), saves, and checks that the
    /// file still has Apple's layout, `Z_MAX` rose by one and the row's `Z_OPT` by one.
    private func assertSaveKeepsAppleLayout(_ url: URL, _ context: NSManagedObjectContext, table: String, rootEntityNumber: Int, updatedPK: Int,
                                            file: StaticString = #filePath, line: UInt = #line, change: () throws -> Void) throws {
        let before = try layout(url)
        let maxBefore = try XCTUnwrap(integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [String(rootEntityNumber)]), file: file, line: line)
        let optBefore = try XCTUnwrap(integer(url, "SELECT Z_OPT FROM \(table) WHERE Z_PK = ?", [String(updatedPK)]), file: file, line: line)
        let rowsBefore = try XCTUnwrap(integer(url, "SELECT COUNT(*) FROM \(table)"), file: file, line: line)
        try context.performAndWait {
            try change()
            try context.save()
        }
        XCTAssertEqual(try layout(url), before, "our save changed Apple's tables, columns or indexes", file: file, line: line)
        XCTAssertEqual(try integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [String(rootEntityNumber)]), maxBefore + 1, "Z_MAX", file: file, line: line)
        XCTAssertEqual(try integer(url, "SELECT Z_OPT FROM \(table) WHERE Z_PK = ?", [String(updatedPK)]), optBefore + 1, "Z_OPT", file: file, line: line)
        XCTAssertEqual(try integer(url, "SELECT COUNT(*) FROM \(table)"), rowsBefore + 1, file: file, line: line)
        XCTAssertEqual(try integer(url, "SELECT Z_ENT FROM \(table) WHERE Z_PK = ?", [String(maxBefore + 1)]) != nil, true, "the new row takes Z_MAX + 1 as its Z_PK", file: file, line: line)
    }

    // MARK: - CoreDataPlus SampleModel V1 and V2 (VersionInfo hashes, inheritance, renamed entity)

    private let sampleModelBundle = "alemar11__CoreDataPlus/SampleModel/SampleModel.xcdatamodeld"
    private let sampleModelCompiled = "alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel.momd"

    func testSampleModelV1OpensWithItsXcodeModelAndSaves() throws {
        let url = try copyStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let model = try model(sampleModelBundle, version: "SampleModel", compiled: sampleModelCompiled)
        let (store, context) = try open(model, at: url)
        XCTAssertEqual(store.identifier, "753753D3-A961-4901-AB05-8CC48B1D3853")
        XCTAssertTrue(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: store.metadata), "Apple's hashes from VersionInfo.plist match the store's")

        try context.performAndWait {
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Car")), 125)
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "SportCar")), 10)
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ExpensiveSportCar")), 5)
            let bmw = try one(context, "Car", "numberPlate == %@", "300")
            XCTAssertEqual(bmw.entity.name, "ExpensiveSportCar")
            XCTAssertEqual(bmw.value(forKey: "maker") as? String, "BMW")
            XCTAssertEqual(bmw.value(forKey: "model") as? String, "M6 Coupe")
            XCTAssertEqual(bmw.value(forKey: "isLimitedEdition") as? Bool, true)
            let owner = try XCTUnwrap(bmw.value(forKey: "owner") as? NSManagedObject)
            XCTAssertEqual(owner.value(forKey: "lastName") as? String, "Moreton")
            XCTAssertEqual(titles(owner.value(forKey: "cars"), "numberPlate"), ["3", "300"])
            let victoria = try one(context, "Person", "firstName == %@ AND lastName == %@", "Victoria", "Coster")
            XCTAssertEqual(victoria.value(forKey: "id") as? UUID, UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115"))
        }

        try assertSaveKeepsAppleLayout(url, context, table: "ZCAR", rootEntityNumber: 1, updatedPK: 87) {
            let bmw = try one(context, "Car", "numberPlate == %@", "300")
            bmw.setValue("M6 Gran Coupe", forKey: "model")
            let car = NSEntityDescription.insertNewObject(forEntityName: "SportCar", into: context)
            car.setValue("OCD-1", forKey: "numberPlate")
            car.setValue("Lancia", forKey: "maker")
            car.setValue(bmw.value(forKey: "owner"), forKey: "owner")
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT Z_ENT, ZMAKER, ZOWNER FROM ZCAR WHERE ZNUMBERPLATE = 'OCD-1'"), [["2", "Lancia", "9"]])
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZMODEL FROM ZCAR WHERE Z_PK = 87"), [["M6 Gran Coupe"]])
    }

    func testSampleModelV2OpensDespiteTheRenamedEntityInZPrimaryKey() throws {
        // Z_PRIMARYKEY still names entity 3 "ExpensiveSportCar"; the model and the metadata
        // call it LuxuryCar (renaming identifier "ExpensiveSportCar").
        let url = try copyStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V2.sqlite")
        let model = try model(sampleModelBundle, version: "SampleModel2", compiled: sampleModelCompiled)
        let (store, context) = try open(model, at: url)
        XCTAssertEqual(store.metadata[NSStoreModelVersionIdentifiersKey] as? [String], ["2"])
        try context.performAndWait {
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "LuxuryCar")), 5)
            let bmw = try one(context, "Car", "numberPlate == %@", "300")
            XCTAssertEqual(bmw.entity.name, "LuxuryCar")
            XCTAssertEqual(bmw.objectID.uriRepresentation().absoluteString, "x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/LuxuryCar/p87")
            let owner = try XCTUnwrap(bmw.value(forKey: "owner") as? NSManagedObject)
            XCTAssertEqual(owner.value(forKey: "firstName") as? String, "Faron")
            let updatedAt = try XCTUnwrap(owner.value(forKey: "updatedAt") as? Date)
            XCTAssertEqual(updatedAt.timeIntervalSinceReferenceDate, 639_503_569.638571, accuracy: 1e-6)
            XCTAssertEqual(try fetch(context, "Person", "lastName == %@", "Moreton").count, 2)
        }
        try assertSaveKeepsAppleLayout(url, context, table: "ZPERSON", rootEntityNumber: 4, updatedPK: 9) {
            let faron = try one(context, "Person", "firstName == %@", "Faron")
            faron.setValue("Moreton-Smith", forKey: "lastName")
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue("Ada", forKey: "firstName")
            person.setValue(Date(timeIntervalSinceReferenceDate: 700_000_000), forKey: "updatedAt")
        }
        // TIMESTAMP has NUMERIC affinity: SQLite keeps a whole number of seconds as an integer.
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZFIRSTNAME, ZUPDATEDAT FROM ZPERSON WHERE Z_PK = 21"), [["Ada", "700000000"]])
    }

    func testARenamingIdentifierNamingAnotherEntityOfTheStoreIsRefusedNotATrap() throws {
        // Without Apple's hashes the store is matched by entity names, renaming identifiers
        // included: "Ghost" (renaming identifier "Person") takes Person's Z_ENT too.
        let url = try copyStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let model = try model(sampleModelBundle, version: "SampleModel")
        let ghost = NSEntityDescription(name: "Ghost", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
        ghost.renamingIdentifier = "Person"
        model.entities = model.entities + [ghost]
        XCTAssertThrowsError(try open(model, at: url, readOnly: true)) { error in
            XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
            XCTAssertEqual((error as NSError).code, NSPersistentStoreIncompatibleVersionHashError)
            XCTAssertTrue((error as NSError).localizedDescription.contains("Z_PRIMARYKEY"), (error as NSError).localizedDescription)
        }
    }

    func testSampleModelStoreRefusesTheOtherVersionByAppleHashes() throws {
        let url = try copyStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let v2 = try model(sampleModelBundle, version: "SampleModel2", compiled: sampleModelCompiled)
        XCTAssertThrowsError(try open(v2, at: url, readOnly: true)) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreIncompatibleVersionHashError)
            XCTAssertTrue((error as NSError).localizedDescription.contains("Apple's version hashes"), (error as NSError).localizedDescription)
        }
        XCTAssertFalse(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)))
    }

    // MARK: - CoreDataPlus SampleModel3 (newest framework version, checksum)

    func testSampleModel3V1OpensWithItsXcodeModelAndSaves() throws {
        let url = try copyStore("alemar11__CoreDataPlus/SampleModel3/Fixtures/SampleModel3_V1.sqlite")
        let model = try model("alemar11__CoreDataPlus/SampleModel3/SampleModel3.xcdatamodeld", version: "SampleModel3",
                              compiled: "alemar11__CoreDataPlus/SampleModel3/Fixtures/SampleModel3.momd")
        let (store, context) = try open(model, at: url)
        XCTAssertEqual(store.identifier, "5443A63D-EF0E-44C2-B216-AE8B5ED2FD09")
        try context.performAndWait {
            let users = try fetch(context, "User")
            XCTAssertEqual(users.count, 12)
            XCTAssertEqual(try one(context, "User", "petName == %@", "Dog_1_3").value(forKey: "name") as? String, "User_1")
            XCTAssertEqual(try fetch(context, "User", "name == %@", "User_0").count, try XCTUnwrap(integer(url, "SELECT COUNT(*) FROM ZUSER WHERE ZNAME = 'User_0'")))
        }
        try assertSaveKeepsAppleLayout(url, context, table: "ZUSER", rootEntityNumber: 1, updatedPK: 1) {
            try one(context, "User", "petName == %@", "Dog_2_0").setValue("Cat_2_0", forKey: "petName")
            NSEntityDescription.insertNewObject(forEntityName: "User", into: context).setValue("User_3", forKey: "name")
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZNAME, ZPETNAME FROM ZUSER WHERE Z_PK = 1"), [["User_2", "Cat_2_0"]])
    }

    // MARK: - BrowserServicesKit Bookmarks V1-V5 (rows only in the WAL; ordered relationships)

    private let bookmarksBundle = "duckduckgo__BrowserServicesKit/Bookmarks/BookmarksModel.xcdatamodeld"

    /// V1 and V2: ordered one-to-many `children`/`parent` and `favorites`/`favoriteFolder`.
    private func checkBookmarksWithFavoriteFolder(_ version: Int, modelVersion: String) throws {
        let url = try copyStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V\(version).sqlite")
        let (_, context) = try open(try model(bookmarksBundle, version: modelVersion), at: url)
        try context.performAndWait {
            XCTAssertEqual(try fetch(context, "BookmarkEntity").count, 10)
            let root = try one(context, "BookmarkEntity", "uuid == %@", "bookmarks_root")
            XCTAssertEqual(root.value(forKey: "isFolder") as? Bool, true)
            XCTAssertEqual(titles(root.value(forKey: "children")), ["1", "2", "3", "4", "5"])
            let folder = try one(context, "BookmarkEntity", "uuid == %@", "3")
            XCTAssertEqual(titles(folder.value(forKey: "children")), ["31", "32", "33"])
            XCTAssertEqual((folder.value(forKey: "parent") as? NSManagedObject)?.value(forKey: "uuid") as? String, "bookmarks_root")
            let favorites = try one(context, "BookmarkEntity", "uuid == %@", "favorites_root")
            XCTAssertEqual(titles(favorites.value(forKey: "favorites")), ["5", "4", "33", "32", "2"])
            XCTAssertEqual(try one(context, "BookmarkEntity", "uuid == %@", "33").value(forKey: "url") as? String, "33")
        }
    }

    func testBookmarksV1OpensWithItsXcodeModel() throws {
        try checkBookmarksWithFavoriteFolder(1, modelVersion: "BookmarksModel")
    }

    func testBookmarksV2OpensWithItsXcodeModel() throws {
        try checkBookmarksWithFavoriteFolder(2, modelVersion: "BookmarksModel 2")
    }

    func testBookmarksV3OpensWithItsXcodeModelAndSaves() throws {
        let url = try copyStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V3.sqlite")
        let (_, context) = try open(try model(bookmarksBundle, version: "BookmarksModel 3"), at: url)
        try context.performAndWait {
            let root = try one(context, "BookmarkEntity", "uuid == %@", "bookmarks_root")
            XCTAssertEqual(titles(root.value(forKey: "children")), ["1", "2", "3", "4", "5"])
            let favorites = try one(context, "BookmarkEntity", "uuid == %@", "favorites_root")
            XCTAssertEqual(titles(favorites.value(forKey: "favorites")), ["5", "4", "33", "32", "2"])
            let two = try one(context, "BookmarkEntity", "uuid == %@", "2")
            XCTAssertEqual(two.value(forKey: "isPendingDeletion") as? Bool, false)
            let modified = try XCTUnwrap(two.value(forKey: "modifiedAt") as? Date)
            XCTAssertEqual(modified.timeIntervalSinceReferenceDate, 722_787_770.189348, accuracy: 1e-6)
        }
        try assertSaveKeepsAppleLayout(url, context, table: "ZBOOKMARKENTITY", rootEntityNumber: 1, updatedPK: 1) {
            let two = try one(context, "BookmarkEntity", "uuid == %@", "2")
            two.setValue("two", forKey: "title")
            let new = NSEntityDescription.insertNewObject(forEntityName: "BookmarkEntity", into: context)
            new.setValue("6", forKey: "uuid")
            new.setValue("6", forKey: "title")
            new.setValue(false, forKey: "isFolder")
            new.setValue(try one(context, "BookmarkEntity", "uuid == %@", "bookmarks_root"), forKey: "parent")
        }
        // Appended last to the ordered children: Apple's Z_FOK_ values are spaced by 1024.
        let (_, reopened) = try open(try model(bookmarksBundle, version: "BookmarksModel 3"), at: url, readOnly: true)
        try reopened.performAndWait {
            XCTAssertEqual(titles(try one(reopened, "BookmarkEntity", "uuid == %@", "bookmarks_root").value(forKey: "children")), ["1", "two", "3", "4", "5", "6"])
        }
    }

    /// V4 and V5: ordered many-to-many `favorites` ↔ `favoriteFolders` in `Z_1FAVORITES`.
    private func checkBookmarksWithFavoritesJoinTable(_ version: Int) throws -> (URL, NSManagedObjectContext) {
        let url = try copyStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V\(version).sqlite")
        let (_, context) = try open(try model(bookmarksBundle, version: "BookmarksModel \(version)"), at: url)
        try context.performAndWait {
            XCTAssertEqual(try fetch(context, "BookmarkEntity").count, 10)
            let root = try one(context, "BookmarkEntity", "uuid == %@", "bookmarks_root")
            XCTAssertEqual(titles(root.value(forKey: "children")), ["1", "2", "3", "4", "5"])
            let favorites = try one(context, "BookmarkEntity", "uuid == %@", "favorites_root")
            XCTAssertEqual(titles(favorites.value(forKey: "favorites")), ["5", "4", "33", "32", "2"])
            let five = try one(context, "BookmarkEntity", "uuid == %@", "5")
            XCTAssertEqual(titles(five.value(forKey: "favoriteFolders"), "uuid"), ["favorites_root"])
            XCTAssertEqual(titles(try one(context, "BookmarkEntity", "uuid == %@", "1").value(forKey: "favoriteFolders"), "uuid"), [])
        }
        return (url, context)
    }

    func testBookmarksV4OpensWithItsXcodeModel() throws {
        _ = try checkBookmarksWithFavoritesJoinTable(4)
    }

    func testBookmarksV5OpensWithItsXcodeModelAndSaves() throws {
        let (url, context) = try checkBookmarksWithFavoritesJoinTable(5)
        try assertSaveKeepsAppleLayout(url, context, table: "ZBOOKMARKENTITY", rootEntityNumber: 1, updatedPK: 5) {
            let one1 = try one(context, "BookmarkEntity", "uuid == %@", "1")
            one1.setValue("https://example.org", forKey: "url")
            let new = NSEntityDescription.insertNewObject(forEntityName: "BookmarkEntity", into: context)
            new.setValue("6", forKey: "uuid")
            new.setValue(false, forKey: "isFolder")
            new.setValue(try one(context, "BookmarkEntity", "uuid == %@", "bookmarks_root"), forKey: "parent")
            let favorites = try one(context, "BookmarkEntity", "uuid == %@", "favorites_root")
            favorites.mutableOrderedSetValue(forKey: "favorites").add(new)
        }
        XCTAssertEqual(try integer(url, "SELECT COUNT(*) FROM Z_1FAVORITES"), 6)
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZURL FROM ZBOOKMARKENTITY WHERE ZUUID = '1'"), [["https://example.org"]])
    }

    // MARK: - BrowserServicesKit SyncMetadata V3 (two entities, uniqueness constraints)

    func testSyncMetadataV3OpensWithItsXcodeModelAndSaves() throws {
        let url = try copyStore("duckduckgo__BrowserServicesKit/SyncMetadata/SyncMetadata_V3.sqlite")
        let model = try model("duckduckgo__BrowserServicesKit/SyncMetadata/SyncMetadata.xcdatamodeld", version: "SyncMetadata 3")
        let (store, context) = try open(model, at: url)
        XCTAssertEqual(store.identifier, "5723F9B2-DDD6-404B-AD62-4BC3B3A09A3C")
        try context.performAndWait {
            let two = try one(context, "SyncableSettingsMetadata", "key == %@", "TestSetting-02")
            XCTAssertEqual(try XCTUnwrap(two.value(forKey: "lastModified") as? Date).timeIntervalSinceReferenceDate, 733_068_222.001259, accuracy: 1e-6)
            XCTAssertNil(try one(context, "SyncableSettingsMetadata", "key == %@", "TestSetting-01").value(forKey: "lastModified"))
            let feature = try one(context, "SyncFeatureEntity", "name == %@", "TestFeature-02")
            XCTAssertEqual(feature.value(forKey: "state") as? String, "readyToSync")
            XCTAssertEqual(feature.value(forKey: "lastModified") as? String, "1234")
        }
        try assertSaveKeepsAppleLayout(url, context, table: "ZSYNCFEATUREENTITY", rootEntityNumber: 2, updatedPK: 2) {
            try one(context, "SyncFeatureEntity", "name == %@", "TestFeature-01").setValue("readyToSync", forKey: "state")
            NSEntityDescription.insertNewObject(forEntityName: "SyncFeatureEntity", into: context).setValue("TestFeature-03", forKey: "name")
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT Z_PK, Z_ENT, ZNAME FROM ZSYNCFEATUREENTITY WHERE ZNAME = 'TestFeature-03'"), [["3", "2", "TestFeature-03"]])
    }

    // MARK: - MagicalRecord Recipes (framework version 241, Xcode 3 model, rollback journal)

    func testRecipesOpensWithItsLegacyXcodeModelAndSaves() throws {
        let url = try copyStore("magicalpanda__MagicalRecord/Recipes/Recipes.sqlite")
        let model = try NSManagedObjectModel.load(contentsOf: try appleStores().appendingPathComponent("magicalpanda__MagicalRecord/Recipes/Recipes.xcdatamodeld"))
        let (store, context) = try open(model, at: url)
        XCTAssertEqual(store.identifier, "124B4E21-BB5D-4A2F-9882-EC2E73F3A0F4")
        try context.performAndWait {
            XCTAssertEqual(try fetch(context, "Recipe").count, 7)
            let cake = try one(context, "Recipe", "name == %@", "Chocolate Cake")
            XCTAssertEqual(cake.value(forKey: "prepTime") as? String, "1 hour")
            XCTAssertEqual((cake.value(forKey: "type") as? NSManagedObject)?.value(forKey: "name") as? String, "Dessert")
            let image = try XCTUnwrap((cake.value(forKey: "image") as? NSManagedObject)?.value(forKey: "image") as? Data)
            XCTAssertEqual(image.count, 8149)
            XCTAssertEqual(Array(image.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG, as written")
            let ingredients = try XCTUnwrap(cake.value(forKey: "ingredients") as? Set<NSManagedObject>)
            XCTAssertEqual(ingredients.count, 9)
            XCTAssertTrue(ingredients.contains { $0.value(forKey: "name") as? String == "Self-raising flour" && $0.value(forKey: "amount") as? String == "7 ounces" && $0.value(forKey: "displayOrder") as? Int == 7 })
            XCTAssertEqual(try one(context, "Recipe", "overview == %@", "Belgian-style waffles").value(forKey: "name") as? String, "Gaufres de Liège")
            XCTAssertEqual(titles(try one(context, "RecipeType", "name == %@", "Snack").value(forKey: "recipes"), "name"), ["Gaufres de Liège", "Ginger snaps"])
        }
        try assertSaveKeepsAppleLayout(url, context, table: "ZRECIPE", rootEntityNumber: 3, updatedPK: 9) {
            try one(context, "Recipe", "name == %@", "Crèpes Suzette").setValue("25 min", forKey: "prepTime")
            let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: context)
            recipe.setValue("Far breton", forKey: "name")
            recipe.setValue(try one(context, "RecipeType", "name == %@", "Dessert"), forKey: "type")
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT Z_PK, ZNAME, ZTYPE FROM ZRECIPE WHERE ZNAME = 'Far breton'"), [["11", "Far breton", "5"]])
    }

    // MARK: - Stores without models: opened read-only with a model recovered from the schema

    private func openRecovered(_ relative: String, usingModelCache: Bool) throws -> (NSManagedObjectModel, NSPersistentStore, NSManagedObjectContext) {
        let url = try copyStore(relative)
        let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url, usingModelCache: usingModelCache)
        let (store, context) = try open(model, at: url, readOnly: true)
        XCTAssertTrue(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: store.metadata))
        return (model, store, context)
    }

    private func count(_ context: NSManagedObjectContext, _ entity: String) throws -> Int {
        try context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity))
    }

    func testSampleModel2V2OpensWithARecoveredModel() throws {
        // Programmatic model (not in the fixtures); history tracking, derived-attribute triggers.
        let (model, _, context) = try openRecovered("alemar11__CoreDataPlus/SampleModel2/Fixtures/SampleModel2_V2.sqlite", usingModelCache: false)
        XCTAssertEqual(model.entitiesByName.keys.sorted(), ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"])
        XCTAssertEqual(model.entitiesByName["GraphicNovel"]?.superentity?.name, "Book")
        XCTAssertEqual(model.entitiesByName["Author"]?.superentity?.name, "Writer")
        XCTAssertEqual(model.entitiesByName["Book"]?.attributesByName["price"]?.attributeType, .decimalAttributeType)
        XCTAssertEqual(model.entitiesByName["Page"]?.relationshipsByName["book"]?.destinationEntity?.name, "Book", "from the Z1_BOOK companion column")
        XCTAssertEqual(model.entitiesByName["Book"]?.relationshipsByName["author"]?.destinationEntity?.name, "Author", "from the column's name")
        try context.performAndWait {
            XCTAssertEqual(try count(context, "Book"), 3)
            XCTAssertEqual(try count(context, "GraphicNovel"), 1)
            XCTAssertEqual(try count(context, "Page"), 119)
            let book = try one(context, "Book", "title == %@", "title 1 - author 1")
            XCTAssertEqual(book.value(forKey: "price") as? Decimal, Decimal(string: "10.11"))
            XCTAssertEqual(book.value(forKey: "pagescount") as? Int, 99)
            XCTAssertEqual((book.value(forKey: "uniqueid") as? Data)?.prefix(4), Data([0xAE, 0x28, 0x9A, 0x08]))
            let author = try XCTUnwrap(book.value(forKey: "author") as? NSManagedObject)
            XCTAssertEqual(author.entity.name, "Author")
            XCTAssertEqual(author.value(forKey: "alias") as? String, "Alessandro")
            XCTAssertEqual(author.value(forKey: "age") as? Int, 40)
            XCTAssertEqual(titles(author.value(forKey: "authorInverse")), ["title 1 - author 1", "title 2 - author 1", "title graphic novel - author 1"])
            let novel = try one(context, "Book", "isblackandwhite == 1")
            XCTAssertEqual(novel.entity.name, "GraphicNovel")
            let page = try one(context, "Page", "number == 97")
            XCTAssertEqual((page.value(forKey: "book") as? NSManagedObject)?.value(forKey: "title") as? String, "title 1 - author 1")
            XCTAssertEqual(try one(context, "Feedback", "comment == %@", "great book").value(forKey: "rating") as? Double, 4.2)
        }
    }

    func testSampleModel2V1OpensWithTheModelFromItsModelCache() throws {
        // Z_MODELCACHE gives the real names, types and relationships (with inverses).
        let (model, _, context) = try openRecovered("alemar11__CoreDataPlus/SampleModel2/Fixtures/SampleModel2_V1.sqlite", usingModelCache: true)
        XCTAssertTrue(model.loadingWarnings.contains { $0.contains("Z_MODELCACHE") }, "\(model.loadingWarnings)")
        let book = try XCTUnwrap(model.entitiesByName["Book"])
        XCTAssertEqual(book.attributesByName["pagesCount"]?.attributeType, .integer64AttributeType)
        XCTAssertEqual(book.attributesByName["cover"]?.attributeType, .transformableAttributeType)
        XCTAssertEqual(book.relationshipsByName["pages"]?.inverseRelationship?.name, "book")
        XCTAssertEqual(book.relationshipsByName["pages"]?.deleteRule, .cascadeDeleteRule)
        XCTAssertEqual(model.entitiesByName["Writer"]?.isAbstract, true)
        XCTAssertEqual(model.entitiesByName["Author"]?.superentity?.name, "Writer")
        XCTAssertNil(model.entitiesByName["Author"]?.propertiesByName["age"].flatMap { p in model.entitiesByName["Author"]?.properties.first { $0 === p } },
                     "inherited from Writer, not declared again")
        XCTAssertEqual(model.entitiesByName["Author"]?.attributesByName["siteURL"]?.attributeType, .URIAttributeType)
        try context.performAndWait {
            XCTAssertEqual(try count(context, "Book"), 52)
            XCTAssertEqual(try count(context, "Page"), 4970)
            XCTAssertEqual(try count(context, "Feedback"), 444)
            let andrea = try one(context, "Writer", "alias == %@", "Andrea")
            XCTAssertEqual(andrea.entity.name, "Author")
            XCTAssertEqual(andrea.value(forKey: "age") as? Int, 30)
            let book = try one(context, "Book", "title == %@", "title 2 - author 2")
            XCTAssertEqual(book.value(forKey: "price") as? Decimal, Decimal(string: "10.11"))
            XCTAssertEqual(book.value(forKey: "pagesCount") as? Int, 99)
            XCTAssertEqual((book.value(forKey: "author") as? NSManagedObject)?.value(forKey: "alias") as? String, "Andrea")
            XCTAssertEqual((book.value(forKey: "pages") as? Set<NSManagedObject>)?.count, 99)
        }
    }

    func testSampleModelV2OpensWithTheModelFromItsModelCache() throws {
        // The cached model names entity 3 LuxuryCar (renaming identifier ExpensiveSportCar).
        let (model, _, context) = try openRecovered("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V2.sqlite", usingModelCache: true)
        XCTAssertEqual(model.entitiesByName["LuxuryCar"]?.renamingIdentifier, "ExpensiveSportCar")
        XCTAssertEqual(model.entitiesByName["LuxuryCar"]?.attributesByName["isLimitedEdition"]?.attributeType, .booleanAttributeType)
        try context.performAndWait {
            let bmw = try one(context, "Car", "numberPlate == %@", "300")
            XCTAssertEqual(bmw.entity.name, "LuxuryCar")
            XCTAssertEqual(bmw.value(forKey: "isLimitedEdition") as? Bool, true)
            XCTAssertEqual((bmw.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "lastName") as? String, "Moreton")
        }
    }

    func testNetusageOpensWithTheModelFromItsModelCache() throws {
        let (model, _, context) = try openRecovered("log2timeline__plaso/ios/netusage.sqlite", usingModelCache: true)
        XCTAssertEqual(model.entitiesByName["App"]?.relationshipsByName["hasTypicalUsage"]?.isOrdered, true)
        XCTAssertEqual(model.entitiesByName["LiveUsage"]?.relationshipsByName["hasProcess"]?.inverseRelationship?.name, "hasLiveUsage")
        try context.performAndWait {
            XCTAssertEqual(try count(context, "Process"), 260)
            let usage = try one(context, "LiveUsage", "timeStamp == %@", Date(timeIntervalSinceReferenceDate: 632_604_217.411826))
            XCTAssertEqual(usage.value(forKey: "wifiIN") as? Double, 2_246_216)
            XCTAssertEqual((usage.value(forKey: "hasProcess") as? NSManagedObject)?.value(forKey: "procName") as? String, "configd")
        }
    }

    func testKikOpensWithARecoveredModel() throws {
        // Framework version 519: no Z_MODELCACHE; reflexive many-to-many join tables.
        let (model, _, context) = try openRecovered("log2timeline__plaso/ios/kik.sqlite", usingModelCache: true)
        let user = try XCTUnwrap(model.entitiesByName["KikUser"])
        XCTAssertEqual(user.relationshipsByName["members"]?.inverseRelationship?.name, "membersinverse")
        XCTAssertEqual(user.relationshipsByName["bansinverse"]?.inverseRelationship?.name, "bans")
        XCTAssertEqual(model.entitiesByName["KikChat"]?.relationshipsByName["messages"]?.destinationEntity?.name, "KikMessage")
        XCTAssertEqual(model.entitiesByName["KikChat"]?.relationshipsByName["extra"]?.destinationEntity?.name, "KikChatExtra")
        try context.performAndWait {
            XCTAssertEqual(try count(context, "KikMessage"), 60)
            XCTAssertEqual(try count(context, "KikUser"), 25)
            let group = try one(context, "KikUser", "displayname == %@", "EveryoneButRoss")
            XCTAssertEqual(group.value(forKey: "jid") as? String, "1100024090445_g@groups.kik.com")
            XCTAssertEqual(titles(group.value(forKey: "members"), "displayname"), ["Ken Doh", "Mark Jenkins", "Sina Babadi", "Solid Snake"])
            let ken = try one(context, "KikUser", "displayname == %@", "Ken Doh")
            XCTAssertEqual(titles(ken.value(forKey: "membersinverse"), "displayname"), ["EveryoneButRoss"])
            let andy = try one(context, "KikUser", "jid == %@", "jon.doh2015_mql@talk.kik.com")
            XCTAssertEqual(andy.value(forKey: "firstname") as? String, "Andy")
            let chatID = try XCTUnwrap(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: URL(string: "x-coredata://FD0CDBFF-F80E-4D08-B817-2F3BFB4EFF5D/KikChat/p1")!))
            let chat = try context.existingObject(with: chatID)
            XCTAssertEqual((chat.value(forKey: "user") as? NSManagedObject)?.value(forKey: "displayname") as? String, "Kik Team")
            let messages = try XCTUnwrap(chat.value(forKey: "messages") as? Set<NSManagedObject>)
            XCTAssertEqual(messages.count, 1)
            let welcome = try XCTUnwrap(messages.first)
            XCTAssertTrue((welcome.value(forKey: "body") as? String)?.hasPrefix("Welcome to Kik, the super fast smartphone messenger!") ?? false)
            XCTAssertEqual(try XCTUnwrap(welcome.value(forKey: "timestamp") as? Date).timeIntervalSinceReferenceDate, 457_260_372.024, accuracy: 1e-6)
        }
    }

    func testNetusageOpensWithARecoveredModel() throws {
        // Inheritance Process ← App, a to-one into the hierarchy (Z15_HASPROCESS), Z_FOK_HASAPP.
        let (model, _, context) = try openRecovered("log2timeline__plaso/ios/netusage.sqlite", usingModelCache: false)
        XCTAssertEqual(model.entities.count, 18)
        XCTAssertEqual(model.entitiesByName["App"]?.superentity?.name, "Process")
        XCTAssertEqual(model.entitiesByName["App"]?.relationshipsByName["hasappInverseFromAppRun"]?.isOrdered, false)
        XCTAssertEqual(model.entitiesByName["App"]?.relationshipsByName["hasappInverseFromAppTypicalUsage"]?.isOrdered, true, "Z_FOK_HASAPP orders it")
        try context.performAndWait {
            XCTAssertEqual(try count(context, "Process"), 260)
            XCTAssertEqual(try count(context, "App"), 75)
            XCTAssertEqual(try count(context, "LiveUsage"), 335)
            XCTAssertEqual(try one(context, "Process", "procname == %@", "com.apple.purplebuddy").entity.name, "App")
            let usage = try one(context, "LiveUsage", "timestamp == %@", Date(timeIntervalSinceReferenceDate: 632_604_217.411826))
            XCTAssertEqual(usage.value(forKey: "wifiin") as? Double, 2_246_216)
            let process = try XCTUnwrap(usage.value(forKey: "hasprocess") as? NSManagedObject)
            XCTAssertEqual(process.entity.name, "Process")
            XCTAssertEqual(process.value(forKey: "procname") as? String, "configd")
            XCTAssertEqual(try one(context, "NetworkAttachment", "identifier == %@", "Carrier-18005506").value(forKey: "kind") as? Int, 2)
        }
    }

    func testDataUsageOpensWithARecoveredModel() throws {
        let (model, store, context) = try openRecovered("log2timeline__plaso/ios/DataUsage.sqlite", usingModelCache: false)
        XCTAssertEqual(store.identifier, "78771074-CDF9-407D-BC49-72EB4E613503")
        XCTAssertEqual(model.entitiesByName["Event"]?.relationshipsByName["hasscene"]?.destinationEntity?.name, "EventScene")
        XCTAssertEqual(model.entitiesByName["TshootingData"]?.relationshipsByName["withcheckupevent"]?.destinationEntity?.name, "CheckUpEvent")
        try context.performAndWait {
            XCTAssertEqual(try count(context, "LiveUsage"), 887)
            XCTAssertEqual(try count(context, "Process"), 371)
            let usage = try one(context, "LiveUsage", "wwanin == %@", 1_185_814_689.0)
            XCTAssertEqual(usage.value(forKey: "kind") as? Int, 255)
            XCTAssertEqual((usage.value(forKey: "hasprocess") as? NSManagedObject)?.value(forKey: "procname") as? String, "CumulativeUsageTracker")
            XCTAssertEqual(try one(context, "Process", "bundlename == %@", "com.apple.Fitness").value(forKey: "procname") as? String,
                           "1FB47783-A2FE-47D9-B256-DF50EF44BBA4/com.apple.Fitness")
        }
    }

    func testABrokenModelCacheFallsBackToTheSchema() throws {
        // Not DEFLATE; DEFLATE of a truncated stream; DEFLATE of text that is no archive
        // (raw deflate of "hello", made with zlib.compressobj(wbits=-15)).
        for content in ["x'00112233445566778899'", "(SELECT substr(Z_CONTENT, 1, 200) FROM Z_MODELCACHE)", "x'cb48cdc9c90700'"] {
            let url = try copyStore("alemar11__CoreDataPlus/SampleModel3/Fixtures/SampleModel3_V1.sqlite")
            try SQLiteInspector.execute(at: url.path, "UPDATE Z_MODELCACHE SET Z_CONTENT = \(content)")
            let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url)
            XCTAssertTrue(model.loadingWarnings.contains { $0.contains("Z_MODELCACHE could not be used") }, "\(content): \(model.loadingWarnings)")
            XCTAssertEqual(model.entitiesByName["User"]?.attributesByName.keys.sorted(), ["name", "petname"], "rebuilt from the schema")
            let (_, context) = try open(model, at: url, readOnly: true)
            try context.performAndWait { XCTAssertEqual(try fetch(context, "User", "petname == %@", "Dog_1_3").first?.value(forKey: "name") as? String, "User_1") }
        }
    }

    func testRecoveringFromAFileThatIsNotAStoreFailsClearly() throws {
        let directory = try makeTemporaryDirectory("ocd-recover")
        let text = directory.appendingPathComponent("notes.sqlite")
        try Data("just some text, not a database".utf8).write(to: text)
        XCTAssertThrowsError(try NSManagedObjectModel.recovered(fromSQLiteStoreAt: text)) { error in
            XCTAssertEqual((error as NSError).code, NSFileReadCorruptFileError)
            XCTAssertTrue((error as NSError).localizedDescription.contains("not a SQLite database"), (error as NSError).localizedDescription)
        }
        XCTAssertEqual(try String(contentsOf: text, encoding: .utf8), "just some text, not a database", "left unchanged")
        XCTAssertThrowsError(try NSManagedObjectModel.recovered(fromSQLiteStoreAt: directory.appendingPathComponent("missing.sqlite"))) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreOpenError)
        }
    }
}
