import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Composite attributes (`NSCompositeAttributeDescription`): an object holds a dictionary keyed
/// by element names; the SQLite store keeps each leaf element in a column of its own, as
/// Apple's does, and predicates and sort descriptors reach the elements by key path
/// (`location.latitude`).
final class CompositeAttributeTests: XCTestCase {
    private func element(_ name: String, _ type: NSAttributeType, optional: Bool = true, default value: Any? = nil) -> NSAttributeDescription {
        NSAttributeDescription(name: name, type: type, isOptional: optional, defaultValue: value)
    }

    private func composite(_ name: String, _ elements: [NSAttributeDescription]) -> NSCompositeAttributeDescription {
        let composite = NSCompositeAttributeDescription()
        composite.name = name
        composite.elements = elements
        return composite
    }

    /// Place: name; location (latitude, longitude, and position: floor, label); address and
    /// mailingAddress, two composites of the same elements.
    private func model() -> NSManagedObjectModel {
        let place = NSEntityDescription(name: "Place")
        func address(_ name: String) -> NSCompositeAttributeDescription {
            composite(name, [element("street", .stringAttributeType), element("city", .stringAttributeType, default: "Paris")])
        }
        place.properties = [
            element("name", .stringAttributeType),
            composite("location", [element("latitude", .doubleAttributeType), element("longitude", .doubleAttributeType),
                                   composite("position", [element("floor", .integer16AttributeType), element("label", .stringAttributeType)])]),
            address("address"), address("mailingAddress"),
        ]
        let model = NSManagedObjectModel()
        model.entities = [place]
        return model
    }

    private func context(_ model: NSManagedObjectModel, _ type: String = NSSQLiteStoreType, at url: URL?, options: [AnyHashable: Any]? = nil) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    private func insertPlace(_ name: String, _ values: [String: Any], into context: NSManagedObjectContext) -> NSManagedObject {
        let place = NSEntityDescription.insertNewObject(forEntityName: "Place", into: context)
        place.setValue(name, forKey: "name")
        place.setValuesForKeys(values)
        return place
    }

