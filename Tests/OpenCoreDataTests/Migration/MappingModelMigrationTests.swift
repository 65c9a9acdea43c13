import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Migration through an Xcode mapping model: CoreDataPlus's SampleModel V2 → V3 mapping (Car's
/// `maker` string becomes a Maker entity through a custom NSEntityMigrationPolicy; new
/// relationships `previousOwners`/`previousCars` filled by `FUNCTION($manager, ...)`
/// expressions), loaded from the `.xcmappingmodel` document and from the compiled `.cdm`, run on
/// the Apple-made V2 store.
final class MappingModelMigrationTests: XCTestCase {
    private let folder = "alemar11__CoreDataPlus/SampleModel"
    /// The policy class name the fixture's mapping model gives (CoreDataPlus replaces it at run time).
    private let fixturePolicyName = "REPLACE_AT_RUNTIME.V2to3MakerPolicy"

    private func fixture(_ relative: String) throws -> URL {
        try appleStores().appendingPathComponent(folder).appendingPathComponent(relative)
    }

    private func model(_ version: String) throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(contentsOf: fixture("SampleModel.xcdatamodeld/\(version).xcdatamodel"),
                                      versionInfo: fixture("Fixtures/SampleModel.momd"))
    }

    /// The V2 store copied (with its -wal/-shm, when there are any) into a new temporary folder.
    private func copyOfV2Store() throws -> URL {
        let source = try fixture("Fixtures/SampleModel_V2.sqlite")
        let destination = try makeTemporaryDirectory("ocd-mapping").appendingPathComponent("SampleModel_V2.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: destination.path + suffix)
        }
        return destination
    }

    private func expression(_ format: String) -> NSExpression { NSExpression(format: format) }

    private func ownerExpression(_ key: String) -> NSExpression {
        expression("FUNCTION($manager, 'destinationInstancesForEntityMappingNamed:sourceInstances:', 'PersonToPerson', $source.\(key))")
    }

    // MARK: Loading

    private func assertFixtureMapping(_ mapping: NSMappingModel, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(mapping.entityMappings.map(\.name), ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "Maker"], file: file, line: line)
        XCTAssertEqual(mapping.entityMappings.map(\.mappingType),
                       [.customEntityMappingType, .customEntityMappingType, .copyEntityMappingType, .customEntityMappingType, .addEntityMappingType], file: file, line: line)
        XCTAssertEqual(mapping.entityMappings.map { $0.entityMigrationPolicyClassName ?? "-" },
                       [fixturePolicyName, fixturePolicyName, "-", fixturePolicyName, "-"], file: file, line: line)
        let byName = mapping.entityMappingsByName
        let car = byName["CarToCar"], luxury = byName["LuxuryCarToLuxuryCar"], person = byName["PersonToPerson"], maker = byName["Maker"]
        XCTAssertEqual(car?.sourceEntityName, "Car"); XCTAssertEqual(car?.destinationEntityName, "Car")
        XCTAssertNil(maker?.sourceEntityName); XCTAssertEqual(maker?.destinationEntityName, "Maker")
        XCTAssertEqual(car?.attributeMappings?.map { $0.name ?? "" }, ["markedForDeletionAsOf", "model", "numberPlate"], file: file, line: line)
        XCTAssertEqual(luxury?.attributeMappings?.map { $0.name ?? "" }, ["isLimitedEdition", "markedForDeletionAsOf", "model", "numberPlate"], file: file, line: line)
        XCTAssertEqual(car?.relationshipMappings?.map { $0.name ?? "" }, ["createdBy", "owner", "previousOwners"], file: file, line: line)
        XCTAssertEqual(person?.relationshipMappings?.map { $0.name ?? "" }, ["cars", "previousCars"], file: file, line: line)

        func value(_ m: NSEntityMapping?, _ name: String) -> NSExpression? {
            ((m?.attributeMappings ?? []) + (m?.relationshipMappings ?? [])).first { $0.name == name }?.valueExpression
        }
        XCTAssertEqual(value(car, "numberPlate"), expression("$source.numberPlate"), file: file, line: line)
        XCTAssertEqual(value(luxury, "isLimitedEdition"), expression("$source.isLimitedEdition"), file: file, line: line)
        XCTAssertEqual(value(car, "owner"), ownerExpression("owner"), file: file, line: line)
        // As in the fixture: previous owners start as the current owner.
        XCTAssertEqual(value(car, "previousOwners"), ownerExpression("owner"), file: file, line: line)
        XCTAssertNil(value(car, "createdBy"), "the policy sets it", file: file, line: line)
        XCTAssertEqual(value(person, "cars"), expression("FUNCTION($manager, 'destinationInstancesForSourceRelationshipNamed:sourceInstances:', 'cars', $source.cars)"), file: file, line: line)
        XCTAssertEqual(value(person, "previousCars"), value(person, "cars"), file: file, line: line)
        XCTAssertNil(value(maker, "name"), file: file, line: line)
        XCTAssertEqual(car?.sourceExpression,
                       expression("FUNCTION($manager, 'fetchRequestForSourceEntityNamed:predicateString:', 'Car', 'TRUEPREDICATE')"), file: file, line: line)
    }

    func testTheXcodeMappingModelDocumentLoadsWithTheExpressionsXcodeCompiles() throws {
        let mapping = try XCTUnwrap(NSMappingModel(contentsOf: fixture("MappingModels/V2toV3.xcmappingmodel")))
        assertFixtureMapping(mapping)
    }

    func testTheCompiledMappingModelLoadsTheSame() throws {
        let mapping = try NSMappingModel.load(contentsOf: fixture("Fixtures/V2toV3.cdm"))
        assertFixtureMapping(mapping)
        XCTAssertEqual(mapping.entityMappingsByName["CarToCar"]?.sourceEntityVersionHash?.count, 32)
        XCTAssertNil(mapping.entityMappingsByName["Maker"]?.sourceEntityVersionHash)
    }

    func testAMissingOrForeignFileIsNotAMappingModel() throws {
        let directory = try makeTemporaryDirectory("ocd-mapping")
        XCTAssertNil(NSMappingModel(contentsOf: directory.appendingPathComponent("None.cdm")))
        XCTAssertThrowsError(try NSMappingModel.load(contentsOf: directory.appendingPathComponent("None.cdm"))) {
            XCTAssertEqual(($0 as NSError).code, NSMigrationMissingMappingModelError)
        }
        let model = try fixture("SampleModel.xcdatamodeld/SampleModel2.xcdatamodel/contents")
        XCTAssertThrowsError(try NSMappingModel.load(contentsOf: model)) {
            XCTAssertEqual(($0 as NSError).domain, NSCocoaErrorDomain)
            XCTAssertEqual(($0 as NSError).code, NSMigrationError)
        }
    }

    // MARK: Migrating

    /// CoreDataPlus's policy, rewritten: each car's `maker` string becomes a Maker (one per
    /// name, looked up in the manager's userInfo) related to the migrated car.
    final class MakerPolicy: NSEntityMigrationPolicy {
        override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
            try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
            guard let makerName = sInstance.value(forKey: "maker") as? String else { return }
            let car = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sInstance])[0]
            var makers = manager.userInfo?["makers"] as? [String: NSManagedObject] ?? [:]
            let maker = makers[makerName] ?? NSEntityDescription.insertNewObject(forEntityName: "Maker", into: manager.destinationContext)
            maker.setValue(makerName, forKey: "name")
            makers[makerName] = maker
            manager.userInfo = ["makers": makers]
            maker.mutableSetValue(forKey: "cars").add(car)
        }
    }

    /// Answers `FUNCTION($entityPolicy, "uppercase:", ...)`.
    final class UppercasingPolicy: NSEntityMigrationPolicy {
        override func evaluateFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
            if selector == "uppercase:", arguments.count == 1 { return (arguments[0] as? String)?.uppercased() }
            return try super.evaluateFunction(selector, arguments: arguments)
        }
    }

    /// Fails at the 50th car.
    final class FailingPolicy: NSEntityMigrationPolicy {
        override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
            let count = (manager.userInfo?["count"] as? Int ?? 0) + 1
            manager.userInfo = ["count": count]
            if count == 50 { throw NSError(domain: "MappingModelMigrationTests", code: 50, userInfo: [NSLocalizedDescriptionKey: "car 50 refused"]) }
            try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        }
    }

    private func migrate(_ mapping: NSMappingModel, from source: URL) throws -> URL {
        let destination = source.deletingLastPathComponent().appendingPathComponent("SampleModel_V3.sqlite")
        let manager = NSMigrationManager(sourceModel: try model("SampleModel2"), destinationModel: try model("SampleModel3"))
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                                 toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        return destination
    }

    private func count(_ context: NSManagedObjectContext, _ entity: String, subentities: Bool = true) throws -> Int {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.includesSubentities = subentities
        return try context.count(for: request)
    }

    private func one(_ context: NSManagedObjectContext, _ entity: String, _ format: String, _ args: Any...) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: format, argumentArray: args)
        let result = try context.fetch(request)
        XCTAssertEqual(result.count, 1, "\(entity) where \(format)")
        return try XCTUnwrap(result.first)
    }

    private func names(_ objects: Any?, _ key: String) -> [String] {
        ((objects as? Set<NSManagedObject>) ?? []).compactMap { $0.value(forKey: key) as? String }.sorted()
    }

    /// The overlay's `migrateStore(from:type:options:mapping:to:type:options:)` migrates as the
    /// String form does; the manager keeps the mapping it ran.
    func testTheOverlaysMigrateStoreMigratesTheSame() throws {
        NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: fixturePolicyName)
        let source = try copyOfV2Store()
        let mapping = try NSMappingModel.load(contentsOf: fixture("Fixtures/V2toV3.cdm"))
        let manager = NSMigrationManager(sourceModel: try model("SampleModel2"), destinationModel: try model("SampleModel3"))
        XCTAssertNil(manager.mappingModel, "no migration has run yet")
        XCTAssertTrue(manager.usesStoreSpecificMigrationManager)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Overlay_V3.sqlite")
        try manager.migrateStore(from: source, type: .sqlite, mapping: mapping, to: destination, type: .sqlite)
        XCTAssertTrue(manager.mappingModel === mapping)
        XCTAssertNil(manager.currentEntityMapping, "no entity mapping is under way after the migration")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try model("SampleModel3"))
        try coordinator.addPersistentStore(type: .sqlite, at: destination)
        let context = NSManagedObjectContext(.privateQueue)
        context.persistentStoreCoordinator = coordinator
        let sourceCars = try SQLiteInspector.rows(at: source.path, "SELECT COUNT(*) FROM ZCAR")[0][0].flatMap { Int($0) }
        try context.performAndWait { XCTAssertEqual(try count(context, "Car"), sourceCars) }
    }

    func testTheV2StoreMigratesToV3ThroughTheMappingModelAndItsPolicy() throws {
        NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: fixturePolicyName)
        let source = try copyOfV2Store()
        let sourceBytes = try Data(contentsOf: source)
        // The source's facts, read with SQL: Faron (Z_PK 9) owns which cars?
        let faronsPlates = try SQLiteInspector.rows(at: source.path, "SELECT ZNUMBERPLATE FROM ZCAR WHERE ZOWNER = 9 ORDER BY ZNUMBERPLATE").map { $0[0] ?? "" }
        XCTAssertFalse(faronsPlates.isEmpty)

        let mapping = try XCTUnwrap(NSMappingModel(contentsOf: fixture("MappingModels/V2toV3.xcmappingmodel")))
        let destination = try migrate(mapping, from: source)
        XCTAssertEqual(try Data(contentsOf: source), sourceBytes, "the source store is only read")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try model("SampleModel3"))
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: destination)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            XCTAssertEqual(try count(context, "Car"), 125)
            XCTAssertEqual(try count(context, "Car", subentities: false), 115)
            XCTAssertEqual(try count(context, "SportCar", subentities: false), 5)
            XCTAssertEqual(try count(context, "LuxuryCar"), 5)
            XCTAssertEqual(try count(context, "Person"), 20)

            // Makers: one per distinct name, each with its cars.
            let makers = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Maker"))
            XCTAssertEqual(makers.compactMap { $0.value(forKey: "name") as? String }.sorted(),
                           ["Alfa Romeo", "BMW", "FIAT", "Kia", "Lamborghini", "Maserati", "McLaren", "Mercedes-Benz", "Renault", "Volkswagen"])
            let fiat = try one(context, "Maker", "name == %@", "FIAT")
            XCTAssertEqual((fiat.value(forKey: "cars") as? Set<NSManagedObject>)?.count, 103)
            XCTAssertEqual(try count(context, "Car", subentities: true), try context.count(for: {
                let r = NSFetchRequest<NSManagedObject>(entityName: "Car"); r.predicate = NSPredicate(format: "createdBy != nil"); return r
            }()))

            // The BMW M6 (Z_PK 87, a LuxuryCar — ExpensiveSportCar in V1).
            let bmw = try one(context, "Car", "numberPlate == %@", "300")
            XCTAssertEqual(bmw.entity.name, "LuxuryCar")
            XCTAssertEqual(bmw.value(forKey: "model") as? String, "M6 Coupe")
            XCTAssertEqual(bmw.value(forKey: "isLimitedEdition") as? Bool, true)
            XCTAssertEqual((bmw.value(forKey: "createdBy") as? NSManagedObject)?.value(forKey: "name") as? String, "BMW")
            let faron = try XCTUnwrap(bmw.value(forKey: "owner") as? NSManagedObject)
            XCTAssertEqual(faron.value(forKey: "firstName") as? String, "Faron")
            XCTAssertEqual(names(bmw.value(forKey: "previousOwners"), "firstName"), ["Faron"])
            let updatedAt = try XCTUnwrap(faron.value(forKey: "updatedAt") as? Date)
            XCTAssertEqual(updatedAt.timeIntervalSinceReferenceDate, 639_503_569.638571, accuracy: 1e-6)

            // Person's relationships: `cars` kept, `previousCars` filled from the same source relationship.
            XCTAssertEqual(names(faron.value(forKey: "cars"), "numberPlate"), faronsPlates)
            XCTAssertEqual(names(faron.value(forKey: "previousCars"), "numberPlate"), faronsPlates)
        }
    }

    func testTheCompiledMappingModelMigratesTheSameAndEntityPolicyFunctionsAreCalled() throws {
        NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: fixturePolicyName)
        NSEntityMigrationPolicy.register(UppercasingPolicy.self, forClassName: "Tests.UppercasingPolicy")
        let mapping = try NSMappingModel.load(contentsOf: fixture("Fixtures/V2toV3.cdm"))
        let person = try XCTUnwrap(mapping.entityMappingsByName["PersonToPerson"])
        person.entityMigrationPolicyClassName = "Tests.UppercasingPolicy"
        person.attributeMappings?.first { $0.name == "lastName" }?.valueExpression = expression("FUNCTION($entityPolicy, 'uppercase:', $source.lastName)")

        let destination = try migrate(mapping, from: try copyOfV2Store())
        XCTAssertEqual(try SQLiteInspector.rows(at: destination.path, "SELECT ZFIRSTNAME, ZLASTNAME FROM ZPERSON WHERE ZFIRSTNAME = 'Faron'"), [["Faron", "MORETON"]])
        XCTAssertEqual(try SQLiteInspector.rows(at: destination.path, "SELECT count(*) FROM ZMAKER"), [["10"]])
        XCTAssertEqual(try SQLiteInspector.rows(at: destination.path, "SELECT count(*) FROM ZCAR WHERE ZCREATEDBY IS NOT NULL"), [["125"]])
    }

    func testAFailureMidwayLeavesTheSourceIntactAndNoDestination() throws {
        NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: fixturePolicyName)
        NSEntityMigrationPolicy.register(FailingPolicy.self, forClassName: "Tests.FailingPolicy")
        let mapping = try NSMappingModel.load(contentsOf: fixture("Fixtures/V2toV3.cdm"))
        mapping.entityMappingsByName["CarToCar"]?.entityMigrationPolicyClassName = "Tests.FailingPolicy"
        let source = try copyOfV2Store()
        let sourceBytes = try Data(contentsOf: source)
        let destination = source.deletingLastPathComponent().appendingPathComponent("SampleModel_V3.sqlite")

        XCTAssertThrowsError(try migrate(mapping, from: source)) { error in
            XCTAssertEqual((error as NSError).domain, "MappingModelMigrationTests", "\(error)")
            XCTAssertEqual((error as NSError).code, 50)
        }
        XCTAssertEqual(try Data(contentsOf: source), sourceBytes)
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path + suffix), "destination\(suffix) left behind")
        }

        // An unregistered policy class: Apple's NSMigrationError, saying what to do.
        mapping.entityMappingsByName["CarToCar"]?.entityMigrationPolicyClassName = "Nowhere.Policy"
        XCTAssertThrowsError(try migrate(mapping, from: source)) { error in
            XCTAssertEqual((error as NSError).code, NSMigrationError)
            XCTAssertTrue((error as NSError).localizedDescription.contains("register"), (error as NSError).localizedDescription)
        }
        XCTAssertEqual(try Data(contentsOf: source), sourceBytes)
    }

    func testExpressionsGivingTheWrongKindOfValueFailWithNSMigrationError() throws {
        NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: fixturePolicyName)
        let source = try copyOfV2Store()
        for (property, format, message) in [("updatedAt", "$source.firstName", "can't hold"),   // a string for a date
                                             ("cars", "$source.cars", "not destination instances")] {  // source objects
            let mapping = try NSMappingModel.load(contentsOf: fixture("Fixtures/V2toV3.cdm"))
            let person = try XCTUnwrap(mapping.entityMappingsByName["PersonToPerson"])
            let target = try XCTUnwrap(((person.attributeMappings ?? []) + (person.relationshipMappings ?? [])).first { $0.name == property })
            target.valueExpression = expression(format)
            XCTAssertThrowsError(try migrate(mapping, from: source), property) { error in
                XCTAssertEqual((error as NSError).code, NSMigrationError)
                XCTAssertTrue((error as NSError).localizedDescription.contains(message), (error as NSError).localizedDescription)
            }
        }
    }

    // MARK: Automatic migration without inference

    func testAutomaticMigrationWithoutInferenceRunsTheMappingModelThatFits() throws {
        NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: fixturePolicyName)
        let url = try copyOfV2Store()
        let v3 = try model("SampleModel3")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v3)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [
            NSMigratePersistentStoresAutomaticallyOption: true,
            OCDMigrationSourceModelsOption: [try model("SampleModel2")],
            // The first does not fit (it maps V3 to itself: no Maker source), the second does.
            OCDMappingModelsOption: [NSMappingModel(entityMappings: []), try fixture("Fixtures/V2toV3.cdm")],
        ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path + ".migrating"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            XCTAssertEqual(try count(context, "Maker"), 10)
            XCTAssertEqual(try count(context, "Car"), 125)
            let panda = try one(context, "Car", "numberPlate == %@", "170")
            XCTAssertEqual((panda.value(forKey: "createdBy") as? NSManagedObject)?.value(forKey: "name") as? String, "FIAT")
        }
    }

    func testAutomaticMigrationWithoutInferenceOrAFittingMappingModelFailsWith134140() throws {
        let url = try copyOfV2Store()
        let before = try Data(contentsOf: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try model("SampleModel3"))
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [
            NSMigratePersistentStoresAutomaticallyOption: true,
            OCDMigrationSourceModelsOption: [try model("SampleModel2")],
        ])) { error in
            XCTAssertEqual((error as NSError).code, NSMigrationMissingMappingModelError)
        }
        XCTAssertEqual(try Data(contentsOf: url), before)
    }

    func testMappingModelsAreFoundInABundleByTheirModels() throws {
        let bundle = try XCTUnwrap(Bundle(path: try appleStores().appendingPathComponent(folder).path))
        let v2 = try model("SampleModel2"), v3 = try model("SampleModel3")
        let found = try XCTUnwrap(NSMappingModel(from: [bundle], forSourceModel: v2, destinationModel: v3))
        XCTAssertEqual(found.entityMappings.map(\.name), ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "Maker"])
        XCTAssertNil(NSMappingModel(from: [bundle], forSourceModel: v3, destinationModel: v2))
        XCTAssertNil(NSMappingModel(from: [bundle], forSourceModel: try model("SampleModel"), destinationModel: v2))
    }

    // MARK: Bad input

    /// Damaged mapping models — the XML document cut, repeated, spliced; the compiled archive's
    /// bytes flipped — load or throw an NSCocoaErrorDomain error, never trap; and the ones that
    /// still load either migrate or throw.
    func testDamagedMappingModelsLoadOrThrowAndNeverTrap() throws {
        NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: fixturePolicyName)
        let directory = try makeTemporaryDirectory("ocd-mapping")
        // Without the two archived models (120 KB of base64 the reader doesn't use), so the
        // mutations hit the mapping objects.
        let document = try String(contentsOf: fixture("MappingModels/V2toV3.xcmappingmodel/xcmapping.xml"), encoding: .utf8)
        let xml = Data(document.replacingOccurrences(of: "<attribute name=\"(source|destination)modeldata\" type=\"binary\">[^<]*</attribute>",
                                                     with: "", options: .regularExpression).utf8)
        XCTAssertLessThan(xml.count, 30_000)
        let cdm = try Data(contentsOf: fixture("Fixtures/V2toV3.cdm"))
        let tokens = ["<object type=\"XDDEVENTITYMAPPING\" id=\"z1\">", "</object>", "idrefs=\"z103 z103\"", "&amp;", "&bogus;", "<![CDATA[x]]>",
                      "<attribute name=\"sourcename\" type=\"string\">Nope</attribute>", "\u{0}", "<!DOCTYPE x [<!ENTITY y \"z\">]>", "YnBsaXN0MDA="]
        var rng = SplitMix64(seed: 0x0CD_2024)
        var loaded = 0, rejected = 0, migrated: [Bool] = []
        let sourceStore = try copyOfV2Store()
        for round in 0..<500 {
            let compiled = round % 2 == 1
            var bytes = [UInt8](compiled ? cdm : xml)
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let position = Int(rng.next() % UInt64(bytes.count + 1))
                switch compiled ? 3 : rng.next() % 4 {
                case 0:
                    bytes.removeSubrange(position..<min(bytes.count, position + Int(rng.next() % 60)))
                case 1:
                    bytes.insert(contentsOf: Array(tokens[Int(rng.next() % UInt64(tokens.count))].utf8), at: position)
                case 2:
                    let end = min(bytes.count, position + Int(rng.next() % 300))
                    bytes.insert(contentsOf: Array(bytes[position..<end]), at: position)
                default:
                    if position < bytes.count { bytes[position] ^= UInt8(truncatingIfNeeded: rng.next() | 1) }
                }
            }
            let file = directory.appendingPathComponent(compiled ? "Damaged.cdm" : "Damaged.xml")
            try Data(bytes).write(to: file)
            do {
                let mapping = try NSMappingModel.load(contentsOf: file)
                loaded += 1
                // Migrating a few of the damaged-but-readable ones: any outcome but a trap.
                if migrated.count < 12 && round % 5 == 1 {
                    let destination = directory.appendingPathComponent("Migrated-\(round).sqlite")
                    let manager = NSMigrationManager(sourceModel: try model("SampleModel2"), destinationModel: try model("SampleModel3"))
                    do {
                        try manager.migrateStore(from: sourceStore, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
                        migrated.append(true)
                    } catch {
                        migrated.append(false)
                        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path), "round \(round)")
                    }
                }
            } catch {
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain, "round \(round): \(error)")
                rejected += 1
            }
        }
        XCTAssertGreaterThan(loaded, 30)
        XCTAssertGreaterThan(rejected, 30)
        XCTAssertGreaterThan(migrated.count, 5)
    }
}
