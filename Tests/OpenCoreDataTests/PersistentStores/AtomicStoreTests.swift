import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

// NSAtomicStore: the built-in binary and XML stores (round trips through a reopen, atomic
// writes, bad files, wrong models) and a custom subclass registered by type name.

final class Sample: NSManagedObject {}

/// A custom atomic store writing JSON, with String reference objects — Apple's subclassing
/// API method for method.
final class JSONAtomicStore: NSAtomicStore, @unchecked Sendable {
    static let storeType = "JSONAtomicStore"
    nonisolated(unsafe) static var failNextSave = false   // set only by tests, on their thread
    private(set) var removedReferences: [String] = []     // guarded by the coordinator's lock

    override func load() throws {
        guard let url, FileManager.default.fileExists(atPath: url.path) else { return }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        metadata = json["metadata"] as? [String: Any]
        let model = persistentStoreCoordinator!.managedObjectModel
        var nodesByReference: [String: NSAtomicStoreCacheNode] = [:]
        let records = json["records"] as! [[String: Any]]
        for record in records {
            let entity = model.entitiesByName[record["entity"] as! String]!
            let node = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: record["ref"] as! String))
            for (key, value) in record["values"] as! [String: Any] {
                let date = ((value as? [String: Any])?["date"] as? NSNumber).map { Date(timeIntervalSinceReferenceDate: $0.doubleValue) }
                node.setValue(date ?? value, forKey: key)
            }
            nodesByReference[record["ref"] as! String] = node
        }
        for record in records {
            let node = nodesByReference[record["ref"] as! String]!
            for (key, references) in record["relations"] as! [String: [String]] {
                let related = references.map { nodesByReference[$0]! }
                let relationship = node.objectID.entity.relationshipsByName[key]!
                node.setValue(relationship.isToMany ? Set(related) as Any : related.first as Any, forKey: key)
            }
        }
        addCacheNodes(Set(nodesByReference.values))
    }

    override func save() throws {
        if Self.failNextSave {
            Self.failNextSave = false
            throw NSError(domain: "JSONAtomicStore", code: 7, userInfo: [NSLocalizedDescriptionKey: "disk full"])
        }
        let records: [[String: Any]] = cacheNodes().map { node in
            var values: [String: Any] = [:], relations: [String: [String]] = [:]
            for (name, property) in node.objectID.entity.propertiesByName {
                if property is NSAttributeDescription {
                    // JSON has no dates: store seconds since the reference date, tagged.
                    if let date = node.value(forKey: name) as? Date {
                        values[name] = ["date": date.timeIntervalSinceReferenceDate]
                    } else if let value = node.value(forKey: name) {
                        values[name] = value
                    }
                } else if let relationship = property as? NSRelationshipDescription {
                    let related: [NSAtomicStoreCacheNode]
                    if relationship.isToMany {
                        related = Array((node.value(forKey: name) as? Set<NSAtomicStoreCacheNode>) ?? [])
                    } else {
                        related = (node.value(forKey: name) as? NSAtomicStoreCacheNode).map { [$0] } ?? []
                    }
                    relations[name] = related.map { referenceObject(for: $0.objectID) as! String }.sorted()
                }
            }
            return ["entity": node.objectID.entity.name!, "ref": referenceObject(for: node.objectID), "values": values, "relations": relations]
        }
        let metadata = ["NSStoreUUID": metadata[NSStoreUUIDKey] as! String, "NSStoreType": metadata[NSStoreTypeKey] as! String]
        try JSONSerialization.data(withJSONObject: ["metadata": metadata, "records": records]).write(to: url!, options: .atomic)
    }

    override func newReferenceObject(for managedObject: NSManagedObject) -> Any { "ref-\(UUID().uuidString)" }

    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        updateCacheNode(node, from: managedObject)
        return node
    }

    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        for (name, property) in managedObject.entity.propertiesByName {
            if property is NSAttributeDescription {
                node.setValue(managedObject.value(forKey: name), forKey: name)
            } else if let relationship = property as? NSRelationshipDescription {
                if relationship.isToMany {
                    let related = (managedObject.value(forKey: name) as? Set<NSManagedObject>) ?? []
                    node.setValue(Set(related.compactMap { cacheNode(for: $0.objectID) }), forKey: name)
                } else {
                    node.setValue((managedObject.value(forKey: name) as? NSManagedObject).flatMap { cacheNode(for: $0.objectID) }, forKey: name)
                }
            }
        }
    }

    override func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        removedReferences += cacheNodes.map { referenceObject(for: $0.objectID) as! String }
    }
}

