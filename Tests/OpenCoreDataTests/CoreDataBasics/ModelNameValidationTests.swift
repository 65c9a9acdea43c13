@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Names in a model become table, column and index names in the SQLite store, so a model is
/// refused (134060, naming the name) unless each entity, property, configuration and fetch-index
/// name is a letter followed by letters, digits and underscores, as Xcode requires; and a name
/// read from a store file never reaches SQL as SQL.
final class ModelNameValidationTests: XCTestCase {
    private func addingStore(_ build: (NSManagedObjectModel) -> Void, at url: URL? = nil) -> NSError? {
        let model = CompanyModel.make()
        build(model)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(ofType: url == nil ? NSInMemoryStoreType : NSSQLiteStoreType, configurationName: nil, at: url)
            return nil
        } catch { return error as NSError }
    }

    func testAnEntityNameHoldingSQLIsRefusedBeforeTheStoreFileIsCreated() throws {
        let url = try makeTemporaryDirectory("ocd-names").appendingPathComponent("Store.sqlite")
        let name = "X (A); DROP TABLE Z_METADATA; CREATE TABLE Y"
        let error = addingStore({ $0.entitiesByName["Badge"]!.name = name }, at: url)
        XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
        XCTAssertEqual(error?.code, NSCoreDataError)
        XCTAssertTrue(error?.localizedDescription.contains("Entity name '\(name)' is not allowed") ?? false, "\(String(describing: error))")
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing may be written for a model that is refused")
    }

    func testNamesWithSpacesQuotesOrApostrophesAreRefusedWithAModelError() {
        for bad in ["Two words", "Quote\"d", "O'Brien", "1stPlace", "_hidden", "Ünïcode", "semi;colon", ""] where !bad.isEmpty {
            let entity = addingStore { $0.entitiesByName["Badge"]!.name = bad }
            XCTAssertEqual(entity?.code, NSCoreDataError, bad)
            XCTAssertTrue(entity?.localizedDescription.contains("'\(bad)' is not allowed") ?? false, bad)
            let property = addingStore { $0.entitiesByName["Employee"]!.attributesByName["firstName"]!.name = bad }
            XCTAssertEqual(property?.code, NSCoreDataError, bad)
            XCTAssertTrue(property?.localizedDescription.contains("'Employee.\(bad)' is not allowed") ?? false, bad)
            let configuration = addingStore { $0.setEntities([$0.entitiesByName["Department"]!], forConfigurationName: bad) }
            XCTAssertTrue(configuration?.localizedDescription.contains("Configuration name '\(bad)' is not allowed") ?? false, bad)
        }
        XCTAssertNil(addingStore { $0.entitiesByName["Badge"]!.name = "Badge_2" }, "letters, digits and underscores are fine")
    }

    func testAPropertyNamedLikeAnNSManagedObjectMemberIsRefused() {
        for reserved in ["description", "entity", "objectID", "isDeleted", "hasChanges"] {
            let error = addingStore { $0.entitiesByName["Employee"]!.attributesByName["firstName"]!.name = reserved }
            XCTAssertEqual(error?.code, NSCoreDataError, reserved)
            XCTAssertTrue(error?.localizedDescription.contains("'Employee.\(reserved)' is reserved") ?? false, reserved)
        }
    }

    func testAFetchIndexNameHoldingSQLIsRefused() {
        let error = addingStore { model in
            let employee = model.entitiesByName["Employee"]!
            let element = NSFetchIndexElementDescription(property: employee.attributesByName["lastName"]!, collationType: .binary)
            employee.indexes = [NSFetchIndexDescription(name: "byName ON ZEMPLOYEE (ZLASTNAME); DROP TABLE Z_METADATA; --", elements: [element])]
        }
        XCTAssertEqual(error?.code, NSCoreDataError)
        XCTAssertTrue(error?.localizedDescription.contains("Fetch index 'byName ON") ?? false, "\(String(describing: error))")
    }

    /// A hostile store: its Z_PRIMARYKEY names an entity with SQL in the name. Recovering its
    /// model and inspecting it run no SQL from the file; inspecting it says which name is wrong, and
    /// the recovered model can't be used to lay out a store.
    func testANameReadFromAStoreFileNeverRunsAsSQL() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer")])
        let hostile = "Evil; DROP TABLE Z_METADATA; --"
        try SQLiteInspector.execute(at: store.url.path, "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (99, '\(hostile)', 0, 0)")

        let recovered = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: store.url, usingModelCache: false)
        XCTAssertNotNil(recovered.entitiesByName[hostile])
        let (status, _, errors) = try runOCD(["inspect", store.url.path])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(errors.contains("Entity name 'Evil; DROP TABLE Z_METADATA; --' is not allowed"), errors)
        XCTAssertEqual(try SQLiteInspector.rows(at: store.url.path, "SELECT count(*) FROM sqlite_master WHERE name = 'Z_METADATA'"), [["1"]])

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: recovered)
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store.url)) {
            XCTAssertEqual(($0 as NSError).code, NSCoreDataError)
        }
        XCTAssertThrowsError(try StoreSchema(model: recovered, entityNumbers: nil, existingTables: [])) {
            XCTAssertTrue(($0 as? StoreSchemaError)?.message.contains("is not allowed") ?? false)
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: store.url.path, "SELECT count(*) FROM sqlite_master WHERE name = 'Z_METADATA'"), [["1"]])
    }

    func testTheSQLiteConnectionRunsOneStatementPerCall() throws {
        let url = try makeTemporaryDirectory("ocd-names").appendingPathComponent("plain.sqlite")
        let db = try SQLiteConnection(path: url.path, readOnly: false)
        defer { db.close() }
        try db.execute("CREATE TABLE T (a INTEGER);")
        XCTAssertThrowsError(try db.execute("INSERT INTO T VALUES (1); DROP TABLE T")) {
            XCTAssertTrue(($0 as? SQLiteError)?.message.contains("more than one statement") ?? false, "\($0)")
        }
        XCTAssertEqual(try db.tableNames(), ["T"], "the second statement did not run")
        XCTAssertEqual(try db.query("SELECT count(*) FROM T") { $0.int64(at: 0) }, [0], "nor did the first")
        try db.execute("  -- nothing to run\n")
    }
}
