import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Binary attributes with `allowsExternalBinaryDataStorage` in the SQLite store: small values
/// inline behind a 01 marker, large ones in files under `.<StoreName>_SUPPORT/_EXTERNAL_DATA/`
/// named by a 02 marker; files are written before the commit and removed only after it.
final class ExternalBinaryStorageTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-external")
    }

    private var storeURL: URL { directory.appendingPathComponent("Photos.sqlite") }
    private var externalDirectory: URL { directory.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA") }
    private var externalFiles: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: externalDirectory.path)) ?? []).sorted() }

    /// Photo: `name` (unique), `image` (external storage allowed), `raw` (Binary, inline).
    /// `version2` adds an optional `caption` (a lightweight migration).
    private static func makeModel(version2: Bool = false) -> NSManagedObjectModel {
        let photo = NSEntityDescription(name: "Photo")
        let image = NSAttributeDescription(name: "image", type: .binaryDataAttributeType)
        image.allowsExternalBinaryDataStorage = true
        var properties: [NSPropertyDescription] = [NSAttributeDescription(name: "name", type: .stringAttributeType), image,
                                                   NSAttributeDescription(name: "raw", type: .binaryDataAttributeType)]
        if version2 { properties.append(NSAttributeDescription(name: "caption", type: .stringAttributeType)) }
        photo.properties = properties
        photo.uniquenessConstraints = [["name"]]
        let model = NSManagedObjectModel()
        model.entities = [photo]
        return model
    }

    private func open(_ model: NSManagedObjectModel = makeModel(), at url: URL? = nil, options: [AnyHashable: Any]? = nil) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url ?? storeURL, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    private func bytes(_ count: Int, seed: UInt8) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }) }
    private var large: Data { bytes(300 * 1024, seed: 7) }

    private func insert(_ name: String, image: Data?, raw: Data? = nil, in context: NSManagedObjectContext) throws -> NSManagedObjectID {
        try context.performAndWait {
            let photo = NSManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Photo"]!, insertInto: context)
            photo.setValue(name, forKey: "name")
            photo.setValue(image, forKey: "image")
            photo.setValue(raw, forKey: "raw")
            try context.save()
            return photo.objectID
        }
    }

    /// The `image` column of the row named `name`, as the inspector's hex (`x'...'`).
    private func imageColumn(_ name: String, at url: URL? = nil) throws -> String? {
        try SQLiteInspector.rows(at: (url ?? storeURL).path, "SELECT ZIMAGE FROM ZPHOTO WHERE ZNAME = ?", [name]).first?.first ?? nil
    }

    /// `image` of the photo named `name`, read through a new coordinator.
    private func freshImage(_ name: String, model: NSManagedObjectModel = makeModel(), at url: URL? = nil) throws -> Data? {
        let (coordinator, context) = try open(model, at: url)
        defer { for store in coordinator.persistentStores { try? coordinator.remove(store) } }
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "name == %@", name)
            let photos = try context.fetch(request)
            XCTAssertEqual(photos.count, 1)
            return photos.first?.value(forKey: "image") as? Data
        }
    }

    private func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    // MARK: Layout

    func testSmallValueIsInlineBehindAMarker() throws {
        let (_, context) = try open()
        _ = try insert("small", image: Data([0xCA, 0xFE]), raw: Data([0xCA, 0xFE]), in: context)
        XCTAssertEqual(try imageColumn("small"), "x'01cafe'")
        XCTAssertEqual(try SQLiteInspector.rows(at: storeURL.path, "SELECT ZRAW FROM ZPHOTO").first?.first, "x'cafe'", "attributes without the flag keep plain bytes")
        XCTAssertEqual(externalFiles, [])
        XCTAssertEqual(try freshImage("small"), Data([0xCA, 0xFE]))
    }

    func testLargeValueGoesToAFileNamedInTheColumn() throws {
        let (_, context) = try open()
        _ = try insert("large", image: large, raw: large, in: context)
        let files = externalFiles
        XCTAssertEqual(files.count, 1)
        let name = try XCTUnwrap(files.first)
        XCTAssertNotNil(UUID(uuidString: name), "files are named by a UUID")
        XCTAssertEqual(try imageColumn("large"), "x'02" + hex(Data(name.utf8)) + "00'")
        XCTAssertEqual(try Data(contentsOf: externalDirectory.appendingPathComponent(name)), large)
        XCTAssertEqual(try SQLiteInspector.rows(at: storeURL.path, "SELECT length(ZRAW) FROM ZPHOTO").first?.first, String(large.count))
        XCTAssertEqual(try freshImage("large"), large, "round trip through a new stack")
        // The threshold: exactly 128 KiB stays inline, one byte more goes to a file.
        _ = try insert("edge", image: bytes(128 * 1024, seed: 1), in: context)
        XCTAssertEqual(try imageColumn("edge")?.prefix(4), "x'01")
        _ = try insert("over", image: bytes(128 * 1024 + 1, seed: 2), in: context)
        XCTAssertEqual(try imageColumn("over")?.prefix(4), "x'02")
        XCTAssertEqual(externalFiles.count, 2)
    }

    // MARK: Changes

    func testChangingOrDeletingAValueRemovesItsOldFile() throws {
        let (_, context) = try open()
        let id = try insert("p", image: large, in: context)
        let photo = context.performAndWait { context.object(with: id) }
        let first = try XCTUnwrap(externalFiles.first)
        func save(_ change: () -> Void) throws {
            try context.performAndWait {
                change()
                try context.save()
            }
        }
        // Another attribute changes: the unchanged value keeps its file.
        try save { photo.setValue(Data([1]), forKey: "raw") }
        XCTAssertEqual(externalFiles, [first])
        // A new large value: a new file, the old one gone.
        let other = bytes(200 * 1024, seed: 9)
        try save { photo.setValue(other, forKey: "image") }
        XCTAssertEqual(externalFiles.count, 1)
        XCTAssertNotEqual(externalFiles.first, first)
        XCTAssertEqual(try freshImage("p"), other)
        // A small value: inline, no file left.
        try save { photo.setValue(Data([2, 3]), forKey: "image") }
        XCTAssertEqual(externalFiles, [])
        XCTAssertEqual(try imageColumn("p"), "x'010203'")
        // Large again, then the record is deleted: the file goes with it.
        try save { photo.setValue(other, forKey: "image") }
        XCTAssertEqual(externalFiles.count, 1)
        try save { context.delete(photo) }
        XCTAssertEqual(externalFiles, [])
    }

    func testAFailedSaveKeepsTheOldFileAndLeavesNoNewOne() throws {
        let (_, context) = try open()
        let a = try insert("a", image: large, in: context)
        let b = try insert("b", image: nil, in: context)
        let before = externalFiles
        XCTAssertEqual(before.count, 1)
        // Swapping unique names in one save passes the context's check (each record gives its
        // value up) but fails SQLite's unique index statement by statement: the store rolls
        // back after writing a new file for whichever record came first.
        let error = context.performAndWait { () -> NSError? in
            let photoA = context.object(with: a), photoB = context.object(with: b)
            photoA.setValue("b", forKey: "name")
            photoB.setValue("a", forKey: "name")
            photoA.setValue(bytes(150 * 1024, seed: 3), forKey: "image")
            photoB.setValue(bytes(160 * 1024, seed: 4), forKey: "image")
            do { try context.save(); return nil } catch { return error as NSError }
        }
        XCTAssertEqual(error?.code, NSManagedObjectConstraintMergeError)
        XCTAssertEqual(externalFiles, before, "no new file stays, and the old one is still there")
        XCTAssertEqual(try freshImage("a"), large)
    }

    /// A process killed between a save's commit and its cleanup leaves the replaced value's file
    /// behind, and the marker the save wrote before touching files. The next open that finds a
    /// marker collects such files once they are an hour old (a younger one may be a migration's,
    /// in another process) and removes markers as old; referenced files stay. Without a marker
    /// (every save finished) an open reads nothing.
    func testFilesOrphanedByACrashAreCollectedWhenTheStoreIsOpened() throws {
        let (coordinator, context) = try open()
        _ = try insert("kept", image: large, in: context)
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let kept = try XCTUnwrap(externalFiles.first)
        XCTAssertEqual(externalFiles, [kept], "a finished save leaves no marker")
        let old = Date(timeIntervalSinceNow: -2 * 3600)
        func place(_ name: String, _ data: Data, modified date: Date) throws {
            let url = externalDirectory.appendingPathComponent(name)
            try data.write(to: url)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
        }
        try place("ORPHAN-OLD", large, modified: old)
        try place("ORPHAN-NEW", large, modified: Date())
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: externalDirectory.appendingPathComponent(kept).path)

        _ = try open()
        XCTAssertEqual(externalFiles, ["ORPHAN-NEW", "ORPHAN-OLD", kept].sorted(), "no marker: nothing is scanned or removed")

        // The markers' names are part of the folder's layout (SQLiteExternalData.pendingMarkerPrefix).
        let oldMarker = ".OCDPendingFiles-crashed", youngMarker = ".OCDPendingFiles-running"
        try place(oldMarker, Data(), modified: old)
        try place(youngMarker, Data(), modified: Date())
        _ = try open()
        XCTAssertEqual(externalFiles, ["ORPHAN-NEW", kept, youngMarker].sorted(),
                       "the old orphan and the old marker are gone; the young ones and the referenced file stay")
        XCTAssertEqual(try freshImage("kept"), large)
        // A read-only open collects nothing.
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: externalDirectory.appendingPathComponent("ORPHAN-NEW").path)
        _ = try open(options: [NSReadOnlyPersistentStoreOption: true])
        XCTAssertEqual(externalFiles, ["ORPHAN-NEW", kept, youngMarker].sorted())
    }

    func testMissingFileReadsAsNil() throws {
        let (_, context) = try open()
        _ = try insert("gone", image: large, in: context)
        for name in externalFiles { try FileManager.default.removeItem(at: externalDirectory.appendingPathComponent(name)) }
        XCTAssertNil(try freshImage("gone"))
    }

    /// No fixture model uses the flag (grep of the shared fixtures), so an Xcode model is
    /// written here: the reader keeps the flag, and the store acts on it.
    func testXcodeModelFlagReachesTheStore() throws {
        let bundle = directory.appendingPathComponent("Photos.xcdatamodel")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Photo" representedClassName="Photo">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="raw" optional="YES" attributeType="Binary"/>
                </entity>
            </model>
            """.utf8).write(to: bundle.appendingPathComponent("contents"))
        let model = try NSManagedObjectModel.load(contentsOf: bundle)
        let photo = try XCTUnwrap(model.entitiesByName["Photo"])
        XCTAssertEqual(photo.attributesByName["image"]?.allowsExternalBinaryDataStorage, true)
        XCTAssertEqual(photo.attributesByName["raw"]?.allowsExternalBinaryDataStorage, false)
        let (_, context) = try open(model)
        _ = try insert("xml", image: large, in: context)
        XCTAssertEqual(externalFiles.count, 1)
        XCTAssertEqual(try imageColumn("xml")?.prefix(4), "x'02")
    }

    // MARK: Moving stores

    func testMigratePersistentStoreCopiesTheFiles() throws {
        let (coordinator, context) = try open()
        _ = try insert("moved", image: large, in: context)
        let destination = directory.appendingPathComponent("Copy.sqlite")
        let store = try XCTUnwrap(coordinator.persistentStores.first)
        _ = try coordinator.migratePersistentStore(store, to: destination, options: nil, withType: NSSQLiteStoreType)
        let copied = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".Copy_SUPPORT/_EXTERNAL_DATA").path)) ?? []
        XCTAssertEqual(copied.count, 1)
        XCTAssertEqual(try imageColumn("moved", at: destination)?.prefix(4), "x'02")
        XCTAssertEqual(try freshImage("moved", at: destination), large)
        // Destroying the copy removes its support directory.
        try NSPersistentStoreCoordinator(managedObjectModel: Self.makeModel()).destroyPersistentStore(at: destination, ofType: NSSQLiteStoreType)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".Copy_SUPPORT").path))
    }

    func testLightweightMigrationKeepsExternalValues() throws {
        do {
            let (coordinator, context) = try open()
            _ = try insert("kept", image: large, in: context)
            _ = try insert("small", image: Data([5]), in: context)
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        let before = externalFiles
        XCTAssertEqual(before.count, 1)
        let v2 = Self.makeModel(version2: true)
        let (coordinator, _) = try open(v2, options: [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
                                                      OCDMigrationSourceModelsOption: [Self.makeModel()]])
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        XCTAssertEqual(externalFiles.count, 1, "the migrated store's file replaces the original's")
        XCTAssertEqual(try freshImage("kept", model: v2), large)
        XCTAssertEqual(try freshImage("small", model: v2), Data([5]))
    }
    /// The same through a mapping model and NSMigrationManager (inference off): the copy's
    /// files must land where the renamed copy reads them.
    func testMappingModelMigrationKeepsExternalValues() throws {
        do {
            let (coordinator, context) = try open()
            _ = try insert("kept", image: large, in: context)
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        let v1 = Self.makeModel(), v2 = Self.makeModel(version2: true)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        let (coordinator, _) = try open(v2, options: [NSMigratePersistentStoresAutomaticallyOption: true,
                                                      OCDMigrationSourceModelsOption: [v1], OCDMappingModelsOption: [mapping]])
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        XCTAssertEqual(externalFiles.count, 1, "the migrated store's file replaces the original's")
        XCTAssertEqual(try freshImage("kept", model: v2), large)
    }

    /// `replacePersistentStore` brings the source's external files along: the copy reads the
    /// large value, and the files only the old destination used are gone.
    func testReplacingAStoreCopiesItsExternalFiles() throws {
        let (coordinator, context) = try open()
        _ = try insert("big", image: large, in: context)
        let copy = directory.appendingPathComponent("Copy/Photos.sqlite")
        let (copyCoordinator, copyContext) = try open(at: copy)
        _ = try insert("old", image: bytes(200 * 1024, seed: 9), in: copyContext)
        try copyCoordinator.remove(copyCoordinator.persistentStores[0])
        let copyFiles = directory.appendingPathComponent("Copy/.Photos_SUPPORT/_EXTERNAL_DATA")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: copyFiles.path).count, 1)

        try coordinator.replacePersistentStore(at: copy, withPersistentStoreFrom: storeURL, ofType: NSSQLiteStoreType)
        XCTAssertEqual(try freshImage("big", at: copy), large)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: copyFiles.path), externalFiles, "the old destination's file went")
    }

    /// A `/dev/null` (in-memory) store has no folder for files: large values stay in their rows.
    func testAnInMemoryStoreKeepsLargeValuesInTheirRows() throws {
        let (_, context) = try open(at: URL(fileURLWithPath: "/dev/null"))
        _ = try insert("big", image: large, in: context)
        try context.performAndWait {
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            XCTAssertEqual(try context.fetch(request).first?.value(forKey: "image") as? Data, large)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/.null_SUPPORT"))
    }
}
