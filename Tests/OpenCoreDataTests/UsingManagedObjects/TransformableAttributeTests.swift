import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Transformable attributes and value transformers.
final class TransformableAttributeTests: XCTestCase {
    final class UppercaseTransformer: ValueTransformer, @unchecked Sendable {
        override class func allowsReverseTransformation() -> Bool { true }
        override func transformedValue(_ value: Any?) -> Any? { (value as? String).map { Data($0.uppercased().utf8) } }
        override func reverseTransformedValue(_ value: Any?) -> Any? { (value as? Data).map { String(decoding: $0, as: UTF8.self) } }
    }

    func testRegistryAndDefaultSecureTransformer() throws {
        let name = NSValueTransformerName("OCDUppercase")
        ValueTransformer.setValueTransformer(UppercaseTransformer(), forName: name)
        let t = try XCTUnwrap(ValueTransformer(forName: name))
        XCTAssertEqual(t.reverseTransformedValue(t.transformedValue("abc")) as? String, "ABC")
        XCTAssertTrue(t === ValueTransformer.registered(name), "the registered instance itself")
        XCTAssertNotNil(UppercaseTransformer(forName: name))
        XCTAssertNil(NSSecureUnarchiveFromDataTransformer(forName: name), "registered, but not of that class")
        XCTAssertTrue(ValueTransformer.valueTransformerNames().contains(name))
        ValueTransformer.setValueTransformer(nil, forName: name)
        XCTAssertNil(ValueTransformer(forName: name))

        let secure = try XCTUnwrap(ValueTransformer.registered(.secureUnarchiveFromDataTransformerName))
        let data = secure.transformedValue(["a", "b"] as NSArray)
        XCTAssertTrue(data is Data)
        XCTAssertEqual(secure.reverseTransformedValue(data) as? [String], ["a", "b"])
    }

    func testTransformableValuesRoundTripThroughTheStore() throws {
        let tags = NSAttributeDescription(name: "tags", type: .transformableAttributeType)
        tags.valueTransformerName = NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Note", properties: [tags])]
        let stack = TestStack(model: model)
        try stack.context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
            note.setValue(["red", "blue"], forKey: "tags")
            try stack.context.save()
        }
        let other = stack.newContext()
        try other.performAndWait {
            let note = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))[0]
            XCTAssertEqual(note.value(forKey: "tags") as? [String], ["red", "blue"])
        }
    }

    func testSQLiteStoreWritesWhatTheNamedTransformerMakes() throws {
        let name = NSValueTransformerName("OCDUppercaseForSQLite")
        ValueTransformer.setValueTransformer(UppercaseTransformer(), forName: name)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        let shout = NSAttributeDescription(name: "shout", type: .transformableAttributeType)
        shout.valueTransformerName = name.rawValue
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Note", properties: [shout])]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-transform-\(UUID().uuidString).sqlite")
        defer { try? NSPersistentStoreCoordinator(managedObjectModel: model).destroyPersistentStore(at: url, ofType: NSSQLiteStoreType) }

        func open() throws -> NSManagedObjectContext {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
        let writer = try open()
        try writer.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: writer).setValue("hello", forKey: "shout")
            try writer.save()
        }
        let bytes = try SQLiteInspector.rows(at: url.path, "SELECT CAST(ZSHOUT AS TEXT) FROM ZNOTE")
        XCTAssertEqual(bytes, [["HELLO"]], "the column holds the transformer's output")
        let reader = try open()
        try reader.performAndWait {
            let note = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))[0]
            XCTAssertEqual(note.value(forKey: "shout") as? String, "HELLO", "read back through reverseTransformedValue")
        }
    }
}
