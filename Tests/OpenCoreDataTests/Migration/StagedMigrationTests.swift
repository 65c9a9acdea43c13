import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Staged migration (`NSStagedMigrationManager`): the stages name a sequence of model versions,
/// a store at one of them is migrated from there to the coordinator's model one step at a
/// time, a custom stage's handlers run around its step with the manager's container open on the
/// store, and what can't be done is reported before the store changes.
final class StagedMigrationTests: XCTestCase {
    private let sampleModel3 = "alemar11__CoreDataPlus/SampleModel3/SampleModel3.xcdatamodeld"
    private let sampleModel3Compiled = "alemar11__CoreDataPlus/SampleModel3/Fixtures/SampleModel3.momd"
    private var directory: URL!
    private var storeURL: URL { directory.appendingPathComponent("Notes.sqlite") }

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-staged")
    }

    // MARK: Helpers

    /// Version 1 of a notes model: Note(title); later versions add attributes.
    private func notesModel(version: Int) -> NSManagedObjectModel {
        let note = NSEntityDescription()
        note.name = "Note"
        var properties: [NSPropertyDescription] = []
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, defaultValue: Any? = nil) {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = optional
            attribute.defaultValue = defaultValue
            properties.append(attribute)
        }
        attribute("title", .stringAttributeType)
        if version >= 2 { attribute("body", .stringAttributeType) }
        if version >= 3 { attribute("pinned", .booleanAttributeType, optional: false, defaultValue: false) }
        note.properties = properties
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    private func makeStore(_ model: NSManagedObjectModel, titles: [String]) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for title in titles { NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue(title, forKey: "title") }
            try context.save()
        }
        try coordinator.remove(store)
    }

    private func storeChecksum(_ url: URL) throws -> String? {
        try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSPersistentStoreModelVersionChecksumKey] as? String
    }

    private func fixture(_ relative: String) throws -> URL { try appleStores().appendingPathComponent(relative) }

    // MARK: Apple's example: a lightweight stage, then a custom one

    /// Apple's store of SampleModel3 version 1 (users with a `petName`) goes to version 3, where
    /// pets are objects: a lightweight stage to version 2 (which adds `Pet`), then a custom
    /// stage whose `willMigrateHandler` turns each `petName` into a `Pet` with the version 2
    /// model before version 3 drops `petName`, and whose `didMigrateHandler` sees version 3.
    func testStagesTakeAnAppleStoreThroughALightweightAndACustomStage() throws {
        let store = try copyAppleStore("alemar11__CoreDataPlus/SampleModel3/Fixtures/SampleModel3_V1.sqlite")
        let compiled = try fixture(sampleModel3Compiled)
        func version(_ name: String) throws -> NSManagedObjectModel {
            try NSManagedObjectModel.load(contentsOf: try fixture(sampleModel3 + "/\(name).xcdatamodel"), versionInfo: compiled)
        }
        let v1 = try version("SampleModel3"), v2 = try version("SampleModel3_v2"), v3 = try version("SampleModel3_v3")
        let appleChecksums = try NSManagedObjectModel.checksumsForVersionedModel(at: compiled)
        XCTAssertEqual(v1.versionChecksum, appleChecksums["SampleModel3"], "a model loaded with its VersionInfo.plist has Apple's checksum")
        XCTAssertEqual(try storeChecksum(store), v1.versionChecksum)

        let petNames = try SQLiteInspector.rows(at: store.path, "SELECT ZPETNAME FROM ZUSER WHERE ZPETNAME IS NOT NULL ORDER BY ZPETNAME").compactMap { $0[0] }
        XCTAssertFalse(petNames.isEmpty)

        let lightweight = NSLightweightMigrationStage([v1.versionChecksum])
        lightweight.label = "V1 to V2: add Pet"
        let custom = NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
                                            to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
        custom.label = "V2 to V3: pet names become pets"
        var events: [String] = []
        custom.willMigrateHandler = { manager, stage in
            events.append("will \(stage.label ?? "")")
            let container = try XCTUnwrap(manager.container)
            XCTAssertEqual(container.managedObjectModel.entitiesByName.keys.sorted(), ["Pet", "User"])
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "User")
                request.predicate = NSPredicate(format: "petName != nil")
                for user in try context.fetch(request) {
                    let pet = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: context)
                    pet.setValue(user.value(forKey: "petName"), forKey: "name")
                    user.setValue(pet, forKey: "pet")
                }
                try context.save()
            }
        }
        custom.didMigrateHandler = { manager, _ in
            events.append("did")
            let container = try XCTUnwrap(manager.container)
            XCTAssertNil(container.managedObjectModel.entitiesByName["User"]?.attributesByName["petName"], "the container is at version 3")
        }
        let manager = NSStagedMigrationManager([lightweight, custom])
        XCTAssertEqual(manager.stages, [lightweight, custom])

        let container = NSPersistentContainer(name: "SampleModel3", managedObjectModel: v3)
        let description = NSPersistentStoreDescription(url: store)
        description.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        // Apple's framework finds version 1 by its checksum in the app's compiled model; here
        // the program's bundles hold no SampleModel3, so version 1 is passed in.
        description.setOption([v1] as NSArray, forKey: OCDMigrationSourceModelsOption)
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        XCTAssertNil(loadError)
        XCTAssertEqual(events, ["will V2 to V3: pet names become pets", "did"])
        XCTAssertNil(manager.container, "the container is there only while a handler runs")
        XCTAssertEqual(try storeChecksum(store), appleChecksums["SampleModel3_v3"], "the store carries Apple's checksum of version 3")

        let context = container.viewContext
        let users = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "User"))
        XCTAssertEqual(users.count, 12, "every user kept")
        let pets = users.compactMap { ($0.value(forKey: "pet") as? NSManagedObject)?.value(forKey: "name") as? String }.sorted()
        XCTAssertEqual(pets, petNames)
    }

    // MARK: The sequence of versions

    /// A lightweight stage lists several versions; the coordinator's model ends the sequence, so
    /// a store at the first version goes through every step, and one at the coordinator's model
    /// is not touched.
    func testALightweightStageTakesTheStoreThroughEachVersion() throws {
        let v1 = notesModel(version: 1), v2 = notesModel(version: 2), v3 = notesModel(version: 3)
        try makeStore(v1, titles: ["a", "b"])
        let stage = NSLightweightMigrationStage([v1.versionChecksum, v2.versionChecksum])
        XCTAssertEqual(stage.versionChecksums, [v1.versionChecksum, v2.versionChecksum])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v3)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: [
            NSPersistentStoreStagedMigrationManagerOptionKey: NSStagedMigrationManager([stage]),
            OCDMigrationSourceModelsOption: [v1, v2],
        ])
        XCTAssertEqual(try storeChecksum(storeURL), v3.versionChecksum)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let notes = try context.performAndWait { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")) }
        XCTAssertEqual(notes.compactMap { $0.value(forKey: "title") as? String }.sorted(), ["a", "b"])
        XCTAssertEqual(notes.map { $0.value(forKey: "pinned") as? Bool }, [false, false])
        for store in coordinator.persistentStores { try coordinator.remove(store) }

        // At the end of the sequence already: the handlers of a stage before it do not run.
        let custom = NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
                                            to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
        var ran = false
        custom.willMigrateHandler = { _, _ in ran = true }
        let again = NSPersistentStoreCoordinator(managedObjectModel: v3)
        try again.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL,
                                     options: [NSPersistentStoreStagedMigrationManagerOptionKey: NSStagedMigrationManager([custom])])
        XCTAssertFalse(ran)
    }

    /// A stage's model found by name in a bundle: `init(name:in:versionChecksum:)` looks among
    /// the bundle's Xcode models; `init(entityVersionHashes:in:versionChecksum:)` by the hashes.
    func testModelReferencesFindTheirModelsInABundle() throws {
        let shop = try XCTUnwrap(NSPersistentContainer(name: "ContainerShop").managedObjectModel)
        let byName = NSManagedObjectModelReference(name: "ContainerShop", in: .module, versionChecksum: shop.versionChecksum)
        XCTAssertEqual(byName.resolvedModel.entitiesByName.keys.sorted(), ["Customer"])
        XCTAssertEqual(byName.versionChecksum, shop.versionChecksum)
        let byHashes = NSManagedObjectModelReference(entityVersionHashes: shop.entityVersionHashesByName, in: .module, versionChecksum: shop.versionChecksum)
        XCTAssertEqual(byHashes.resolvedModel.entitiesByName.keys.sorted(), ["Customer"])
        let byFile = NSManagedObjectModelReference(fileURL: try fixture(sampleModel3 + "/SampleModel3_v2.xcdatamodel"),
                                                   versionChecksum: try NSManagedObjectModel.load(contentsOf: try fixture(sampleModel3 + "/SampleModel3_v2.xcdatamodel")).versionChecksum)
        XCTAssertEqual(byFile.resolvedModel.entitiesByName.keys.sorted(), ["Pet", "User"])
        // A name the bundle doesn't have resolves to no model (Apple's raises an exception).
        XCTAssertTrue(NSManagedObjectModelReference(name: "NoSuchModel", in: .module, versionChecksum: "x").resolvedModel.entities.isEmpty)
    }

    /// The checksums of a versioned model: Apple's from a compiled model's VersionInfo.plist,
    /// each version's ``versionChecksum`` for an Xcode source bundle.
    func testChecksumsForVersionedModel() throws {
        let compiled = try NSManagedObjectModel.checksumsForVersionedModel(at: try fixture(sampleModel3Compiled))
        XCTAssertEqual(compiled["SampleModel3"], "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=")
        XCTAssertEqual(compiled.keys.sorted(), ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
        let source = try NSManagedObjectModel.checksumsForVersionedModel(at: try fixture(sampleModel3))
        XCTAssertEqual(source.keys.sorted(), compiled.keys.sorted())
        let v2 = try NSManagedObjectModel.load(contentsOf: try fixture(sampleModel3 + "/SampleModel3_v2.xcdatamodel"))
        XCTAssertEqual(source["SampleModel3_v2"], v2.versionChecksum)
        XCTAssertThrowsError(try NSManagedObjectModel.checksumsForVersionedModel(at: directory.appendingPathComponent("None.momd"))) {
            XCTAssertEqual(($0 as NSError).code, NSFileReadNoSuchFileError)
        }
    }

    // MARK: Failures

    /// An error thrown by a handler stops the migration: the store stays at the version the
    /// stages before reached, and adding it fails with `NSMigrationError` carrying the error.
    func testAHandlerErrorStopsTheMigrationAtTheVersionReached() throws {
        let v1 = notesModel(version: 1), v2 = notesModel(version: 2), v3 = notesModel(version: 3)
        try makeStore(v1, titles: ["a"])
        let custom = NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
                                            to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
        custom.label = "pin"
        custom.willMigrateHandler = { _, _ in throw NSError(domain: "Test", code: 7) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v3)
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: [
            NSPersistentStoreStagedMigrationManagerOptionKey: NSStagedMigrationManager([NSLightweightMigrationStage([v1.versionChecksum]), custom]),
            OCDMigrationSourceModelsOption: [v1],
        ])) { error in
            let error = error as NSError
            XCTAssertEqual(error.code, NSMigrationError)
            XCTAssertEqual((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code, 7)
            XCTAssertTrue(error.localizedDescription.contains("'pin'"), error.localizedDescription)
        }
        XCTAssertEqual(try storeChecksum(storeURL), v2.versionChecksum, "the lightweight stage before it completed")
        XCTAssertTrue(coordinator.persistentStores.isEmpty)
    }

    /// A version no model can be found for, or a reference that resolves to another version,
    /// fails with `NSMigrationMissingSourceModelError` before any step changes the store.
    func testAModelThatCannotBeFoundLeavesTheStoreUnchanged() throws {
        let v1 = notesModel(version: 1), v2 = notesModel(version: 2), v3 = notesModel(version: 3)
        try makeStore(v1, titles: ["a"])
        let before = try Data(contentsOf: storeURL)
        func add(_ stages: [NSMigrationStage], sources: [NSManagedObjectModel] = [v1]) -> NSError? {
            do {
                try NSPersistentStoreCoordinator(managedObjectModel: v3).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: [
                    NSPersistentStoreStagedMigrationManagerOptionKey: NSStagedMigrationManager(stages), OCDMigrationSourceModelsOption: sources,
                ])
                return nil
            } catch { return error as NSError }
        }
        // v2 is known to no one.
        let unknown = add([NSLightweightMigrationStage([v1.versionChecksum, v2.versionChecksum])])
        XCTAssertEqual(unknown?.code, NSMigrationMissingSourceModelError)
        XCTAssertTrue(unknown?.localizedDescription.contains(v2.versionChecksum) == true, unknown?.localizedDescription ?? "")
        // A file that isn't there, and a model whose checksum isn't the one given.
        let missingFile = add([NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: v1, versionChecksum: v1.versionChecksum),
                                                      to: NSManagedObjectModelReference(fileURL: directory.appendingPathComponent("V2.xcdatamodel"), versionChecksum: v2.versionChecksum))])
        XCTAssertEqual(missingFile?.code, NSMigrationMissingSourceModelError)
        let wrongModel = add([NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: v1, versionChecksum: v1.versionChecksum),
                                                     to: NSManagedObjectModelReference(model: v3, versionChecksum: v2.versionChecksum))])
        XCTAssertEqual(wrongModel?.code, NSMigrationMissingSourceModelError)
        XCTAssertTrue(wrongModel?.localizedDescription.contains(v3.versionChecksum) == true, wrongModel?.localizedDescription ?? "")
        // A version named twice, apart.
        let cycle = add([NSLightweightMigrationStage([v1.versionChecksum, v2.versionChecksum, v1.versionChecksum])], sources: [v1, v2])
        XCTAssertEqual(cycle?.code, NSMigrationError)
        // An NSMigrationStage of no kind.
        XCTAssertEqual(add([NSMigrationStage()])?.code, NSMigrationError)
        XCTAssertEqual(try Data(contentsOf: storeURL), before, "no failure wrote to the store")
    }
}
