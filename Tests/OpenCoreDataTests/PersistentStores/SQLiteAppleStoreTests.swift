import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Stores written by Apple's Core Data (`../shared/fixtures/apple-stores`), opened read-only
/// with models built in code to match their schemas. The expected values were read from the
/// files with the sqlite3 tool.
///
/// Fixtures are found through `OCD_FIXTURES` (default: `../shared/fixtures` beside this
/// package) and never opened in place: closing SQLite's last connection checkpoints the WAL
/// into the main file, so each store is copied WITH its `-wal`/`-shm` files first. A missing
/// fixture fails the test rather than skipping it.
final class SQLiteAppleStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-apple")
    }

    /// Copies `relativePath` and its `-wal`/`-shm` siblings into the test's directory.
    private func copyStore(_ relativePath: String) throws -> URL {
        let source = fixturesRoot.appendingPathComponent("apple-stores").appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: source.path) else {
            XCTFail("Missing fixture \(source.path). Set OCD_FIXTURES to the shared fixtures directory.")
            throw CocoaError(.fileNoSuchFile)
        }
        let destination = directory.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: destination.path + suffix)
        }
        return destination
    }

    private func openReadOnly(_ model: NSManagedObjectModel, at url: URL) throws -> (NSPersistentStore, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
                                                       options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (store, context)
    }

    private func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool, ordered: Bool = false) -> NSRelationshipDescription {
        let r = NSRelationshipDescription()
        r.name = name
        r.destinationEntity = destination
        r.maxCount = toMany ? 0 : 1
        r.isOrdered = ordered
        return r
    }

    // MARK: CoreDataPlus SampleModel V1: inheritance, UUID, dates, transformable

    /// `SampleModel.xcdatamodel` (v1): Car ← SportCar ← ExpensiveSportCar, Person.
    private func sampleModelV1() -> NSManagedObjectModel {
        let car = NSEntityDescription(name: "Car")
        let sportCar = NSEntityDescription(name: "SportCar")
        let expensive = NSEntityDescription(name: "ExpensiveSportCar")
        let person = NSEntityDescription(name: "Person")
        let owner = relationship("owner", to: person, toMany: false)
        let cars = relationship("cars", to: car, toMany: true)
        owner.inverseRelationship = cars
        cars.inverseRelationship = owner
        let speed = NSAttributeDescription(name: "currentDrivingSpeed", type: .integer64AttributeType, defaultValue: 0)
        speed.isTransient = true
        car.properties = [NSAttributeDescription(name: "color", type: .transformableAttributeType), speed,
                          NSAttributeDescription(name: "maker", type: .stringAttributeType),
                          NSAttributeDescription(name: "markedForDeletionAsOf", type: .dateAttributeType),
                          NSAttributeDescription(name: "model", type: .stringAttributeType),
                          NSAttributeDescription(name: "numberPlate", type: .stringAttributeType, isOptional: false), owner]
        expensive.properties = [NSAttributeDescription(name: "isLimitedEdition", type: .booleanAttributeType, defaultValue: false)]
        let driving = NSAttributeDescription(name: "isDriving", type: .booleanAttributeType, defaultValue: false)
        driving.isTransient = true
        person.properties = [NSAttributeDescription(name: "firstName", type: .stringAttributeType),
                             NSAttributeDescription(name: "id", type: .UUIDAttributeType, isOptional: false), driving,
                             NSAttributeDescription(name: "lastName", type: .stringAttributeType),
                             NSAttributeDescription(name: "updatedAt", type: .dateAttributeType, isOptional: false), cars]
        car.subentities = [sportCar]
        sportCar.subentities = [expensive]
        let model = NSManagedObjectModel()
        model.entities = [car, expensive, person, sportCar]
        return model
    }

    func testSampleModelV1OpensWithItsValuesAndRelationships() throws {
        let url = try copyStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let (store, context) = try openReadOnly(sampleModelV1(), at: url)
        XCTAssertEqual(store.identifier, "753753D3-A961-4901-AB05-8CC48B1D3853")
        XCTAssertEqual(store.metadata[NSStoreUUIDKey] as? String, "753753D3-A961-4901-AB05-8CC48B1D3853")
        XCTAssertEqual((store.metadata[NSStoreModelVersionHashesKey] as? [String: Data])?["Car"]?.base64EncodedString(),
                       "nlVVKQchWCING6zS+Ao9rUkZ90oyqovp7iKmp7QSbI8=", "Apple's own hashes are kept in the metadata")

        try context.performAndWait {
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Car")), 125)
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "SportCar")), 10)
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ExpensiveSportCar")), 5)
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")), 20)

            let byPlate = NSFetchRequest<NSManagedObject>(entityName: "Car")
            byPlate.predicate = NSPredicate(format: "numberPlate == %@", "300")
            let bmw = try XCTUnwrap(context.fetch(byPlate).first)
            XCTAssertEqual(bmw.entity.name, "ExpensiveSportCar")
            XCTAssertEqual(bmw.value(forKey: "maker") as? String, "BMW")
            XCTAssertEqual(bmw.value(forKey: "model") as? String, "M6 Coupe")
            XCTAssertEqual(bmw.value(forKey: "isLimitedEdition") as? Bool, true)
            XCTAssertEqual(bmw.objectID.uriRepresentation().absoluteString, "x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/ExpensiveSportCar/p87")
            let owner = try XCTUnwrap(bmw.value(forKey: "owner") as? NSManagedObject)
            XCTAssertEqual(owner.value(forKey: "firstName") as? String, "Faron")
            XCTAssertEqual(owner.value(forKey: "lastName") as? String, "Moreton")
            let ownedPlates = (owner.value(forKey: "cars") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "numberPlate") as? String }
            XCTAssertEqual(Set(ownedPlates ?? []), ["3", "300"])

            let byName = NSFetchRequest<NSManagedObject>(entityName: "Person")
            byName.predicate = NSPredicate(format: "lastName == %@ AND firstName == %@", "Coster", "Victoria")
            let victoria = try XCTUnwrap(context.fetch(byName).first)
            XCTAssertEqual(victoria.value(forKey: "id") as? UUID, UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115"))
            let updatedAt = try XCTUnwrap(victoria.value(forKey: "updatedAt") as? Date)
            XCTAssertEqual(updatedAt.timeIntervalSinceReferenceDate, 639_503_569.638733, accuracy: 1e-6)
        }
    }

    // MARK: BrowserServicesKit Bookmarks V4: rows only in the WAL, ordered to-many, ordered many-to-many

    /// `BookmarksModel 4.xcdatamodel`: one reflexive entity with ordered `children` ↔ `parent`
    /// and ordered many-to-many `favorites` ↔ `favoriteFolders`.
    private func bookmarksModelV4() -> NSManagedObjectModel {
        let bookmark = NSEntityDescription(name: "BookmarkEntity")
        let children = relationship("children", to: bookmark, toMany: true, ordered: true)
        let parent = relationship("parent", to: bookmark, toMany: false)
        let favorites = relationship("favorites", to: bookmark, toMany: true, ordered: true)
        let favoriteFolders = relationship("favoriteFolders", to: bookmark, toMany: true)
        children.inverseRelationship = parent; parent.inverseRelationship = children
        favorites.inverseRelationship = favoriteFolders; favoriteFolders.inverseRelationship = favorites
        bookmark.properties = [NSAttributeDescription(name: "isFolder", type: .booleanAttributeType, isOptional: false),
                               NSAttributeDescription(name: "isPendingDeletion", type: .booleanAttributeType, defaultValue: false),
                               NSAttributeDescription(name: "modifiedAt", type: .dateAttributeType),
                               NSAttributeDescription(name: "title", type: .stringAttributeType),
                               NSAttributeDescription(name: "url", type: .stringAttributeType),
                               NSAttributeDescription(name: "uuid", type: .stringAttributeType, isOptional: false),
                               children, favoriteFolders, favorites, parent]
        let model = NSManagedObjectModel()
        model.entities = [bookmark]
        return model
    }

    func testBookmarksV4ReadsRowsFromTheWALAndKeepsOrderedRelationshipsInOrder() throws {
        let url = try copyStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V4.sqlite")
        let (store, context) = try openReadOnly(bookmarksModelV4(), at: url)
        XCTAssertEqual(store.identifier, "E688ECA9-D9C7-40C5-94B4-A1F8C6E6A428")
        try context.performAndWait {
            func bookmark(_ uuid: String) throws -> NSManagedObject {
                let request = NSFetchRequest<NSManagedObject>(entityName: "BookmarkEntity")
                request.predicate = NSPredicate(format: "uuid == %@", uuid)
                return try XCTUnwrap(context.fetch(request).first, uuid)
            }
            func titles(_ value: Any?) -> [String] {
                ((value as? NSOrderedSet)?.array ?? (value as? [Any]) ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }
            }
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "BookmarkEntity")), 10, "every row is in the -wal")
            let root = try bookmark("bookmarks_root")
            XCTAssertEqual(root.value(forKey: "isFolder") as? Bool, true)
            XCTAssertEqual(titles(root.value(forKey: "children")), ["1", "2", "3", "4", "5"])
            let favoritesRoot = try bookmark("favorites_root")
            XCTAssertEqual(titles(favoritesRoot.value(forKey: "favorites")), ["5", "4", "33", "32", "2"])
            let folder = try bookmark("3")
            XCTAssertEqual(titles(folder.value(forKey: "children")), ["31", "32", "33"])
            let b32 = try bookmark("32")
            XCTAssertEqual(b32.value(forKey: "url") as? String, "32")
            XCTAssertTrue((b32.value(forKey: "parent") as? NSManagedObject) === folder)
            let folders = (b32.value(forKey: "favoriteFolders") as? Set<NSManagedObject>) ?? []
            XCTAssertEqual(folders.compactMap { $0.value(forKey: "uuid") as? String }, ["favorites_root"])
            let b4 = try bookmark("4")
            XCTAssertEqual((b4.value(forKey: "modifiedAt") as? Date)?.timeIntervalSinceReferenceDate ?? 0, 723_485_158.135948, accuracy: 1e-6)
        }
    }
    func testSavingIntoBookmarksV4KeepsApplesLayout() throws {
        let url = try copyStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V4.sqlite")
        func sql(_ query: String) throws -> [[String?]] { try SQLiteInspector.rows(at: url.path, query) }
        let schemaBefore = try sql("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        let optBefore = try XCTUnwrap(sql("SELECT Z_OPT FROM ZBOOKMARKENTITY WHERE ZUUID = '32'").first?.first.flatMap { $0.flatMap { Int($0) } })

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: bookmarksModelV4())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            func bookmark(_ uuid: String) throws -> NSManagedObject {
                let request = NSFetchRequest<NSManagedObject>(entityName: "BookmarkEntity")
                request.predicate = NSPredicate(format: "uuid == %@", uuid)
                return try XCTUnwrap(context.fetch(request).first, uuid)
            }
            try bookmark("32").setValue("thirty-two", forKey: "title")
            let added = NSEntityDescription.insertNewObject(forEntityName: "BookmarkEntity", into: context)
            added.setValue(false, forKey: "isFolder")
            added.setValue("new", forKey: "uuid")
            added.setValue("new", forKey: "title")
            added.setValue(try bookmark("3"), forKey: "parent")
            try bookmark("favorites_root").mutableOrderedSetValue(forKey: "favorites").add(added)
            try context.save()
        }

        XCTAssertEqual(try sql("SELECT type, name, sql FROM sqlite_master ORDER BY name"), schemaBefore, "same tables, columns and indexes")
        XCTAssertEqual(try sql("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'BookmarkEntity'"), [["11"]])
        XCTAssertEqual(try sql("SELECT ZTITLE, Z_OPT FROM ZBOOKMARKENTITY WHERE ZUUID = '32'"), [["thirty-two", String(optBefore + 1)]])
        XCTAssertEqual(try sql("SELECT Z_PK, Z_ENT, Z_OPT, ZPARENT FROM ZBOOKMARKENTITY WHERE ZUUID = 'new'"), [["11", "1", "1", "4"]])
        XCTAssertEqual(try sql("SELECT ZUUID FROM ZBOOKMARKENTITY WHERE ZPARENT = 4 ORDER BY Z_FOK_PARENT"), [["31"], ["32"], ["33"], ["new"]])
        XCTAssertEqual(try sql("SELECT group_concat(Z_1FAVORITES) FROM (SELECT Z_1FAVORITES FROM Z_1FAVORITES WHERE Z_1FAVORITEFOLDERS = 3 ORDER BY Z_FOK_1FAVORITES)"),
                       [["8,1,10,7,9,11"]])
    }
    // MARK: CoreDataPlus SampleModel2 V2: decimals, companion columns, derived-attribute triggers, history tables

    /// The programmatic SampleModel2 V2 (its Swift source is not in the fixtures), recovered
    /// from the store's schema: Book ← GraphicNovel, Feedback, Page, Writer ← Author.
    private func sampleModel2V2() -> NSManagedObjectModel {
        let book = NSEntityDescription(name: "Book"), novel = NSEntityDescription(name: "GraphicNovel")
        let feedback = NSEntityDescription(name: "Feedback"), page = NSEntityDescription(name: "Page")
        let writer = NSEntityDescription(name: "Writer"), author = NSEntityDescription(name: "Author")
        let bookAuthor = relationship("author", to: author, toMany: false), authorBooks = relationship("books", to: book, toMany: true)
        bookAuthor.inverseRelationship = authorBooks; authorBooks.inverseRelationship = bookAuthor
        let bookPages = relationship("pages", to: page, toMany: true), pageBook = relationship("book", to: book, toMany: false)
        bookPages.inverseRelationship = pageBook; pageBook.inverseRelationship = bookPages
        book.properties = [NSAttributeDescription(name: "pagesCount", type: .integer64AttributeType, defaultValue: 0), bookAuthor,
                           NSAttributeDescription(name: "publishedAt", type: .dateAttributeType),
                           NSAttributeDescription(name: "price", type: .decimalAttributeType),
                           NSAttributeDescription(name: "title", type: .stringAttributeType),
                           NSAttributeDescription(name: "uniqueID", type: .UUIDAttributeType),
                           NSAttributeDescription(name: "frontCover", type: .transformableAttributeType), bookPages]
        novel.properties = [NSAttributeDescription(name: "isBlackAndWhite", type: .booleanAttributeType)]
        feedback.properties = [NSAttributeDescription(name: "rating", type: .doubleAttributeType),
                               NSAttributeDescription(name: "authorAlias", type: .stringAttributeType),
                               NSAttributeDescription(name: "comment", type: .stringAttributeType),
                               NSAttributeDescription(name: "bookID", type: .UUIDAttributeType)]
        page.properties = [NSAttributeDescription(name: "isBookmarked", type: .booleanAttributeType),
                           NSAttributeDescription(name: "number", type: .integer64AttributeType, defaultValue: 0), pageBook,
                           NSAttributeDescription(name: "content", type: .transformableAttributeType)]
        writer.properties = [NSAttributeDescription(name: "age", type: .integer16AttributeType), NSAttributeDescription(name: "alias", type: .stringAttributeType)]
        author.properties = [authorBooks]
        book.subentities = [novel]
        writer.subentities = [author]
        let model = NSManagedObjectModel()
        model.entities = [author, book, feedback, novel, page, writer]
        return model
    }

    func testSampleModel2V2ReadsDecimalsAndSubentityTargetsAndStaysWritableWithItsTriggers() throws {
        let url = try copyStore("alemar11__CoreDataPlus/SampleModel2/Fixtures/SampleModel2_V2.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: sampleModel2V2())
        // It keeps persistent history: without the option it would open read-only, as Apple's does.
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [NSPersistentHistoryTrackingKey: true])
        XCTAssertEqual(store.identifier, "4B0F5331-DE87-4D61-9947-8A976CCEB627")
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            func one(_ entity: String, _ format: String, _ arguments: [Any] = []) throws -> NSManagedObject {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.predicate = OpenCoreData.NSPredicate(format: format, argumentArray: arguments)
                return try XCTUnwrap(context.fetch(request).first, format)
            }
            let book = try one("Book", "title == %@", ["title 1 - author 1"])
            XCTAssertEqual(book.entity.name, "Book")
            XCTAssertEqual(book.value(forKey: "price") as? Decimal, Decimal(string: "10.11"))
            XCTAssertEqual(book.value(forKey: "pagesCount") as? Int, 99)
            XCTAssertEqual(book.value(forKey: "uniqueID") as? UUID, UUID(uuidString: "AE289A08-EC9E-49D5-A96B-CBDFD53D451F"))
            XCTAssertEqual((book.value(forKey: "pages") as? Set<NSManagedObject>)?.count, 99)
            let author = try XCTUnwrap(book.value(forKey: "author") as? NSManagedObject)
            XCTAssertEqual(author.entity.name, "Author")
            XCTAssertEqual(author.value(forKey: "alias") as? String, "Alessandro")
            XCTAssertEqual(author.value(forKey: "age") as? Int, 40)

            let novel = try one("Book", "title == %@", ["title graphic novel - author 1"])
            XCTAssertEqual(novel.entity.name, "GraphicNovel")
            XCTAssertEqual(novel.value(forKey: "isBlackAndWhite") as? Bool, true)
            XCTAssertEqual(novel.value(forKey: "price") as? Decimal, Decimal(string: "3.3333333333"))
            let firstPage = try one("Page", "number == 19 AND isBookmarked == NO")
            XCTAssertTrue((firstPage.value(forKey: "book") as? NSManagedObject) === novel, "Z1_BOOK says the target is a GraphicNovel")
            XCTAssertEqual(try one("Feedback", "comment == %@", ["great novel"]).value(forKey: "rating") as? Double, 4.3)

            // Apple's Z_DA_ triggers call NSCoreDataDATrigger... functions; with ours registered,
            // inserting a page works and the trigger keeps pagesCount right in the file.
            let added = NSEntityDescription.insertNewObject(forEntityName: "Page", into: context)
            added.setValue(1000, forKey: "number")
            added.setValue(book, forKey: "book")
            try context.save()
        }
        let rows = try SQLiteInspector.rows(at: url.path, "SELECT ZPAGESCOUNT FROM ZBOOK WHERE ZTITLE = 'title 1 - author 1'")
        XCTAssertEqual(rows, [["100"]])
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Page'"), [["120"]])
    }
    // MARK: MagicalRecord Recipes: an old store (framework 241): rollback journal, no Z_MODELCACHE

    /// Apple's iPhoneCoreDataRecipes model, recovered from the store's schema (its legacy
    /// binary model files are not read yet).
    private func recipesModel() -> NSManagedObjectModel {
        let image = NSEntityDescription(name: "Image"), ingredient = NSEntityDescription(name: "Ingredient")
        let recipe = NSEntityDescription(name: "Recipe"), type = NSEntityDescription(name: "RecipeType")
        let imageRecipe = relationship("recipe", to: recipe, toMany: false), recipeImage = relationship("image", to: image, toMany: false)
        imageRecipe.inverseRelationship = recipeImage; recipeImage.inverseRelationship = imageRecipe
        let ingredientRecipe = relationship("recipe", to: recipe, toMany: false), recipeIngredients = relationship("ingredients", to: ingredient, toMany: true)
        ingredientRecipe.inverseRelationship = recipeIngredients; recipeIngredients.inverseRelationship = ingredientRecipe
        let recipeType = relationship("type", to: type, toMany: false), typeRecipes = relationship("recipes", to: recipe, toMany: true)
        recipeType.inverseRelationship = typeRecipes; typeRecipes.inverseRelationship = recipeType
        image.properties = [NSAttributeDescription(name: "image", type: .transformableAttributeType), imageRecipe]
        ingredient.properties = [NSAttributeDescription(name: "displayOrder", type: .integer16AttributeType),
                                 NSAttributeDescription(name: "amount", type: .stringAttributeType),
                                 NSAttributeDescription(name: "name", type: .stringAttributeType), ingredientRecipe]
        recipe.properties = [NSAttributeDescription(name: "prepTime", type: .stringAttributeType),
                             NSAttributeDescription(name: "name", type: .stringAttributeType),
                             NSAttributeDescription(name: "instructions", type: .stringAttributeType),
                             NSAttributeDescription(name: "overview", type: .stringAttributeType),
                             NSAttributeDescription(name: "thumbnailImage", type: .transformableAttributeType),
                             recipeImage, recipeIngredients, recipeType]
        type.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), typeRecipes]
        let model = NSManagedObjectModel()
        model.entities = [image, ingredient, recipe, type]
        return model
    }

    func testRecipesOpensReadOnlyWithoutTouchingTheFile() throws {
        let url = try copyStore("magicalpanda__MagicalRecord/Recipes/Recipes.sqlite")
        let before = try Data(contentsOf: url)
        do {
            let (_, context) = try openReadOnly(recipesModel(), at: url)
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
                request.predicate = OpenCoreData.NSPredicate(format: "name == %@", "Chocolate Cake")
                let cake = try XCTUnwrap(context.fetch(request).first)
                XCTAssertEqual(cake.value(forKey: "prepTime") as? String, "1 hour")
                XCTAssertEqual((cake.value(forKey: "type") as? NSManagedObject)?.value(forKey: "name") as? String, "Dessert")
                let ingredients = (cake.value(forKey: "ingredients") as? Set<NSManagedObject>) ?? []
                XCTAssertEqual(ingredients.count, 9)
                XCTAssertTrue(ingredients.contains { $0.value(forKey: "name") as? String == "Cocoa powder" && $0.value(forKey: "amount") as? String == "2 tablespoons" })
                let image = try XCTUnwrap(cake.value(forKey: "image") as? NSManagedObject)
                XCTAssertTrue((image.value(forKey: "recipe") as? NSManagedObject) === cake, "one-to-one: both sides")
                // A transformable whose bytes are not a keyed archive (a JPEG here) comes back as Data.
                let thumbnail = try XCTUnwrap(cake.value(forKey: "thumbnailImage") as? Data)
                XCTAssertEqual(thumbnail.count, 2271)
                XCTAssertEqual(Array(thumbnail.prefix(3)), [0xFF, 0xD8, 0xFF])
                let names = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe")).compactMap { $0.value(forKey: "name") as? String }
                XCTAssertEqual(Set(names), ["Chocolate Cake", "Three Berry Cobbler", "Macarons", "Ginger snaps", "Gaufres de Liège", "Crèpes Suzette", "Tarte aux Fraises"])
            }
        }
        XCTAssertEqual(try Data(contentsOf: url), before, "a read-only store leaves a rollback-journal file as it was")
    }
}
