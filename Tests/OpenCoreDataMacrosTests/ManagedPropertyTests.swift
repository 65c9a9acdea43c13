import OpenCoreDataMacros
import XCTest

// Objects whose properties `@ManagedProperty` declares, on a SQLite store: the same behaviour
// as `@Managed` and key-value coding, because both read and write one storage.

final class Author: NSManagedObject {
    @ManagedProperty var name: String?
    @ManagedProperty("born") var birthYear: Int64
    @ManagedProperty var rating: Double
    @ManagedProperty var books: Set<Book>
}

final class Book: NSManagedObject {
    @ManagedProperty var title: String?
    @ManagedProperty var author: Author?
}

final class ManagedPropertyTests: XCTestCase {
    static func model() -> NSManagedObjectModel {
        let author = NSEntityDescription(name: "Author", className: "OpenCoreDataMacrosTests.Author", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "born", type: .integer64AttributeType, isOptional: false, defaultValue: 1900),
            NSAttributeDescription(name: "rating", type: .doubleAttributeType, isOptional: false, defaultValue: 0),
        ])
        let book = NSEntityDescription(name: "Book", className: "OpenCoreDataMacrosTests.Book", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
        ])
        let books = NSRelationshipDescription(), writer = NSRelationshipDescription()
        books.name = "books"; books.maxCount = 0; books.destinationEntity = book; books.inverseRelationship = writer
        writer.name = "author"; writer.maxCount = 1; writer.destinationEntity = author; writer.inverseRelationship = books
        author.properties += [books]
        book.properties += [writer]
        let model = NSManagedObjectModel()
        model.entities = [author, book]
        return model
    }

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-macro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func newContext(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    func testPropertiesReadAndWriteTheEntitysValues() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = newContext(coordinator)
        try context.performAndWait {
            let a = Author(context: context)
            XCTAssertEqual(a.birthYear, 1900, "the model's default value, through the explicit key \"born\"")
            a.name = "Ursula"
            a.birthYear = 1929
            a.rating += 4.5
            XCTAssertEqual(a.value(forKey: "born") as? Int, 1929)
            XCTAssertEqual(a.value(forKey: "rating") as? Double, 4.5)
            a.setValue("U. K. Le Guin", forKey: "name")
            XCTAssertEqual(a.name, "U. K. Le Guin")
            try context.save()
            a.birthYear = 1930
            XCTAssertEqual(a.changedValues()["born"] as? Int, 1930)
            context.rollback()
            XCTAssertEqual(a.birthYear, 1929, "rollback restores what the accessor reads")
        }
    }

    func testRelationshipsKeepTheirInversesAndSurviveASQLiteRoundTrip() throws {
        let url = directory.appendingPathComponent("Library.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let writer = newContext(coordinator)
        try writer.performAndWait {
            let context = writer
            let a = Author(context: context)
            a.name = "Ursula"
            for title in ["The Dispossessed", "The Lathe of Heaven"] {
                let b = Book(context: context)
                b.title = title
                b.author = a
            }
            XCTAssertEqual(a.books.count, 2, "setting each book's author filled the inverse")
            try context.save()
        }

        let reader = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try reader.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = newContext(reader)
        try context.performAndWait {
            let request = NSFetchRequest<Book>(entityName: "Book")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            let books = try context.fetch(request)
            XCTAssertEqual(books.map(\.title), ["The Dispossessed", "The Lathe of Heaven"])
            XCTAssertEqual(books.map { $0.author?.name }, ["Ursula", "Ursula"])
            XCTAssertTrue(books[0].author === books[1].author, "one author object, uniqued by the context")
            books[0].author?.books.remove(books[0])
            XCTAssertNil(books[0].author, "removing from the to-many clears the inverse to-one")
        }
    }

    func testSwiftKeyPathsThroughMacroPropertiesTranslateToQueries() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = newContext(coordinator)
        XCTAssertEqual(try KeyPathNames.name(of: \Book.author?.birthYear), "author.born")
        try context.performAndWait {
            for (name, year) in [("B", 1950), ("A", 1900), ("C", 1980)] {
                let a = Author(context: context)
                a.name = name
                a.birthYear = Int64(year)
            }
            let request = NSFetchRequest<Author>(entityName: "Author")
            request.predicate = try NSPredicate(translating: #Predicate<Author> { $0.birthYear > 1920 })
            request.sortDescriptors = [try NSSortDescriptor(translating: SortDescriptor(\Author.birthYear, order: .reverse))]
            XCTAssertEqual(try context.fetch(request).map(\.name), ["C", "B"])
        }
    }
}

/// A Foundation type in a transformable attribute: no typed storage, so `@ManagedProperty`
/// falls back to key-value coding (`ManagedValueKey`), as `@NSManaged` takes any type.
final class Trail: NSManagedObject {
    @ManagedProperty var length: Measurement<UnitLength>?
    @ManagedProperty var primitiveLength: Measurement<UnitLength>?
}

extension ManagedPropertyTests {
    func testATypeWithoutTypedStorageGoesThroughKeyValueCoding() throws {
        let trail = NSEntityDescription(name: "Trail", className: "OpenCoreDataMacrosTests.Trail", properties: [
            NSAttributeDescription(name: "length", type: .transformableAttributeType),
        ])
        let model = NSManagedObjectModel()
        model.entities = [trail]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = newContext(coordinator)
        try context.performAndWait {
            let t = Trail(context: context)
            XCTAssertNil(t.length)
            t.length = Measurement(value: 12, unit: .kilometers)
            XCTAssertEqual(t.length, Measurement(value: 12, unit: .kilometers))
            XCTAssertEqual(t.value(forKey: "length") as? Measurement<UnitLength>, Measurement(value: 12, unit: .kilometers))
            try context.save()
            t.length = nil
            XCTAssertNil(t.length)
            XCTAssertTrue(t.changedValues().keys.contains("length"), "a change like any other")
            context.rollback()
            XCTAssertEqual(t.length, Measurement(value: 12, unit: .kilometers))
            t.primitiveLength = Measurement(value: 3, unit: .miles)
            XCTAssertEqual(t.length, Measurement(value: 3, unit: .miles), "the primitive accessor sets the same value")
        }
    }
}
