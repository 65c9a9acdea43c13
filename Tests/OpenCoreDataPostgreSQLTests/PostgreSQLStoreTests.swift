import Foundation
@_spi(PostgreSQLDriver) @_spi(Testing) @testable import OpenCoreData
@_spi(Tooling) @testable import OpenCoreDataPostgreSQL
import OpenCoreDataTestSupport
import Synchronization
import XCTest

/// The PostgreSQL store through Core Data's API: what a Core Data user does, with several
/// coordinators standing for several app servers sharing one database. Against a real server
/// (`Scripts/postgresql-test-cluster start`; CI always starts one). Each test gets a
/// PostgreSQL schema of its own, dropped at the end through `destroyPersistentStore`.
final class PostgreSQLStoreTests: XCTestCase {
    private var storeURL: URL!

    override func setUpWithError() throws {
        storeURL = try newTestStoreURL(prefix: "ocd_test")
    }

    // MARK: A model with every attribute type and every kind of relationship

    static let model: NSManagedObjectModel = makeModel()

    private static func makeModel(extraAttribute: String? = nil, extraAttributeIsOptional: Bool = true, extraEntity: Bool = false) -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
            let a = NSAttributeDescription()
            a.name = name
            a.attributeType = type
            a.isOptional = optional
            return a
        }
        let department = NSEntityDescription(), employee = NSEntityDescription(), manager = NSEntityDescription(), project = NSEntityDescription()
        department.name = "Department"
        employee.name = "Employee"
        manager.name = "Manager"
        project.name = "Project"
        let employees = NSRelationshipDescription(), departmentOf = NSRelationshipDescription()
        employees.name = "employees"; employees.destinationEntity = employee; employees.maxCount = 0; employees.deleteRule = .cascadeDeleteRule
        departmentOf.name = "department"; departmentOf.destinationEntity = department; departmentOf.maxCount = 1; departmentOf.deleteRule = .nullifyDeleteRule
        employees.inverseRelationship = departmentOf; departmentOf.inverseRelationship = employees
        let projects = NSRelationshipDescription(), members = NSRelationshipDescription()
        projects.name = "projects"; projects.destinationEntity = project; projects.maxCount = 0
        members.name = "members"; members.destinationEntity = employee; members.maxCount = 0
        projects.inverseRelationship = members; members.inverseRelationship = projects
        department.properties = [attribute("name", .stringAttributeType), attribute("budget", .decimalAttributeType), employees]
            + (extraAttribute.map { [attribute($0, .stringAttributeType, optional: extraAttributeIsOptional)] } ?? [])
        department.uniquenessConstraints = [["name"]]
        (department.properties[0] as! NSAttributeDescription).preservesValueInHistoryOnDeletion = true
        employee.properties = [
            attribute("name", .stringAttributeType), attribute("age", .integer16AttributeType), attribute("badge", .integer32AttributeType),
            attribute("salary", .integer64AttributeType), attribute("rating", .doubleAttributeType), attribute("weight", .floatAttributeType),
            attribute("active", .booleanAttributeType), attribute("hired", .dateAttributeType), attribute("id", .UUIDAttributeType),
            attribute("photo", .binaryDataAttributeType), attribute("homepage", .URIAttributeType), attribute("tags", .transformableAttributeType),
            departmentOf, projects,
        ]
        manager.properties = [attribute("bonus", .integer32AttributeType)]
        employee.subentities = [manager]
        project.properties = [attribute("title", .stringAttributeType), members]
        let model = NSManagedObjectModel()
        model.entities = [department, employee, manager, project]
        if extraEntity {
            // Sorts first: numbered from scratch, every other entity's number would move.
            let aardvark = NSEntityDescription()
            aardvark.name = "Aardvark"
            aardvark.properties = [attribute("name", .stringAttributeType)]
            model.entities.append(aardvark)
        }
        return model
    }

    /// A new coordinator (an app server) on the test's store, and a context on it.
    private func server(model: NSManagedObjectModel = PostgreSQLStoreTests.model, options: [AnyHashable: Any]? = nil) throws -> NSManagedObjectContext {
        try Self.server(at: storeURL, model: model, options: options)
    }

    private static func server(at storeURL: URL, model: NSManagedObjectModel = PostgreSQLStoreTests.model, options: [AnyHashable: Any]? = nil) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: OCDPostgreSQLStoreType, configurationName: nil, at: storeURL, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Saves `count` employees, badges 0 to `count - 1`, each set up by `configure`, in this
    /// test's store and in `memory` alike.
    private func saveEmployees(_ count: Int, alsoInto memory: NSManagedObjectContext, _ configure: (Int, NSManagedObject) -> Void) throws {
        for context in [try server(), memory] {
            try context.performAndWait {
                for i in 0..<count {
                    let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
                    e.setValue(Int32(i), forKey: "badge")
                    configure(i, e)
                }
                try context.save()
            }
        }
    }

    /// A context on an in-memory store of the same model: every fetch evaluated in memory, the
    /// reference the PostgreSQL store's SQL answers are checked against.
    private static func inMemoryReference(model: NSManagedObjectModel = PostgreSQLStoreTests.model) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Waits (at most 10 s) until `count` coordinators listen to the store `context` uses: their
    /// listener's last statement is the `LISTEN` of the store's channel (or the read after it).
    /// A save made before then would be posted as a catch-up, not as itself (and not at all on
    /// a store without history).
    private func waitForListeners(_ count: Int, of context: NSManagedObjectContext) throws {
        let uuid = try XCTUnwrap(context.persistentStoreCoordinator!.persistentStores[0].identifier)
        let admin = try testServerConnection()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            // (The UUID is hexadecimal digits and dashes: nothing to escape.)
            // Listening: the last statement is the LISTEN, or the history read that follows it
            // on a store keeping history (the first connection's catch-up check).
            let listening = try admin.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'OpenCoreData remote-change listener' AND (query = 'LISTEN \"OCD_\(uuid)\"' OR (query LIKE 'SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\"%' AND state = 'idle')) HAVING count(*) >= \(count)")
            if !listening.isEmpty { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTFail("\(count) listeners of the store did not start listening within 10 s")
    }

    private static func fetch(_ entity: String, _ format: String? = nil, sortedBy key: String? = nil, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = format.map { NSPredicate(format: $0) }
        request.sortDescriptors = key.map { [NSSortDescriptor(key: $0, ascending: true)] }
        return try context.fetch(request)
    }

    // MARK: Schema and metadata

    func testEveryServerSeesOneStoreWithOneUUID() throws {
        let first = try server(), second = try server()
        let a = first.persistentStoreCoordinator!.persistentStores[0], b = second.persistentStoreCoordinator!.persistentStores[0]
        XCTAssertEqual(a.type, OCDPostgreSQLStoreType)
        XCTAssertEqual(NSPersistentStore.StoreType.postgreSQL.rawValue, OCDPostgreSQLStoreType)
        XCTAssertNotNil(a.metadata[NSStoreUUIDKey] as? String)
        XCTAssertEqual(a.metadata[NSStoreUUIDKey] as? String, b.metadata[NSStoreUUIDKey] as? String, "the second server opened the first one's store")
        XCTAssertEqual(a.identifier, b.identifier)
    }

    func testServersStartingTogetherCreateTheSchemaOnce() throws {
        let results = Mutex<[String]>([])
        let url = storeURL!
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let outcome: String
            do { outcome = try Self.server(at: url).persistentStoreCoordinator!.persistentStores[0].identifier } catch { outcome = "\(error)" }
            results.withLock { $0.append(outcome) }
        }
        let identifiers = results.withLock { $0 }
        XCTAssertEqual(identifiers.count, 4)
        XCTAssertTrue(identifiers.allSatisfy { UUID(uuidString: $0) != nil }, "every server opened the store: \(identifiers)")
        XCTAssertEqual(Set(identifiers).count, 1, "one store, made once under the advisory lock: \(identifiers)")
    }

    func testAServerWithAnotherModelGetsTheVersionError() throws {
        _ = try server()
        XCTAssertThrowsError(try server(model: Self.makeModel(extraAttribute: "motto"))) { error in
            XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
            XCTAssertEqual((error as NSError).code, NSPersistentStoreIncompatibleVersionHashError)
        }
    }

    func testMetadataSetByOneServerIsReadByTheNext() throws {
        let context = try server()
        let coordinator = context.persistentStoreCoordinator!
        let store = coordinator.persistentStores[0]
        coordinator.setMetadata(store.metadata.merging(["deployedVersion": "42"]) { $1 }, for: store)
        try context.performAndWait { try context.save() }
        XCTAssertEqual(try server().persistentStoreCoordinator!.persistentStores[0].metadata["deployedVersion"] as? String, "42")
    }

    func testMetadataIsReadAndWrittenWithoutAddingTheStore() throws {
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL, options: nil),
                             "no store in the schema yet") { error in
            XCTAssertEqual((error as NSError).code, NSFileReadNoSuchFileError)
        }
        let store = try server().persistentStoreCoordinator!.persistentStores[0]
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL, options: nil)
        XCTAssertEqual(metadata[NSStoreUUIDKey] as? String, store.identifier)
        XCTAssertEqual(metadata[NSStoreTypeKey] as? String, OCDPostgreSQLStoreType)
        XCTAssertTrue(Self.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata), "the version hashes tell a deploy whether its model opens the store")

        try NSPersistentStoreCoordinator.setMetadata(["deployedVersion": "43"], forPersistentStoreOfType: OCDPostgreSQLStoreType, at: storeURL, options: nil)
        metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL, options: nil)
        XCTAssertEqual(metadata["deployedVersion"] as? String, "43")
        XCTAssertEqual(metadata[NSStoreUUIDKey] as? String, store.identifier, "the store's own keys are kept")
        XCTAssertNotNil(metadata[NSStoreModelVersionHashesKey])
        XCTAssertEqual(try server().persistentStoreCoordinator!.persistentStores[0].metadata["deployedVersion"] as? String, "43", "the next server reads it")
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.setMetadata(["bad": NSObject()], forPersistentStoreOfType: OCDPostgreSQLStoreType, at: storeURL, options: nil)) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreOperationError)
        }
        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: OCDPostgreSQLStoreType, at: storeURL, options: nil)["deployedVersion"] as? String, "43",
                       "a refused write changes nothing")
    }

    // MARK: Values

    func testEveryAttributeTypeComesBackAsSaved() throws {
        let hired = Date(timeIntervalSinceReferenceDate: 700_000_000.123456)
        let id = UUID()
        let writer = try server()
        try writer.performAndWait {
            let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: writer)
            e.setValue("Zoë — ünïcode", forKey: "name")
            e.setValue(Int16(-12), forKey: "age")
            e.setValue(Int32(2_000_000_000), forKey: "badge")
            e.setValue(Int64(-9_007_199_254_740_993), forKey: "salary")
            e.setValue(0.1 + 0.2, forKey: "rating")
            e.setValue(Float(1.5), forKey: "weight")
            e.setValue(true, forKey: "active")
            e.setValue(hired, forKey: "hired")
            e.setValue(id, forKey: "id")
            e.setValue(Data([0, 1, 2, 255]), forKey: "photo")
            e.setValue(URL(string: "https://example.com/zoë?q=1")!, forKey: "homepage")
            e.setValue(["a", "b"] as NSArray, forKey: "tags")
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: writer)
            d.setValue("R&D", forKey: "name")
            d.setValue(Decimal(string: "12345678901234567890.123456789")!, forKey: "budget")
            try writer.save()
        }
        let reader = try server()
        try reader.performAndWait {
            let e = try XCTUnwrap(try Self.fetch("Employee", in: reader).first)
            XCTAssertEqual(e.value(forKey: "name") as? String, "Zoë — ünïcode")
            XCTAssertEqual(e.value(forKey: "age") as? Int16, -12)
            XCTAssertEqual(e.value(forKey: "badge") as? Int32, 2_000_000_000)
            XCTAssertEqual(e.value(forKey: "salary") as? Int64, -9_007_199_254_740_993)
            XCTAssertEqual(e.value(forKey: "rating") as? Double, 0.1 + 0.2, "doubles keep every bit")
            XCTAssertEqual(e.value(forKey: "weight") as? Float, 1.5)
            XCTAssertEqual(e.value(forKey: "active") as? Bool, true)
            XCTAssertEqual(e.value(forKey: "hired") as? Date, hired, "dates keep every bit of their seconds")
            XCTAssertEqual(e.value(forKey: "id") as? UUID, id)
            XCTAssertEqual(e.value(forKey: "photo") as? Data, Data([0, 1, 2, 255]))
            XCTAssertEqual(e.value(forKey: "homepage") as? URL, URL(string: "https://example.com/zoë?q=1")!)
            XCTAssertEqual(e.value(forKey: "tags") as? [String], ["a", "b"])
            let d = try XCTUnwrap(try Self.fetch("Department", in: reader).first)
            XCTAssertEqual(d.value(forKey: "budget") as? Decimal, Decimal(string: "12345678901234567890.123456789")!, "numeric keeps every digit")
            XCTAssertNil(e.value(forKey: "department"))
        }
    }

    /// Place: name; location (latitude, longitude, and position: floor, label); receipt
    /// (amount, a Decimal, and id, a UUID: the columns that travel as text).
    private static func compositeModel() -> NSManagedObjectModel {
        func element(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            NSAttributeDescription(name: name, type: type, isOptional: true, defaultValue: nil)
        }
        func composite(_ name: String, _ elements: [NSAttributeDescription]) -> NSCompositeAttributeDescription {
            let composite = NSCompositeAttributeDescription()
            composite.name = name
            composite.elements = elements
            return composite
        }
        let place = NSEntityDescription(name: "Place")
        let name = element("name", .stringAttributeType)
        let location = composite("location", [element("latitude", .doubleAttributeType), element("longitude", .doubleAttributeType),
                                              composite("position", [element("floor", .integer16AttributeType), element("label", .stringAttributeType)])])
        // Kept in a deletion's history, where the store keeps what it can.
        name.preservesValueInHistoryOnDeletion = true
        location.preservesValueInHistoryOnDeletion = true
        place.properties = [name, location, composite("receipt", [element("amount", .decimalAttributeType), element("id", .UUIDAttributeType)])]
        let model = NSManagedObjectModel()
        model.entities = [place]
        return model
    }

    func testACompositeAttributeIsAColumnPerLeafElementAndComesBackWhole() throws {
        let model = Self.compositeModel()
        let id = UUID()
        let history: [AnyHashable: Any] = [NSPersistentHistoryTrackingKey: true]
        let writer = try server(model: model, options: history)
        try writer.performAndWait {
            for (name, location, receipt) in [("Louvre", ["latitude": 48.86, "longitude": 2.34, "position": ["floor": 2, "label": "Denon"]] as [String: Any]?,
                                               ["amount": Decimal(string: "12.345")!, "id": id] as [String: Any]?),
                                              ("Orsay", ["latitude": 48.86, "longitude": 2.33], nil),
                                              ("Nowhere", nil, nil)] {
                let place = NSEntityDescription.insertNewObject(forEntityName: "Place", into: writer)
                place.setValue(name, forKey: "name")
                place.setValue(location, forKey: "location")
                place.setValue(receipt, forKey: "receipt")
            }
            try writer.save()
        }
        let columns = try PostgreSQLInspection.read(at: storeURL) { try $0.columns(of: "ZPLACE") }
        XCTAssertEqual(columns.map(\.name), ["Z_PK", "Z_ENT", "Z_OPT", "ZFLOOR", "ZLATITUDE", "ZLONGITUDE", "ZAMOUNT", "ZLABEL", "ZNAME", "ZID"], "Apple's columns, as in a SQLite store")
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: columns)["ZAMOUNT"], "numeric")
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: columns)["ZID"], "uuid")

        let reader = try server(model: model, options: history)
        try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let places = try reader.fetch(request)
            XCTAssertEqual(places.map { $0.value(forKey: "name") as? String }, ["Louvre", "Nowhere", "Orsay"])
            let louvre = try XCTUnwrap(places[0].value(forKey: "location") as? [String: Any])
            XCTAssertEqual(louvre["latitude"] as? Double, 48.86)
            XCTAssertEqual((louvre["position"] as? [String: Any])?["label"] as? String, "Denon")
            XCTAssertEqual((louvre["position"] as? [String: Any])?["floor"] as? Int16, 2)
            let receipt = try XCTUnwrap(places[0].value(forKey: "receipt") as? [String: Any])
            XCTAssertEqual(receipt["amount"] as? Decimal, Decimal(string: "12.345")!)
            XCTAssertEqual(receipt["id"] as? UUID, id)
            XCTAssertNil(places[1].value(forKey: "location"), "no value: every leaf column NULL")
            let orsay = try XCTUnwrap(places[2].value(forKey: "location") as? [String: Any])
            XCTAssertEqual(orsay["longitude"] as? Double, 2.33)
            XCTAssertNil(orsay["position"], "an element missing from the dictionary stays missing")
            XCTAssertNil(places[2].value(forKey: "receipt"))

            request.predicate = NSPredicate(format: "location.position.floor == 2")
            XCTAssertEqual(try reader.fetch(request).map { $0.value(forKey: "name") as? String }, ["Louvre"], "a predicate reaches an element by key path")
        }

        // A change of one element saves the whole value; another server reads it.
        try writer.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
            request.predicate = NSPredicate(format: "name == 'Orsay'")
            let orsay = try XCTUnwrap(try writer.fetch(request).first)
            orsay.setValue(0, forKeyPath: "location.position.floor")
            try writer.save()
        }
        try reader.performAndWait {
            reader.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
            request.predicate = NSPredicate(format: "location.position.floor == 0")
            let orsay = try XCTUnwrap(try reader.fetch(request).first)
            XCTAssertEqual(orsay.value(forKey: "name") as? String, "Orsay")
            XCTAssertEqual(orsay.value(forKeyPath: "location.latitude") as? Double, 48.86, "the other elements stay")
        }

        // Deleting keeps the preserved plain value in history; a composite's is not kept (nor
        // by the SQLite store), and does not stop the save.
        let tombstone = try writer.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
            request.predicate = NSPredicate(format: "name == 'Louvre'")
            writer.delete(try XCTUnwrap(try writer.fetch(request).first))
            try writer.save()
            let transactions = (try writer.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction]
            return transactions?.last?.changes?.first?.tombstone
        }
        XCTAssertEqual(tombstone?["name"] as? String, "Louvre")
        XCTAssertNil(tombstone?["location"])
    }

    // MARK: Fetching

    func testFetchesAnswerAsTheInMemoryStoreDoes() throws {
        let memory = try Self.inMemoryReference()
        for context in [try server(), memory] {
            try context.performAndWait {
                let people: [(String, Int16?, Double?, Bool?)] = [("ada", 36, 4.5, true), ("Ådne", 28, nil, false), ("bob", 51, 2, true),
                                                                 ("Carl", 28, 3.25, nil), ("carl", 19, 1, false), ("dee", nil, 5, true),
                                                                 ("eve", 40, .nan, true)]
                for (i, (name, age, rating, active)) in people.enumerated() {
                    let e = NSEntityDescription.insertNewObject(forEntityName: name == "bob" ? "Manager" : "Employee", into: context)
                    e.setValue(name, forKey: "name")
                    e.setValue(age, forKey: "age")
                    e.setValue(rating, forKey: "rating")
                    e.setValue(active, forKey: "active")
                    e.setValue(Date(timeIntervalSinceReferenceDate: Double(i) * 1000), forKey: "hired")
                }
                try context.save()
            }
        }
        let reader = try server()
        let requests: [(String, String?, [NSSortDescriptor], Int)] = [
            ("Employee", "age == 28", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "name BEGINSWITH[cd] 'a'", [NSSortDescriptor(key: "age", ascending: true)], 0),
            ("Employee", "name ==[c] 'CARL'", [NSSortDescriptor(key: "age", ascending: false)], 0),
            ("Employee", "age > 20 AND NOT name LIKE 'c*'", [NSSortDescriptor(key: "name", ascending: false)], 0),
            ("Manager", nil, [], 0),
            ("Employee", nil, [NSSortDescriptor(key: "age", ascending: false), NSSortDescriptor(key: "name", ascending: true)], 2),
            // Comparisons the store narrows in SQL, nil included: `nil != 28` is true, `nil < 30` false.
            ("Employee", "age != 28", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "age == nil OR rating == nil", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "age < 30 OR rating >= 4.5", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "rating > 2 AND name CONTAINS 'a' AND age < 40", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "active == YES AND age >= 36.5", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "active != 1", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "hired > CAST(1500, 'NSDate') AND hired <= CAST(4000, 'NSDate')", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "NOT (age > 20) AND rating < 4", [NSSortDescriptor(key: "name", ascending: true)], 0),
            // A stored NaN: the evaluator compares it as equal to any number, PostgreSQL orders it last.
            ("Employee", "rating == 5", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "rating <= 2", [NSSortDescriptor(key: "name", ascending: true)], 0),
            ("Employee", "rating > 4", [NSSortDescriptor(key: "name", ascending: true)], 0),
            // Fetches the store answers in SQL: integer and Boolean sorts (nil first ascending,
            // last descending, ties in key order), limits and offsets.
            ("Employee", "age > 20", [NSSortDescriptor(key: "age", ascending: true)], 0),
            ("Employee", nil, [NSSortDescriptor(key: "age", ascending: true)], 3),
            ("Employee", nil, [NSSortDescriptor(key: "age", ascending: false), NSSortDescriptor(key: "active", ascending: true)], 0),
            ("Employee", nil, [NSSortDescriptor(key: "active", ascending: false)], 0),
            ("Employee", "active == YES", [], 2),
        ]
        let pages: [(String?, [NSSortDescriptor], Int, Int)] = [
            (nil, [NSSortDescriptor(key: "age", ascending: true)], 2, 2),
            ("age != 28", [], 2, 1),
            (nil, [NSSortDescriptor(key: "age", ascending: false)], 0, 3),
            ("age > 20", [NSSortDescriptor(key: "age", ascending: true)], 10, 6),
        ]
        for (entity, format, sorts, limit, offset) in requests.map({ ($0.0, $0.1, $0.2, $0.3, 0) }) + pages.map({ ("Employee", $0.0, $0.1, $0.2, $0.3) }) {
            func request() -> NSFetchRequest<NSManagedObject> {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.predicate = format.map { NSPredicate(format: $0) }
                request.sortDescriptors = sorts
                request.fetchLimit = limit
                request.fetchOffset = offset
                return request
            }
            func names(_ context: NSManagedObjectContext) throws -> [String] {
                try context.performAndWait { try context.fetch(request()).map { $0.value(forKey: "name") as? String ?? "-" } }
            }
            let described = "\(entity) \(format ?? "all") sorted by \(sorts.map { $0.key ?? "" }) limit \(limit) offset \(offset)"
            let expected = try names(memory)
            XCTAssertFalse(expected.isEmpty && offset < 6, described)
            XCTAssertEqual(try names(reader), expected, described)
            XCTAssertEqual(try reader.performAndWait { try reader.count(for: request()) }, try memory.performAndWait { try memory.count(for: request()) }, "count: \(described)")
        }
        try reader.performAndWait {
            XCTAssertEqual(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")), 7, "a fetch of an entity includes its subentities")
        }
    }

    /// Comparisons and sorts of Doubles and dates are answered by SQL (the store's rows are the
    /// answer, limits included) and agree with the in-memory store, stored NaNs, infinities,
    /// signed zeros and nils included; Floats as the Float their objects answer, Doubles beyond
    /// a Float's range included. NaN constants are left to memory, with the same answers.
    func testNumberAndDateFetchesAreAnsweredInSQLAsInMemory() throws {
        let memory = try Self.inMemoryReference()
        // As Floats: 1e300 is infinity, 7e-46 is 0, 3.4028235677973362e38 the largest Float;
        // at the midpoints where rounding turns to infinity (2¹²⁸ - 2¹⁰³) and to 0 (2⁻¹⁵⁰),
        // and just past the latter.
        let ratings: [Double?] = [nil, .nan, -.infinity, -1.5, -0.0, 0.0, 0.3, 0.1 + 0.2, 2, .infinity, 2, nil, 7,
                                  1e300, 7e-46, -3.4028235677973362e38, 0.30000001192092896,
                                  3.4028235677973366e38, 7.006492321624085e-46, 7.006492321624087e-46, -7e-46]
        let hired: [Double?] = [1000, nil, .nan, 3000, 1500, 1500, nil, 4000, -2000, 0, 2999.5, 1000, 5000, 100, 200, 300, 400, 500, 600, 700, 800]
        try saveEmployees(ratings.count, alsoInto: memory) { i, e in
            e.setValue(ratings[i], forKey: "rating")
            // A Float attribute given a Double: the object answers the Float (0.3 reads as
            // 0.30000001192...), the column keeps the Double.
            e.setValue(ratings[i], forKey: "weight")
            e.setValue(hired[i].map { Date(timeIntervalSinceReferenceDate: $0) }, forKey: "hired")
        }
        let reader = try server()
        let store = try XCTUnwrap(reader.persistentStoreCoordinator!.persistentStores[0] as? PostgreSQLStore)
        let employee = try XCTUnwrap(Self.model.entitiesByName["Employee"])
        var predicates: [NSPredicate] = []
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            for constant in [0, 0.3, 2, -1.5, Double.infinity, 0.30000001192092896, -Double(Float.greatestFiniteMagnitude)] as [Double] {
                predicates.append(NSPredicate(format: "rating \(op) %@", NSNumber(value: constant)))
                predicates.append(NSPredicate(format: "weight \(op) %@", NSNumber(value: constant)))
            }
            predicates.append(NSPredicate(format: "rating \(op) 2"))
            for seconds in [1500, 2999.5, -2000, .nan] as [Double] {
                predicates.append(NSPredicate(format: "hired \(op) %@", Date(timeIntervalSinceReferenceDate: seconds) as NSDate))
            }
        }
        predicates += ["rating == nil OR hired > CAST(1000, 'NSDate')", "rating >= 0 AND hired <= CAST(3000, 'NSDate')", "rating != nil AND rating != 2",
                       "rating BETWEEN {0, 2}", "rating BETWEEN {-1e999, 0.3}", "hired BETWEEN {CAST(1000, 'NSDate'), CAST(3000, 'NSDate')}"]
            .map { NSPredicate(format: $0) }
        predicates.append(NSPredicate(format: "rating BETWEEN %@", [-1.5, 2]))
        typealias Request = (predicate: NSPredicate?, sorts: [NSSortDescriptor], limit: Int, offset: Int)
        var requests: [Request] = predicates.map { ($0, [NSSortDescriptor(key: "badge", ascending: true)], 0, 0) }
        // Sorts: NaN has no place in an in-memory sort, so these fetches leave it out.
        let finite = NSPredicate(format: "rating == nil OR rating < 1000")
        let dated = NSPredicate(format: "hired == nil OR hired < CAST(10000, 'NSDate')")
        requests += [
            (finite, [NSSortDescriptor(key: "rating", ascending: true)], 0, 0),
            (finite, [NSSortDescriptor(key: "rating", ascending: false)], 0, 0),
            (finite, [NSSortDescriptor(key: "weight", ascending: false), NSSortDescriptor(key: "badge", ascending: false)], 4, 2),
            (finite, [NSSortDescriptor(key: "weight", ascending: true)], 0, 0),
            (dated, [NSSortDescriptor(key: "hired", ascending: false)], 3, 0),
            (dated, [NSSortDescriptor(key: "hired", ascending: true)], 5, 1),
            (NSPredicate(format: "hired > CAST(0, 'NSDate')"), [NSSortDescriptor(key: "hired", ascending: false), NSSortDescriptor(key: "rating", ascending: true)], 0, 0),
        ]
        for (predicate, sorts, limit, offset) in requests {
            func request() -> NSFetchRequest<NSManagedObject> {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
                request.predicate = predicate
                request.sortDescriptors = sorts
                request.fetchLimit = limit
                request.fetchOffset = offset
                return request
            }
            func badges(_ context: NSManagedObjectContext) throws -> [Int32] {
                try context.performAndWait { try context.fetch(request()).map { $0.value(forKey: "badge") as? Int32 ?? -1 } }
            }
            let described = "\(predicate?.predicateFormat ?? "all") sorted by \(sorts.map { $0.key ?? "" }) limit \(limit) offset \(offset)"
            let plan = FetchPlan(entity: employee, predicate: predicate, sortDescriptors: sorts, includesSubentities: true, fetchLimit: limit, fetchOffset: offset, affectedStores: nil)
            // NaN constants are left to memory.
            let inMemory = described.lowercased().contains("nan")
            XCTAssertEqual(try store.prepareFetch(plan).isExact, !inMemory, "answered by SQL: \(described)")
            XCTAssertEqual(try badges(reader), try badges(memory), described)
            XCTAssertEqual(try reader.performAndWait { try reader.count(for: request()) }, try memory.performAndWait { try memory.count(for: request()) }, "count: \(described)")
        }
    }

    /// `ANY`/`ALL` through an ordered to-many: its members' values are an array, in which a nil
    /// value takes part (as `NSNull`), unlike the set of an unordered one's; SQL answers as the
    /// evaluator does either way.
    func testAnyAndAllThroughAnOrderedToManyAreAnsweredInSQLAsInMemory() throws {
        let model = PlaylistModel.make()
        let memory = try Self.inMemoryReference(model: model)
        let reader = try Self.server(at: storeURL, model: model)
        for context in [reader, memory] {
            try context.performAndWait {
                let songs = ["x", "y", nil, "z"].map { title -> NSManagedObject in
                    let song = NSEntityDescription.insertNewObject(forEntityName: "Song", into: context)
                    song.setValue(title, forKey: "title")
                    return song
                }
                for (name, members) in [("xy", [0, 1]), ("x-nil", [0, 2]), ("nil", [2]), ("none", []), ("zyx", [3, 1, 0])] {
                    let list = NSEntityDescription.insertNewObject(forEntityName: "Playlist", into: context)
                    list.setValue(name, forKey: "name")
                    list.setValue(NSOrderedSet(array: members.map { songs[$0] }), forKey: "songs")
                }
                try context.save()
            }
        }
        let store = try XCTUnwrap(reader.persistentStoreCoordinator!.persistentStores[0] as? PostgreSQLStore)
        let formats = ["ANY songs.title == 'x'", "ANY songs.title != 'x'", "ANY songs.title == nil", "ANY songs.title != nil",
                       "ALL songs.title != 'y'", "ALL songs.title == 'x'", "ALL songs.title != nil", "NOT (ANY songs.title IN {'y', 'z'})",
                       "ANY playlists.name == 'xy'", "ANY playlists.name != 'xy'"]
        for format in formats {
            let entity = format.contains("playlists") ? "Song" : "Playlist", key = entity == "Song" ? "title" : "name"
            func names(_ context: NSManagedObjectContext) throws -> [String] {
                try context.performAndWait { try Self.fetch(entity, format, sortedBy: key, in: context).map { $0.value(forKey: key) as? String ?? "-" } }
            }
            let plan = FetchPlan(entity: try XCTUnwrap(model.entitiesByName[entity]), predicate: NSPredicate(format: format), sortDescriptors: [],
                                 includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil)
            XCTAssertTrue(try store.prepareFetch(plan).isExact, "answered by SQL: \(format)")
            XCTAssertEqual(try names(reader), try names(memory), format)
        }
    }

    /// `IN` a collection of constants, a to-one relationship compared with nil, an object ID or
    /// an object, and key paths through it (`department.name`) are answered by SQL, with the
    /// in-memory store's answers.
    func testMembershipToOneComparisonsAndKeyPathsAreAnsweredInSQLAsInMemory() throws {
        let memory = try Self.inMemoryReference()
        let people: [(age: Int16?, rating: Double?, department: Int?)] = [(36, 4.5, 0), (28, nil, 1), (51, 2, nil), (28, .nan, 0), (19, 1, 1), (nil, 5, 0), (40, 2, nil)]
        for context in [try server(), memory] {
            try context.performAndWait {
                let departments = ["Legal", "Sales", "HR"].map { name in
                    let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
                    d.setValue(name, forKey: "name")
                    return d
                }
                let employees = people.enumerated().map { i, person in
                    let e = NSEntityDescription.insertNewObject(forEntityName: i == 2 ? "Manager" : "Employee", into: context)
                    e.setValue(Int32(i), forKey: "badge")
                    e.setValue(person.age, forKey: "age")
                    e.setValue(person.rating, forKey: "rating")
                    e.setValue(Date(timeIntervalSinceReferenceDate: Double(i % 3) * 1000), forKey: "hired")
                    e.setValue(person.department.map { departments[$0] }, forKey: "department")
                    return e
                }
                for (title, members) in [("Apollo", [0, 1, 3]), ("Gemini", [0]), (nil, [1, 4])] as [(String?, [Int])] {
                    let project = NSEntityDescription.insertNewObject(forEntityName: "Project", into: context)
                    project.setValue(title, forKey: "title")
                    project.setValue(Set(members.map { employees[$0] }), forKey: "members")
                }
                try context.save()
            }
        }
        let reader = try server()
        let store = try XCTUnwrap(reader.persistentStoreCoordinator!.persistentStores[0] as? PostgreSQLStore)
        let employee = try XCTUnwrap(Self.model.entitiesByName["Employee"])
        /// The predicates, with each context's own Legal department (object and ID) and the
        /// other store's ID of it.
        func predicates(in context: NSManagedObjectContext, foreign: NSManagedObjectID) throws -> [NSPredicate] {
            let legal = try XCTUnwrap(try Self.fetch("Department", "name == 'Legal'", in: context).first)
            return [
                NSPredicate(format: "age IN {19, 28}"), NSPredicate(format: "age IN %@", [51, 36, 1000]), NSPredicate(format: "age IN %@", [Int]()),
                NSPredicate(format: "age IN {28, nil}"), NSPredicate(format: "rating IN {2, 5}"), NSPredicate(format: "active IN {YES}"),
                NSPredicate(format: "hired IN %@", [Date(timeIntervalSinceReferenceDate: 1000), Date(timeIntervalSinceReferenceDate: 7)]),
                NSPredicate(format: "NOT age IN {28}"), NSPredicate(format: "NOT (rating > 2)"), NSPredicate(format: "NOT (age < 30 OR department == nil)"),
                NSPredicate(format: "NOT (name BEGINSWITH 'a')"),  // a string comparison: left to memory
                NSPredicate(format: "age < 45 AND NOT (age > 20 AND name BEGINSWITH 'x')"),  // narrowed by its first part
                NSPredicate(format: "department == %@", legal), NSPredicate(format: "department != %@", legal),
                NSPredicate(format: "department == %@", legal.objectID), NSPredicate(format: "department != %@", legal.objectID),
                NSPredicate(format: "department == nil"), NSPredicate(format: "department != nil"),
                NSPredicate(format: "department == %@", foreign), NSPredicate(format: "department != %@", foreign),
                NSPredicate(format: "department == %@ AND age IN {28, 36}", legal),
                // Key paths through the to-one: nil where there is no department, as in memory.
                NSPredicate(format: "department.name == 'Legal'"), NSPredicate(format: "department.name != 'Legal'"),
                NSPredicate(format: "department.name IN {'Sales', 'HR'} OR age > 45"), NSPredicate(format: "NOT (department.name == 'Sales')"),
                NSPredicate(format: "department.name == nil"),
                // Members counted in SQL: the departments' employees (a foreign key), the
                // employees' projects (a join table).
                NSPredicate(format: "department.name == 'Legal' AND projects.@count == 0"), NSPredicate(format: "projects.@count >= 1"),
                // ANY/ALL over the members (no members: ANY false, ALL true; a nil value takes no part).
                NSPredicate(format: "ANY projects.title == 'Apollo'"), NSPredicate(format: "ALL projects.title == 'Apollo'"),
                NSPredicate(format: "ANY projects.title IN {'Gemini', 'Mercury'}"), NSPredicate(format: "ALL projects.title != 'Gemini'"),
                NSPredicate(format: "NOT (ANY projects.title == 'Gemini')"),
            ]
        }
        let (readerLegal, memoryLegal) = try (reader.performAndWait { try XCTUnwrap(try Self.fetch("Department", "name == 'Legal'", in: reader).first).objectID },
                                              memory.performAndWait { try XCTUnwrap(try Self.fetch("Department", "name == 'Legal'", in: memory).first).objectID })
        let readerPredicates = try reader.performAndWait { try predicates(in: reader, foreign: memoryLegal) }
        let memoryPredicates = try memory.performAndWait { try predicates(in: memory, foreign: readerLegal) }
        for (sql, inMemory) in zip(readerPredicates, memoryPredicates) {
            func badges(_ context: NSManagedObjectContext, _ predicate: NSPredicate) throws -> [Int32] {
                try context.performAndWait {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
                    request.predicate = predicate
                    request.sortDescriptors = [NSSortDescriptor(key: "badge", ascending: true)]
                    return try context.fetch(request).map { $0.value(forKey: "badge") as? Int32 ?? -1 }
                }
            }
            let described = sql.predicateFormat
            var plan = FetchPlan(entity: employee, predicate: sql, sortDescriptors: [], includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil)
            plan.context = reader
            XCTAssertEqual(try store.prepareFetch(plan).isExact, !described.contains("BEGINSWITH"), "answered by SQL: \(described)")
            XCTAssertEqual(try badges(reader, sql), try badges(memory, inMemory), described)
        }
        // A one-to-many's members counted and aggregated through their foreign key (HR has
        // none; Legal's ages are 36, 28 and nil), a many-to-many's through its join table.
        // Sums of Integer 64 values, and extremes of Doubles and dates, are the evaluator's
        // (with Legal's NaN rating, which of its ratings is the largest depends on the set's
        // order, in memory too: only `== nil` is asked).
        let aggregates: [(entity: String, name: String, formats: [String], exact: Bool)] = [
            ("Department", "name", ["employees.@count >= 3", "employees.@count == 0", "employees.@count < 3",
                                    "employees.@sum.age > 60", "employees.@sum.age == 0", "employees.@sum.badge != 5",
                                    "employees.@avg.age > 30", "employees.@avg.age == 0", "employees.@avg.age BETWEEN {23, 24}",
                                    "employees.@min.age < 25", "employees.@min.age == nil", "employees.@max.badge >= 5", "NOT (employees.@max.age > 30)",
                                    "employees.@max.salary == nil", "employees.@max.age != 36"], true),
            ("Project", "title", ["members.@sum.age >= 60", "members.@avg.age < 30", "members.@max.badge > 3", "members.@min.age IN {19, 28}"], true),
            ("Department", "name", ["employees.@sum.salary == 0", "employees.@max.rating == nil", "employees.@min.hired != nil"], false),
            // SUBQUERY counts: inside, `$e.x` and plain `x` both name the member; a nil age is
            // not > 30, but NOT (age > 30) holds for it, as in memory.
            ("Department", "name", ["SUBQUERY(employees, $e, $e.age > 30).@count > 0", "SUBQUERY(employees, $e, age >= 28 AND $e.badge != 5).@count == 1",
                                    "SUBQUERY(employees, $e, NOT ($e.age > 30)).@count >= 2", "SUBQUERY(employees, $e, $e.age == nil).@count == 1",
                                    "SUBQUERY(employees, $e, $e.age IN {28, 36} OR $e.badge < 2).@count BETWEEN {1, 2}",
                                    "name != 'HR' AND SUBQUERY(employees, $e, $e.age < 100).@count == 0"], true),
            ("Project", "title", ["SUBQUERY(members, $m, $m.age < 30).@count >= 1", "SUBQUERY(members, $m, $m.badge > 3).@count == 0"], true),
            // A relationship, a quantifier or another SUBQUERY inside stays with the evaluator.
            ("Department", "name", ["SUBQUERY(employees, $e, $e.department.name == 'Legal').@count > 0",
                                    "SUBQUERY(employees, $e, ANY $e.projects.title == 'Apollo').@count > 0",
                                    "SUBQUERY(employees, $e, SUBQUERY($e.projects, $p, $p.title != nil).@count > 0).@count > 0"], false),
        ]
        for (entity, key, formats, exact) in aggregates {
            for format in formats {
                func names(_ context: NSManagedObjectContext) throws -> [String] {
                    try context.performAndWait { try Self.fetch(entity, format, sortedBy: key, in: context).map { $0.value(forKey: key) as? String ?? "-" } }
                }
                let plan = FetchPlan(entity: try XCTUnwrap(Self.model.entitiesByName[entity]), predicate: NSPredicate(format: format), sortDescriptors: [],
                                     includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil)
                XCTAssertEqual(try store.prepareFetch(plan).isExact, exact, format)
                XCTAssertEqual(try names(reader), try names(memory), format)
            }
        }
        // Aggregates at the end of a to-one: nil where the relationship is nil (badges 2 and 6
        // have no department), as the evaluator's key path is, not an aggregate of no members.
        for format in ["department.employees.@count >= 3", "department.employees.@count == 2", "department.employees.@count != 3",
                       "department.employees.@count == nil", "NOT (department.employees.@count > 2)",
                       "department.employees.@sum.age > 60", "department.employees.@max.badge < 5", "department.employees.@min.age == nil"] {
            func badges(_ context: NSManagedObjectContext) throws -> [Int32] {
                try context.performAndWait { try Self.fetch("Employee", format, sortedBy: "badge", in: context).map { $0.value(forKey: "badge") as? Int32 ?? -1 } }
            }
            let plan = FetchPlan(entity: employee, predicate: NSPredicate(format: format), sortDescriptors: [], includesSubentities: true,
                                 fetchLimit: 0, fetchOffset: 0, affectedStores: nil)
            XCTAssertTrue(try store.prepareFetch(plan).isExact, "answered by SQL: \(format)")
            XCTAssertEqual(try badges(reader), try badges(memory), format)
        }
        // The same clauses in a batch update's UPDATE (the outer table named in the subqueries).
        try reader.performAndWait {
            let update = NSBatchUpdateRequest(entityName: "Employee")
            update.predicate = NSPredicate(format: "department.name == 'Legal' AND (ANY projects.title == 'Apollo' OR projects.@count == 0)")
            update.propertiesToUpdate = ["active": true]
            update.resultType = .updatedObjectIDsResultType
            let updated = try XCTUnwrap((try reader.execute(update) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
            XCTAssertEqual(Set(updated.map { reader.object(with: $0).value(forKey: "badge") as? Int32 }), [0, 3, 5], "Legal's, with Apollo or no project")
        }
        XCTAssertEqual(store.batchRequestsInSQL, 1, "one UPDATE")
    }

    /// String equality (`==`, `!=`, `IN`) is answered by SQL with Swift's canonical
    /// equivalence, as the in-memory store answers: "é" precomposed equals "e" and a combining
    /// acute, the Kelvin sign equals "K".
    func testStringEqualityIsAnsweredInSQLByCanonicalEquivalence() throws {
        let memory = try Self.inMemoryReference()
        let names: [String?] = ["caf\u{E9}", "cafe\u{301}", "K", "\u{212A}", "k", nil, "Caf\u{E9}", "", "\u{1E0A}\u{323}", "\u{1E0C}\u{307}"]
        try saveEmployees(names.count, alsoInto: memory) { i, e in e.setValue(names[i], forKey: "name") }
        let reader = try server()
        let store = try XCTUnwrap(reader.persistentStoreCoordinator!.persistentStores[0] as? PostgreSQLStore)
        let employee = try XCTUnwrap(Self.model.entitiesByName["Employee"])
        let predicates: [(NSPredicate, exact: Bool)] = [
            (NSPredicate(format: "name == %@", "caf\u{E9}"), true), (NSPredicate(format: "name == %@", "cafe\u{301}"), true),
            (NSPredicate(format: "name != %@", "caf\u{E9}"), true), (NSPredicate(format: "name == 'K'"), true),
            (NSPredicate(format: "name == %@", "\u{212A}"), true), (NSPredicate(format: "name IN %@", ["k", "\u{1E0C}\u{307}", "x"]), true),
            (NSPredicate(format: "name == ''"), true), (NSPredicate(format: "NOT (name == 'K')"), true),
            (NSPredicate(format: "name ==[c] 'K'"), false), (NSPredicate(format: "name < 'K'"), false),
        ]
        for (predicate, exact) in predicates {
            func badges(_ context: NSManagedObjectContext) throws -> [Int32] {
                try context.performAndWait {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
                    request.predicate = predicate
                    request.sortDescriptors = [NSSortDescriptor(key: "badge", ascending: true)]
                    return try context.fetch(request).map { $0.value(forKey: "badge") as? Int32 ?? -1 }
                }
            }
            let plan = FetchPlan(entity: employee, predicate: predicate, sortDescriptors: [], includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil)
            XCTAssertEqual(try store.prepareFetch(plan).isExact, exact, predicate.predicateFormat)
            XCTAssertEqual(try badges(reader), try badges(memory), predicate.predicateFormat)
        }
    }

    // MARK: Relationships and faults

    func testRelationshipsFaultInOnAnotherServer() throws {
        let writer = try server()
        let departmentID: NSManagedObjectID = try writer.performAndWait {
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: writer)
            d.setValue("Ops", forKey: "name")
            let p1 = NSEntityDescription.insertNewObject(forEntityName: "Project", into: writer)
            p1.setValue("Apollo", forKey: "title")
            let p2 = NSEntityDescription.insertNewObject(forEntityName: "Project", into: writer)
            p2.setValue("Gemini", forKey: "title")
            for (name, entity) in [("ann", "Employee"), ("max", "Manager")] {
                let e = NSEntityDescription.insertNewObject(forEntityName: entity, into: writer)
                e.setValue(name, forKey: "name")
                e.setValue(d, forKey: "department")
                e.mutableSetValue(forKey: "projects").addObjects(from: name == "ann" ? [p1, p2] : [p1])
            }
            try writer.save()
            return d.objectID
        }
        let reader = try server()
        try reader.performAndWait {
            let department = try reader.existingObject(with: reader.persistentStoreCoordinator!.managedObjectID(forURIRepresentation: departmentID.uriRepresentation())!)
            let employees = department.value(forKey: "employees") as! Set<NSManagedObject>
            XCTAssertEqual(Set(employees.map { $0.value(forKey: "name") as! String }), ["ann", "max"], "a to-many fires on first use")
            let max = try XCTUnwrap(employees.first { $0.value(forKey: "name") as? String == "max" })
            XCTAssertEqual(max.entity.name, "Manager", "members keep their entity")
            XCTAssertTrue((max.value(forKey: "department") as? NSManagedObject) === department, "a to-one is the same object")
            let apollo = try XCTUnwrap(try Self.fetch("Project", "title == 'Apollo'", in: reader).first)
            XCTAssertEqual(Set((apollo.value(forKey: "members") as! Set<NSManagedObject>).map { $0.value(forKey: "name") as! String }), ["ann", "max"], "many-to-many from the other side")
            // Changing a many-to-many on one server rewrites the pairs.
            apollo.mutableSetValue(forKey: "members").remove(max)
            try reader.save()
        }
        let third = try server()
        try third.performAndWait {
            let max = try XCTUnwrap(try Self.fetch("Employee", "name == 'max'", in: third).first)
            XCTAssertEqual((max.value(forKey: "projects") as! Set<NSManagedObject>).count, 0)
            let department = try XCTUnwrap(try Self.fetch("Department", in: third).first)
            third.delete(department)
            try third.save()
            XCTAssertEqual(try third.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")), 0, "cascade deleted the employees")
        }
        let fourth = try server()
        try fourth.performAndWait {
            XCTAssertEqual(try fourth.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")), 0, "the cascade reached the database")
            let apollo = try XCTUnwrap(try Self.fetch("Project", "title == 'Apollo'", in: fourth).first)
            XCTAssertEqual((apollo.value(forKey: "members") as! Set<NSManagedObject>).count, 0, "deleted members left the join table")
        }
    }

    /// `relationshipKeyPathsForPrefetching` reads each step of a key path for all fetched
    /// objects at once, though the store reads to-many members on first use: one read for the
    /// members (one-to-many, many-to-many, subentities included) and one for their rows; reading
    /// them afterwards needs no store access.
    func testPrefetchingReadsEachStepOnceForAllFetchedObjects() throws {
        let writer = try server()
        try writer.performAndWait {
            let projects = (0..<4).map { i -> NSManagedObject in
                let p = NSEntityDescription.insertNewObject(forEntityName: "Project", into: writer)
                p.setValue("P\(i)", forKey: "title")
                return p
            }
            for d in 0..<10 {
                let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: writer)
                department.setValue("D\(d)", forKey: "name")
                for e in 0..<5 {
                    let employee = NSEntityDescription.insertNewObject(forEntityName: e == 0 ? "Manager" : "Employee", into: writer)
                    employee.setValue("E\(d)-\(e)", forKey: "name")
                    employee.setValue(department, forKey: "department")
                    employee.mutableSetValue(forKey: "projects").addObjects(from: [projects[e % 4], projects[(e + 1) % 4]])
                }
            }
            try writer.save()
        }
        /// Fetches `entity` prefetching `keyPaths` on a new server (nothing cached) and reads the
        /// result with `read`: the store reads the fetch and `read` needed, and its answer.
        func prefetch<T>(_ entity: String, _ keyPaths: [String], _ read: ([NSManagedObject]) -> T) throws -> (reads: Int, answer: T) {
            let reader = try server()
            let coordinator = try XCTUnwrap(reader.persistentStoreCoordinator)
            return try reader.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.relationshipKeyPathsForPrefetching = keyPaths
                let objects = try reader.fetch(request)
                let before = coordinator.storeRoundTrips
                let answer = read(objects)
                XCTAssertEqual(coordinator.storeRoundTrips, before, "\(entity) \(keyPaths): reading the prefetched objects needs no store access")
                return (before, answer)
            }
        }
        func members(_ object: NSManagedObject, _ key: String) -> [NSManagedObject] { Array(object.value(forKey: key) as! Set<NSManagedObject>) }

        let employees = try prefetch("Department", ["employees"]) { departments in
            Set(departments.flatMap { members($0, "employees").map { $0.value(forKey: "name") as! String } })
        }
        XCTAssertEqual(employees.answer.count, 50)
        XCTAssertEqual(employees.reads, 2, "the 10 departments' members, then the 50 employees' rows")

        let projects = try prefetch("Employee", ["projects"]) { employees in
            employees.map { members($0, "projects").map { $0.value(forKey: "title") as! String }.count }.reduce(0, +)
        }
        XCTAssertEqual(projects.answer, 100)
        XCTAssertEqual(projects.reads, 2, "the projects of 40 employees and 10 managers, then the 4 projects' rows")

        let twoSteps = try prefetch("Department", ["employees.projects"]) { departments in
            Set(departments.flatMap { members($0, "employees").flatMap { members($0, "projects").map { $0.value(forKey: "title") as! String } } })
        }
        XCTAssertEqual(twoSteps.answer, ["P0", "P1", "P2", "P3"])
        XCTAssertEqual(twoSteps.reads, 4, "employees, then projects: members and rows for each")

        // A step whose read fails fails no fetch: the relationships are left to load when used,
        // where a failure reads as empty, as without prefetching. (The join table is dropped
        // behind the open store's back.)
        let reader = try server()
        let schema = try XCTUnwrap(URLComponents(url: storeURL, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value)
        let admin = try testServerConnection()
        for row in try admin.query("SELECT tablename::text FROM pg_catalog.pg_tables WHERE schemaname = '\(schema)' AND tablename ~ '^Z_[0-9]'") {
            guard case .text(let table)? = row.first else { continue }
            _ = try admin.query("DROP TABLE \"\(schema)\".\"\(table)\"")
        }
        try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
            request.relationshipKeyPathsForPrefetching = ["projects"]
            let employees = try reader.fetch(request)
            XCTAssertEqual(employees.count, 50)
            XCTAssertEqual((employees[0].value(forKey: "projects") as? Set<NSManagedObject>)?.count, 0, "a relationship the store can't read reads as empty")
        }
    }

    /// Dictionary, object-ID and count results, grouping, distinct rows, key paths and aggregates,
    /// and batched fetches answer as the in-memory store does (the dictionaries are made in
    /// memory from the store's rows).
    func testResultTypesAndBatchedFetchesAnswerAsTheInMemoryStoreDoes() throws {
        let memory = try Self.inMemoryReference()
        for context in [try server(), memory] {
            try context.performAndWait {
                let departments = ["Ops", "Sales"].map { name -> NSManagedObject in
                    let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
                    d.setValue(name, forKey: "name")
                    return d
                }
                for i in 0..<25 {
                    let e = NSEntityDescription.insertNewObject(forEntityName: i % 7 == 0 ? "Manager" : "Employee", into: context)
                    e.setValue("E\(i)", forKey: "name")
                    e.setValue(Int32(i), forKey: "badge")
                    e.setValue(i % 3 == 0 ? nil : Int16(20 + i % 4), forKey: "age")
                    e.setValue(Int64(1000 + 10 * i), forKey: "salary")
                    e.setValue(i % 5 == 0 ? nil : departments[i % 2], forKey: "department")
                }
                try context.save()
            }
        }
        let reader = try server()
        func aggregate(_ name: String, _ function: String, _ keyPath: String, _ type: NSAttributeType) -> NSExpressionDescription {
            let d = NSExpressionDescription()
            d.name = name
            d.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: keyPath)])
            d.expressionResultType = type
            return d
        }
        /// The request's results in `context`, as text: an object by its name, an ID by its object's name.
        func results(_ context: NSManagedObjectContext, _ configure: (NSFetchRequest<NSFetchRequestResult>) -> Void) throws -> [String] {
            try context.performAndWait {
                let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
                request.sortDescriptors = [NSSortDescriptor(key: "badge", ascending: true)]
                configure(request)
                func describe(_ value: Any) -> String {
                    switch value {
                    case let id as NSManagedObjectID: return "id:" + describe(context.object(with: id))
                    case let object as NSManagedObject: return (object.value(forKey: "name") as? String) ?? "?"
                    case let row as NSDictionary: return row.allKeys.map { "\($0)" }.sorted().map { "\($0)=\(describe(row[$0]!))" }.joined(separator: " ")
                    case let n as NSNumber: return "\(n.int64Value)"
                    default: return "\(value)"
                    }
                }
                return try context.fetch(request).map(describe)
            }
        }
        let requests: [(String, (NSFetchRequest<NSFetchRequestResult>) -> Void)] = [
            ("name, age and a key path", { r in
                r.resultType = .dictionaryResultType
                r.propertiesToFetch = ["name", "age", "department.name"]
                r.predicate = NSPredicate(format: "badge < 12")
            }),
            ("a to-one's ID", { r in
                r.resultType = .dictionaryResultType
                r.propertiesToFetch = ["name", "department"]
                r.fetchLimit = 6
            }),
            ("distinct ages", { r in
                r.resultType = .dictionaryResultType
                r.propertiesToFetch = ["age"]
                r.returnsDistinctResults = true
                r.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true)]
            }),
            ("grouped by department", { r in
                r.resultType = .dictionaryResultType
                r.propertiesToFetch = ["department", aggregate("total", "sum:", "salary", .integer64AttributeType), aggregate("n", "count:", "badge", .integer64AttributeType)]
                r.propertiesToGroupBy = ["department"]
                r.sortDescriptors = []
            }),
            ("IDs", { r in
                r.resultType = .managedObjectIDResultType
                r.predicate = NSPredicate(format: "age >= 22")
            }),
            ("count", { r in
                r.resultType = .countResultType
                r.predicate = NSPredicate(format: "department != nil")
            }),
            ("batches of 4", { r in
                r.fetchBatchSize = 4
                r.predicate = NSPredicate(format: "age != 21")
            }),
            ("batches with an offset", { r in
                r.fetchBatchSize = 3
                r.fetchOffset = 5
                r.fetchLimit = 9
            }),
        ]
        for (described, configure) in requests {
            let expected = try results(memory, configure)
            XCTAssertFalse(expected.isEmpty, described)
            XCTAssertEqual(try results(reader, configure), expected, described)
        }
    }

    // MARK: Batch requests

    func testBatchUpdatesAndDeletesReachEveryServer() throws {
        let context = try server()
        try context.performAndWait {
            for i in 0..<6 {
                let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
                e.setValue("b\(i)", forKey: "name")
                e.setValue(Int16(20 + i), forKey: "age")
            }
            try context.save()
            let update = NSBatchUpdateRequest(entityName: "Employee")
            update.predicate = NSPredicate(format: "age < 23")
            update.propertiesToUpdate = ["active": true]
            update.resultType = .updatedObjectsCountResultType
            XCTAssertEqual((try context.execute(update) as? NSBatchUpdateResult)?.result as? Int, 3)
            let store = try XCTUnwrap(context.persistentStoreCoordinator!.persistentStores[0] as? PostgreSQLStore)
            XCTAssertEqual(store.batchRequestsInSQL, 1, "constants, an integer predicate, Employee's table shared with Manager (Z_ENT IN): SQL")
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
            fetch.predicate = NSPredicate(format: "age >= 24")
            let delete = NSBatchDeleteRequest(fetchRequest: fetch)
            delete.resultType = .resultTypeCount
            XCTAssertEqual((try context.execute(delete) as? NSBatchDeleteResult)?.result as? Int, 2)
            XCTAssertEqual(store.batchRequestsInSQL, 1, "Employee has relationships (delete rules, join rows): the rows path")
        }
        let check = try server()
        try check.performAndWait {
            XCTAssertEqual(try Self.fetch("Employee", "active == YES", sortedBy: "name", in: check).map { $0.value(forKey: "name") as? String }, ["b0", "b1", "b2"])
            XCTAssertEqual(try check.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")), 4)
        }
    }

    func testBatchInsertsReachEveryServerAndUpsertUnderObjectTrump() throws {
        let writing = try server(options: Self.tracking)
        let reading = try server(options: Self.tracking)
        func departments(_ context: NSManagedObjectContext) throws -> [String] {
            try context.performAndWait {
                context.reset()
                return try Self.fetch("Department", sortedBy: "name", in: context).map { "\($0.value(forKey: "name") ?? "-")/\($0.value(forKey: "budget") ?? "-")" }
            }
        }
        let inserted: [NSManagedObjectID] = try writing.performAndWait {
            let insert = NSBatchInsertRequest(entityName: "Department", objects: [["name": "Ops", "budget": Decimal(1)], ["name": "Labs"], ["name": "Sales", "budget": Decimal(3)]])
            insert.resultType = .objectIDs
            return try XCTUnwrap((try writing.execute(insert) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        }
        XCTAssertEqual(inserted.count, 3)
        XCTAssertEqual(try departments(reading), ["Labs/-", "Ops/1", "Sales/3"], "the other server reads them")
        let token = try history(after: nil, in: reading).last?.token

        // Ops is there: object trump gives it the values given and keeps the others; Dev is new.
        let count: Int = try writing.performAndWait {
            writing.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            let insert = NSBatchInsertRequest(entityName: "Department", objects: [["name": "Ops", "budget": Decimal(9)], ["name": "Dev"]])
            insert.resultType = .count
            return try XCTUnwrap((try writing.execute(insert) as? NSBatchInsertResult)?.result as? Int)
        }
        XCTAssertEqual(count, 2)
        XCTAssertEqual(try departments(reading), ["Dev/-", "Labs/-", "Ops/9", "Sales/3"])
        XCTAssertEqual(try history(after: token, in: reading).flatMap { $0.changes ?? [] }.map { "\($0.changeType.rawValue)" }.sorted(), ["0", "1"],
                       "the history has the insert and the update")

        // Under the error policy a stored name is kept and nothing is counted for it.
        let kept: Int = try writing.performAndWait {
            writing.mergePolicy = NSMergePolicy.error
            let insert = NSBatchInsertRequest(entityName: "Department", objects: [["name": "Ops", "budget": Decimal(5)]])
            insert.resultType = .count
            return try XCTUnwrap((try writing.execute(insert) as? NSBatchInsertResult)?.result as? Int)
        }
        XCTAssertEqual(kept, 0)
        XCTAssertEqual(try departments(reading), ["Dev/-", "Labs/-", "Ops/9", "Sales/3"])
    }

    /// Notes: an entity without relationships, whose batch deletes need no delete rules.
    private static let notesModel: NSManagedObjectModel = {
        let note = NSEntityDescription(name: "Note")
        note.properties = [NSAttributeDescription(name: "text", type: .stringAttributeType),
                           NSAttributeDescription(name: "priority", type: .integer32AttributeType),
                           NSAttributeDescription(name: "weight", type: .decimalAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }()

    func testBatchRequestsRunAsOneStatementAndEveryServerSeesTheirChanges() throws {
        let options: [AnyHashable: Any] = [NSPersistentHistoryTrackingKey: true, NSPersistentStoreRemoteChangeNotificationPostOptionKey: true]
        let writing = try Self.server(at: storeURL, model: Self.notesModel, options: options)
        let reading = try Self.server(at: storeURL, model: Self.notesModel, options: options)
        let changes = RemoteChanges(reading.persistentStoreCoordinator!)
        try waitForListeners(2, of: writing)
        let store = try XCTUnwrap(writing.persistentStoreCoordinator!.persistentStores[0] as? PostgreSQLStore)
        let ids: [NSManagedObjectID] = try writing.performAndWait {
            let notes = (0..<10).map { i -> NSManagedObject in
                let n = NSEntityDescription.insertNewObject(forEntityName: "Note", into: writing)
                n.setValue("n\(i)", forKey: "text")
                n.setValue(Int32(i), forKey: "priority")
                return n
            }
            try writing.save()
            return notes.map(\.objectID)
        }
        XCTAssertTrue(changes.wait(until: { $0 >= 1 }), "the insert was heard")
        let readingIDs = try ids.map { try XCTUnwrap(reading.persistentStoreCoordinator!.managedObjectID(forURIRepresentation: $0.uriRepresentation())) }
        // The reading server holds every row in its cache.
        let held = try reading.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.returnsObjectsAsFaults = false
            return try reading.fetch(request)
        }
        XCTAssertEqual(held.count, 10)
        // Faults fired in a fresh context: answered from the coordinator's cached rows unless
        // the change notice marked them stale (a fetch would read the store anyway).
        func textsInAFreshContext(_ indexes: [Int]) -> [String] {
            let fresh = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            fresh.persistentStoreCoordinator = reading.persistentStoreCoordinator
            return fresh.performAndWait {
                indexes.map { let n = fresh.object(with: readingIDs[$0]); return "\(n.value(forKey: "text") ?? "-")/\(n.value(forKey: "weight") ?? "-")" }
            }
        }

        // An update of the five highest priorities.
        let heard = changes.count
        let updated: [NSManagedObjectID] = try writing.performAndWait {
            let update = NSBatchUpdateRequest(entityName: "Note")
            update.predicate = NSPredicate(format: "priority >= 5")
            update.propertiesToUpdate = ["text": "done", "weight": NSDecimalNumber(string: "1.25")]
            update.resultType = .updatedObjectIDsResultType
            return try XCTUnwrap((try writing.execute(update) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
        }
        XCTAssertEqual(store.batchRequestsInSQL, 1, "one UPDATE")
        XCTAssertEqual(Set(updated), Set(ids[5...]))
        XCTAssertTrue(changes.wait(until: { $0 > heard }), "the update was heard")
        XCTAssertEqual(textsInAFreshContext(Array(0..<10)), (0..<5).map { "n\($0)/-" } + Array(repeating: "done/1.25", count: 5),
                       "the other server's cached rows of the updated records were read again")

        // A delete of the two highest priorities below 3, sorted and limited: a subquery picks them.
        let deleted: [NSManagedObjectID] = try writing.performAndWait {
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
            fetch.predicate = NSPredicate(format: "priority < 3")
            fetch.sortDescriptors = [NSSortDescriptor(key: "priority", ascending: false)]
            fetch.fetchLimit = 2
            let delete = NSBatchDeleteRequest(fetchRequest: fetch)
            delete.resultType = .resultTypeObjectIDs
            return try XCTUnwrap((try writing.execute(delete) as? NSBatchDeleteResult)?.result as? [NSManagedObjectID])
        }
        XCTAssertEqual(store.batchRequestsInSQL, 2, "one DELETE")
        XCTAssertEqual(Set(deleted), [ids[1], ids[2]])
        XCTAssertTrue(changes.wait(until: { $0 > heard + 1 }), "the delete was heard")
        XCTAssertEqual(try reading.performAndWait { try reading.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) }, 8)
        let fresh = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        fresh.persistentStoreCoordinator = reading.persistentStoreCoordinator
        try fresh.performAndWait {
            XCTAssertThrowsError(try fresh.existingObject(with: readingIDs[1]), "a deleted record's cached row no longer answers")
            XCTAssertEqual(try fresh.existingObject(with: readingIDs[0]).value(forKey: "text") as? String, "n0")
        }

        // History records both requests, with the attributes the update set.
        let transactions = try history(after: nil, in: writing)
        XCTAssertEqual(transactions.count, 3)
        XCTAssertEqual(transactions[1].changes?.map(\.changeType), Array(repeating: .update, count: 5))
        XCTAssertEqual(Set(transactions[1].changes?.first?.updatedProperties?.map(\.name) ?? []), ["text", "weight"])
        XCTAssertEqual(Set(transactions[2].changes?.map(\.changedObjectID) ?? []), [ids[1], ids[2]])
        XCTAssertEqual(transactions[2].changes?.map(\.changeType), [.delete, .delete])
        withExtendedLifetime(held) {}
    }

    // MARK: Concurrency across servers

    func testPrimaryKeysOfServersInsertingAtOnceNeverCollide() throws {
        _ = try server()
        let ids = Mutex<[URL]>([])
        let failures = Mutex<[String]>([])
        let url = storeURL!
        DispatchQueue.concurrentPerform(iterations: 3) { n in
            do {
                let context = try Self.server(at: url)
                try context.performAndWait {
                    for batch in 0..<5 {
                        for i in 0..<30 {
                            NSEntityDescription.insertNewObject(forEntityName: i % 3 == 0 ? "Manager" : "Employee", into: context)
                                .setValue("s\(n)-\(batch)-\(i)", forKey: "name")
                        }
                        try context.save()
                    }
                }
                let mine = try context.performAndWait { try Self.fetch("Employee", in: context).filter { ($0.value(forKey: "name") as? String)?.hasPrefix("s\(n)-") == true }.map { $0.objectID.uriRepresentation() } }
                ids.withLock { $0 += mine }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let all = ids.withLock { $0 }
        XCTAssertEqual(all.count, 3 * 5 * 30)
        XCTAssertEqual(Set(all).count, all.count, "every object has its own key across servers and subentities")
        let check = try server()
        try check.performAndWait {
            XCTAssertEqual(try check.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")), 450)
        }
    }

    func testAChangeAnotherServerSavedFirstFailsTheSaveForTheMergePolicy() throws {
        let first = try server()
        let url: URL = try first.performAndWait {
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: first)
            d.setValue("Sales", forKey: "name")
            d.setValue(Decimal(100), forKey: "budget")
            try first.save()
            return d.objectID.uriRepresentation()
        }
        let second = try server()
        func load(_ context: NSManagedObjectContext) throws -> NSManagedObject {
            try context.existingObject(with: context.persistentStoreCoordinator!.managedObjectID(forURIRepresentation: url)!)
        }
        let mine = try first.performAndWait { try load(first) }
        let theirs = try second.performAndWait { try load(second) }
        try second.performAndWait {
            theirs.setValue(Decimal(200), forKey: "budget")
            try second.save()
        }
        try first.performAndWait {
            mine.setValue("Sales EMEA", forKey: "name")
            XCTAssertThrowsError(try first.save(), "the error merge policy refuses a stale version") { error in
                XCTAssertEqual((error as NSError).code, NSManagedObjectMergeError)
            }
            first.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try first.save()
        }
        let check = try server()
        try check.performAndWait {
            let d = try load(check)
            XCTAssertEqual(d.value(forKey: "name") as? String, "Sales EMEA")
            XCTAssertEqual(d.value(forKey: "budget") as? Decimal, Decimal(200), "the other server's change was not lost")
        }
    }

    func testAnEditOfOneObjectIsSavedAndHeardByTheOtherServers() throws {
        // Without history, a save of one edited object is one statement (PostgreSQLStore+Save).
        let listening = try server(options: [NSPersistentStoreRemoteChangeNotificationPostOptionKey: true])
        let changes = RemoteChanges(listening.persistentStoreCoordinator!)
        let writer = try server()
        try waitForListeners(1, of: writer)
        let department = try writer.performAndWait {
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: writer)
            d.setValue("North", forKey: "name")
            try writer.save()
            return d
        }
        XCTAssertTrue(changes.wait(until: { $0 >= 1 }), "the insert was heard")
        let heardBefore = changes.count
        try writer.performAndWait {
            department.setValue("North-East", forKey: "name")
            try writer.save()
        }
        XCTAssertTrue(changes.wait(until: { $0 > heardBefore }), "the edit was heard")
        let reader = try server()
        try reader.performAndWait {
            XCTAssertEqual(try Self.fetch("Department", in: reader).compactMap { $0.value(forKey: "name") as? String }, ["North-East"])
        }
        // The next edit saves on top of the version the last one left.
        try writer.performAndWait {
            department.setValue("North", forKey: "name")
            XCTAssertNoThrow(try writer.save(), "the saved version is the one the object holds")
        }
    }

    func testCachedRowsOfRecordsAnotherServerChangedAreReadAgain() throws {
        let posting: [AnyHashable: Any] = [NSPersistentStoreRemoteChangeNotificationPostOptionKey: true]
        let reading = try server(options: posting)
        let changes = RemoteChanges(reading.persistentStoreCoordinator!)
        let writing = try server(options: posting)
        try waitForListeners(2, of: writing)
        // 1,500 departments: a save of a few names them, a save of all is too long to name
        // them (10 kB) and says `*`.
        let ids: [NSManagedObjectID] = try writing.performAndWait {
            let departments = (0..<1_500).map { i -> NSManagedObject in
                let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: writing)
                d.setValue("D\(i)", forKey: "name")
                return d
            }
            try writing.save()
            return departments.map(\.objectID)
        }
        XCTAssertTrue(changes.wait(until: { $0 >= 1 }), "the insert was heard")
        // The same records as the reading server names them.
        let readingIDs = try ids.map { try XCTUnwrap(reading.persistentStoreCoordinator!.managedObjectID(forURIRepresentation: $0.uriRepresentation())) }
        func namesInAFreshContext() throws -> [String] {
            let fresh = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            fresh.persistentStoreCoordinator = reading.persistentStoreCoordinator
            return fresh.performAndWait { readingIDs.map { fresh.object(with: $0).value(forKey: "name") as? String ?? "-" } }
        }
        // The reading server holds the rows (its objects keep them in the coordinator's cache).
        let held = try reading.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Department")
            request.returnsObjectsAsFaults = false
            let departments = try reading.fetch(request)
            XCTAssertEqual(departments.count, 1_500)
            return departments
        }
        XCTAssertEqual(try namesInAFreshContext()[0], "D0")
        func rename(_ indexes: Range<Int>, _ prefix: String) throws {
            let heard = changes.count
            try writing.performAndWait {
                for i in indexes { try writing.existingObject(with: ids[i]).setValue("\(prefix)\(i)", forKey: "name") }
                try writing.save()
            }
            XCTAssertTrue(changes.wait(until: { $0 > heard }), "the save was heard")
        }
        try rename(0..<1, "one-")       // one object: the one-statement save
        XCTAssertEqual(try namesInAFreshContext()[0], "one-0", "the cached row of the edited record was read again")
        try rename(0..<3, "few-")       // a staged save naming its records
        XCTAssertEqual(Array(try namesInAFreshContext()[0..<4]), ["few-0", "few-1", "few-2", "D3"])
        try rename(0..<1_500, "all-")   // too many to name: every cached row of the store
        XCTAssertEqual(try namesInAFreshContext(), (0..<1_500).map { "all-\($0)" })
        withExtendedLifetime(held) {}
    }

    func testACommitWhoseReplyWasLostIsLookedUpOnTheServer() throws {
        let context = try server()
        let store = try XCTUnwrap(context.persistentStoreCoordinator!.persistentStores[0] as? PostgreSQLStore)
        let other = try testServerConnection()
        /// A transaction of another session, ended with `end` (or left open).
        func transaction(ending end: String?) throws -> Int64 {
            _ = try other.query("BEGIN")
            guard case .integer(let id)? = try other.query("SELECT txid_current()").first?.first else { throw CocoaError(.coderInvalidValue) }
            if let end { _ = try other.query(end) }
            return id
        }
        let lost = NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError, userInfo: [NSLocalizedDescriptionKey: "connection lost"])
        func resolve(_ id: Int64) -> NSError? {
            store.lock.withLock {
                do { try store.resolveLostCommit(id, lost); return nil } catch { return error as NSError }
            }
        }
        XCTAssertNil(resolve(try transaction(ending: "COMMIT")), "committed: the save stands")
        let aborted = try XCTUnwrap(resolve(try transaction(ending: "ROLLBACK")))
        XCTAssertEqual(aborted.code, NSPersistentStoreSaveError)
        XCTAssertTrue(aborted.localizedDescription.contains("nothing was saved"), aborted.localizedDescription)
        let open = try transaction(ending: nil)
        let unknown = try XCTUnwrap(resolve(open), "still in progress after two seconds")
        XCTAssertTrue(unknown.localizedDescription.contains("may or may not have been saved"), unknown.localizedDescription)
        _ = try other.query("ROLLBACK")
    }

    /// The commit that saves and batch requests share: its connection ends after the writes
    /// and the notification, before `COMMIT` is answered; the store looks the transaction up
    /// instead of saying "may or may not".
    func testACommitWhoseConnectionEndsIsLookedUpForSavesAndBatchesAlike() throws {
        let context = try server()
        let store = try XCTUnwrap(context.persistentStoreCoordinator!.persistentStores[0] as? PostgreSQLStore)
        let admin = try testServerConnection()
        let outcome: NSError? = try store.lock.withLock {
            _ = try store.query("BEGIN")
            store.isInTransaction = true
            guard case .integer(let pid)? = try store.query("SELECT pg_backend_pid()").first?.first else { throw CocoaError(.coderInvalidValue) }
            let transaction = try store.notify(store.changeNotice(historyNumber: nil, changed: [], deleted: []))
            _ = try admin.query("SELECT pg_terminate_backend($1::integer)", [.integer(pid)])
            // Gone before COMMIT is sent (the call returns when the signal is sent).
            let deadline = Date().addingTimeInterval(5)
            while try !admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1::integer", [.integer(pid)]).isEmpty, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
            do { try store.commitResolvingLostReply(transaction); return nil } catch { return error as NSError }
        }
        let error = try XCTUnwrap(outcome, "COMMIT on a terminated connection fails")
        XCTAssertEqual(error.code, NSPersistentStoreSaveError)
        XCTAssertTrue(error.localizedDescription.contains("nothing was saved"), error.localizedDescription)
        XCTAssertFalse(store.lock.withLock { store.isInTransaction })
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Department", into: context).setValue("After", forKey: "name")
            try context.save()
        }
    }

    func testAUniqueValueAnotherServerSavedFirstIsAConstraintConflict() throws {
        let first = try server(), second = try server()
        try first.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Department", into: first).setValue("Legal", forKey: "name")
            try first.save()
        }
        try second.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Department", into: second).setValue("Legal", forKey: "name")
            XCTAssertThrowsError(try second.save()) { error in
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
                XCTAssertEqual((error as NSError).code, NSManagedObjectConstraintMergeError)
            }
        }
        let check = try server()
        try check.performAndWait {
            XCTAssertEqual(try Self.fetch("Department", in: check).count, 1, "the failed save wrote nothing")
        }
    }

    func testAFailedSaveWritesNothing() throws {
        let context = try server()
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Department", into: context).setValue("Unique", forKey: "name")
            try context.save()
        }
        let other = try server()
        try other.performAndWait {
            for name in ["A", "B", "Unique"] {
                NSEntityDescription.insertNewObject(forEntityName: "Department", into: other).setValue(name, forKey: "name")
            }
            XCTAssertThrowsError(try other.save())
        }
        let check = try server()
        try check.performAndWait {
            XCTAssertEqual(try Self.fetch("Department", sortedBy: "name", in: check).map { $0.value(forKey: "name") as? String }, ["Unique"])
        }
    }

    // MARK: Change propagation

    private static var tracking: [AnyHashable: Any] { [NSPersistentHistoryTrackingKey: true] }
    private static var migrating: [AnyHashable: Any] {
        [NSPersistentHistoryTrackingKey: true, NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]
    }
    private static var trackingAndPosting: [AnyHashable: Any] { [NSPersistentHistoryTrackingKey: true, NSPersistentStoreRemoteChangeNotificationPostOptionKey: true] }

    private func history(after token: NSPersistentHistoryToken?, in context: NSManagedObjectContext) throws -> [NSPersistentHistoryTransaction] {
        try context.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
            return (try context.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] ?? []
        }
    }

    func testHistoryRecordsEveryServersSavesInCommitOrder() throws {
        let first = try server(options: Self.tracking), second = try server(options: Self.tracking)
        let department: NSManagedObjectID = try first.performAndWait {
            first.transactionAuthor = "importer"
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: first)
            d.setValue("Audit", forKey: "name")
            try first.save()
            return d.objectID
        }
        try second.performAndWait {
            let d = try second.existingObject(with: second.persistentStoreCoordinator!.managedObjectID(forURIRepresentation: department.uriRepresentation())!)
            d.setValue(Decimal(7), forKey: "budget")
            try second.save()
            second.delete(d)
            try second.save()
        }
        let transactions = try history(after: nil, in: try server(options: Self.tracking))
        XCTAssertEqual(transactions.count, 3)
        XCTAssertEqual(transactions.first?.author, "importer")
        XCTAssertEqual(transactions.map { $0.changes?.first?.changeType }, [.insert, .update, .delete])
        XCTAssertEqual(transactions[1].changes?.first?.updatedProperties?.map(\.name), ["budget"])
        XCTAssertEqual(transactions[2].changes?.first?.tombstone?["name"] as? String, "Audit", "a deletion keeps the preserved value")
        XCTAssertEqual(transactions.map(\.token), transactions.map(\.token).sorted(), "numbered in commit order")
        XCTAssertEqual(try history(after: transactions[1].token, in: first).map { $0.changes?.first?.changeType }, [.delete], "history after a token")
    }

    func testAServerWithoutHistoryTrackingOpensAStoreKeepingHistoryReadOnly() throws {
        let tracking = try server(options: Self.tracking)
        try tracking.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Department", into: tracking).setValue("Kept", forKey: "name")
            try tracking.save()
        }
        // As Apple's stores: a save this server made would be missing from the history the
        // other servers catch up from.
        let other = try server()
        XCTAssertTrue(other.persistentStoreCoordinator!.persistentStores[0].isReadOnly)
        try other.performAndWait {
            XCTAssertEqual(try Self.fetch("Department", in: other).map { $0.value(forKey: "name") as? String }, ["Kept"], "it reads")
            NSEntityDescription.insertNewObject(forEntityName: "Department", into: other).setValue("Lost", forKey: "name")
            XCTAssertThrowsError(try other.save()) { XCTAssertEqual(($0 as NSError).code, NSPersistentStoreSaveError) }
        }
        try tracking.performAndWait {
            XCTAssertEqual(try tracking.count(for: NSFetchRequest<NSManagedObject>(entityName: "Department")), 1, "nothing was written")
        }
    }

    /// Collects a coordinator's remote-change notifications and when each arrived.
    private final class RemoteChanges: @unchecked Sendable {
        // @unchecked Sendable: `notes` is guarded by `lock`.
        private let lock = NSLock()
        private var notes: [(token: NSPersistentHistoryToken?, at: Date)] = []
        private var observer: NSObjectProtocol?
        init(_ coordinator: NSPersistentStoreCoordinator) {
            observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { [weak self] note in
                let token = note.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken
                self?.lock.withLock { self?.notes.append((token, Date())) }
            }
        }
        deinit { observer.map(NotificationCenter.default.removeObserver) }

        /// How many notifications arrived.
        var count: Int { lock.withLock { notes.count } }

        /// Whether `condition` held for the number of notifications within `timeout` seconds.
        func wait(timeout: TimeInterval = 5, until condition: (Int) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition(count) { return true }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return false
        }

        /// When the first notification whose token is `token` or later arrived; nil after `timeout` seconds.
        func arrival(of token: NSPersistentHistoryToken, timeout: TimeInterval = 5) -> Date? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let hit = lock.withLock({ notes.first { $0.token.map { !($0 < token) } ?? false } }) { return hit.at }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return nil
        }
    }

    func testEveryServerHearsEverySaveAndCatchesUpAfterLosingItsConnection() throws {
        let listening = try server(options: Self.trackingAndPosting)
        let changes = RemoteChanges(listening.persistentStoreCoordinator!)
        let writer = try server(options: Self.tracking)
        func save(_ name: String) throws -> (NSPersistentHistoryToken, Date) {
            try writer.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Department", into: writer).setValue(name, forKey: "name")
                try writer.save()
                let token = try XCTUnwrap(writer.persistentStoreCoordinator!.currentPersistentHistoryToken(fromStores: nil))
                return (token, Date())
            }
        }
        try waitForListeners(1, of: listening)
        let (first, savedAt) = try save("North")
        let heard = try XCTUnwrap(changes.arrival(of: first), "the other server's save was posted")
        XCTAssertLessThan(heard.timeIntervalSince(savedAt), 1, "posted within a second of the commit (typically a few milliseconds)")

        // The listening connection dies; a save lands while nobody listens.
        let admin = try testServerConnection()
        let listeners = "SELECT pid FROM pg_stat_activity WHERE application_name = 'OpenCoreData remote-change listener'"
        let old = try admin.query(listeners)
        XCTAssertFalse(old.isEmpty, "a listener connection was found")
        _ = try admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'OpenCoreData remote-change listener'")
        // Saved only once the old connections are gone, so its NOTIFY can't reach them.
        while try admin.query(listeners).contains(where: old.contains) { Thread.sleep(forTimeInterval: 0.002) }
        let (second, _) = try save("South")
        XCTAssertNotNil(changes.arrival(of: second, timeout: 10), "the listener reconnected and caught up")
        let transactions = try history(after: first, in: listening)
        XCTAssertEqual(transactions.flatMap { $0.changes ?? [] }.count, 1, "the history after the last token holds what happened while disconnected")
    }

    func testASaveCommittedBeforeTheListenerFirstListenedIsPosted() throws {
        // The new server's listener connects three seconds late (room for a loaded machine);
        // another server saves meanwhile.
        PostgreSQLRemoteChangeListener.firstConnectionDelayForTesting.withLock { $0 = 3 }
        let listening: NSManagedObjectContext
        do {
            defer { PostgreSQLRemoteChangeListener.firstConnectionDelayForTesting.withLock { $0 = 0 } }
            listening = try server(options: Self.trackingAndPosting)
        }
        let changes = RemoteChanges(listening.persistentStoreCoordinator!)
        let writer = try server(options: Self.tracking)
        func save(_ name: String) throws -> NSPersistentHistoryToken {
            try writer.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Department", into: writer).setValue(name, forKey: "name")
                try writer.save()
                return try XCTUnwrap(writer.persistentStoreCoordinator!.currentPersistentHistoryToken(fromStores: nil))
            }
        }
        let early = try save("Early")
        XCTAssertEqual(changes.count, 0, "saved before the listener listened")
        XCTAssertNotNil(changes.arrival(of: early, timeout: 10), "the first connection caught up on it")
        // Listening now: the next save is heard once, and the early one was posted once.
        let next = try save("Next")
        XCTAssertNotNil(changes.arrival(of: next))
        XCTAssertEqual(changes.count, 2)
    }

    // MARK: Migrations across deploys

    /// Saves department Ops with employees `names`, each on project Atlas; returns Ops.
    private static func saveOpsDepartment(with names: [String], in context: NSManagedObjectContext) throws -> NSManagedObject {
        let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
        d.setValue("Ops", forKey: "name")
        let p = NSEntityDescription.insertNewObject(forEntityName: "Project", into: context)
        p.setValue("Atlas", forKey: "title")
        for name in names {
            let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            e.setValue(name, forKey: "name")
            e.setValue(d, forKey: "department")
            e.mutableSetValue(forKey: "projects").add(p)
        }
        try context.save()
        return d
    }

    func testANewDeployMigratesTheStoreOnceWhileOlderServersAreRefused() throws {
        let v1 = try server(options: Self.tracking)
        try v1.performAndWait {
            let d = try Self.saveOpsDepartment(with: ["ann", "bo"], in: v1)
            d.setValue(Decimal(3), forKey: "budget")
            try v1.save()
        }
        let before = try Self.snapshot(v1)

        // Three servers of the new deploy start at once; one migrates, the others wait and open.
        let v2 = Self.makeModel(extraAttribute: "motto", extraEntity: true)
        let options = Self.migrating
        let url = storeURL!
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            let outcome: String
            do { outcome = try Self.server(at: url, model: v2, options: Self.migrating).persistentStoreCoordinator!.persistentStores[0].identifier } catch { outcome = "\(error)" }
            outcomes.withLock { $0.append(outcome) }
        }
        let identifiers = outcomes.withLock { $0 }
        XCTAssertEqual(identifiers, Array(repeating: v1.persistentStoreCoordinator!.persistentStores[0].identifier, count: 3), "same store, same UUID")

        let migrated = try server(model: v2, options: options)
        XCTAssertEqual(try Self.snapshot(migrated), before, "every object, key and relationship came along")
        try migrated.performAndWait {
            let d = try XCTUnwrap(try Self.fetch("Department", in: migrated).first)
            XCTAssertNil(d.value(forKey: "motto"))
            XCTAssertEqual(d.value(forKey: "budget") as? Decimal, Decimal(3))
            d.setValue("Keep it running", forKey: "motto")
            try migrated.save()
        }
        let transactions = try history(after: nil, in: migrated)
        XCTAssertEqual(transactions.count, 3, "the history came along")
        XCTAssertEqual(transactions[1].changes?.first?.changedObjectID.entity.name, "Department")
        XCTAssertEqual(transactions[1].changes?.first?.updatedProperties?.map(\.name), ["budget"], "its updated properties in the new model's terms")

        // A server of the earlier deploy still running reads on: entities keep their numbers.
        XCTAssertEqual(try Self.snapshot(v1).count, before.count)
        XCTAssertThrowsError(try server(options: options), "a server of the earlier deploy") { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreIncompatibleVersionHashError)
        }
        XCTAssertEqual(try Self.snapshot(server(model: v2)).count, before.count, "and it changed nothing")
    }

    /// The holding schemas of migrations (`ocd_migration_...`) in the database.
    private func migrationSchemas() throws -> [String] {
        let connection = try PostgreSQLConnection.connect(to: try PostgreSQLStoreLocation(url: try testServerURL(), environment: [:]))
        defer { connection.close() }
        return try connection.query("SELECT nspname::text FROM pg_catalog.pg_namespace WHERE nspname LIKE 'ocd_migration_%'", []).map { "\($0)" }
    }

    func testAMigrationCopiesAStoreOfManyBatchesKeyByKey() throws {
        let v1 = try server(options: Self.tracking)
        let count = PostgreSQLStore.migrationBatchSize * 2 + 7  // three batches, the last one short
        try v1.performAndWait {
            let departments = (0..<3).map { i -> NSManagedObject in
                let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: v1)
                d.setValue("d\(i)", forKey: "name")
                return d
            }
            let projects = (0..<4).map { i -> NSManagedObject in
                let p = NSEntityDescription.insertNewObject(forEntityName: "Project", into: v1)
                p.setValue("p\(i)", forKey: "title")
                return p
            }
            for i in 0..<count {
                let e = NSEntityDescription.insertNewObject(forEntityName: i % 5 == 0 ? "Manager" : "Employee", into: v1)
                e.setValue("e\(i)", forKey: "name")
                if i % 7 != 0 { e.setValue(departments[i % 3], forKey: "department") }
                for p in projects.indices where (i + p) % 3 == 0 { e.mutableSetValue(forKey: "projects").add(projects[p]) }
            }
            try v1.save()
        }
        let before = try Self.snapshot(v1)
        let changes = try history(after: nil, in: v1).flatMap { $0.changes ?? [] }.count
        let holdingSchemas = try migrationSchemas()

        let migrated = try server(model: Self.makeModel(extraAttribute: "motto"), options: Self.migrating)
        XCTAssertEqual(try Self.snapshot(migrated), before, "every object, key and relationship, across the batches")
        XCTAssertEqual(try history(after: nil, in: migrated).flatMap { $0.changes ?? [] }.count, changes, "every change of the history")
        XCTAssertEqual(try migrationSchemas(), holdingSchemas, "the holding schema went with the migration")
    }

    /// An entity the new model drops takes its history changes with it; the others stay, in
    /// the new model's entity numbers.
    func testAMigrationDroppingAnEntityDropsItsHistoryChanges() throws {
        let v1 = try server(model: Self.makeModel(extraEntity: true), options: Self.tracking)
        try v1.performAndWait {
            for i in 0..<3 {
                NSEntityDescription.insertNewObject(forEntityName: "Aardvark", into: v1).setValue("a\(i)", forKey: "name")
            }
            NSEntityDescription.insertNewObject(forEntityName: "Department", into: v1).setValue("ops", forKey: "name")
            try v1.save()
            NSEntityDescription.insertNewObject(forEntityName: "Aardvark", into: v1).setValue("a3", forKey: "name")
            try v1.save()
        }
        XCTAssertEqual(try history(after: nil, in: v1).flatMap { $0.changes ?? [] }.count, 5)

        let migrated = try server(model: Self.makeModel(extraAttribute: "motto"), options: Self.migrating)
        let changes = try history(after: nil, in: migrated).flatMap { $0.changes ?? [] }
        XCTAssertEqual(changes.map(\.changedObjectID.entity.name), ["Department"], "the aardvarks' changes went with their entity")
        // Gone from the table too, not only unread: a later entity may take the number.
        let schema = try XCTUnwrap(URLComponents(url: storeURL, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value)
        XCTAssertEqual(try testServerConnection().query("SELECT count(*) FROM \"\(schema)\".\"ACHANGE\"", []).first?.first, .integer(1))
    }

    func testAMigrationKeepsTheOrderOfAnOrderedManyToMany() throws {
        func orders(_ context: NSManagedObjectContext) throws -> [String] {
            try context.performAndWait {
                try Self.fetch("Playlist", sortedBy: "name", in: context).map { list in
                    "\(list.value(forKey: "name") ?? "-"): " + ((list.value(forKey: "songs") as? NSOrderedSet)?.array ?? []).map { "\(($0 as! NSManagedObject).value(forKey: "title") ?? "-")" }.joined(separator: " ")
                }
            }
        }
        let v1 = try Self.server(at: storeURL, model: PlaylistModel.make(), options: Self.tracking)
        try v1.performAndWait {
            let songs = (0..<5).map { i -> NSManagedObject in
                let song = NSEntityDescription.insertNewObject(forEntityName: "Song", into: v1)
                song.setValue("s\(i)", forKey: "title")
                return song
            }
            for (name, order) in [("a", [3, 1, 4, 0]), ("b", [4, 3, 2, 1, 0]), ("c", [2])] {
                let list = NSEntityDescription.insertNewObject(forEntityName: "Playlist", into: v1)
                list.setValue(name, forKey: "name")
                list.setValue(NSOrderedSet(array: order.map { songs[$0] }), forKey: "songs")
            }
            try v1.save()
        }
        let before = try orders(v1)
        XCTAssertEqual(before, ["a: s3 s1 s4 s0", "b: s4 s3 s2 s1 s0", "c: s2"])
        let migrated = try Self.server(at: storeURL, model: PlaylistModel.make(extraAttribute: "genre"), options: Self.migrating)
        XCTAssertEqual(try orders(migrated), before, "each playlist's songs in their order")
    }

    func testEditingTheUnorderedSideOfAManyToManyKeepsTheOrderedSidesOrder() throws {
        let context = try Self.server(at: storeURL, model: PlaylistModel.make())
        try context.performAndWait { try PlaylistModel.saveAndEditTheUnorderedSide(in: context) }
        let other = try Self.server(at: storeURL, model: PlaylistModel.make())
        XCTAssertEqual(try other.performAndWait { try PlaylistModel.titlesOfFirst(in: other) }, ["y", "x", "z"], "the playlist that was not saved keeps its order")
    }

    func testAFailedMigrationLeavesTheStoreAsItWas() throws {
        let v1 = try server(options: Self.tracking)
        _ = try v1.performAndWait { try Self.saveOpsDepartment(with: ["ann", "ann"], in: v1) }
        let before = try Self.snapshot(v1)
        let holdingSchemas = try migrationSchemas()
        // The department has no motto, which the new model requires and gives no default.
        XCTAssertThrowsError(try server(model: Self.makeModel(extraAttribute: "motto", extraAttributeIsOptional: false), options: Self.migrating)) { error in
            XCTAssertEqual((error as NSError).code, NSMigrationError)
        }
        // The employees share a name, which the new model makes unique: the server refuses the
        // second row.
        let unique = Self.makeModel(extraAttribute: "motto")
        unique.entitiesByName["Employee"]!.uniquenessConstraints = [["name"]]
        XCTAssertThrowsError(try server(model: unique, options: Self.migrating)) { error in
            XCTAssertEqual((error as NSError).code, NSMigrationError)
            XCTAssertEqual(((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.userInfo[OCDPostgreSQLSQLStateKey] as? String, "23505", "unique_violation")
        }
        XCTAssertEqual(try Self.snapshot(server()), before, "the old model's servers read on")
        XCTAssertEqual(try migrationSchemas(), holdingSchemas, "the holding schema went with the rollback")
    }

    /// A view or a foreign key of the user's on a store table would be lost with the old
    /// tables: the migration refuses before copying, names them, and leaves the store as it was.
    /// A CHECK constraint goes with its table and does not count. (The schema's name has upper
    /// case, which a name read as SQL would lose.)
    func testAMigrationNamesTheViewsAndForeignKeysThatDependOnTheOldTables() throws {
        storeURL = try newTestStoreURL(prefix: "ocd_Test")
        let v1 = try server(options: Self.tracking)
        _ = try v1.performAndWait { try Self.saveOpsDepartment(with: ["ann", "bo"], in: v1) }
        let before = try Self.snapshot(v1)
        let schema = try XCTUnwrap(URLComponents(url: storeURL, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value)
        let admin = try testServerConnection()
        _ = try admin.query("CREATE VIEW \"\(schema)\".staff AS SELECT \"ZNAME\" FROM \"\(schema)\".\"ZEMPLOYEE\"", [])
        _ = try admin.query("CREATE TABLE \"\(schema)\".budgets (department bigint CONSTRAINT budgets_department REFERENCES \"\(schema)\".\"ZDEPARTMENT\" (\"Z_PK\"))", [])

        XCTAssertThrowsError(try server(model: Self.makeModel(extraAttribute: "motto"), options: Self.migrating)) { error in
            let error = error as NSError
            XCTAssertEqual(error.code, NSMigrationError)
            XCTAssertTrue(error.localizedDescription.contains("view staff (on ZEMPLOYEE)"), error.localizedDescription)
            XCTAssertTrue(error.localizedDescription.contains("budgets_department"), error.localizedDescription)
            XCTAssertTrue(error.localizedDescription.contains("Drop them, migrate, and create them again"), error.localizedDescription)
        }
        XCTAssertEqual(try Self.snapshot(server()), before, "the old model's servers read on")

        _ = try admin.query("DROP VIEW \"\(schema)\".staff", [])
        _ = try admin.query("DROP TABLE \"\(schema)\".budgets", [])
        _ = try admin.query("ALTER TABLE \"\(schema)\".\"ZEMPLOYEE\" ADD CONSTRAINT badge_is_positive CHECK (\"ZBADGE\" >= 0)", [])
        XCTAssertEqual(try Self.snapshot(server(model: Self.makeModel(extraAttribute: "motto"), options: Self.migrating)), before, "without them it migrates")
    }

    // MARK: Copying between stores

    /// Names, keys (the last part of an object URI: `p7`) and relationships of everything in `context`.
    private static func snapshot(_ context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            var lines: [String] = []
            for entity in ["Department", "Employee", "Project"] {
                for object in try fetch(entity, in: context) {
                    let key = object.objectID.uriRepresentation().lastPathComponent
                    let name = (object.value(forKey: entity == "Project" ? "title" : "name") as? String) ?? "-"
                    var line = "\(object.entity.name!) \(key) \(name)"
                    if entity == "Employee" {
                        line += " in \((object.value(forKey: "department") as? NSManagedObject)?.value(forKey: "name") as? String ?? "-")"
                        line += " on " + ((object.value(forKey: "projects") as? Set<NSManagedObject>) ?? []).compactMap { $0.value(forKey: "title") as? String }.sorted().joined(separator: ",")
                    }
                    lines.append(line)
                }
            }
            return lines.sorted()
        }
    }

    func testAStoreCopiesFromSQLiteToPostgreSQLAndBackKeepingObjectKeys() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-pg-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model)
        let sqlite = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: folder.appendingPathComponent("Shop.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
            d.setValue("Labs", forKey: "name")
            let p = NSEntityDescription.insertNewObject(forEntityName: "Project", into: context)
            p.setValue("Mercury", forKey: "title")
            for i in 0..<5 {
                let e = NSEntityDescription.insertNewObject(forEntityName: i == 0 ? "Manager" : "Employee", into: context)
                e.setValue("e\(i)", forKey: "name")
                if i < 3 { e.setValue(d, forKey: "department") }
                if i % 2 == 0 { e.mutableSetValue(forKey: "projects").add(p) }
            }
            try context.save()
        }
        let original = try Self.snapshot(context)

        let postgres = try coordinator.migratePersistentStore(sqlite, to: storeURL, options: nil, type: .postgreSQL)
        XCTAssertEqual(postgres.type, OCDPostgreSQLStoreType)
        context.performAndWait { context.reset() }
        XCTAssertEqual(try Self.snapshot(context), original, "same objects, keys and relationships in PostgreSQL")
        let otherServer = try server()
        XCTAssertEqual(try Self.snapshot(otherServer), original)
        try otherServer.performAndWait {
            let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: otherServer)
            e.setValue("new", forKey: "name")
            try otherServer.save()
            XCTAssertEqual(e.objectID.uriRepresentation().lastPathComponent, "p6", "keys continue after the copied ones")
        }

        let back = try coordinator.migratePersistentStore(postgres, to: folder.appendingPathComponent("Back.sqlite"), options: nil, type: .sqlite)
        XCTAssertEqual(back.type, NSSQLiteStoreType)
        context.performAndWait { context.reset() }
        XCTAssertEqual(try Self.snapshot(context).filter { !$0.contains(" new ") }, original, "and back to SQLite")
    }

    // MARK: Destroying

    func testDestroyingTheStoreDropsItsTables() throws {
        let context = try server()
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Department", into: context).setValue("Gone", forKey: "name")
            try context.save()
        }
        try NSPersistentStoreCoordinator(managedObjectModel: Self.model).destroyPersistentStore(at: storeURL, ofType: OCDPostgreSQLStoreType)
        let check = try server()
        try check.performAndWait {
            XCTAssertEqual(try check.count(for: NSFetchRequest<NSManagedObject>(entityName: "Department")), 0, "a new, empty store")
        }
    }
}
