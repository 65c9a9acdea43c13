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
        // An "unarchive from data" transformer unarchives forwards and archives in reverse, as Apple's.
        let data = secure.reverseTransformedValue(["a", "b"] as NSArray)
        XCTAssertTrue(data is Data)
        XCTAssertEqual(secure.transformedValue(data) as? [String], ["a", "b"])
        XCTAssertNil(secure.transformedValue(["a", "b"] as NSArray), "values are not data")
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

    /// Every store type, a URL per type.
    private func eachStoreType(_ body: (String, URL) throws -> Void) throws {
        let directory = try makeTemporaryDirectory("ocd-transformable")
        for (type, ext) in [(NSSQLiteStoreType, "sqlite"), (NSBinaryStoreType, "binary"), (NSXMLStoreType, "xml")] {
            try body(type, directory.appendingPathComponent("Notes.\(ext)"))
        }
    }

    /// Saves `value` in a Note's `tags` and reads it back through a new coordinator.
    private func roundTrip(_ value: Any, transformerName: String?, type: String, url: URL) throws -> Any? {
        let tags = NSAttributeDescription(name: "tags", type: .transformableAttributeType)
        tags.valueTransformerName = transformerName
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Note", properties: [tags])]
        let writer = NSPersistentStoreCoordinator(managedObjectModel: model)
        try writer.addPersistentStore(ofType: type, configurationName: nil, at: url)
        let context = newContext(writer)
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue(value, forKey: "tags")
            try context.save()
        }
        let reader = NSPersistentStoreCoordinator(managedObjectModel: model)
        try reader.addPersistentStore(ofType: type, configurationName: nil, at: url)
        let readContext = newContext(reader)
        return try readContext.performAndWait { try readContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))[0].value(forKey: "tags") }
    }

    /// A subclass of `NSSecureUnarchiveFromDataTransformer` written for Apple's framework (data
    /// in forwards, values in reverse) saves and reads back in every store type.
    func testAnAppleStyleSecureTransformerSubclassWorksInEveryStore() throws {
        let name = NSValueTransformerName("OCDAppleStyleTags")
        ValueTransformer.setValueTransformer(AppleStyleTagsTransformer(), forName: name)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        try eachStoreType { type, url in
            XCTAssertEqual(try roundTrip(["red", "blue"] as NSArray, transformerName: name.rawValue, type: type, url: url) as? [String], ["red", "blue"], type)
        }
    }

    /// Without a transformer name (Apple's default transformer) and with the secure one named,
    /// an archivable value round-trips through every store type.
    func testTheDefaultTransformerRoundTripsThroughEveryStore() throws {
        for transformerName in [nil, NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue] {
            try eachStoreType { type, url in
                try? FileManager.default.removeItem(at: url)
                let value = ["size": 3, "tags": ["a", "b"]] as NSDictionary
                XCTAssertEqual(try roundTrip(value, transformerName: transformerName, type: type, url: url) as? NSDictionary, value, "\(type) \(transformerName ?? "nil")")
            }
        }
    }
}

/// Written as for Apple's framework: `transformedValue` takes the stored data, `reverseTransformedValue` the value.
final class AppleStyleTagsTransformer: NSSecureUnarchiveFromDataTransformer, @unchecked Sendable {
    override func transformedValue(_ value: Any?) -> Any? {
        guard value is Data else { return nil }
        return super.transformedValue(value)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard value is NSArray else { return nil }
        return super.reverseTransformedValue(value)
    }
}
