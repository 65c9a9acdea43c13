import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The employees' first names in `context`, sorted.
private func names(_ context: NSManagedObjectContext) throws -> [String] {
    try context.performAndWait {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
        return try context.fetch(request).compactMap(\.firstName)
    }
}

/// Saves a new employee named `name` in `context`.
private func insert(_ name: String, _ context: NSManagedObjectContext) throws {
    try context.performAndWait {
        Employee(context: context).firstName = name
        try context.save()
    }
}

extension TemporaryCompanyStore {
    /// A binary store `Company.binary` in the store's folder holding an employee Ann (an atomic
    /// store writes its file when it saves), with the coordinator that wrote it; still added.
    fileprivate func binaryStoreWithAnn() throws -> (url: URL, coordinator: NSPersistentStoreCoordinator, store: NSPersistentStore) {
        let url = directory.appendingPathComponent("Company.binary")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: url)
        try insert("Ann", newContext(coordinator))
        return (url, coordinator, store)
    }
}

/// A store's files as the coordinator handles them: copying one store over another
/// (`replacePersistentStore`), moving an added store (`setURL(_:for:)`), destroying one that
/// another connection is writing, reading metadata without knowing the type, and opening a
/// store without comparing version hashes.
final class StoreFilesTests: XCTestCase {
    // MARK: replacePersistentStore

