import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class RegisteredBookmark: NSManagedObject {}
final class EarlyRegisteredFolder: NSManagedObject {}

/// Models name their classes without a module (`representedClassName="Bookmark"`, what Xcode
/// writes beside `@objc(Bookmark)`); `NSManagedObject.register(_:forClassName:)` says which Swift
/// class that is, before or after the model is loaded.
final class ClassNameRegistrationTests: XCTestCase {
    func testAClassRegisteredUnderTheModelsNameIsTheEntitysClass() throws {
        let folder = try makeTemporaryDirectory("ocd-class-names").appendingPathComponent("Bookmarks.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
        <model>
          <entity name="Bookmark" representedClassName="RegisteredBookmark"><attribute name="title" optional="YES" attributeType="String"/></entity>
          <entity name="Folder" representedClassName=".EarlyRegisteredFolder"><attribute name="name" optional="YES" attributeType="String"/></entity>
        </model>
        """.utf8).write(to: folder.appendingPathComponent("contents"))

        // Registered before loading: found as the model is read.
        NSManagedObject.register(EarlyRegisteredFolder.self, forClassName: "EarlyRegisteredFolder")
        let model = try NSManagedObjectModel.load(contentsOf: folder)
        XCTAssertEqual(model.loadingWarnings.count, 1, "\(model.loadingWarnings)")
        XCTAssertTrue(model.loadingWarnings[0].contains("NSManagedObject.register(RegisteredBookmark.self, forClassName: \"RegisteredBookmark\")"), model.loadingWarnings[0])

        // Registered after loading, before first use: found when the model freezes.
        NSManagedObject.register(RegisteredBookmark.self, forClassName: "RegisteredBookmark")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let bookmark = RegisteredBookmark(context: context)
            bookmark.setValue("Swift", forKey: "title")
            XCTAssertTrue(NSEntityDescription.insertNewObject(forEntityName: "Folder", into: context) is EarlyRegisteredFolder)
            try context.save()
            context.reset()
            let fetched = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Bookmark"))
            XCTAssertTrue(fetched.first is RegisteredBookmark, "fetched objects are of the registered class")
            XCTAssertEqual(fetched.first?.value(forKey: "title") as? String, "Swift")
        }
    }
}