    private func fetchPlaces(_ context: NSManagedObjectContext, _ predicate: NSPredicate? = nil, sortedBy key: String = "name", ascending: Bool = true) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
        request.predicate = predicate
        request.sortDescriptors = [NSSortDescriptor(key: key, ascending: ascending)]
        return try context.fetch(request)
    }

    // MARK: Storing

    func testTheSQLiteStoreKeepsEachLeafElementInAColumnNamedAfterIt() throws {
        let url = try makeTemporaryDirectory("ocd-composite").appendingPathComponent("Places.sqlite")
        let context = try context(model(), at: url)
        try context.performAndWait {
            _ = insertPlace("Louvre", ["location": ["latitude": 48.86, "longitude": 2.34, "position": ["floor": 2, "label": "Denon"]],
                                       "address": ["street": "Rue de Rivoli"], "mailingAddress": ["street": "BP 1", "city": "Lyon"]], into: context)
            try context.save()
        }
        let columns = try SQLiteInspector.rows(at: url.path, "SELECT name FROM pragma_table_info('ZPLACE') ORDER BY cid").map { $0[0] ?? "" }
        // Apple's order: integers, then floats, then strings; two elements of one name are
        // told apart by a number, as two subentities' attributes are.
        XCTAssertEqual(columns, ["Z_PK", "Z_ENT", "Z_OPT", "ZFLOOR", "ZLATITUDE", "ZLONGITUDE", "ZCITY", "ZCITY1", "ZLABEL", "ZNAME", "ZSTREET", "ZSTREET1"])
        // The address set replaced the default one (city "Paris"): a value is the whole dictionary.
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZLATITUDE, ZFLOOR, ZLABEL, ZSTREET, ZCITY, ZSTREET1, ZCITY1 FROM ZPLACE"),
                       [["48.86", "2", "Denon", "Rue de Rivoli", nil, "BP 1", "Lyon"]])
        XCTAssertFalse(columns.contains("ZLOCATION"), "a composite has no column of its own")
    }

    func testAValueComesBackAsTheDictionaryThatWasSaved() throws {
        let url = try makeTemporaryDirectory("ocd-composite").appendingPathComponent("Places.sqlite")
        let model = model()
        let saving = try context(model, at: url)
        try saving.performAndWait {
            _ = insertPlace("Louvre", ["location": ["latitude": 48.86, "longitude": 2.34, "position": ["floor": 2, "label": "Denon"]]], into: saving)
            _ = insertPlace("Nowhere", [:], into: saving)
            try saving.save()
        }
        let reading = try context(model, at: url)
        try reading.performAndWait {
            let places = try fetchPlaces(reading)
            let location = try XCTUnwrap(places[0].value(forKey: "location") as? [String: Any])
            XCTAssertEqual(location["latitude"] as? Double, 48.86)
            XCTAssertEqual(location["longitude"] as? Double, 2.34)
            let position = try XCTUnwrap(location["position"] as? [String: Any])
            XCTAssertEqual(position["floor"] as? Int16, 2)
            XCTAssertEqual(position["label"] as? String, "Denon")
            XCTAssertEqual(places[0].value(forKeyPath: "location.position.label") as? String, "Denon")
            XCTAssertEqual((places[0].value(forKey: "address") as? [String: Any])?["city"] as? String, "Paris", "an element's default")
            XCTAssertNil(places[1].value(forKey: "location"), "a composite without values is nil")
            XCTAssertFalse(reading.hasChanges)

            // Setting the value it holds is no change; another value is saved.
            places[0].setValue(["latitude": 48.86, "longitude": 2.34, "position": ["floor": Int16(2), "label": "Denon"]], forKey: "location")
            XCTAssertFalse(places[0].hasPersistentChangedValues, "an equal dictionary changes nothing")
            places[0].setValue(["latitude": 40.0], forKey: "location")
            try reading.save()
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZLATITUDE, ZLONGITUDE, ZFLOOR FROM ZPLACE WHERE ZNAME = 'Louvre'"), [["40.0", nil, nil]])
    }

    func testAKeyPathSetsOneElementAndKeepsTheOthers() throws {
        let context = try context(model(), NSInMemoryStoreType, at: nil)
        try context.performAndWait {
            let place = insertPlace("Louvre", ["location": ["latitude": 48.86, "longitude": 2.34]], into: context)
            place.setValue(50.5, forKeyPath: "location.latitude")
            place.setValue("Richelieu", forKeyPath: "location.position.label")
            XCTAssertEqual(place.value(forKeyPath: "location.latitude") as? Double, 50.5)
            XCTAssertEqual(place.value(forKeyPath: "location.longitude") as? Double, 2.34)
            XCTAssertEqual(place.value(forKeyPath: "location.position.label") as? String, "Richelieu")
            place.setValue(nil, forKeyPath: "location.longitude")
            XCTAssertNil(place.value(forKeyPath: "location.longitude"))
            XCTAssertNotNil(place.changedValues()["location"])
        }
    }

    func testNewObjectsStartWithTheCompositeDefaultFilledInByElementDefaults() throws {
        let model = model()
        let location = try XCTUnwrap(model.entitiesByName["Place"]?.attributesByName["location"] as? NSCompositeAttributeDescription)
        location.defaultValue = ["latitude": 1.5]
        (location.elements[1]).defaultValue = 2.5
        let context = try context(model, NSInMemoryStoreType, at: nil)
        try context.performAndWait {
            let place = insertPlace("New", [:], into: context)
            let value = try XCTUnwrap(place.value(forKey: "location") as? [String: Any])
            XCTAssertEqual(value["latitude"] as? Double, 1.5, "the composite's default")
            XCTAssertEqual(value["longitude"] as? Double, 2.5, "an element's default where the composite's has none")
            XCTAssertEqual((place.value(forKey: "address") as? [String: Any])?["city"] as? String, "Paris")
            XCTAssertEqual((place.value(forKey: "address") as? [String: Any])?.count, 1)
        }
    }

    // MARK: Fetching

    func testPredicatesAndSortDescriptorsReachElementsThroughKeyPaths() throws {
        let url = try makeTemporaryDirectory("ocd-composite").appendingPathComponent("Places.sqlite")
        let model = model()
        for (type, storeURL) in [(NSSQLiteStoreType, Optional(url)), (NSInMemoryStoreType, nil)] {
            let context = try context(model, type, at: storeURL)
            try context.performAndWait {
                _ = insertPlace("Louvre", ["location": ["latitude": 48.86, "longitude": 2.34, "position": ["floor": 2]]], into: context)
                _ = insertPlace("Prado", ["location": ["latitude": 40.41, "longitude": -3.69, "position": ["floor": 0]]], into: context)
                _ = insertPlace("Uffizi", ["location": ["latitude": 43.77, "longitude": 11.26]], into: context)
                _ = insertPlace("Nowhere", [:], into: context)
                try context.save()
                context.reset()
                let north = try fetchPlaces(context, NSPredicate(format: "location.latitude > %@", NSNumber(value: 43.0)))
                XCTAssertEqual(north.map { $0.value(forKey: "name") as? String }, ["Louvre", "Uffizi"], type)
                let upstairs = try fetchPlaces(context, NSPredicate(format: "location.position.floor >= 1"))
                XCTAssertEqual(upstairs.map { $0.value(forKey: "name") as? String }, ["Louvre"], type)
                let unplaced = try fetchPlaces(context, NSPredicate(format: "location.latitude == nil"))
                XCTAssertEqual(unplaced.map { $0.value(forKey: "name") as? String }, ["Nowhere"], type)
                let eastward = try fetchPlaces(context, NSPredicate(format: "location != nil"), sortedBy: "location.longitude", ascending: false)
                XCTAssertEqual(eastward.map { $0.value(forKey: "name") as? String }, ["Uffizi", "Louvre", "Prado"], type)
                let count = try context.count(for: {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
                    request.predicate = NSPredicate(format: "location.longitude BETWEEN {0, 12}")
                    return request
                }())
                XCTAssertEqual(count, 2, type)
            }
        }
    }

    // MARK: Validation

    func testASaveRefusesValuesThatDoNotFitTheElements() throws {
        let model = model()
        let position = try XCTUnwrap((model.entitiesByName["Place"]?.attributesByName["location"] as? NSCompositeAttributeDescription)?.elements[2] as? NSCompositeAttributeDescription)
        position.elements[1].isOptional = false
        let context = try context(model, NSInMemoryStoreType, at: nil)
        func saveError(_ location: Any) throws -> NSError {
            try context.performAndWait {
                context.reset()
                _ = insertPlace("Bad", ["location": location], into: context)
                do {
                    try context.save()
                    XCTFail("saved \(location)")
                    return NSError(domain: "none", code: 0)
                } catch let error as NSError {
                    return error
                }
            }
        }
        var error = try saveError("north")
        XCTAssertEqual(error.domain, NSCocoaErrorDomain)
        XCTAssertEqual(error.code, NSManagedObjectValidationError)
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "location")

        error = try saveError(["latitude": 1.0, "altitude": 3.0, "position": ["label": "x"]])
        XCTAssertEqual(error.code, NSManagedObjectValidationError)
        XCTAssertTrue(error.localizedDescription.contains("no element 'altitude'"), error.localizedDescription)

        error = try saveError(["latitude": "high", "position": ["label": "x"]])
        XCTAssertEqual(error.code, NSManagedObjectValidationError)
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "location.latitude")

        error = try saveError(["position": ["floor": 1]])
        XCTAssertEqual(error.code, NSValidationMissingMandatoryPropertyError)
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "location.position.label")

        error = try saveError(["position": ["floor": 40_000, "label": "x"]])
        XCTAssertEqual(error.code, NSValidationNumberTooLargeError)
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "location.position.floor")

        error = try saveError(["position": "ground"])
        XCTAssertEqual(error.code, NSManagedObjectValidationError)
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "location.position")
    }

    func testAModelWithElementsACompositeCannotHoldIsRefused() throws {
        let model = model()
        let place = try XCTUnwrap(model.entitiesByName["Place"])
        let blob = element("photo", .binaryDataAttributeType)
        blob.allowsExternalBinaryDataStorage = true
        let location = try XCTUnwrap(place.attributesByName["location"] as? NSCompositeAttributeDescription)
        location.elements += [element("id", .objectIDAttributeType), blob, element("latitude", .floatAttributeType)]
        (place.attributesByName["address"] as? NSCompositeAttributeDescription)?.defaultValue = "Paris"
        place.uniquenessConstraints = [["name"], ["location.latitude"]]
        let problems = model.validationProblems()
        XCTAssertTrue(problems.contains { $0.contains("Uniqueness constraint 'location.latitude' of entity 'Place' names a composite") }, "\(problems)")
        XCTAssertFalse(problems.contains { $0.contains("'name'") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("'Place.location.id' has type") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("'Place.location.photo' allows external storage") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("two elements named 'latitude'") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("'Place.address' has a default value of type String") }, "\(problems)")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)) { error in
            XCTAssertEqual((error as NSError).code, 134060)
        }
    }

    // MARK: Other stores and files

    func testTheAtomicStoresKeepCompositeValues() throws {
        let directory = try makeTemporaryDirectory("ocd-composite")
        let model = model()
        for type in [NSBinaryStoreType, NSXMLStoreType] {
            let url = directory.appendingPathComponent("Places-\(type)")
            let saving = try context(model, type, at: url)
            try saving.performAndWait {
                _ = insertPlace("Louvre", ["location": ["latitude": 48.86, "position": ["floor": 2, "label": "Denon"]]], into: saving)
                try saving.save()
            }
            let reading = try context(model, type, at: url)
            try reading.performAndWait {
                let place = try XCTUnwrap(try fetchPlaces(reading).first)
                XCTAssertEqual(place.value(forKeyPath: "location.latitude") as? Double, 48.86, type)
                XCTAssertEqual(place.value(forKeyPath: "location.position.floor") as? Int16, 2, type)
                XCTAssertEqual(place.value(forKeyPath: "location.position.label") as? String, "Denon", type)
                XCTAssertEqual(place.value(forKeyPath: "address.city") as? String, "Paris", type)
            }
        }
    }

    /// The composite of Xcode's model editor (MomXML's model: an Integer 16 and a String, and
    /// an empty nested composite) is stored and read back.
    func testACompositeFromAnXcodeModelIsStored() throws {
        let source = fixturesRoot.appendingPathComponent("xcdatamodels/phimage__MomXML/Model.xcdatamodeld")
        guard FileManager.default.fileExists(atPath: source.path) else { throw XCTSkip("Fixtures not found at \(source.path). Set OCD_FIXTURES.") }
        let model = try NSManagedObjectModel.load(contentsOf: source)
        for entity in model.entities { entity.managedObjectClassName = nil }
        let url = try makeTemporaryDirectory("ocd-composite").appendingPathComponent("Shop.sqlite")
        let context = try context(model, at: url)
        try context.performAndWait {
            let product = NSEntityDescription.insertNewObject(forEntityName: "Produit", into: context)
            XCTAssertEqual(product.value(forKeyPath: "attribute1.one") as? Int16, 0, "the element's default")
            product.setValue("deux", forKeyPath: "attribute1.two")
            try context.save()
            context.reset()
            let fetched = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Produit"))
            XCTAssertEqual(fetched.first?.value(forKeyPath: "attribute1.two") as? String, "deux")
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZONE, ZTWO FROM ZPRODUIT"), [["0", "deux"]])
    }

    /// A store Apple's framework made gains a composite attribute by lightweight migration:
    /// its rows keep their values and take the new attribute's default.
    func testAStoreAppleMadeGainsACompositeByLightweightMigration() throws {
        let url = try copyAppleStore("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V5.sqlite")
        let source = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url)
        let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url)
        let bookmark = try XCTUnwrap(model.entitiesByName["BookmarkEntity"])
        bookmark.properties += [composite("visit", [element("count", .integer64AttributeType, default: 0), element("last", .dateAttributeType)])]
        let options: [AnyHashable: Any] = [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
                                           OCDMigrationSourceModelsOption: [source]]
        let context = try context(model, at: url, options: options)
        let visited = Date(timeIntervalSinceReferenceDate: 800_000_000)
        try context.performAndWait {
            let bookmarks = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "BookmarkEntity"))
            XCTAssertEqual(bookmarks.count, 10)
            XCTAssertTrue(bookmarks.allSatisfy { $0.value(forKeyPath: "visit.count") as? Int64 == 0 && $0.value(forKeyPath: "visit.last") == nil },
                          "migrated rows hold the new attribute's default")
            bookmarks[0].setValue(["count": 3, "last": visited], forKey: "visit")
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "BookmarkEntity")
            request.predicate = NSPredicate(format: "visit.count > 0")
            let again = try context.fetch(request)
            XCTAssertEqual(again.count, 1)
            XCTAssertEqual(again.first?.value(forKeyPath: "visit.last") as? Date, visited)
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZCOUNT, COUNT(*) FROM ZBOOKMARKENTITY GROUP BY ZCOUNT"), [["0", "9"], ["3", "1"]])
    }
}
