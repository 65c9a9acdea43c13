import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Loading compiled models, as an app ships them: a `.momd` folder (the current version named by
/// its `VersionInfo.plist`) or one `.mom` file, Xcode's model compiler's keyed archive. Apple's
/// `Z_MODELCACHE` in a SQLite store is the same archive. Every compiled model in the shared
/// fixtures is loaded and compared, entity by entity and property by property, with the Xcode
/// source it was compiled from.
final class CompiledModelLoadingTests: XCTestCase {
    private let sampleModel = "apple-stores/alemar11__CoreDataPlus/SampleModel/"
    private let sampleModel3 = "apple-stores/alemar11__CoreDataPlus/SampleModel3/"
    private let bookmarks = "apple-stores/duckduckgo__BrowserServicesKit/Bookmarks/"

    private func fixture(_ relative: String) throws -> URL {
        let root = fixturesRoot
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("apple-stores").path) else {
            throw XCTSkip("Fixtures not found at \(root.path). Set OCD_FIXTURES to the shared fixtures folder, or check it out at ../shared/fixtures beside the package.")
        }
        return root.appendingPathComponent(relative)
    }

    /// Every compiled version equals its source and carries Apple's version hashes.
    func testEveryCompiledVersionEqualsItsXcodeSource() throws {
        let pairs: [(compiled: String, source: String, version: String)] = [
            (sampleModel + "Fixtures/SampleModel.momd/SampleModel.mom", sampleModel + "SampleModel.xcdatamodeld/SampleModel.xcdatamodel", "SampleModel"),
            (sampleModel + "Fixtures/SampleModel.momd/SampleModel2.mom", sampleModel + "SampleModel.xcdatamodeld/SampleModel2.xcdatamodel", "SampleModel2"),
            (sampleModel + "Fixtures/SampleModel.momd/SampleModel3.mom", sampleModel + "SampleModel.xcdatamodeld/SampleModel3.xcdatamodel", "SampleModel3"),
            (sampleModel3 + "Fixtures/SampleModel3.momd/SampleModel3.mom", sampleModel3 + "SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel", "SampleModel3"),
            (sampleModel3 + "Fixtures/SampleModel3.momd/SampleModel3_v2.mom", sampleModel3 + "SampleModel3.xcdatamodeld/SampleModel3_v2.xcdatamodel", "SampleModel3_v2"),
            (sampleModel3 + "Fixtures/SampleModel3.momd/SampleModel3_v3.mom", sampleModel3 + "SampleModel3.xcdatamodeld/SampleModel3_v3.xcdatamodel", "SampleModel3_v3"),
        ]
        for (compiledPath, sourcePath, version) in pairs {
            let compiled = try NSManagedObjectModel.load(contentsOf: fixture(compiledPath))
            let source = try NSManagedObjectModel.load(contentsOf: fixture(sourcePath))
            XCTAssertEqual(compiled.xcodeVersionName, version)
            assertSameModel(compiled, source, compiledPath)
            let info = try CompiledModelVersionInfo(contentsOf: fixture(compiledPath).deletingLastPathComponent())
            let hashes = try XCTUnwrap(info.entityVersionHashes(forVersion: version))
            XCTAssertEqual(compiled.appleEntityVersionHashesByName, hashes, "\(compiledPath): Apple's hashes, from the .momd's VersionInfo.plist")
            XCTAssertEqual(Set(hashes.keys), Set(compiled.entitiesByName.keys))
            if let checksum = info.versionChecksums[version] {  // Xcode 15 and later write checksums
                XCTAssertEqual(compiled.versionChecksum, checksum, "\(compiledPath): Apple's checksum")
            }
        }
    }

    func testZeeQLCompiledMomEqualsItsSource() throws {
        let compiled = try NSManagedObjectModel.load(contentsOf: fixture("xcdatamodels/ZeeQL__ZeeQL3/Contacts.mom"))
        let source = try NSManagedObjectModel.load(contentsOf: fixture("xcdatamodels/ZeeQL__ZeeQL3/Contacts.xcdatamodel"))
        // ZeeQL's .mom was compiled before the template got its limit, batch size and
        // distinct flag: its archive holds 0, 0 and NO (read as such), the source 220, 20, YES.
        let template = "template fetchTheDucks: Person where lastName LIKE \"Duck*\" sort [] limit %@ offset 0 batch %@ result 0 distinct %@ subentities true values true faults true pending true"
        assertSameModel(compiled, source, "Contacts.mom", differences: [
            String(format: template, "0", "0", "false"): String(format: template, "220", "20", "true"),
        ])
        XCTAssertNil(compiled.appleEntityVersionHashesByName, "a .mom outside a .momd has no VersionInfo.plist")
    }

    /// The `Z_MODELCACHE` of Apple's stores is the same archive: read by the same decoder, it
    /// equals the source of the version that wrote the store.
    func testTheModelCacheOfAppleStoresEqualsTheSourceOfTheirVersion() throws {
        let pairs: [(store: String, source: String)] = [
            ("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite", sampleModel + "SampleModel.xcdatamodeld/SampleModel.xcdatamodel"),
            ("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V2.sqlite", sampleModel + "SampleModel.xcdatamodeld/SampleModel2.xcdatamodel"),
            ("alemar11__CoreDataPlus/SampleModel3/Fixtures/SampleModel3_V1.sqlite", sampleModel3 + "SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel"),
            ("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V1.sqlite", bookmarks + "BookmarksModel.xcdatamodeld/BookmarksModel.xcdatamodel"),
            ("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V2.sqlite", bookmarks + "BookmarksModel.xcdatamodeld/BookmarksModel 2.xcdatamodel"),
            ("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V3.sqlite", bookmarks + "BookmarksModel.xcdatamodeld/BookmarksModel 3.xcdatamodel"),
            ("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V4.sqlite", bookmarks + "BookmarksModel.xcdatamodeld/BookmarksModel 4.xcdatamodel"),
            ("duckduckgo__BrowserServicesKit/Bookmarks/Bookmarks_V5.sqlite", bookmarks + "BookmarksModel.xcdatamodeld/BookmarksModel 5.xcdatamodel"),
            ("duckduckgo__BrowserServicesKit/SyncMetadata/SyncMetadata_V3.sqlite", "apple-stores/duckduckgo__BrowserServicesKit/SyncMetadata/SyncMetadata.xcdatamodeld/SyncMetadata 3.xcdatamodel"),
        ]
        for (store, sourcePath) in pairs {
            let cached = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: copyAppleStore(store))
            XCTAssertEqual(cached.loadingWarnings.first, "The model was read from the store's Z_MODELCACHE.", store)
            let source = try NSManagedObjectModel.load(contentsOf: fixture(sourcePath))
            var differences: [String: String] = [:]
            // A recovered model takes its identifiers from the store's metadata, where Apple's
            // framework records an empty identifier field as [""].
            differences["versionIdentifiers [\"\"]"] = "versionIdentifiers []"
            if store.hasSuffix("SampleModel_V2.sqlite") {
                // Written by a migration, whose destination model Apple's framework cached
                // without class names.
                for name in ["Car", "LuxuryCar", "Person", "SportCar"] {
                    differences["\(name) class NSManagedObject represented - abstract false"] = "\(name) class NSManagedObject represented \(name) abstract false"
                }
            }
            assertSameModel(cached, source, store, differences: differences)
        }
        // A derivation Apple compiled as the function count:(pages) reads as the key path.
        let books = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: copyAppleStore("alemar11__CoreDataPlus/SampleModel2/Fixtures/SampleModel2_V1.sqlite"))
        let pagesCount = try XCTUnwrap(books.entitiesByName["Book"]?.attributesByName["pagesCount"] as? NSDerivedAttributeDescription)
        XCTAssertEqual(pagesCount.derivationExpression?.description, "pages.@count")
        let feedbacks = try XCTUnwrap(books.entitiesByName["Author"]?.propertiesByName["feedbacks"] as? NSFetchedPropertyDescription)
        XCTAssertEqual(feedbacks.fetchRequest?.predicate?.predicateFormat, "authorAlias == $FETCH_SOURCE.alias")
    }

    // MARK: - Finding the version

    func testAMomdLoadsTheVersionItsVersionInfoNamesCurrent() throws {
        let momd = try fixture(sampleModel3 + "Fixtures/SampleModel3.momd")
        let model = try XCTUnwrap(NSManagedObjectModel(contentsOf: momd), "Apple's initializer reads a .momd")
        XCTAssertEqual(model.xcodeVersionName, "SampleModel3")
        XCTAssertEqual(model.entities.compactMap(\.name), ["User"])
        let info = try CompiledModelVersionInfo(contentsOf: momd)
        XCTAssertEqual(model.appleEntityVersionHashesByName, info.entityVersionHashes(forVersion: "SampleModel3"))
        XCTAssertEqual(try NSManagedObjectModel.load(contentsOf: momd.appendingPathComponent("VersionInfo.plist")).xcodeVersionName, "SampleModel3")
        let v3 = try XCTUnwrap(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("SampleModel3_v3.mom")))
        XCTAssertEqual(v3.entities.compactMap(\.name).sorted(), ["Pet", "User"])
        XCTAssertEqual(v3.appleEntityVersionHashesByName, info.entityVersionHashes(forVersion: "SampleModel3_v3"))
    }

    /// Apple's hash is of the entity Apple's compiler saw: an entity changed in code after
    /// loading no longer has it (and a store Apple made with the old version is then migrated,
    /// not opened as if it matched). Untouched entities keep theirs.
    func testAnEntityChangedAfterLoadingLosesApplesVersionHash() throws {
        let momd = try fixture(sampleModel3 + "Fixtures/SampleModel3.momd")
        let model = try XCTUnwrap(NSManagedObjectModel(contentsOf: momd.appendingPathComponent("SampleModel3_v3.mom")))
        let apple = try XCTUnwrap(model.appleEntityVersionHashesByName)
        XCTAssertEqual(apple.keys.sorted(), ["Pet", "User"])
        try XCTUnwrap(model.entitiesByName["Pet"]).properties.append(NSAttributeDescription(name: "nickname", type: .stringAttributeType))
        XCTAssertEqual(model.appleEntityVersionHashesByName, ["User": apple["User"]!])
        try XCTUnwrap(model.entitiesByName["User"]).versionHashModifier = "2"
        XCTAssertNil(model.appleEntityVersionHashesByName)
    }

    /// A program that ships the compiled model finds it by name, merges it, and finds each of
    /// its versions by name or checksum, as an app bundle's `.momd` is found on Apple platforms.
    func testCompiledModelsAreFoundInBundlesWithEveryVersion() throws {
        let folder = try makeTemporaryDirectory("ocd-momd-bundle")
        try FileManager.default.copyItem(at: fixture(sampleModel3 + "Fixtures/SampleModel3.momd"), to: folder.appendingPathComponent("SampleModel3.momd"))
        let bundle = try XCTUnwrap(Bundle(path: folder.path))
        let merged = try XCTUnwrap(NSManagedObjectModel.mergedModel(from: [bundle]))
        XCTAssertEqual(merged.entities.compactMap(\.name), ["User"], "the current version")
        let checksums = try NSManagedObjectModel.checksumsForVersionedModel(at: folder.appendingPathComponent("SampleModel3.momd"))
        let v2Checksum = try XCTUnwrap(checksums["SampleModel3_v2"])
        let v2 = NSManagedObjectModelReference(name: "SampleModel3_v2", in: bundle, versionChecksum: v2Checksum).resolvedModel
        XCTAssertEqual(v2.entities.compactMap(\.name).sorted(), ["Pet", "User"])
        XCTAssertEqual(v2.versionChecksum, v2Checksum)
    }

    /// What a server sharing an app's data does with the app's compiled model alone: open the
    /// store Apple's framework wrote, read it, and migrate it to the next version, which then
    /// carries the hashes Apple's own migration wrote.
    func testTheCompiledModelOpensAndMigratesAStoreApplesFrameworkWrote() throws {
        let momd = try fixture(sampleModel + "Fixtures/SampleModel.momd")
        let v1 = try NSManagedObjectModel.load(contentsOf: momd.appendingPathComponent("SampleModel.mom"))
        let store = try copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        let reader = NSPersistentStoreCoordinator(managedObjectModel: v1)
        try reader.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = reader
        try context.performAndWait {
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Car")), 125)
            let people = NSFetchRequest<NSManagedObject>(entityName: "Person")
            people.predicate = NSPredicate(format: "cars.@count > 0")
            XCTAssertGreaterThan(try context.count(for: people), 0)
        }
        if let opened = reader.persistentStores.first { try reader.remove(opened) }

        let v2 = try NSManagedObjectModel.load(contentsOf: momd.appendingPathComponent("SampleModel2.mom"))
        let migrating = NSPersistentStoreCoordinator(managedObjectModel: v2)
        try migrating.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true, OCDMigrationSourceModelsOption: [v1],
        ])
        let hashes = { (url: URL) in
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreModelVersionHashesKey] as? [String: Data]
        }
        XCTAssertEqual(try hashes(store), try hashes(copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V2.sqlite")))
    }

    /// As Apple's framework finds a store's model version in the app bundle, lightweight
    /// migration finds it among the program's compiled models when no source model is given.
    func testLightweightMigrationFindsTheStoresVersionInTheProgramsCompiledModel() throws {
        // A resource bundle beside the test program, where SwiftPM puts a target's resources.
        let resources = Bundle.main.bundleURL.appendingPathComponent("OCDCompiledModelTest-\(UUID().uuidString).resources")
        try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: resources) }
        try FileManager.default.copyItem(at: fixture(sampleModel + "Fixtures/SampleModel.momd"), to: resources.appendingPathComponent("SampleModel.momd"))

        let v2 = try NSManagedObjectModel.load(contentsOf: resources.appendingPathComponent("SampleModel.momd/SampleModel2.mom"))
        let store = try copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V1.sqlite")
        try NSPersistentStoreCoordinator(managedObjectModel: v2).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
        ])
        let hashes = { (url: URL) in
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreModelVersionHashesKey] as? [String: Data]
        }
        XCTAssertEqual(try hashes(store), try hashes(copyAppleStore("alemar11__CoreDataPlus/SampleModel/Fixtures/SampleModel_V2.sqlite")))
        XCTAssertEqual(try SQLiteInspector.rows(at: store.path, "SELECT count(*) FROM ZCAR"), [["125"]])
    }

    // MARK: - ocd compile

    /// Every Xcode model in the fixtures, compiled by `compileModel(at:to:)` (what `ocd compile`
    /// runs), loads back equal to its source, version by version, with the source's hashes.
    func testEverySourceModelCompilesAndLoadsBackEqual() throws {
        let root = fixturesRoot
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("xcdatamodels").path) else { throw XCTSkip("Fixtures not found at \(root.path).") }
        let output = try makeTemporaryDirectory("ocd-compile")
        var compiledVersions = 0
        for folder in ["xcdatamodels", "apple-stores"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)!
            for case let url as URL in enumerator where url.pathExtension == "xcdatamodeld"
                || (url.pathExtension == "xcdatamodel" && url.deletingLastPathComponent().pathExtension != "xcdatamodeld") {
                let momd = output.appendingPathComponent("\(compiledVersions)-" + url.deletingPathExtension().lastPathComponent + ".momd")
                try NSManagedObjectModel.compileModel(at: url, to: momd)
                let info = try CompiledModelVersionInfo(contentsOf: momd)
                XCTAssertTrue(info.isCompiledByOpenCoreData)
                let sources = url.pathExtension == "xcdatamodel" ? [url] : try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil).filter { $0.pathExtension == "xcdatamodel" }
                XCTAssertEqual(Set(info.versionHashes.keys), Set(sources.map { $0.deletingPathExtension().lastPathComponent }), url.path)
                for source in sources {
                    let version = source.deletingPathExtension().lastPathComponent
                    let sourceModel = try NSManagedObjectModel.load(contentsOf: source)
                    let compiled = try NSManagedObjectModel.load(contentsOf: momd.appendingPathComponent(version + ".mom"))
                    assertSameModel(compiled, sourceModel, "\(url.lastPathComponent)/\(version)", minimumFacts: 1)
                    XCTAssertEqual(compiled.entityVersionHashesByName, sourceModel.entityVersionHashesByName, version)
                    XCTAssertEqual(info.versionHashes[version], sourceModel.entityVersionHashesByName, version)
                    XCTAssertNil(compiled.appleEntityVersionHashesByName, "OpenCoreData's hashes are not taken for Apple's")
                    compiledVersions += 1
                }
                XCTAssertEqual(try NSManagedObjectModel.load(contentsOf: momd).xcodeVersionName, info.currentVersionName)
            }
        }
        XCTAssertGreaterThan(compiledVersions, 25)
    }

    func testOcdCompileWritesAMomdAndSaysWhatItWrote() throws {
        let output = try makeTemporaryDirectory("ocd-compile-tool").appendingPathComponent("SampleModel3.momd")
        let (status, printed, errors) = try runOCD(["compile", try fixture(sampleModel3 + "SampleModel3.xcdatamodeld").path, "--output", output.path])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(printed.contains("Compiled 3 versions of SampleModel3.xcdatamodeld"), printed)
        XCTAssertTrue(printed.contains("SampleModel3_v3.mom  2 entities"), printed)
        XCTAssertEqual(try NSManagedObjectModel.load(contentsOf: output).entities.compactMap(\.name), ["User"])

        let (missing, _, missingErrors) = try runOCD(["compile", "/nonexistent/Model.xcdatamodeld"])
        XCTAssertEqual(missing, 1)
        XCTAssertTrue(missingErrors.contains("No model at"), missingErrors)
    }

    /// Template variables and defaults survive compilation.
    func testTemplateVariablesAndDefaultsAreCompiled() throws {
        let folder = try makeTemporaryDirectory("ocd-compile-block")
        let source = folder.appendingPathComponent("Model.xcdatamodel")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try Data("""
        <model><entity name="Item"><attribute name="name" attributeType="String" defaultValueString="x"/></entity>
        <fetchRequest name="named" entity="Item" predicateString="name == $NAME"/></model>
        """.utf8).write(to: source.appendingPathComponent("contents"))
        try NSManagedObjectModel.compileModel(at: source, to: folder.appendingPathComponent("Model.momd"))
        let compiled = try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("Model.momd"))
        XCTAssertEqual(compiled.fetchRequestTemplate(forName: "named")?.predicate?.predicateFormat, "name == $NAME")
        XCTAssertEqual(compiled.entitiesByName["Item"]?.attributesByName["name"]?.defaultValue as? String, "x")
    }

    // MARK: - What the fixtures lack

    /// A model archived as Apple's classes archive themselves, with what no fixture has:
    /// a composite attribute, Spotlight indexing, external storage, cloud encryption, a
    /// template with sort descriptors and every request flag, compound and negated predicates,
    /// a subquery, a partial index, user info and a configuration.
    func testEverySettingAnArchiveCanHoldIsRead() throws {
        let url = try makeTemporaryDirectory("ocd-archive").appendingPathComponent("Places.mom")
        try placesModelArchive().write(to: url)

        let loaded = try NSManagedObjectModel.load(contentsOf: url)
        XCTAssertEqual(loaded.versionIdentifiers, ["7"])
        XCTAssertEqual(loaded.configurations, ["Maps"])
        XCTAssertEqual(loaded.entities(forConfigurationName: "Maps")?.compactMap(\.name), ["Place"])
        let placeEntity = try XCTUnwrap(loaded.entitiesByName["Place"])
        XCTAssertEqual(placeEntity.userInfo?["owner"] as? String, "maps")
        XCTAssertEqual(placeEntity.versionHashModifier, "2")
        XCTAssertEqual(placeEntity.uniquenessConstraints.map { $0.map { "\($0)" } }, [["name"]])
        XCTAssertEqual(loaded.entitiesByName["Tag"]?.renamingIdentifier, "Label")
        XCTAssertEqual(loaded.entitiesByName["Tag"]?.attributesByName["label"]?.defaultValue as? String, "new")

        let location = try XCTUnwrap(placeEntity.attributesByName["location"] as? NSCompositeAttributeDescription)
        XCTAssertEqual(location.attributeType, .compositeAttributeType)
        XCTAssertEqual(location.elements.map(\.name), ["latitude", "longitude"])
        XCTAssertEqual(location.elements.map(\.attributeType), [.doubleAttributeType, .doubleAttributeType])
        XCTAssertEqual(location.elements.map(\.isOptional), [false, true])

        let name = try XCTUnwrap(placeEntity.attributesByName["name"])
        XCTAssertTrue(name.isIndexedBySpotlight, "_P 0x100")
        XCTAssertFalse(name.isOptional)
        XCTAssertEqual(name.userInfo?["searchable"] as? String, "YES", "_P without 0x40: the user info is read")
        XCTAssertEqual(name.validationPredicates.map(\.predicateFormat), ["length >= 1", "length <= 40"], "NSFlagsKey 1 and 2: the bounds")
        let photo = try XCTUnwrap(placeEntity.attributesByName["photo"])
        XCTAssertTrue(photo.allowsExternalBinaryDataStorage, "NSFlagsKey 4")
        XCTAssertTrue(photo.allowsCloudEncryption, "_P 0x800")
        XCTAssertFalse(photo.preservesValueInHistoryOnDeletion)
        let tags = try XCTUnwrap(placeEntity.relationshipsByName["tags"])
        XCTAssertTrue(tags.isOrdered, "_P 0x400")
        XCTAssertTrue(tags.isToMany)
        XCTAssertEqual(tags.deleteRule, .cascadeDeleteRule)
        XCTAssertEqual(tags.destinationEntity?.name, "Tag")

        let byName = try XCTUnwrap(placeEntity.indexes.first)
        XCTAssertEqual(byName.name, "byName")
        XCTAssertEqual(byName.elements.map { "\($0.propertyName ?? "?") \($0.isAscending)" }, ["name false"])

        let template = try XCTUnwrap(loaded.fetchRequestTemplate(forName: "seaPlaces"))
        XCTAssertEqual(template.entity?.name, "Place")
        XCTAssertEqual(template.predicate?.predicateFormat, "(NOT name !=[c] \"Atlantis\") AND count:(SUBQUERY(tags, $t, $t.label BEGINSWITH[cd] \"sea\")) > 0")
        XCTAssertEqual(byName.partialIndexPredicate?.predicateFormat, "name != nil")
        XCTAssertEqual(template.sortDescriptors?.map { "\($0.key ?? "") \($0.ascending)" }, ["name false"])
        XCTAssertEqual(template.sortDescriptors?.first?.selector.map { "\($0)" }, "localizedStandardCompare:")
        XCTAssertEqual([template.fetchLimit, template.fetchOffset, template.fetchBatchSize], [25, 5, 10])
        XCTAssertEqual(template.resultType, .dictionaryResultType)
        XCTAssertTrue(template.returnsDistinctResults)
        XCTAssertTrue(template.shouldRefreshRefetchedObjects)
        XCTAssertFalse(template.includesSubentities)
        XCTAssertFalse(template.includesPropertyValues)
        XCTAssertFalse(template.returnsObjectsAsFaults)
        XCTAssertFalse(template.includesPendingChanges)
        XCTAssertTrue(loaded.loadingWarnings.isEmpty, "\(loaded.loadingWarnings)")
    }

    // MARK: - Damaged compiled models


    func testAMomdWithoutVersionInfoOrItsCurrentVersionIsNoSuchFile() throws {
        let folder = try makeTemporaryDirectory("ocd-momd")
        let empty = folder.appendingPathComponent("Empty.momd")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        assertModelLoadFails(empty, code: CocoaError.Code.fileReadNoSuchFile.rawValue, mentioning: "has no VersionInfo.plist")

        let partial = folder.appendingPathComponent("Partial.momd")
        try FileManager.default.copyItem(at: fixture(sampleModel3 + "Fixtures/SampleModel3.momd"), to: partial)
        try FileManager.default.removeItem(at: partial.appendingPathComponent("SampleModel3.mom"))
        assertModelLoadFails(partial, code: CocoaError.Code.fileReadNoSuchFile.rawValue, mentioning: "has no 'SampleModel3.mom'")

        // Without VersionInfo.plist, a .momd of one version is that version.
        try FileManager.default.removeItem(at: partial.appendingPathComponent("VersionInfo.plist"))
        try FileManager.default.removeItem(at: partial.appendingPathComponent("SampleModel3_v2.mom"))
        XCTAssertEqual(try NSManagedObjectModel.load(contentsOf: partial).xcodeVersionName, "SampleModel3_v3")
    }

    func testTheOptimizedOmoFormIsRefusedWithTheFileToReadInstead() throws {
        assertModelLoadFails(try fixture(sampleModel3 + "Fixtures/SampleModel3.momd/SampleModel3.omo"),
                        code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "Pass the .momd folder or the .mom")
    }

    func testAMomThatIsNotAModelArchiveIsCorrupt() throws {
        let folder = try makeTemporaryDirectory("ocd-mom")
        let garbage = folder.appendingPathComponent("Garbage.mom")
        try Data("bplist00 not really".utf8).write(to: garbage)
        assertModelLoadFails(garbage, code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "not a keyed archive")

        // A keyed archive of something else: a compiled mapping model.
        let mapping = folder.appendingPathComponent("Mapping.mom")
        try FileManager.default.copyItem(at: fixture(sampleModel + "Fixtures/V2toV3.cdm"), to: mapping)
        assertModelLoadFails(mapping, code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "not an NSManagedObjectModel")
    }

    /// Archives edited to break the model's structure: each a thrown 259 that names the fault.
    func testAMomWithABrokenStructureSaysWhatIsWrong() throws {
        let source = try fixture(sampleModel + "Fixtures/SampleModel.momd/SampleModel.mom")
        let original = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(contentsOf: source), format: nil) as? [String: Any])
        let folder = try makeTemporaryDirectory("ocd-mom-broken")
        func assertBroken(_ edit: (inout [Any]) -> Void, mentioning text: String, line: UInt = #line) throws {
            var plist = original
            var objects = try XCTUnwrap(plist["$objects"] as? [Any])
            edit(&objects)
            plist["$objects"] = objects
            let url = folder.appendingPathComponent("Broken\(line).mom")
            try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: url)
            assertModelLoadFails(url, code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: text, line: line)
        }
        // Keyed archives share one string object among all its uses, so each edit points one
        // key at another key's string (the references are opaque UIDs, copied as they are).
        func objectIndex(_ objects: [Any], where test: ([String: Any]) -> Bool) -> Int? {
            objects.firstIndex { ($0 as? [String: Any]).map(test) ?? false }
        }
        try assertBroken({ objects in
            // Car.owner: its destination becomes its own name, "owner".
            if let i = objectIndex(objects, where: { $0["_NSDestinationEntityName"] != nil && $0["NSMaxCount"] as? Int == 1 }) {
                var relationship = objects[i] as! [String: Any]
                relationship["_NSDestinationEntityName"] = relationship["NSPropertyName"]
                relationship["NSDestinationEntity"] = nil
                objects[i] = relationship
            }
        }, mentioning: "names destination 'owner', which the model lacks")
        try assertBroken({ objects in
            // Car.owner: its inverse becomes "owner", which Person lacks.
            if let i = objectIndex(objects, where: { $0["_NSInverseRelationshipName"] != nil && $0["NSMaxCount"] as? Int == 1 }) {
                var relationship = objects[i] as! [String: Any]
                relationship["_NSInverseRelationshipName"] = relationship["NSPropertyName"]
                objects[i] = relationship
            }
        }, mentioning: "names inverse 'owner'")
        try assertBroken({ objects in
            // Every entity takes the first entity's name.
            let entities = objects.indices.filter { (objects[$0] as? [String: Any])?["NSEntityName"] != nil }
            guard let first = entities.first, let name = (objects[first] as? [String: Any])?["NSEntityName"] else { return }
            for i in entities { var e = objects[i] as! [String: Any]; e["NSEntityName"] = name; objects[i] = e }
        }, mentioning: "two entities are named")
    }

    // MARK: - Comparing models

    /// `differences`: lines of the compiled model's description that stand for the source's line.
    private func assertSameModel(_ compiled: NSManagedObjectModel, _ source: NSManagedObjectModel, _ label: String,
                                 differences: [String: String] = [:], minimumFacts: Int = 6, file: StaticString = #filePath, line: UInt = #line) {
        let a = describe(compiled).map { differences[$0] ?? $0 }, b = describe(source)
        let onlyCompiled = a.filter { !b.contains($0) }, onlySource = b.filter { !a.contains($0) }
        XCTAssertTrue(onlyCompiled.isEmpty && onlySource.isEmpty,
                      "\(label):\n only compiled:\n  \(onlyCompiled.joined(separator: "\n  "))\n only source:\n  \(onlySource.joined(separator: "\n  "))", file: file, line: line)
        XCTAssertGreaterThanOrEqual(a.count, minimumFacts, label, file: file, line: line)
    }

    /// One line per fact of the model: every field of every entity, property, index,
    /// configuration and fetch request template.
    private func describe(_ model: NSManagedObjectModel) -> [String] {
        var lines: [String] = []
        lines.append("versionIdentifiers \(model.versionIdentifiers.map { "\($0)" }.sorted())")
        for name in model.configurations {
            lines.append("configuration \(name): \((model.entities(forConfigurationName: name) ?? []).compactMap(\.name).sorted())")
        }
        for (name, request) in model.fetchRequestTemplatesByName {
            lines.append("template \(name): \(describe(request))")
        }
        for entity in model.entities {
            let e = entity.name ?? "?"
            lines.append("\(e) class \(entity.managedObjectClassName ?? "-") represented \(entity.representedClassName ?? "-") abstract \(entity.isAbstract)")
            lines.append("\(e) super \(entity.superentity?.name ?? "-") subs \(entity.subentities.compactMap(\.name).sorted())")
            lines.append("\(e) renaming \(entity.renamingIdentifier ?? "-") hashModifier \(entity.versionHashModifier ?? "-") userInfo \(describe(entity.userInfo))")
            lines.append("\(e) unique \(entity.uniquenessConstraints.map { $0.map { "\($0)" } })")
            lines.append("\(e) compoundIndexes \(entity.compoundIndexes.map { $0.map { "\($0)" } })")
            for index in entity.indexes {
                let elements = index.elements.map { "\($0.propertyName ?? $0.expression?.description ?? "?") \($0.collationType.rawValue) \($0.isAscending)" }
                lines.append("\(e) index \(index.name) \(elements) where \(index.partialIndexPredicate?.predicateFormat ?? "-")")
            }
            lines.append("\(e) properties \(entity.properties.map(\.name).sorted())")
            for property in entity.properties { lines += describe(property, in: e) }
        }
        return lines
    }

    private func describe(_ property: NSPropertyDescription, in owner: String) -> [String] {
        let p = "\(owner).\(property.name)"
        var lines = ["\(p) \(type(of: property)) optional \(property.isOptional) transient \(property.isTransient) indexed \(property.isIndexed) spotlight \(property.isIndexedBySpotlight) readOnly \(property.isReadOnly)",
                     "\(p) renaming \(property.renamingIdentifier ?? "-") hashModifier \(property.versionHashModifier ?? "-") userInfo \(describe(property.userInfo))",
                     "\(p) validation \(property.validationPredicates.map(\.predicateFormat)) warnings \(property.validationWarnings)"]
        if let a = property as? NSAttributeDescription {
            // Xcode's compiler keeps a transformable's custom class for code generation only:
            // the compiled attribute has none. The source's is in XcodeModelLoadingTests.
            let valueClass = a.attributeType == .transformableAttributeType ? "(custom)" : a.attributeValueClassName ?? "-"
            lines.append("\(p) type \(a.attributeType.rawValue) class \(valueClass) default \(a.defaultValue.map { "\($0)" } ?? "-") transformer \(a.valueTransformerName ?? "-")")
            lines.append("\(p) external \(a.allowsExternalBinaryDataStorage) history \(a.preservesValueInHistoryOnDeletion) cloudEncryption \(a.allowsCloudEncryption)")
        }
        if let d = property as? NSDerivedAttributeDescription {
            lines.append("\(p) derivation \(d.derivationExpression?.description ?? "-")")
        }
        if let c = property as? NSCompositeAttributeDescription {
            for element in c.elements { lines += describe(element, in: p) }
        }
        if let r = property as? NSRelationshipDescription {
            lines.append("\(p) destination \(r.destinationEntity?.name ?? "-") inverse \(r.inverseRelationship?.name ?? "-") min \(r.minCount) max \(r.maxCount) rule \(r.deleteRule.rawValue) ordered \(r.isOrdered)")
        }
        if let f = property as? NSFetchedPropertyDescription {
            lines.append("\(p) fetch \(f.fetchRequest.map(describe) ?? "-")")
        }
        return lines
    }

    private func describe(_ request: NSFetchRequest<NSFetchRequestResult>) -> String {
        "\(request.entityName ?? "-") where \(request.predicate?.predicateFormat ?? "-") sort \((request.sortDescriptors ?? []).map { "\($0.key ?? "-") \($0.ascending)" }) limit \(request.fetchLimit) offset \(request.fetchOffset) batch \(request.fetchBatchSize) result \(request.resultType.rawValue) distinct \(request.returnsDistinctResults) subentities \(request.includesSubentities) values \(request.includesPropertyValues) faults \(request.returnsObjectsAsFaults) pending \(request.includesPendingChanges)"
    }

    private func describe(_ userInfo: [AnyHashable: Any]?) -> String {
        (userInfo ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
    }
}