    /// A copy where there was none, then over an existing store: the destination holds the
    /// source's records, the last saved ones too while the source is open (its WAL), and the
    /// same store UUID.
    func testReplacingAStoreCopiesTheSourceWhileItIsOpen() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1, nil), ("Bob", 2, nil)])
        let (sourceCoordinator, sourceContext) = try store.open()
        try insert("Cy", sourceContext)   // in the WAL, not yet in the main file
        let backup = store.directory.appendingPathComponent("Backups/Company.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: store.model)
        try coordinator.replacePersistentStore(at: backup, withPersistentStoreFrom: store.url, ofType: NSSQLiteStoreType)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: backup)
        XCTAssertEqual(try names(newContext(coordinator)), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(coordinator.persistentStores[0].identifier, sourceCoordinator.persistentStores[0].identifier)

        // The destination, once removed, is replaced by the source as it is now.
        try insert("Dee", sourceContext)
        try coordinator.remove(coordinator.persistentStores[0])
        try coordinator.replacePersistentStore(at: backup, destinationOptions: nil, withPersistentStoreFrom: store.url, sourceOptions: nil, type: .sqlite)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: backup)
        XCTAssertEqual(try names(newContext(coordinator)), ["Ann", "Bob", "Cy", "Dee"])
    }

    /// Replacing a store that is added to the coordinator, with a store that isn't there or isn't
    /// a store, or of an in-memory type, is refused and the destination keeps its records.
    func testReplacingIsRefusedWhenItCannotBeDoneSafely() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1, nil)])
        let (coordinator, _) = try store.open()
        let other = store.directory.appendingPathComponent("Other.sqlite")
        let added = thrownError { try coordinator.replacePersistentStore(at: store.url, withPersistentStoreFrom: other, ofType: NSSQLiteStoreType) }
        XCTAssertEqual(added?.code, NSPersistentStoreOperationError)
        try coordinator.remove(coordinator.persistentStores[0])
        XCTAssertEqual(thrownError { try coordinator.replacePersistentStore(at: store.url, withPersistentStoreFrom: other, ofType: NSSQLiteStoreType) }?.code,
                       NSFileReadNoSuchFileError)
        try Data("not a store".utf8).write(to: other)
        XCTAssertNotNil(thrownError { try coordinator.replacePersistentStore(at: store.url, withPersistentStoreFrom: other, ofType: NSSQLiteStoreType) })
        XCTAssertEqual(thrownError { try coordinator.replacePersistentStore(at: other, withPersistentStoreFrom: store.url, ofType: NSInMemoryStoreType) }?.code,
                       NSPersistentStoreOperationError)
        XCTAssertEqual(try store.sql("SELECT ZFIRSTNAME FROM ZEMPLOYEE"), [["Ann"]])
    }

    /// A binary store is copied file for file.
    func testReplacingABinaryStoreCopiesItsFile() throws {
        let store = try TemporaryCompanyStore()
        let (source, coordinator, _) = try store.binaryStoreWithAnn()
        let copy = store.directory.appendingPathComponent("Copy.binary")
        try coordinator.replacePersistentStore(at: copy, withPersistentStoreFrom: source, ofType: NSBinaryStoreType)
        let reader = NSPersistentStoreCoordinator(managedObjectModel: store.model)
        try reader.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: copy)
        XCTAssertEqual(try names(newContext(reader)), ["Ann"])
    }

    // MARK: setURL(_:for:)

    /// An added SQLite store moves to a copy of itself: what is saved next goes there. A file
    /// that isn't that store, or no file, leaves the store where it was.
    func testSetURLMovesAnAddedStoreToACopyOfItself() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1, nil)])
        let (coordinator, context) = try store.open()
        let added = coordinator.persistentStores[0]
        let copy = store.directory.appendingPathComponent("Moved.sqlite")
        try coordinator.replacePersistentStore(at: copy, withPersistentStoreFrom: store.url, ofType: NSSQLiteStoreType)
        XCTAssertTrue(coordinator.setURL(copy, for: added))
        XCTAssertEqual(coordinator.url(for: added).path, copy.path)
        try insert("Bob", context)
        XCTAssertEqual(try SQLiteInspector.rows(at: copy.path, "SELECT ZFIRSTNAME FROM ZEMPLOYEE ORDER BY 1"), [["Ann"], ["Bob"]])
        XCTAssertEqual(try store.sql("SELECT ZFIRSTNAME FROM ZEMPLOYEE"), [["Ann"]], "the old file is no longer written")

        let stranger = try TemporaryCompanyStore()
        try stranger.seed([("Zed", 1, nil)])
        XCTAssertFalse(coordinator.setURL(stranger.url, for: added), "another store (another UUID)")
        XCTAssertFalse(coordinator.setURL(store.directory.appendingPathComponent("None.sqlite"), for: added))
        XCTAssertEqual(coordinator.url(for: added).path, copy.path)
        try insert("Cy", context)
        XCTAssertEqual(try names(context), ["Ann", "Bob", "Cy"])
        XCTAssertFalse(NSPersistentStoreCoordinator(managedObjectModel: store.model).setURL(copy, for: added), "not that coordinator's store")
    }

    /// An atomic store writes its next save at the new URL.
    func testSetURLMakesAnAtomicStoreSaveElsewhere() throws {
        let store = try TemporaryCompanyStore()
        let first = store.directory.appendingPathComponent("First.binary"), second = store.directory.appendingPathComponent("Second.binary")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: store.model)
        let added = try coordinator.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: first)
        let context = newContext(coordinator)
        try insert("Ann", context)
        XCTAssertTrue(coordinator.setURL(second, for: added))
        try insert("Bob", context)
        let reader = NSPersistentStoreCoordinator(managedObjectModel: store.model)
        try reader.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: second)
        XCTAssertEqual(try names(newContext(reader)), ["Ann", "Bob"])
    }

    // MARK: Destroying

    /// A store another process is writing is not destroyed, unless forced.
    func testDestroyingAStoreBeingWrittenNeedsForce() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1, nil)])
        let other = try OtherSQLiteProcess(store.url)
        defer { other.finish() }
        try other.run("BEGIN IMMEDIATE")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: store.model)
        let refused = thrownError { try coordinator.destroyPersistentStore(at: store.url, ofType: NSSQLiteStoreType) }
        XCTAssertEqual(refused?.code, NSPersistentStoreOperationError)
        XCTAssertTrue(refused?.localizedDescription.contains("NSPersistentStoreForceDestroyOption") == true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.url.path))
        try coordinator.destroyPersistentStore(at: store.url, type: .sqlite, options: [NSPersistentStoreForceDestroyOption: true])
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.url.path))
    }

    /// A file that is not a database can be destroyed without force: only a lock holds it back.
    func testDestroyingADamagedStoreNeedsNoForce() throws {
        let store = try TemporaryCompanyStore()
        try Data(repeating: 7, count: 4096).write(to: store.url)
        try NSPersistentStoreCoordinator(managedObjectModel: store.model).destroyPersistentStore(at: store.url, ofType: NSSQLiteStoreType)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.url.path))
    }

    // MARK: Metadata without a store type

    /// The deprecated metadata methods without a type find it by reading the file.
    @available(*, deprecated)
    func testMetadataWithoutATypeReadsEachStoreType() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1, nil)])
        let (binary, coordinator, binaryStore) = try store.binaryStoreWithAnn()
        try coordinator.remove(binaryStore)

        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: nil, at: store.url)[NSStoreTypeKey] as? String, NSSQLiteStoreType)
        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: nil, at: binary)[NSStoreTypeKey] as? String, NSBinaryStoreType)
        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(with: store.url)[NSStoreTypeKey] as? String, NSSQLiteStoreType)
        try NSPersistentStoreCoordinator.setMetadata(["Note": "kept"], forPersistentStoreOfType: nil, at: store.url)
        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store.url)["Note"] as? String, "kept")

        // A binary store's metadata is rewritten with its records kept.
        try NSPersistentStoreCoordinator.setMetadata(["Note": "binary"], forPersistentStoreOfType: nil, at: binary)
        let reader = NSPersistentStoreCoordinator(managedObjectModel: store.model)
        let reopened = try reader.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: binary)
        XCTAssertEqual(reopened.metadata["Note"] as? String, "binary")
        XCTAssertEqual(try names(newContext(reader)), ["Ann"])

        let text = store.directory.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        XCTAssertEqual(thrownError { _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: nil, at: text) }?.code, NSPersistentStoreInvalidTypeError)
        XCTAssertEqual(thrownError { _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(with: store.directory.appendingPathComponent("none")) }?.code, NSFileReadNoSuchFileError)
    }

    // MARK: NSIgnorePersistentStoreVersioningOption

    /// Version hashes that differ (here by a version hash modifier) refuse the store, unless the
    /// option says to ignore them; a store whose tables don't fit the model is refused even then.
    func testIgnoringVersioningOpensAStoreWhoseHashesDiffer() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1, nil)])
        let modified = CompanyModel.make()
        modified.entitiesByName["Employee"]!.versionHashModifier = "2"
        let refused = thrownError { try NSPersistentStoreCoordinator(managedObjectModel: modified).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store.url) }
        XCTAssertEqual(refused?.code, NSPersistentStoreIncompatibleVersionHashError)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: modified)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store.url, options: [NSIgnorePersistentStoreVersioningOption: true])
        XCTAssertEqual(try names(newContext(coordinator)), ["Ann"])
        try coordinator.remove(coordinator.persistentStores[0])

        let widened = CompanyModel.make()
        let extra = NSAttributeDescription()
        extra.name = "nickname"
        extra.attributeType = .stringAttributeType
        widened.entitiesByName["Employee"]!.properties.append(extra)
        let stillRefused = thrownError { try NSPersistentStoreCoordinator(managedObjectModel: widened).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store.url, options: [NSIgnorePersistentStoreVersioningOption: true]) }
        XCTAssertEqual(stillRefused?.code, NSPersistentStoreIncompatibleVersionHashError)
        XCTAssertTrue(stillRefused?.localizedDescription.contains("ZNICKNAME") == true, stillRefused?.localizedDescription ?? "")
    }

    /// An atomic store opens with the option whatever its hashes.
    func testIgnoringVersioningOpensAnAtomicStore() throws {
        let store = try TemporaryCompanyStore()
        let binary = try store.binaryStoreWithAnn().url
        let modified = CompanyModel.make()
        modified.entitiesByName["Employee"]!.versionHashModifier = "2"
        XCTAssertEqual(thrownError { try NSPersistentStoreCoordinator(managedObjectModel: modified).addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: binary) }?.code,
                       NSPersistentStoreIncompatibleVersionHashError)
        let reader = NSPersistentStoreCoordinator(managedObjectModel: modified)
        try reader.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: binary, options: [NSIgnorePersistentStoreVersioningOption: true])
        XCTAssertEqual(try names(newContext(reader)), ["Ann"])
    }

    // MARK: Options for Apple platforms' features

    /// Options for features Linux or these stores do not have (data protection, connection
    /// pools, OS compatibility, DTD validation, keyed-archive decoding) are accepted: each store
    /// opens, saves and reads back as without them.
    func testOptionsForApplePlatformFeaturesAreAccepted() throws {
        let store = try TemporaryCompanyStore()
        let sqliteOptions: [AnyHashable: Any] = [
            NSPersistentStoreFileProtectionKey: "NSFileProtectionComplete",
            NSPersistentStoreOSCompatibility: 170000,
            NSPersistentStoreConnectionPoolMaxSizeKey: 4,
        ]
        let binaryOptions: [AnyHashable: Any] = [NSBinaryStoreSecureDecodingClasses: [String(describing: NSString.self)], NSBinaryStoreInsecureDecodingCompatibilityOption: true]
        for (type, url, options) in [(NSSQLiteStoreType, store.url, sqliteOptions),
                                     (NSXMLStoreType, store.directory.appendingPathComponent("Company.xml"), [NSValidateXMLStoreOption: true]),
                                     (NSBinaryStoreType, store.directory.appendingPathComponent("Company.binary"), binaryOptions)] {
            let writer = NSPersistentStoreCoordinator(managedObjectModel: store.model)
            try writer.remove(try writer.addPersistentStore(ofType: type, configurationName: nil, at: url, options: options))
            let again = NSPersistentStoreCoordinator(managedObjectModel: store.model)
            try again.addPersistentStore(ofType: type, configurationName: nil, at: url, options: options)
            try insert("Ann", newContext(again))
            let reader = NSPersistentStoreCoordinator(managedObjectModel: store.model)
            try reader.addPersistentStore(ofType: type, configurationName: nil, at: url, options: options)
            XCTAssertEqual(try names(newContext(reader)), ["Ann"], type)
        }
        XCTAssertEqual([NSPersistentStoreFileProtectionKey, NSPersistentStoreOSCompatibility, NSPersistentStoreConnectionPoolMaxSizeKey, NSValidateXMLStoreOption,
                        NSBinaryStoreSecureDecodingClasses, NSBinaryStoreInsecureDecodingCompatibilityOption, NSPersistentStoreDeferredLightweightMigrationOptionKey],
                       ["NSPersistentStoreFileProtectionKey", "NSPersistentStoreOSCompatibility", "NSPersistentStoreConnectionPoolMaxSizeKey", "NSValidateXMLStoreOption",
                        "NSBinaryStoreSecureDecodingClasses", "NSBinaryStoreInsecureDecodingCompatibilityOption", "NSPersistentStoreDeferredLightweightMigrationOptionKey"],
                       "Apple's key strings, which stores written with options on a Mac carry")
    }
}