final class AtomicStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-atomic")
        NSPersistentStoreCoordinator.registerStoreClass(JSONAtomicStore.self, forStoreType: JSONAtomicStore.storeType)
    }

    /// The company model plus an entity with an attribute of every storable type.
    static func makeModel(extraEmployeeAttribute: Bool = false) -> NSManagedObjectModel {
        let model = CompanyModel.make()
        let sample = NSEntityDescription(name: "Sample", className: "OpenCoreDataTests.Sample")
        let types: [(String, NSAttributeType)] = [
            ("int16", .integer16AttributeType), ("int32", .integer32AttributeType), ("int64", .integer64AttributeType),
            ("double", .doubleAttributeType), ("float", .floatAttributeType), ("flag", .booleanAttributeType),
            ("decimal", .decimalAttributeType), ("text", .stringAttributeType), ("when", .dateAttributeType),
            ("blob", .binaryDataAttributeType), ("uuid", .UUIDAttributeType), ("link", .URIAttributeType),
        ]
        sample.properties = types.map { NSAttributeDescription(name: $0.0, type: $0.1) }
        if extraEmployeeAttribute {
            model.entitiesByName["Employee"]!.properties.append(NSAttributeDescription(name: "nickname", type: .stringAttributeType))
        }
        model.entities.append(sample)
        return model
    }

    private func stack(_ type: String, at url: URL, model: NSManagedObjectModel = makeModel()) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    private func fetch(_ entity: String, in context: NSManagedObjectContext, sortedBy key: String? = nil) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        if let key { request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)] }
        return try context.fetch(request)
    }

    /// Saves a small graph: attributes of every type, to-one, to-many, many-to-many, ordered,
    /// one-to-one and a subentity.
    private func populate(_ context: NSManagedObjectContext) throws -> URL {
        try context.performAndWait {
            let sales = Department(context: context); sales.name = "Sales"; sales.budget = 1234.5
            let ann = Employee(context: context); ann.firstName = "Ann"; ann.salary = 300; ann.department = sales
            let boss = NSEntityDescription.insertNewObject(forEntityName: "Manager", into: context) as! Employee
            boss.firstName = "Zed"; boss.setValue(99, forKey: "bonus"); boss.department = sales
            ann.manager = boss
            let project = Project(context: context); project.title = "Atlas"
            project.members = [ann, boss]
            for title in ["design", "build", "ship"] {
                let m = Milestone(context: context); m.title = title
                project.mutableOrderedSetValue(forKey: "milestones").add(m)
            }
            let badge = Badge(context: context); badge.code = "A-1"; badge.owner = ann
            let sample = Sample(context: context)
            sample.setValue(-7, forKey: "int16"); sample.setValue(70_000, forKey: "int32"); sample.setValue(Int64.max, forKey: "int64")
            sample.setValue(2.5, forKey: "double"); sample.setValue(Float(1.25), forKey: "float"); sample.setValue(true, forKey: "flag")
            sample.setValue(Decimal(string: "12.345")!, forKey: "decimal"); sample.setValue("héllo\n<xml> & \"quotes\"", forKey: "text")
            sample.setValue(Date(timeIntervalSinceReferenceDate: 12345.5), forKey: "when"); sample.setValue(Data([0, 1, 2, 255]), forKey: "blob")
            sample.setValue(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, forKey: "uuid")
            sample.setValue(URL(string: "https://example.com/a?b=c")!, forKey: "link")
            try context.save()
            return ann.objectID.uriRepresentation()
        }
    }

    func testBinaryAndXMLStoresRoundTripThroughAReopen() throws {
        for (type, magic) in [(NSBinaryStoreType, "bplist00"), (NSXMLStoreType, "<?xml")] {
            let url = directory.appendingPathComponent("company.\(type)")
            let (_, first) = try stack(type, at: url)
            let annURI = try populate(first)
            let bytes = try Data(contentsOf: url)
            XCTAssertTrue(bytes.starts(with: Array(magic.utf8)), "\(type) file starts with \(magic)")

            let (coordinator, context) = try stack(type, at: url)
            XCTAssertEqual(coordinator.persistentStores[0].type, type)
            try context.performAndWait {
                let departments = try fetch("Department", in: context)
                XCTAssertEqual(departments.count, 1)
                let sales = departments[0] as! Department
                XCTAssertEqual(sales.name, "Sales"); XCTAssertEqual(sales.budget, 1234.5)
                XCTAssertEqual(Set(sales.employees.map { $0.firstName ?? "" }), ["Ann", "Zed"])
                let ann = sales.employees.first { $0.firstName == "Ann" }!
                XCTAssertEqual(ann.salary, 300)
                XCTAssertEqual(ann.manager?.firstName, "Zed")
                XCTAssertEqual(ann.manager?.entity.name, "Manager", "subentity records keep their entity")
                XCTAssertEqual(ann.manager?.value(forKey: "bonus") as? Int, 99)
                XCTAssertEqual(ann.badge?.code, "A-1")
                XCTAssertEqual(ann.projects.first?.title, "Atlas")
                XCTAssertEqual(ann.projects.first?.milestones.map { $0.title ?? "" }, ["design", "build", "ship"], "ordered to-many keeps its order")
                XCTAssertEqual(ann.projects.first?.members.count, 2)
                XCTAssertEqual(coordinator.managedObjectID(forURIRepresentation: annURI), ann.objectID, "URIs resolve after a reopen")

                let sample = try fetch("Sample", in: context)[0]
                XCTAssertEqual(sample.value(forKey: "int16") as? Int, -7)
                XCTAssertEqual(sample.value(forKey: "int32") as? Int, 70_000)
                XCTAssertEqual(sample.value(forKey: "int64") as? Int64, Int64.max)
                XCTAssertEqual(sample.value(forKey: "double") as? Double, 2.5)
                XCTAssertEqual(sample.value(forKey: "float") as? Float, 1.25)
                XCTAssertEqual(sample.value(forKey: "flag") as? Bool, true)
                XCTAssertEqual(sample.value(forKey: "decimal") as? Decimal, Decimal(string: "12.345"))
                XCTAssertEqual(sample.value(forKey: "text") as? String, "héllo\n<xml> & \"quotes\"")
                XCTAssertEqual(sample.value(forKey: "when") as? Date, Date(timeIntervalSinceReferenceDate: 12345.5))
                XCTAssertEqual(sample.value(forKey: "blob") as? Data, Data([0, 1, 2, 255]))
                XCTAssertEqual(sample.value(forKey: "uuid") as? UUID, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
                XCTAssertEqual(sample.value(forKey: "link") as? URL, URL(string: "https://example.com/a?b=c"))

                // Change, delete and add, then reopen once more.
                ann.salary = 310
                context.delete(ann.badge!)
                let bob = Employee(context: context); bob.firstName = "Bob"; bob.department = sales
                try context.save()
            }
            let (_, third) = try stack(type, at: url)
            try third.performAndWait {
                let employees = try fetch("Employee", in: third, sortedBy: "firstName").map { $0 as! Employee }
                XCTAssertEqual(employees.map { $0.firstName ?? "" }, ["Ann", "Bob", "Zed"])
                XCTAssertEqual(employees[0].salary, 310)
                XCTAssertNil(employees[0].badge)
                XCTAssertEqual(try fetch("Badge", in: third).count, 0)
                XCTAssertEqual(employees[1].department?.name, "Sales")
                XCTAssertNotEqual(employees[1].objectID, employees[0].objectID)
            }
        }
    }

    func testSaveWritesANewFileAndRenamesIt() throws {
        let url = directory.appendingPathComponent("company.binary")
        let (_, context) = try stack(NSBinaryStoreType, at: url)
        _ = try populate(context)
        let firstInode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)
        try context.performAndWait {
            let department = try fetch("Department", in: context)[0] as! Department
            department.budget = 1
            try context.save()
        }
        let secondInode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)
        XCTAssertNotEqual(firstInode, secondInode, "the file was replaced by rename, not rewritten in place")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["company.binary"], "no temporary file is left behind")
    }

    /// A save that fails while the file is being encoded (a transformable value its transformer
    /// refuses) leaves the file, the store and the context as they were.
    func testAFailedSaveLeavesTheFileAndTheStoreAsTheyWere() throws {
        final class PickyTransformer: ValueTransformer, @unchecked Sendable {
            override func transformedValue(_ value: Any?) -> Any? { (value as? [String]).map { Data($0.joined(separator: ",").utf8) } }
            override func reverseTransformedValue(_ value: Any?) -> Any? { (value as? Data).map { String(decoding: $0, as: UTF8.self).components(separatedBy: ",") } }
        }
        ValueTransformer.setValueTransformer(PickyTransformer(), forName: NSValueTransformerName("OCDPickyTransformer"))
        let note = NSEntityDescription(name: "Note")
        let tags = NSAttributeDescription(name: "tags", type: .transformableAttributeType)
        tags.valueTransformerName = "OCDPickyTransformer"
        note.properties = [NSAttributeDescription(name: "title", type: .stringAttributeType), tags]
        let model = NSManagedObjectModel()
        model.entities = [note]

        let url = directory.appendingPathComponent("notes.binary")
        let (coordinator, context) = try stack(NSBinaryStoreType, at: url, model: model)
        try context.performAndWait {
            let first = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            first.setValue("first", forKey: "title"); first.setValue(["a", "b"], forKey: "tags")
            try context.save()
            let bytes = try Data(contentsOf: url)

            first.setValue("changed", forKey: "title")
            let bad = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            bad.setValue(42, forKey: "tags")   // the transformer turns only [String] into data
            XCTAssertThrowsError(try context.save()) { error in
                XCTAssertEqual((error as NSError).code, NSPersistentStoreSaveError, "\(error)")
            }
            XCTAssertEqual(try Data(contentsOf: url), bytes, "the file is untouched")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["notes.binary"])
            let check = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            check.persistentStoreCoordinator = coordinator
            try check.performAndWait {
                XCTAssertEqual(try fetch("Note", in: check).map { $0.value(forKey: "title") as? String }, ["first"], "the store's records are as they were")
            }

            bad.setValue(["c"], forKey: "tags")
            try context.save()
        }
        let (_, reopened) = try stack(NSBinaryStoreType, at: url, model: model)
        try reopened.performAndWait {
            let notes = try fetch("Note", in: reopened, sortedBy: "title")
            XCTAssertEqual(notes.map { $0.value(forKey: "title") as? String }, [nil, "changed"])
            XCTAssertEqual(notes.map { $0.value(forKey: "tags") as? [String] }, [["c"], ["a", "b"]])
        }
    }

    func testCorruptOrForeignFilesFailToOpenAndAreNotChanged() throws {
        let valid = directory.appendingPathComponent("valid.binary")
        _ = try populate(try stack(NSBinaryStoreType, at: valid).1)
        let validBytes = try Data(contentsOf: valid)

        func expect(_ code: Int, opening bytes: Data, as type: String, _ what: String) throws {
            let url = directory.appendingPathComponent("case-\(UUID().uuidString)")
            try bytes.write(to: url)
            XCTAssertThrowsError(try stack(type, at: url), what) { error in
                XCTAssertEqual((error as NSError).code, code, "\(what): \(error)")
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
            }
            XCTAssertEqual(try Data(contentsOf: url), bytes, "\(what): the file is untouched")
        }
        try expect(NSPersistentStoreOpenError, opening: Data("not a store at all".utf8), as: NSBinaryStoreType, "garbage")
        try expect(NSPersistentStoreOpenError, opening: validBytes.prefix(validBytes.count / 2), as: NSBinaryStoreType, "a torn binary file")
        try expect(NSPersistentStoreTypeMismatchError, opening: validBytes, as: NSXMLStoreType, "a binary store opened as XML")
        try expect(NSPersistentStoreTypeMismatchError, opening: Data("SQLite format 3\0rest".utf8), as: NSBinaryStoreType, "a SQLite file")
        let foreign = try PropertyListSerialization.data(fromPropertyList: ["hello": "world"], format: .binary, options: 0)
        try expect(NSPersistentStoreTypeMismatchError, opening: foreign, as: NSBinaryStoreType, "a property list that is no store")
    }

    func testAStoreMadeWithAnotherModelFailsWith134100() throws {
        let url = directory.appendingPathComponent("company.xml")
        _ = try populate(try stack(NSXMLStoreType, at: url).1)
        let bytes = try Data(contentsOf: url)
        XCTAssertThrowsError(try stack(NSXMLStoreType, at: url, model: Self.makeModel(extraEmployeeAttribute: true))) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreIncompatibleVersionHashError)
        }
        XCTAssertEqual(try Data(contentsOf: url), bytes)
        XCTAssertNoThrow(try stack(NSXMLStoreType, at: url, model: Self.makeModel()), "an equal model opens it")
    }

    func testMetadataIsKeptInTheFile() throws {
        let url = directory.appendingPathComponent("company.binary")
        let (coordinator, context) = try stack(NSBinaryStoreType, at: url)
        _ = try populate(context)
        let uuid = try XCTUnwrap(coordinator.persistentStores[0].metadata[NSStoreUUIDKey] as? String)
        let (reopened, _) = try stack(NSBinaryStoreType, at: url)
        let metadata = reopened.persistentStores[0].metadata!
        XCTAssertEqual(metadata[NSStoreUUIDKey] as? String, uuid)
        XCTAssertEqual(reopened.persistentStores[0].identifier, uuid)
        XCTAssertEqual(metadata[NSStoreTypeKey] as? String, NSBinaryStoreType)
        XCTAssertEqual((metadata[NSStoreModelVersionHashesKey] as? [String: Data])?["Employee"], coordinator.managedObjectModel.entitiesByName["Employee"]!.versionHash)
    }

    func testCustomAtomicStoreRegisteredByTypeName() throws {
        let url = directory.appendingPathComponent("company.json")
        let (coordinator, context) = try stack(JSONAtomicStore.storeType, at: url)
        XCTAssertTrue(coordinator.persistentStores[0] is JSONAtomicStore)
        XCTAssertEqual(coordinator.persistentStores[0].type, JSONAtomicStore.storeType)
        let firedID: NSManagedObjectID = try context.performAndWait {
            let lab = Department(context: context); lab.name = "Lab"; lab.budget = 10
            let cy = Employee(context: context); cy.firstName = "Cy"; cy.salary = 200; cy.department = lab
            let di = Employee(context: context); di.firstName = "Di"; di.department = lab
            try context.save()
            let store = coordinator.persistentStores[0] as! JSONAtomicStore
            XCTAssertTrue((store.referenceObject(for: cy.objectID) as? String)?.hasPrefix("ref-") == true, "IDs come from newReferenceObject(for:)")
            context.delete(di)
            try context.save()
            XCTAssertEqual(store.removedReferences, [store.referenceObject(for: di.objectID) as! String], "willRemoveCacheNodes(_:) saw the deletion")

            // A failing save(): the error reaches the caller unchanged, the store keeps its nodes.
            cy.salary = 999
            JSONAtomicStore.failNextSave = true
            XCTAssertThrowsError(try context.save()) { error in
                XCTAssertEqual((error as NSError).domain, "JSONAtomicStore")
                XCTAssertEqual((error as NSError).code, 7)
            }
            XCTAssertTrue(cy.hasChanges)
            return cy.objectID
        }
        let check = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        check.persistentStoreCoordinator = coordinator
        try check.performAndWait {
            let cy = try check.existingObject(with: firedID) as! Employee
            XCTAssertEqual(cy.salary, 200, "the failed save left the cache nodes as they were")
        }

        let (_, reopened) = try stack(JSONAtomicStore.storeType, at: url)
        try reopened.performAndWait {
            let departments = try fetch("Department", in: reopened).map { $0 as! Department }
            XCTAssertEqual(departments.map { $0.name ?? "" }, ["Lab"])
            XCTAssertEqual(departments[0].employees.map { $0.firstName ?? "" }, ["Cy"])
            XCTAssertEqual(departments[0].employees.first?.salary, 200)
            XCTAssertEqual(departments[0].employees.first?.department, departments[0])
        }
    }

    func testTwoContextsConflictOnAnAtomicStore() throws {
        let url = directory.appendingPathComponent("company.xml")
        let (coordinator, context) = try stack(NSXMLStoreType, at: url)
        _ = try populate(context)
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        let id = try context.performAndWait { try fetch("Department", in: context)[0].objectID }
        let mine = try context.performAndWait { () -> Department in
            let d = try context.existingObject(with: id) as! Department
            _ = d.name
            return d
        }
        try other.performAndWait {
            (try other.existingObject(with: id) as! Department).budget = 2
            try other.save()
        }
        try context.performAndWait {
            mine.budget = 3
            XCTAssertThrowsError(try context.save()) { error in
                XCTAssertEqual((error as NSError).code, NSManagedObjectMergeError)
            }
        }
    }
}