/// The model of `testEverySettingAnArchiveCanHoldIsRead`, archived (an XML property list); also
/// a seed of the compiled-model fuzz test.
func placesModelArchive() -> Data {
    let a = XMLKeyedArchive()
    let model = a.reserve(), place = a.reserve(), tag = a.reserve()
    func attribute(_ name: String, type: Int, flags: Int = 0, p: Int = 0xF1, _ extra: [String: String] = [:]) -> String {
        a.object("NSAttributeDescription", ["NSPropertyName": a.string(name), "NSAttributeType": a.integer(type), "NSFlagsKey": a.integer(flags),
                                            "_P": a.integer(p), "NSEntity": a.ref(place)].merging(extra) { $1 })
    }
    let keyPath = { (path: String) in
        a.object("NSKeyPathExpression", ["NSExpressionType": a.integer(3), "NSSelectorName": a.string("valueForKey:"),
                                         "NSOperand": a.object("NSSelfExpression", ["NSExpressionType": a.integer(1)]),
                                         "NSArguments": a.array([a.object("NSKeyPathSpecifierExpression", ["NSExpressionType": a.integer(10), "NSKeyPath": a.string(path)])])])
    }
    let constant = { (value: String) in a.object("NSConstantValueExpression", ["NSExpressionType": a.integer(0), "NSConstantValue": value]) }
    // The operator classes and keys Apple's Foundation archives for each operator type.
    let comparison = { (lhs: String, type: Int, options: Int, rhs: String) in
        var fields = ["NSOperatorType": a.integer(type), "NSModifier": a.integer(0)]
        let operatorClass: String
        switch type {
        case 4, 5: operatorClass = "NSEqualityPredicateOperator"; fields["NSNegate"] = a.bool(type == 5); fields["NSOptions"] = a.integer(options)
        case 8, 9: operatorClass = "NSSubstringPredicateOperator"; fields["NSPosition"] = a.integer(type - 8); fields["NSFlags"] = a.integer(options)
        default: operatorClass = "NSComparisonPredicateOperator"; fields["NSVariant"] = a.integer(type); fields["NSOptions"] = a.integer(options)
        }
        return a.object("NSComparisonPredicate", ["NSLeftExpression": lhs, "NSRightExpression": rhs, "NSPredicateOperator": a.object(operatorClass, fields)])
    }
    let latitude = a.object("NSAttributeDescription", ["NSPropertyName": a.string("latitude"), "NSAttributeType": a.integer(500), "_P": a.integer(0xF1)])
    let longitude = a.object("NSAttributeDescription", ["NSPropertyName": a.string("longitude"), "NSAttributeType": a.integer(500), "_P": a.integer(0xF3)])
    let properties: [(String, String)] = [
        ("location", a.object("NSCompositeAttributeDescription", ["NSPropertyName": a.string("location"), "NSAttributeType": a.integer(2100), "_P": a.integer(0xF3),
                                                                  "NSCompositeElements": a.array([latitude, longitude]), "NSEntity": a.ref(place)])),
        ("name", attribute("name", type: 700, flags: 3, p: 0x1B1 & ~0x40, ["NSUserInfo": a.dictionary([("searchable", a.string("YES"))]),
                                                                           "NSMinValueName": a.integer(1), "NSMaxValueName": a.integer(40)])),
        ("photo", attribute("photo", type: 1000, flags: 4, p: 0xF3 | 0x800)),
        ("tags", a.object("NSRelationshipDescription", ["NSPropertyName": a.string("tags"), "_P": a.integer(0x4F3), "NSMinCount": a.integer(0), "NSMaxCount": a.integer(0),
                                                        "NSDeleteRule": a.integer(2), "_NSDestinationEntityName": a.string("Tag"), "NSEntity": a.ref(place)])),
    ]
    let notFar = a.object("NSCompoundPredicate", ["NSCompoundPredicateType": a.integer(0), "NSSubpredicates": a.array([
        comparison(keyPath("name"), 5, 1, constant(a.string("Atlantis")))])])
    let subquery = a.object("NSSubqueryExpression", ["NSExpressionType": a.integer(13), "NSExpression": keyPath("tags"), "NSVariable": a.string("t"),
                                                     "NSSubpredicate": comparison(a.object("NSKeyPathExpression", [
                                                        "NSExpressionType": a.integer(4), "NSSelectorName": a.string("valueForKeyPath:"),
                                                        "NSOperand": a.object("NSVariableExpression", ["NSExpressionType": a.integer(2), "NSVariable": a.string("t")]),
                                                        "NSArguments": a.array([a.object("NSKeyPathSpecifierExpression", ["NSExpressionType": a.integer(10), "NSKeyPath": a.string("label")])])]),
                                                        8, 3, constant(a.string("sea")))])
    let hasSeaTags = comparison(a.object("NSFunctionExpression", ["NSExpressionType": a.integer(4), "NSSelectorName": a.string("count:"),
                                                                  "NSOperand": a.object("NSConstantValueExpression", ["NSExpressionType": a.integer(0), "NSConstantValueClassName": a.string("_NSPredicateUtilities")]),
                                                                  "NSArguments": a.array([subquery])]), 2, 0, constant(a.integer(0)))
    let request = a.object("NSFetchRequest", ["NSEntity": a.ref(place), "NSPredicate": a.object("NSCompoundPredicate", ["NSCompoundPredicateType": a.integer(1), "NSSubpredicates": a.array([notFar, hasSeaTags])]),
                                              "NSSortDescriptors": a.array([a.object("NSSortDescriptor", ["NSKey": a.string("name"), "NSAscending": a.bool(false), "NSSelector": a.string("localizedStandardCompare:")])]),
                                              "NSFetchLimit": a.integer(25), "NSFetchOffset": a.integer(5), "NSBatchSize": a.integer(10), "NSResultType": a.integer(2),
                                              "NSHasFetchRequestFlags": a.bool(true), "NSFetchRequestFlags": a.integer(0b100001)])
    let index = a.object("NSFetchIndexDescription", ["NSIndexName": a.string("byName"), "NSEntity": a.ref(place),
                                                     "NSPartialIndexPredicate": comparison(keyPath("name"), 5, 0, constant(a.null)),
                                                     "NSIndexElements": a.array([a.object("NSFetchIndexElementDescription", ["NSPropertyName": a.string("name"), "NSAscending": a.bool(false), "NSFetchIndexElementType": a.integer(0)])])])
    a.define(place, a.object("NSEntityDescription", ["NSEntityName": a.string("Place"), "NSClassNameForEntity": a.string("NSManagedObject"),
                                                     "NSProperties": a.dictionary(properties), "NSManagedObjectModel": a.ref(model),
                                                     "NSUserInfo": a.dictionary([("owner", a.string("maps"))]), "NSVersionHashModifier": a.string("2"),
                                                     "NSUniqueTuples": a.array([a.array([a.string("name")])]), "NSFetchIndexDescriptions": a.array([index])], inline: true))
    a.define(tag, a.object("NSEntityDescription", ["NSEntityName": a.string("Tag"), "NSManagedObjectModel": a.ref(model), "NSRenamingIdentifier": a.string("Label"),
                                                   "NSProperties": a.dictionary([("label", a.object("NSAttributeDescription", ["NSPropertyName": a.string("label"), "NSAttributeType": a.integer(700), "_P": a.integer(0xF1), "NSDefaultValue": a.string("new")]))])], inline: true))
    a.define(model, a.object("NSManagedObjectModel", ["NSEntities": a.dictionary([("Place", a.ref(place)), ("Tag", a.ref(tag))]),
                                                      "NSFetchRequestTemplates": a.dictionary([("seaPlaces", request)]),
                                                      "NSConfigurations": a.dictionary([("Maps", a.array([a.ref(place)], className: "NSSet"))]),
                                                      "NSVersionIdentifiers": a.array([a.string("7")], className: "NSSet")], inline: true))
    return Data(a.xml(root: model).utf8)
}