/// Store metadata set on an added store reaches its file at the next save, even a save without
/// object changes, as on Apple platforms; a store file opened as the wrong type says so.
final class StoreMetadataSaveTests: XCTestCase {
    func testMetadataSetOnAnAddedStoreIsWrittenByTheNextSave() throws {
        let store = try TemporaryCompanyStore()
        let binaryURL = store.directory.appendingPathComponent("Company.binary")
        for (type, url) in [(NSSQLiteStoreType, store.url), (NSBinaryStoreType, binaryURL)] {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: store.model)
            let added = try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url)
            let context = newContext(coordinator)
            try insert("Ann", context)   // the file exists
            coordinator.setMetadata(coordinator.metadata(for: added).merging(["Synced": "yes"]) { $1 }, for: added)
            try context.performAndWait { try context.save() }   // no object changes
            XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)["Synced"] as? String, "yes", type)

            var metadata = added.metadata ?? [:]
            metadata["Synced"] = "again"
            added.metadata = metadata
            try context.performAndWait { try context.save() }
            try coordinator.remove(added)
            let reopened = try NSPersistentStoreCoordinator(managedObjectModel: store.model).addPersistentStore(ofType: type, configurationName: nil, at: url)
            XCTAssertEqual(reopened.metadata["Synced"] as? String, "again", type)
        }
    }

    /// A binary store's file added as SQLite fails with `NSPersistentStoreTypeMismatchError`, and
    /// a SQLite file added as binary too; neither file changes.
    func testAStoreFileOfAnotherTypeIsATypeMismatch() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1, nil)])
        let binaryURL = try store.binaryStoreWithAnn().url
        let before = try Data(contentsOf: binaryURL)
        let asSQLite = thrownError { try NSPersistentStoreCoordinator(managedObjectModel: store.model).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: binaryURL) }
        XCTAssertEqual(asSQLite?.code, NSPersistentStoreTypeMismatchError)
        XCTAssertEqual(try Data(contentsOf: binaryURL), before)
        let asBinary = thrownError { try NSPersistentStoreCoordinator(managedObjectModel: store.model).addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: store.url) }
        XCTAssertEqual(asBinary?.code, NSPersistentStoreTypeMismatchError)
    }
}
