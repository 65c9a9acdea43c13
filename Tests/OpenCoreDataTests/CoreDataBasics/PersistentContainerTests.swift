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
}