/// Writes an `NSKeyedArchiver` archive as an XML property list, object by object, for archives
/// with what no fixture has. Values are XML fragments: `ref`, `string`, `integer`, ... make them.
private final class XMLKeyedArchive {
    private var objects: [String] = ["<string>$null</string>"]
    private var classes: [String: Int] = [:]

    func reserve() -> Int { objects.append(""); return objects.count - 1 }
    func ref(_ index: Int) -> String { "<dict><key>CF$UID</key><integer>\(index)</integer></dict>" }
    /// `$null`: Apple's nil.
    var null: String { ref(0) }
    private func add(_ xml: String) -> String { objects.append(xml); return ref(objects.count - 1) }
    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
    func string(_ text: String) -> String { add("<string>\(escaped(text))</string>") }
    func integer(_ value: Int) -> String { "<integer>\(value)</integer>" }
    func bool(_ value: Bool) -> String { value ? "<true/>" : "<false/>" }

    private func classReference(_ name: String) -> String {
        if let index = classes[name] { return ref(index) }
        objects.append("<dict><key>$classname</key><string>\(name)</string><key>$classes</key><array><string>\(name)</string><string>NSObject</string></array></dict>")
        classes[name] = objects.count - 1
        return ref(objects.count - 1)
    }

    private func body(_ className: String, _ fields: [String: String]) -> String {
        var xml = "<dict><key>$class</key>\(classReference(className))"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            xml += "<key>\(key)</key>\(value)"
        }
        return xml + "</dict>"
    }

    /// An object of `className`; with `inline`, its body only (for `define`).
    func object(_ className: String, _ fields: [String: String], inline: Bool = false) -> String {
        inline ? body(className, fields) : add(body(className, fields))
    }

    /// Fills a reserved slot, for objects that others refer to before they exist.
    func define(_ index: Int, _ body: String) { objects[index] = body }

    func array(_ elements: [String], className: String = "NSArray") -> String {
        object(className, ["NS.objects": "<array>\(elements.joined())</array>"])
    }

    func dictionary(_ pairs: [(String, String)]) -> String {
        object("NSDictionary", ["NS.keys": "<array>\(pairs.map { string($0.0) }.joined())</array>",
                                "NS.objects": "<array>\(pairs.map(\.1).joined())</array>"])
    }

    func xml(root: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>$archiver</key><string>NSKeyedArchiver</string>
        <key>$version</key><integer>100000</integer>
        <key>$top</key><dict><key>root</key>\(ref(root))</dict>
        <key>$objects</key><array>\(objects.joined(separator: "\n"))</array>
        </dict></plist>
        """
    }
}
