import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// NSPersistentContainer and NSPersistentStoreDescription.
final class PersistentContainerTests: XCTestCase {
    func testInMemoryContainerLoadsAndWorks() throws {
        let container = NSPersistentContainer(name: "Company", managedObjectModel: CompanyModel.make())
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        XCTAssertNil(loadError)
        XCTAssertEqual(container.persistentStoreCoordinator.persistentStores.count, 1)

        let background = container.newBackgroundContext()
        try background.performAndWait {
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: background)
            d.setValue("BG", forKey: "name")
            try background.save()
        }
        let viewContext = container.viewContext
        XCTAssertEqual(viewContext.concurrencyType, .mainQueueConcurrencyType)
        let count = try viewContext.performAndWait { try viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Department")) }
        XCTAssertEqual(count, 1)
    }

    func testPerformBackgroundTask() async throws {
        let container = NSPersistentContainer(name: "Company", managedObjectModel: CompanyModel.make())
        container.persistentStoreDescriptions[0].type = NSInMemoryStoreType
        container.loadPersistentStores { _, error in XCTAssertNil(error) }
        let name = try await container.performBackgroundTask { context in
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
            d.setValue("Task", forKey: "name")
            try context.save()
            return d.value(forKey: "name") as? String
        }
        XCTAssertEqual(name, "Task")
    }

    func testDefaultDirectoryFollowsXDG() {
        let url = NSPersistentContainer.defaultDirectoryURL()
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty {
            XCTAssertTrue(url.path.hasPrefix(xdg))
        } else {
            XCTAssertTrue(url.path.contains("/.local/share/"))
        }
        let container = NSPersistentContainer(name: "Named", managedObjectModel: CompanyModel.make())
        XCTAssertEqual(container.persistentStoreDescriptions[0].url?.lastPathComponent, "Named.sqlite")
    }

    func testUnknownStoreTypeIsReported() {
        let container = NSPersistentContainer(name: "X", managedObjectModel: CompanyModel.make())
        container.persistentStoreDescriptions[0].type = "NoSuchStore"
        var reported: NSError?
        container.loadPersistentStores { _, error in reported = error as NSError? }
        XCTAssertEqual(reported?.code, NSPersistentStoreInvalidTypeError)
    }

    /// `NSPersistentContainer(name:)` finds the model of that name among the program's bundles
    /// (here the test target's resource bundle); a name with no model makes
    /// `loadPersistentStores` report an error that names what was searched.
    func testAContainerFindsItsModelByName() throws {
        let container = NSPersistentContainer(name: "ContainerShop")
        XCTAssertEqual(container.managedObjectModel.entitiesByName.keys.sorted(), ["Customer"])
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        container.persistentStoreDescriptions[0].type = NSInMemoryStoreType
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        XCTAssertNil(loadError)
        let count = try container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Customer"))
        XCTAssertEqual(count, 0)

        let missing = NSPersistentContainer(name: "NoSuchModel")
        var reported: NSError?
        missing.loadPersistentStores { _, error in reported = error as NSError? }
        XCTAssertEqual(reported?.domain, NSCocoaErrorDomain)
        XCTAssertEqual(reported?.code, NSCoreDataError)
        XCTAssertTrue(reported?.localizedDescription.contains("NoSuchModel") == true)
        XCTAssertTrue(missing.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    /// `performBackgroundTask` runs a block that cannot throw without `try`, on a private queue.
    func testPerformBackgroundTaskReturnsItsResult() async throws {
        let container = NSPersistentContainer(name: "Company", managedObjectModel: CompanyModel.make())
        container.persistentStoreDescriptions[0].type = NSInMemoryStoreType
        container.loadPersistentStores { _, error in XCTAssertNil(error) }
        let concurrency = await container.performBackgroundTask { context in context.concurrencyType }
        XCTAssertEqual(concurrency, .privateQueueConcurrencyType)
    }
}
