import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// A SQLite store at `/dev/null`: the way apps' test suites get an in-memory SQLite store on
/// Apple platforms (Apple's WWDC 2018 "Core Data Best Practices" recommends it). It behaves as a
/// SQLite store (SQL fetches, uniqueness constraints) and keeps nothing: each store has its own
/// empty database, and `/dev/null` itself is never touched.
final class SQLiteDevNullStoreTests: XCTestCase {
    private let devNull = URL(fileURLWithPath: "/dev/null")

    private func isNullDevice() throws -> Bool {
        try FileManager.default.attributesOfItem(atPath: devNull.path)[.type] as? FileAttributeType == .typeCharacterSpecial
    }

    private func container(_ model: NSManagedObjectModel = CompanyModel.make()) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Company", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: devNull)
        description.type = NSSQLiteStoreType
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    func testADevNullStoreIsAnInMemorySQLiteStore() throws {
        let container = try container()
        let store = try XCTUnwrap(container.persistentStoreCoordinator.persistentStores.first)
        XCTAssertEqual(store.type, NSSQLiteStoreType)
        let context = container.viewContext
        let ann = Employee(context: context)
        ann.firstName = "Ann"
        ann.salary = 3000
        let bob = Employee(context: context)
        bob.firstName = "Bob"
        bob.salary = 1000
        try context.save()
        context.reset()
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = NSPredicate(format: "salary > %d", 2000)
        XCTAssertEqual(try context.fetch(request).map(\.firstName), ["Ann"])

        // A second container on /dev/null has a database of its own.
        let other = try self.container()
        XCTAssertEqual(try other.viewContext.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 0)
        XCTAssertEqual(try context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 2)
        XCTAssertTrue(try isNullDevice(), "/dev/null is still the null device")
    }

    /// Uniqueness constraints are the SQLite store's, checked in SQL.
    func testUniquenessConstraintsHoldInADevNullStore() throws {
        let model = CompanyModel.make()
        model.entitiesByName["Department"]!.uniquenessConstraints = [["name"]]
        let container = try container(model)
        let context = container.viewContext
        for _ in 0..<2 { Department(context: context).name = "Sales" }
        XCTAssertEqual(thrownError { try context.save() }?.code, NSManagedObjectConstraintMergeError)
    }

    /// Destroying, replacing or removing a `/dev/null` store never deletes or writes the device.
    func testDestroyingADevNullStoreLeavesTheDeviceAlone() throws {
        let container = try container()
        let coordinator = container.persistentStoreCoordinator
        try coordinator.destroyPersistentStore(at: devNull, ofType: NSSQLiteStoreType, options: nil)
        XCTAssertTrue(coordinator.persistentStores.isEmpty, "the store was removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: devNull.path))
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1, nil)])
        XCTAssertNotNil(thrownError { try coordinator.replacePersistentStore(at: self.devNull, withPersistentStoreFrom: store.url, ofType: NSSQLiteStoreType) })
        XCTAssertTrue(try isNullDevice())
    }
}
