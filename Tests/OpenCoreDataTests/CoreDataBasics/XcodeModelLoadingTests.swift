@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Loading Xcode models (`.xcdatamodeld`, `.xcdatamodel`, Xcode 3 `elements`) and Apple's
/// `VersionInfo.plist`: one test per real model file in the shared fixtures, then bad input and
/// a bounded fuzz run.
final class XcodeModelLoadingTests: XCTestCase {

    // MARK: - Fixtures

    /// The shared fixtures folder: `$OCD_FIXTURES`, else `../shared/fixtures` beside the package.
    private func fixtures() throws -> URL {
        let root = fixturesRoot
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("xcdatamodels").path) else {
            throw XCTSkip("Fixtures not found at \(root.path). Set OCD_FIXTURES to the shared fixtures folder (the one holding xcdatamodels/ and apple-stores/), or check it out at ../shared/fixtures beside the package.")
        }
        return root
    }

    private func fixture(_ relative: String) throws -> URL {
        try fixtures().appendingPathComponent(relative)
    }

    private func load(_ relative: String, versionInfo: String? = nil, moduleName: String? = nil) throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(contentsOf: fixture(relative), versionInfo: try versionInfo.map(fixture), moduleName: moduleName)
    }

    private func entity(_ model: NSManagedObjectModel, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> NSEntityDescription {
        try XCTUnwrap(model.entitiesByName[name], "no entity \(name); have \(model.entitiesByName.keys.sorted())", file: file, line: line)
    }

    private func attribute(_ model: NSManagedObjectModel, _ entityName: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> NSAttributeDescription {
        try XCTUnwrap(entity(model, entityName, file: file, line: line).attributesByName[name], "no attribute \(entityName).\(name)", file: file, line: line)
    }

    private func relationship(_ model: NSManagedObjectModel, _ entityName: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> NSRelationshipDescription {
        try XCTUnwrap(entity(model, entityName, file: file, line: line).relationshipsByName[name], "no relationship \(entityName).\(name)", file: file, line: line)
    }

    private func names(_ model: NSManagedObjectModel) -> [String] {
        model.entities.compactMap(\.name).sorted()
    }

    private func hex(_ data: Data?) -> String {
        (data ?? Data()).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: - Every model loads

    /// Walks both fixture folders: every `.xcdatamodeld` bundle and every version inside loads
    /// with no model problems (the models are real, working apps' models).
    func testEveryFixtureModelLoadsWithoutProblems() throws {
        let root = try fixtures()
        var loaded = 0
        for folder in ["xcdatamodels", "apple-stores"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)!
            for case let url as URL in enumerator where ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) {
                let model = try NSManagedObjectModel.load(contentsOf: url)
                XCTAssertFalse(model.entities.isEmpty, url.path)
                XCTAssertEqual(model.validationProblems(), [], url.path)
                XCTAssertNotNil(NSManagedObjectModel(contentsOf: url), url.path)
                loaded += 1
            }
        }
        // 10 bundles and 31 versions: catch a walk that silently finds nothing.
        XCTAssertGreaterThanOrEqual(loaded, 41)
    }

    // MARK: - xcdatamodels/: one test per file

    func testMogeneratorTestModel() throws {
        let model = try load("xcdatamodels/rentzsch__mogenerator/test.xcdatamodel")
        XCTAssertEqual(model.entities.count, 9)
        XCTAssertEqual(model.xcodeVersionName, "test")
        let human = try entity(model, "Human")
        XCTAssertEqual(human.subentities.compactMap(\.name).sorted(), ["Child", "Parent", "Uncle"])
        XCTAssertEqual(try entity(model, "Child").superentity?.name, "Human")
        XCTAssertEqual(human.representedClassName, "HumanMO")
        XCTAssertEqual(human.managedObjectClassName, "NSManagedObject")
        XCTAssertEqual(human.userInfo?["key with.dots..."] as? String, "value with \"quotes\"")
        let age = try attribute(model, "Human", "age")
        XCTAssertFalse(age.isOptional)
        XCTAssertEqual(age.validationPredicates.map(\.predicateFormat), ["SELF >= 0"])
        XCTAssertEqual((age.defaultValue as? NSNumber)?.int16Value, 0)
        XCTAssertTrue(try attribute(model, "Parent", "myInt16Transient").isTransient)
        XCTAssertEqual(try attribute(model, "Parent", "myDecimal").attributeType, .decimalAttributeType)
        let ordered = try relationship(model, "Parent", "orderedChildren")
        XCTAssertTrue(ordered.isOrdered)
        XCTAssertTrue(ordered.isToMany)
        XCTAssertEqual(ordered.deleteRule, .cascadeDeleteRule)
        XCTAssertEqual(ordered.inverseRelationship?.name, "parent")
        XCTAssertTrue(ordered.isIndexed)
        XCTAssertNil(try relationship(model, "Parent", "children").inverseRelationship)
        let parent = try relationship(model, "Child", "parent")
        XCTAssertEqual(parent.minCount, 1)
        XCTAssertEqual(parent.maxCount, 1)
        XCTAssertEqual(model.fetchRequestTemplatesByName.keys.sorted(), ["allHumans", "byHumanName", "byParent", "byParentName", "oneByHumanName"])
        XCTAssertEqual(model.fetchRequestTemplate(forName: "byParentName")?.predicate?.predicateFormat, "parent.parentName == $parentName")
        XCTAssertEqual(model.fetchRequestTemplate(forName: "allHumans")?.entity?.name, "Human")
        XCTAssertEqual(try entity(model, "EntitySansCustomClass").representedClassName, nil)
    }

    func testMogeneratorSwiftTestBundle() throws {
        let model = try load("xcdatamodels/rentzsch__mogenerator/MogenSwiftTest.xcdatamodeld")
        XCTAssertEqual(names(model), ["MyEntity", "UnorderedToManyDst", "UnorderedToManySrc"])
        XCTAssertEqual(model.xcodeVersionName, "MogenSwiftTest")
        let src = try relationship(model, "UnorderedToManySrc", "relationship")
        XCTAssertTrue(src.isToMany)
        XCTAssertFalse(src.isOrdered)
        XCTAssertEqual(src.maxCount, 0)
        XCTAssertEqual(src.deleteRule, .cascadeDeleteRule)
        XCTAssertTrue(src.inverseRelationship === (try relationship(model, "UnorderedToManyDst", "relationship")))
        XCTAssertEqual(model.fetchRequestTemplate(forName: "allUnorderedToManySrcs")?.entityName, "UnorderedToManySrc")
        XCTAssertNil(model.fetchRequestTemplate(forName: "allUnorderedToManySrcs")?.predicate)
    }

    func testCoreStoreColorsDemo() throws {
        let model = try load("xcdatamodels/JohnEstropia__CoreStore/Classic.ColorsDemo.xcdatamodeld")
        XCTAssertEqual(names(model), ["Palette"])
        let hue = try attribute(model, "Palette", "hue")
        XCTAssertEqual(hue.attributeType, .floatAttributeType)
        XCTAssertFalse(hue.isOptional)
        XCTAssertEqual((hue.defaultValue as? NSNumber)?.floatValue, 0)
        XCTAssertTrue(try attribute(model, "Palette", "colorGroup").isTransient)
        let fetched = try XCTUnwrap(try entity(model, "Palette").propertiesByName["testFetchProperty"] as? NSFetchedPropertyDescription)
        XCTAssertEqual(fetched.fetchRequest?.entity?.name, "Palette")
        XCTAssertNil(fetched.fetchRequest?.predicate)
        XCTAssertEqual(try entity(model, "Palette").representedClassName, "Classic_ColorsDemo_Palette")
    }

    func testCoreStoreEvolutionDemoBundleLoadsCurrentVersionV1() throws {
        let model = try load("xcdatamodels/JohnEstropia__CoreStore/Advanced.EvolutionDemo.V1.xcdatamodeld")
        XCTAssertEqual(model.xcodeVersionName, "Advanced.EvolutionDemo.V1")
        let creature = try entity(model, "Creature")
        XCTAssertEqual(creature.properties.map(\.name), ["dnaCode", "numberOfFlagella"])
        XCTAssertEqual((try attribute(model, "Creature", "numberOfFlagella").defaultValue as? NSNumber)?.int32Value, 2)
        XCTAssertEqual(try attribute(model, "Creature", "dnaCode").attributeType, .integer64AttributeType)
    }

    func testCoreStoreEvolutionDemoVersionV2() throws {
        let model = try load("xcdatamodels/JohnEstropia__CoreStore/Advanced.EvolutionDemo.V1.xcdatamodeld/Advanced.EvolutionDemo.V2.xcdatamodel")
        XCTAssertEqual(model.xcodeVersionName, "Advanced.EvolutionDemo.V2")
        XCTAssertEqual(try entity(model, "Creature").properties.count, 5)
        let hasTail = try attribute(model, "Creature", "hasTail")
        XCTAssertEqual(hasTail.attributeType, .booleanAttributeType)
        XCTAssertEqual(hasTail.defaultValue as? NSNumber, NSNumber(value: true))
        XCTAssertEqual(try entity(model, "Creature").representedClassName, "Advanced_EvolutionDemo_V2_Creature")
    }

    func testCoreStoreTestsModel() throws {
        let model = try load("xcdatamodels/JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld")
        XCTAssertEqual(names(model), ["TestEntity1AAA", "TestEntity2"])
        XCTAssertEqual(model.configurations, ["Config1", "Config2"])
        XCTAssertEqual(model.entities(forConfigurationName: "Config1")?.compactMap(\.name), ["TestEntity1AAA"])
        XCTAssertEqual(model.entities(forConfigurationName: "Config2")?.compactMap(\.name), ["TestEntity2"])
        XCTAssertEqual(model.entities(forConfigurationName: nil)?.count, 2)
        XCTAssertTrue(try relationship(model, "TestEntity2", "testToManyOrdered").isOrdered)
        XCTAssertFalse(try relationship(model, "TestEntity1AAA", "testToManyUnordered").isOrdered)
        XCTAssertEqual(try relationship(model, "TestEntity1AAA", "testToOne").inverseRelationship?.name, "testToManyUnordered")
        XCTAssertEqual(try attribute(model, "TestEntity1AAA", "testDecimal").attributeType, .decimalAttributeType)
        XCTAssertEqual(try attribute(model, "TestEntity1AAA", "testData").attributeType, .binaryDataAttributeType)
        // ".TestEntity1" is Xcode's "current module" class name.
        XCTAssertEqual(try entity(model, "TestEntity1AAA").representedClassName, ".TestEntity1")
    }

    func testBookmarksBundleLoadsCurrentVersion6() throws {
        let model = try load("xcdatamodels/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld")
        XCTAssertEqual(model.xcodeVersionName, "BookmarksModel 6")
        let bookmark = try entity(model, "BookmarkEntity")
        XCTAssertEqual(bookmark.indexes.map(\.name), ["byUUID", "byURL", "byIsPendingDeletion"])
        XCTAssertEqual(bookmark.indexes[0].elements.compactMap(\.propertyName), ["uuid", "isPendingDeletion"])
        XCTAssertTrue(bookmark.indexes[0].elements[0].property === bookmark.attributesByName["uuid"])
        XCTAssertEqual(bookmark.indexes[0].elements[0].collationType, .binary)
        XCTAssertTrue(bookmark.indexes[0].elements[0].isAscending)
        XCTAssertEqual(try attribute(model, "BookmarkEntity", "uuid").versionHashModifier, "3")
    }

    func testBookmarksVersion1() throws {
        let model = try load("xcdatamodels/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld/BookmarksModel.xcdatamodel")
        XCTAssertEqual(model.xcodeVersionName, "BookmarksModel")
        let bookmark = try entity(model, "BookmarkEntity")
        XCTAssertTrue(bookmark.indexes.isEmpty)
        XCTAssertNotNil(bookmark.attributesByName["isFavorite"])
        let children = try relationship(model, "BookmarkEntity", "children")
        XCTAssertEqual(children.deleteRule, .cascadeDeleteRule)
        XCTAssertTrue(children.isOrdered)
        XCTAssertTrue(children.inverseRelationship === bookmark.relationshipsByName["parent"])
        XCTAssertFalse(try relationship(model, "BookmarkEntity", "favoriteFolder").isToMany)
    }

    func testBookmarksVersion2() throws {
        let model = try load("xcdatamodels/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld/BookmarksModel 2.xcdatamodel")
        XCTAssertEqual(model.xcodeVersionName, "BookmarksModel 2")
        XCTAssertEqual(try entity(model, "BookmarkEntity").indexes.map(\.name), ["byUUID", "byURL"])
        XCTAssertEqual(try attribute(model, "BookmarkEntity", "url").versionHashModifier, "2")
        XCTAssertTrue(try attribute(model, "BookmarkEntity", "url").isOptional)
        XCTAssertFalse(try attribute(model, "BookmarkEntity", "uuid").isOptional)
    }

    func testBookmarksVersion3() throws {
        let model = try load("xcdatamodels/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld/BookmarksModel 3.xcdatamodel")
        let pending = try attribute(model, "BookmarkEntity", "isPendingDeletion")
        XCTAssertEqual(pending.defaultValue as? NSNumber, NSNumber(value: false))
        XCTAssertEqual(pending.versionHashModifier, "3")
        XCTAssertEqual(try attribute(model, "BookmarkEntity", "modifiedAt").attributeType, .dateAttributeType)
        XCTAssertEqual(try entity(model, "BookmarkEntity").indexes.count, 3)
        XCTAssertNotNil(try entity(model, "BookmarkEntity").relationshipsByName["favoriteFolder"])
    }

    func testBookmarksVersion4RenamesFavoriteFolder() throws {
        let model = try load("xcdatamodels/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld/BookmarksModel 4.xcdatamodel")
        let folders = try relationship(model, "BookmarkEntity", "favoriteFolders")
        XCTAssertEqual(folders.renamingIdentifier, "favoriteFolder")
        XCTAssertTrue(folders.isToMany)
        XCTAssertTrue(folders.inverseRelationship === (try relationship(model, "BookmarkEntity", "favorites")))
        XCTAssertNil(try entity(model, "BookmarkEntity").relationshipsByName["favoriteFolder"])
    }

    func testBookmarksVersion5() throws {
        let model = try load("xcdatamodels/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld/BookmarksModel 5.xcdatamodel")
        XCTAssertEqual(try attribute(model, "BookmarkEntity", "lastChildrenPayloadReceivedFromSync").attributeType, .stringAttributeType)
        XCTAssertEqual(try entity(model, "BookmarkEntity").properties.count, 11)
        XCTAssertEqual(try relationship(model, "BookmarkEntity", "favorites").inverseRelationship?.name, "favoriteFolders")
    }

    func testBookmarksVersion6() throws {
        let model = try load("xcdatamodels/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld/BookmarksModel 6.xcdatamodel")
        let bookmark = try entity(model, "BookmarkEntity")
        XCTAssertEqual(bookmark.attributesByName.keys.sorted(), ["isFolder", "isPendingDeletion", "isStub", "lastChildrenPayloadReceivedFromSync", "modifiedAt", "title", "url", "uuid"])
        XCTAssertEqual(bookmark.relationshipsByName.keys.sorted(), ["children", "favoriteFolders", "favorites", "parent"])
        XCTAssertEqual(bookmark.indexes.last?.elements.compactMap(\.propertyName), ["isPendingDeletion"])
    }

    func testMagicalRecordTestModel() throws {
        let model = try load("xcdatamodels/magicalpanda__MagicalRecord/TestModel.xcdatamodeld")
        XCTAssertEqual(model.entities.count, 12)
        let abstract = try entity(model, "AbstractRelatedEntity")
        XCTAssertTrue(abstract.isAbstract)
        XCTAssertEqual(abstract.subentities.compactMap(\.name), ["ConcreteRelatedEntity"])
        XCTAssertEqual(try entity(model, "EntityWithDifferentClassName").representedClassName, "DifferentClassNameMapping")
        XCTAssertEqual((try attribute(model, "SingleEntityWithNoRelationships", "nullTestAttribute").defaultValue as? NSNumber)?.int64Value, 100)
        XCTAssertEqual(try attribute(model, "SingleEntityWithNoRelationships", "notInJsonAttribute").defaultValue as? String, "Set From Core Data Model Editor")
        XCTAssertEqual(try attribute(model, "SingleEntityWithNoRelationships", "colorTestAttribute").attributeType, .transformableAttributeType)
        XCTAssertNil(try attribute(model, "SingleEntityWithNoRelationships", "colorTestAttribute").valueTransformerName)
        XCTAssertEqual(try attribute(model, "SingleEntityWithNoRelationships", "floatTestAttribute").attributeType, .floatAttributeType)
        let toAbstract = try relationship(model, "SingleRelatedEntity", "testAbstractToManyRelationship")
        XCTAssertTrue(toAbstract.destinationEntity === abstract)
        XCTAssertNil(toAbstract.inverseRelationship)
        XCTAssertEqual(toAbstract.deleteRule, .cascadeDeleteRule)
        XCTAssertEqual(try attribute(model, "MappedEntity", "testMappedEntityID").userInfo?.isEmpty, false)
    }

    func testMomdecTestsModel() throws {
        let model = try load("xcdatamodels/atomicbird__momdec/momdecTests.xcdatamodeld")
        XCTAssertEqual(names(model), ["AbstractEntity", "Entity", "OtherEntity", "UnrelatedEntity"])
        let entity = try self.entity(model, "Entity")
        XCTAssertEqual(entity.superentity?.name, "AbstractEntity")
        XCTAssertTrue(entity.superentity?.isAbstract ?? false)
        XCTAssertEqual(entity.renamingIdentifier, "myRenamingIdentifier")
        XCTAssertEqual(entity.versionHashModifier, "myVersionHashModifier")
        XCTAssertEqual(entity.userInfo?["someKey"] as? String, "randomValue")
        XCTAssertEqual(entity.compoundIndexes.map { $0.compactMap { $0 as? String } }, [["booleanAttribute", "dateAttribute"], ["decimalAttribute", "doubleAttribute"]])
        XCTAssertEqual(try attribute(model, "Entity", "int16Attribute").validationPredicates.map(\.predicateFormat), ["SELF >= -3", "SELF <= 9"])
        XCTAssertEqual(try attribute(model, "Entity", "doubleAttribute").validationPredicates.map(\.predicateFormat), ["SELF >= -3.5", "SELF <= 3.5"])
        let date = try attribute(model, "Entity", "dateAttribute")
        XCTAssertEqual(date.defaultValue as? Date, Date(timeIntervalSinceReferenceDate: 388411200))
        XCTAssertEqual(date.validationPredicates.count, 2)
        XCTAssertEqual(try attribute(model, "Entity", "transformableAttribute").valueTransformerName, "myValueTransformer")
        let binary = try attribute(model, "Entity", "binaryAttribute")
        XCTAssertTrue(binary.isTransient)
        XCTAssertTrue(binary.isIndexedBySpotlight)
        XCTAssertEqual(binary.userInfo?["binaryBaz"] as? String, "MAYBE")
        let others = try relationship(model, "Entity", "otherEntities")
        XCTAssertEqual(others.minCount, 1)
        XCTAssertEqual(others.maxCount, 9)
        XCTAssertEqual(others.inverseRelationship?.name, "mainEntity")
        let fetched = try XCTUnwrap(entity.propertiesByName["yesBooleans"] as? NSFetchedPropertyDescription)
        XCTAssertEqual(fetched.fetchRequest?.entity?.name, "Entity")
        XCTAssertNotNil(fetched.fetchRequest?.predicate)
        let template = try XCTUnwrap(model.fetchRequestTemplate(forName: "FetchRequest"))
        XCTAssertEqual(template.fetchLimit, 100)
        XCTAssertEqual(template.fetchBatchSize, 10)
        XCTAssertTrue(template.returnsDistinctResults)
        XCTAssertEqual(template.resultType, .dictionaryResultType)
        XCTAssertEqual(model.entities(forConfigurationName: "UnrelatedConfiguration")?.compactMap(\.name), ["UnrelatedEntity"])
    }

    func testMomXMLCompositeModel() throws {
        let model = try load("xcdatamodels/phimage__MomXML/Model.xcdatamodeld")
        XCTAssertEqual(names(model), ["Client", "Commande", "Produit"])
        let composite = try XCTUnwrap(try attribute(model, "Produit", "attribute1") as? NSCompositeAttributeDescription)
        XCTAssertEqual(composite.attributeType, .compositeAttributeType)
        XCTAssertEqual(composite.elements.map(\.name), ["one", "two", "three"])
        XCTAssertEqual(composite.elements.first?.attributeType, .integer16AttributeType)
        XCTAssertEqual((composite.elements.last as? NSCompositeAttributeDescription)?.elements.count, 0)
        XCTAssertEqual(try attribute(model, "Produit", "attribute").attributeValueClassName, "CustomClass")
        XCTAssertEqual(try entity(model, "Client").userInfo?["key1"] as? String, "value")
        XCTAssertEqual(try relationship(model, "Commande", "commande_produit").userInfo?["key"] as? String, "value")
        XCTAssertEqual(try relationship(model, "Client", "client_commande").inverseRelationship?.name, "commande_client")
    }

    func testMomXMLPlainModelFile() throws {
        // A bare `contents` XML file under another name.
        let model = try load("xcdatamodels/phimage__MomXML/model.xml")
        XCTAssertNil(model.xcodeVersionName)
        let derived = try XCTUnwrap(try attribute(model, "Client", "commandeCount") as? NSDerivedAttributeDescription)
        XCTAssertEqual(derived.derivationExpression?.description, "client_commande.@count")
        XCTAssertEqual(try entity(model, "Client").uniquenessConstraints.map { $0.compactMap { $0 as? String } }, [["id"]])
        let commande = try entity(model, "Commande")
        XCTAssertEqual(commande.indexes.map(\.name), ["byPropertyIndex", "byPropertyIndex1"])
        XCTAssertEqual(commande.indexes[0].elements.map(\.isAscending), [true, false])
        let expressionElement = try XCTUnwrap(try entity(model, "Client").indexes.first?.elements.first)
        XCTAssertNil(expressionElement.propertyName)
        XCTAssertNotNil(expressionElement.expression)
        // Its fetched properties have predicates "predicate" and "predicate1", which don't parse:
        // left out, with a warning each, and the model still loads.
        XCTAssertNil(try entity(model, "Produit").propertiesByName["fetchedProperty"])
        XCTAssertEqual(model.loadingWarnings.filter { $0.contains("does not parse") }.count, 2)
    }

    func testZeeQLContacts() throws {
        let model = try load("xcdatamodels/ZeeQL__ZeeQL3/Contacts.xcdatamodel")
        XCTAssertEqual(names(model), ["Address", "Person"])
        let addresses = try relationship(model, "Person", "addresses")
        XCTAssertTrue(addresses.isOrdered)
        XCTAssertEqual(addresses.maxCount, 20)
        XCTAssertEqual(addresses.userInfo?["extraInfo"] as? String, "doIt")
        XCTAssertTrue(addresses.inverseRelationship === (try relationship(model, "Address", "person")))
        XCTAssertFalse(try attribute(model, "Person", "lastname").isOptional)
        XCTAssertEqual(try attribute(model, "Address", "street").userInfo?["columnName"] as? String, "street")
        let ducks = try XCTUnwrap(model.fetchRequestTemplate(forName: "fetchTheDucks"))
        XCTAssertEqual(ducks.fetchLimit, 220)
        XCTAssertEqual(ducks.fetchBatchSize, 20)
        XCTAssertEqual(ducks.entity?.name, "Person")
        XCTAssertEqual(ducks.predicate?.predicateFormat, "lastName LIKE \"Duck*\"")
    }

    func testCoreDataPlusSampleModelBundleAndEachVersion() throws {
        let current = try load("xcdatamodels/alemar11__CoreDataPlus/SampleModel.xcdatamodeld")
        XCTAssertEqual(current.xcodeVersionName, "SampleModel")
        XCTAssertEqual(current.versionIdentifiers, ["1"])
        XCTAssertEqual(try entity(current, "ExpensiveSportCar").superentity?.superentity?.name, "Car")
        XCTAssertEqual(try entity(current, "Person").uniquenessConstraints.map { $0.compactMap { $0 as? String } }, [["firstName", "lastName"]])
        XCTAssertEqual(try attribute(current, "Person", "id").attributeType, .UUIDAttributeType)
        XCTAssertTrue(try attribute(current, "Person", "id").preservesValueInHistoryOnDeletion)
        XCTAssertEqual(try attribute(current, "Car", "color").valueTransformerName, "ColorTransformer")

        let v2 = try load("xcdatamodels/alemar11__CoreDataPlus/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel")
        XCTAssertEqual(v2.versionIdentifiers, ["2"])
        XCTAssertEqual(try entity(v2, "LuxuryCar").renamingIdentifier, "ExpensiveSportCar")
        XCTAssertEqual(try entity(v2, "Car").indexes.first?.elements.compactMap(\.propertyName), ["maker", "numberPlate"])

        let v3 = try load("xcdatamodels/alemar11__CoreDataPlus/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel")
        XCTAssertEqual(names(v3), ["Car", "LuxuryCar", "Maker", "Person", "SportCar"])
        let previousOwners = try relationship(v3, "Car", "previousOwners")
        XCTAssertTrue(previousOwners.isToMany)
        XCTAssertTrue(previousOwners.inverseRelationship?.isToMany ?? false, "many-to-many")
        XCTAssertEqual(try relationship(v3, "Maker", "cars").inverseRelationship?.name, "createdBy")
    }

    func testCoreDataPlusSampleModel3BundleAndEachVersion() throws {
        let v1 = try load("xcdatamodels/alemar11__CoreDataPlus/SampleModel3.xcdatamodeld")
        XCTAssertEqual(v1.xcodeVersionName, "SampleModel3")
        XCTAssertEqual(names(v1), ["User"])
        XCTAssertFalse(try attribute(v1, "User", "name").isOptional)
        XCTAssertTrue(try attribute(v1, "User", "petName").isOptional)

        let v2 = try load("xcdatamodels/alemar11__CoreDataPlus/SampleModel3.xcdatamodeld/SampleModel3_v2.xcdatamodel")
        XCTAssertEqual(names(v2), ["Pet", "User"])
        XCTAssertTrue(try relationship(v2, "User", "pet").inverseRelationship === (try relationship(v2, "Pet", "owner")))

        let v3 = try load("xcdatamodels/alemar11__CoreDataPlus/SampleModel3.xcdatamodeld/SampleModel3_v3.xcdatamodel")
        XCTAssertNil(try entity(v3, "User").attributesByName["petName"])
        XCTAssertEqual(try relationship(v3, "Pet", "owner").deleteRule, .nullifyDeleteRule)
    }

    // MARK: - apple-stores/: model bundles beside Apple's stores

    func testSampleModelWithAppleVersionHashes() throws {
        let base = "apple-stores/alemar11__CoreDataPlus/SampleModel/"
        let model = try load(base + "SampleModel.xcdatamodeld", versionInfo: base + "Fixtures/SampleModel.momd")
        XCTAssertEqual(names(model), ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        let hashes = try XCTUnwrap(model.appleEntityVersionHashesByName)
        XCTAssertEqual(hashes.keys.sorted(), names(model))
        XCTAssertEqual(hashes["Car"]?.count, 32)
        XCTAssertTrue(hex(hashes["Car"]).hasPrefix("9e555529"), hex(hashes["Car"]))

        // A version other than the current one takes its own hashes.
        let v2 = try load(base + "SampleModel.xcdatamodeld/SampleModel2.xcdatamodel", versionInfo: base + "Fixtures/SampleModel.momd/VersionInfo.plist")
        XCTAssertEqual(v2.appleEntityVersionHashesByName?.keys.sorted(), ["Car", "LuxuryCar", "Person", "SportCar"])
        XCTAssertTrue(hex(v2.appleEntityVersionHashesByName?["Car"]).hasPrefix("7e503efb"))

        let info = try CompiledModelVersionInfo(contentsOf: fixture(base + "Fixtures/SampleModel.momd"))
        XCTAssertEqual(info.currentVersionName, "SampleModel")
        XCTAssertEqual(info.versionHashes.keys.sorted(), ["SampleModel", "SampleModel2", "SampleModel3"])
    }

    func testSampleModel3WithAppleVersionHashesAndChecksums() throws {
        let base = "apple-stores/alemar11__CoreDataPlus/SampleModel3/"
        let model = try load(base + "SampleModel3.xcdatamodeld", versionInfo: base + "Fixtures/SampleModel3.momd")
        XCTAssertEqual(names(model), ["User"])
        XCTAssertTrue(hex(model.appleEntityVersionHashesByName?["User"]).hasPrefix("6b31f4e9"))
        let info = try CompiledModelVersionInfo(contentsOf: fixture(base + "Fixtures/SampleModel3.momd"))
        XCTAssertEqual(info.versionChecksums["SampleModel3_v2"], "rzn6eNBLyn8k3AoC3kH3yymPT0vSUPaVcgi0v2SuHS8=")
        XCTAssertEqual(info.entityVersionHashes(forVersion: "SampleModel3_v3")?.keys.sorted(), ["Pet", "User"])
        // Without versionInfo, and no .momd beside the bundle: no Apple hashes.
        XCTAssertNil(try load(base + "SampleModel3.xcdatamodeld").appleEntityVersionHashesByName)
    }

    func testBookmarksBundleBesideAppleStores() throws {
        let model = try load("apple-stores/duckduckgo__BrowserServicesKit/Bookmarks/BookmarksModel.xcdatamodeld")
        XCTAssertEqual(model.xcodeVersionName, "BookmarksModel 6")
        XCTAssertEqual(try relationship(model, "BookmarkEntity", "favoriteFolders").renamingIdentifier, "favoriteFolder")
        let v1 = try load("apple-stores/duckduckgo__BrowserServicesKit/Bookmarks/BookmarksModel.xcdatamodeld/BookmarksModel.xcdatamodel")
        XCTAssertNotNil(try entity(v1, "BookmarkEntity").attributesByName["isFavorite"])
    }

    func testSyncMetadataBundleLoadsVersion4() throws {
        let model = try load("apple-stores/duckduckgo__BrowserServicesKit/SyncMetadata/SyncMetadata.xcdatamodeld")
        XCTAssertEqual(model.xcodeVersionName, "SyncMetadata 4")
        XCTAssertEqual(names(model), ["SyncFeatureEntity", "SyncableSettingsMetadata"])
        XCTAssertEqual(try entity(model, "SyncableSettingsMetadata").uniquenessConstraints.map { $0.compactMap { $0 as? String } }, [["key"]])
        XCTAssertEqual(try entity(model, "SyncFeatureEntity").indexes.first?.name, "byName")
        let v1 = try load("apple-stores/duckduckgo__BrowserServicesKit/SyncMetadata/SyncMetadata.xcdatamodeld/SyncMetadata.xcdatamodel")
        XCTAssertEqual(names(v1), ["SyncFeatureEntity"])
        XCTAssertNil(try entity(v1, "SyncFeatureEntity").attributesByName["state"])
        let v2 = try load("apple-stores/duckduckgo__BrowserServicesKit/SyncMetadata/SyncMetadata.xcdatamodeld/SyncMetadata 2.xcdatamodel")
        XCTAssertNotNil(try entity(v2, "SyncFeatureEntity").attributesByName["state"])
        let v3 = try load("apple-stores/duckduckgo__BrowserServicesKit/SyncMetadata/SyncMetadata.xcdatamodeld/SyncMetadata 3.xcdatamodel")
        XCTAssertEqual(try attribute(v3, "SyncableSettingsMetadata", "lastModified").attributeType, .dateAttributeType)
    }

    func testRecipesXcode3ElementsArchive() throws {
        let model = try load("apple-stores/magicalpanda__MagicalRecord/Recipes/Recipes.xcdatamodeld")
        XCTAssertEqual(model.xcodeVersionName, "Recipes")
        XCTAssertEqual(names(model), ["Image", "Ingredient", "Recipe", "RecipeType"])
        XCTAssertEqual(try attribute(model, "Recipe", "thumbnailImage").attributeType, .transformableAttributeType)
        XCTAssertEqual(try attribute(model, "Recipe", "thumbnailImage").valueTransformerName, "ImageToDataTransformer")
        XCTAssertEqual(try attribute(model, "Ingredient", "displayOrder").attributeType, .integer16AttributeType)
        XCTAssertEqual(try attribute(model, "Ingredient", "name").defaultValue as? String, "Ingredient Name")
        XCTAssertFalse(try attribute(model, "Ingredient", "name").isOptional)
        let ingredients = try relationship(model, "Recipe", "ingredients")
        XCTAssertTrue(ingredients.isToMany)
        XCTAssertEqual(ingredients.deleteRule, .cascadeDeleteRule)
        XCTAssertTrue(ingredients.inverseRelationship === (try relationship(model, "Ingredient", "recipe")))
        let image = try relationship(model, "Recipe", "image")
        XCTAssertFalse(image.isToMany)
        XCTAssertEqual(image.inverseRelationship?.name, "recipe")
        XCTAssertEqual(try relationship(model, "RecipeType", "recipes").deleteRule, .nullifyDeleteRule)
        XCTAssertEqual(try entity(model, "Recipe").representedClassName, "Recipe")
        XCTAssertNil(try entity(model, "RecipeType").representedClassName)
    }

    // MARK: - Loaded models work

    /// An Apple app's model, whose classes this program lacks, opens a store and saves objects.
    func testLoadedModelWithUnknownClassesRunsAStore() throws {
        let model = try load("xcdatamodels/alemar11__CoreDataPlus/SampleModel3.xcdatamodeld/SampleModel3_v2.xcdatamodel")
        XCTAssertTrue(model.loadingWarnings.contains { $0.contains("'Pet'") })
        let container = NSPersistentContainer(name: "SampleModel3", managedObjectModel: model)
        container.persistentStoreDescriptions[0].type = NSInMemoryStoreType
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        XCTAssertNil(loadError)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let user = NSEntityDescription.insertNewObject(forEntityName: "User", into: context)
            user.setValue("Alice", forKey: "name")
            let pet = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: context)
            pet.setValue("Rex", forKey: "name")
            pet.setValue(user, forKey: "owner")
            try context.save()
            XCTAssertTrue(user.value(forKey: "pet") as? NSManagedObject === pet)
            let users = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "User"))
            XCTAssertEqual(users.first?.value(forKey: "name") as? String, "Alice")
        }
    }

    /// Xcode's min/max and pattern constraints validate with Apple's codes.
    func testConstraintsValidateWithApplesCodes() throws {
        let url = try writeModel("""
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
              <entity name="Item">
                <attribute name="code" optional="YES" attributeType="String" minValueString="2" maxValueString="4" regularExpressionString="[A-Z]+"/>
                <attribute name="count" optional="YES" attributeType="Integer 32" minValueString="1" maxValueString="10"/>
              </entity>
            </model>
            """)
        let model = try NSManagedObjectModel.load(contentsOf: url)
        XCTAssertEqual(try attribute(model, "Item", "code").validationPredicates.map(\.predicateFormat), ["length >= 2", "length <= 4", "SELF MATCHES \"[A-Z]+\""])
        let container = NSPersistentContainer(name: "Items", managedObjectModel: model)
        container.persistentStoreDescriptions[0].type = NSInMemoryStoreType
        container.loadPersistentStores { _, error in XCTAssertNil(error) }
        let context = container.newBackgroundContext()
        context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            func code(_ value: Any, _ key: String) -> Int? {
                var v: Any? = value
                do { try item.validateValue(&v, forKey: key); return nil } catch { return (error as NSError).code }
            }
            XCTAssertEqual(code("A", "code"), NSValidationStringTooShortError)
            XCTAssertEqual(code("ABCDE", "code"), NSValidationStringTooLongError)
            XCTAssertEqual(code("ab", "code"), NSValidationStringPatternMatchingError)
            XCTAssertNil(code("ABC", "code"))
            XCTAssertEqual(code(0, "count"), NSValidationNumberTooSmallError)
            XCTAssertEqual(code(11, "count"), NSValidationNumberTooLargeError)
            XCTAssertNil(code(5, "count"))
        }
    }

    // MARK: - ocd model

    func testOcdModelPrintsEntitiesRelationshipsConfigurationsAndProblems() throws {
        let (status, output, _) = try runOCD(["model", try fixture("xcdatamodels/JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld").path])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(output.contains("Entities (2)"), output)
        XCTAssertTrue(output.contains("testDecimal       Decimal  optional"), output)
        XCTAssertTrue(output.contains("testToManyOrdered  → TestEntity2  to-many ordered  inverse TestEntity2.testToOne  delete Nullify  optional"), output)
        XCTAssertTrue(output.contains("Config1: TestEntity1AAA"), output)
        XCTAssertTrue(output.contains("model names '.TestEntity1', not in this program"), output)
        XCTAssertTrue(output.contains("Problems (0)"), output)

        let (missing, _, message) = try runOCD(["model", "/nonexistent/Model.xcdatamodeld"])
        XCTAssertEqual(missing, 1)
        XCTAssertTrue(message.contains("No Xcode model at '/nonexistent/Model.xcdatamodeld'"), message)
    }

    // MARK: - Bad input

    /// Writes `xml` as `Test.xcdatamodel/contents` and returns the folder.
    private func writeModel(_ xml: String) throws -> URL {
        try writeModel(Data(xml.utf8))
    }

    private func writeModel(_ data: Data) throws -> URL {
        let folder = try makeTemporaryDirectory("ocd-xcmodel").appendingPathComponent("Test.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: folder.appendingPathComponent("contents"))
        return folder
    }


    func testMissingPathThrowsNoSuchFile() throws {
        assertModelLoadFails(URL(fileURLWithPath: "/nonexistent/Model.xcdatamodeld"), code: CocoaError.Code.fileReadNoSuchFile.rawValue, mentioning: "No Xcode model")
    }

    func testFolderWithoutContentsThrows() throws {
        let version = try makeTemporaryDirectory("ocd-xcmodel").appendingPathComponent("Empty.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        assertModelLoadFails(version, code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "no 'contents' file")
        assertModelLoadFails(try makeTemporaryDirectory("ocd-xcmodel"), code: CocoaError.Code.fileReadNoSuchFile.rawValue, mentioning: "neither a 'contents' file")
    }

    func testMalformedXMLThrowsCorruptFile() throws {
        assertModelLoadFails(try writeModel("<model><entity name=\"A\"></model"), code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "not well-formed XML")
    }

    func testDeeplyNestedElementsThrowCorruptFileInsteadOfOverflowingTheStack() throws {
        let depth = 30_000
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><model>" + String(repeating: "<entity>", count: depth)
            + String(repeating: "</entity>", count: depth) + "</model>"
        assertModelLoadFails(try writeModel(xml), code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "nested more than \(XcodeXMLParser.maximumDepth) elements deep")
        // A nesting as deep as the limit still parses.
        let deepest = String(repeating: "<a>", count: XcodeXMLParser.maximumDepth) + String(repeating: "</a>", count: XcodeXMLParser.maximumDepth)
        XCTAssertNoThrow(try XcodeXMLParser.parse(Data(deepest.utf8)))
        XCTAssertThrowsError(try XcodeXMLParser.parse(Data(("<b>" + deepest + "</b>").utf8)))
    }

    func testGarbageBytesThrowCorruptFile() throws {
        var generator = SplitMix64(seed: 7)
        let bytes = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        assertModelLoadFails(try writeModel(bytes), code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "XML")
        assertModelLoadFails(try writeModel(Data()), code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "XML")
    }

    func testXMLThatIsNotAModelThrows() throws {
        assertModelLoadFails(try writeModel("<plist><dict/></plist>"), code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "not <model>")
    }

    /// The XML the loader accepts: what Xcode writes plus comments, CDATA, a byte order mark,
    /// single quotes and character references; and what it refuses.
    func testXMLSyntaxAcceptedAndRefused() throws {
        let accepted = try writeModel(Data([0xEF, 0xBB, 0xBF]) + Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment -->
            <model><![CDATA[ignored <text>]]>
              <entity name='Caf&#xE9;' representedClassName="&lt;&amp;&gt;&apos;&quot;&#65;"><!-- inside --></entity>
            </model>
            """.utf8))
        let model = try NSManagedObjectModel.load(contentsOf: accepted)
        XCTAssertEqual(names(model), ["Café"])
        XCTAssertEqual(try entity(model, "Café").representedClassName, "<&>'\"A")

        let corrupt = CocoaError.Code.fileReadCorruptFile.rawValue
        // Each of these crashed FoundationXML's XMLDocument or XMLParser on Linux.
        assertModelLoadFails(try writeModel("<?xml version=\"1.0\" encoding=\"PTF-8\"?><model/>"), code: corrupt, mentioning: "encoding")
        assertModelLoadFails(try writeModel(Data("<model><entity name=\"A\u{0}\"/></model>".utf8)), code: corrupt, mentioning: "NUL")
        assertModelLoadFails(try writeModel(Data([0x3C, 0x6D, 0xFF, 0xFE, 0x3E])), code: corrupt, mentioning: "UTF-8")
        assertModelLoadFails(try writeModel("<model/><model/>"), code: corrupt, mentioning: "second root")
        assertModelLoadFails(try writeModel("<model><entity></model></entity>"), code: corrupt, mentioning: "does not match")
        assertModelLoadFails(try writeModel("<model a=\"1\" a=\"2\"/>"), code: corrupt, mentioning: "repeated")
        assertModelLoadFails(try writeModel("<model a=\"&bogus;\"/>"), code: corrupt, mentioning: "unknown entity")
        assertModelLoadFails(try writeModel("<!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><model a=\"&x;\"/>"), code: corrupt, mentioning: "DOCTYPE")
    }

    func testGarbageElementsArchiveThrows() throws {
        let folder = try makeTemporaryDirectory("ocd-xcmodel").appendingPathComponent("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("bplist00 not really".utf8).write(to: folder.appendingPathComponent("elements"))
        assertModelLoadFails(folder, code: CocoaError.Code.fileReadCorruptFile.rawValue, mentioning: "Xcode 3")
    }

    func testBadVersionInfoThrows() throws {
        let model = try writeModel("<model><entity name=\"A\"/></model>")
        XCTAssertThrowsError(try NSManagedObjectModel.load(contentsOf: model, versionInfo: URL(fileURLWithPath: "/nonexistent.momd"))) {
            XCTAssertEqual(($0 as NSError).code, CocoaError.Code.fileReadNoSuchFile.rawValue)
        }
        let plist = try makeTemporaryDirectory("ocd-xcmodel").appendingPathComponent("VersionInfo.plist")
        try Data("not a plist".utf8).write(to: plist)
        XCTAssertThrowsError(try NSManagedObjectModel.load(contentsOf: model, versionInfo: plist)) {
            XCTAssertEqual(($0 as NSError).code, CocoaError.Code.fileReadCorruptFile.rawValue)
        }
    }

    func testCurrentVersionFallsBackToLastVersion() throws {
        let bundle = try makeTemporaryDirectory("ocd-xcmodel").appendingPathComponent("M.xcdatamodeld")
        for (version, entity) in [("M", "One"), ("M 2", "Two"), ("M 10", "Ten")] {
            let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("<model><entity name=\"\(entity)\"/></model>".utf8).write(to: folder.appendingPathComponent("contents"))
        }
        // No .xccurrentversion: the last version in numeric order ("M 10", not "M 2").
        let fallback = try NSManagedObjectModel.load(contentsOf: bundle)
        XCTAssertEqual(names(fallback), ["Ten"])
        XCTAssertTrue(fallback.loadingWarnings.contains { $0.contains("no readable .xccurrentversion") })

        let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "M 2.xcdatamodel"], format: .xml, options: 0)
        try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        XCTAssertEqual(names(try NSManagedObjectModel.load(contentsOf: bundle)), ["Two"])

        let missing = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "M 9.xcdatamodel"], format: .xml, options: 0)
        try missing.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let named = try NSManagedObjectModel.load(contentsOf: bundle)
        XCTAssertEqual(names(named), ["Ten"])
        XCTAssertTrue(named.loadingWarnings.contains { $0.contains("'M 9.xcdatamodel'") })
    }

    /// Defaults Xcode kept from an attribute's earlier type, as real apps' models have them
    /// (issue #31 found a Boolean with "0.0" and an Integer 64 with "NO"): read as Foundation's
    /// `NSString` conversions read them (`boolValue`, `longLongValue`, `doubleValue`), which is
    /// what Apple's model compiler stores as an `NSNumber`, with a warning naming the reading.
    /// Out-of-range integers keep having no default.
    func testDefaultsInAnotherTypesSpellingAreReadAsFoundationConvertsThem() throws {
        let url = try writeModel("""
            <model>
              <entity name="E">
                <attribute name="flag" optional="YES" attributeType="Boolean" defaultValueString="0.0"/>
                <attribute name="on" optional="YES" attributeType="Boolean" defaultValueString="1.0"/>
                <attribute name="tee" optional="YES" attributeType="Boolean" defaultValueString="true "/>
                <attribute name="count" optional="YES" attributeType="Integer 64" defaultValueString="NO"/>
                <attribute name="small" optional="YES" attributeType="Integer 16" defaultValueString="12abc"/>
                <attribute name="ratio" optional="YES" attributeType="Double" defaultValueString="2.5x"/>
                <attribute name="none" optional="YES" attributeType="Float" defaultValueString="YES"/>
                <attribute name="huge" optional="YES" attributeType="Integer 16" defaultValueString="70000x"/>
              </entity>
            </model>
            """)
        let model = try NSManagedObjectModel.load(contentsOf: url)
        func number(_ name: String) throws -> NSNumber? { try attribute(model, "E", name).defaultValue as? NSNumber }
        XCTAssertEqual(try number("flag"), NSNumber(value: false))
        XCTAssertEqual(try number("on"), NSNumber(value: true))
        XCTAssertEqual(try number("tee"), NSNumber(value: true))
        XCTAssertEqual(try number("count")?.int64Value, 0)
        XCTAssertEqual(try number("small")?.int16Value, 12)
        XCTAssertEqual(try number("ratio")?.doubleValue, 2.5)
        XCTAssertEqual(try number("none")?.floatValue, 0)
        XCTAssertNil(try number("huge"))
        let warnings = model.loadingWarnings.joined(separator: "\n")
        XCTAssertTrue(warnings.contains("'NO', which is not a valid Integer 64; it is read as 0"), warnings)
        XCTAssertTrue(warnings.contains("'70000x', which is not a valid Integer 16; it has no default value"), warnings)
    }

    func testContentProblemsBecomeWarningsOrProblemsNotCrashes() throws {
        let url = try writeModel("""
            <model>
              <entity name="A" parentEntity="B"><attribute name="x" attributeType="Integer 99"/></entity>
              <entity name="B" parentEntity="A">
                <relationship name="r" toMany="YES" deletionRule="Explode" destinationEntity="Nowhere" inverseName="q"/>
                <relationship name="s" optional="YES" maxCount="1" destinationEntity="A" inverseName="t" inverseEntity="B"/>
                <attribute name="d" optional="YES" attributeType="Integer 16" defaultValueString="70000"/>
              </entity>
              <fetchRequest name="bad" entity="A" predicateString="x == == 1"/>
              <fetchRequest name="good" entity="Missing" predicateString="x == 1"/>
              <configuration name="C"><memberEntity name="A"/><memberEntity name="Ghost"/></configuration>
            </model>
            """)
        let model = try NSManagedObjectModel.load(contentsOf: url)
        let warnings = model.loadingWarnings.joined(separator: "\n")
        XCTAssertTrue(warnings.contains("circular"), warnings)
        XCTAssertTrue(warnings.contains("'Integer 99'"), warnings)
        XCTAssertTrue(warnings.contains("'Explode'"), warnings)
        XCTAssertTrue(warnings.contains("'70000'"), warnings)
        XCTAssertTrue(warnings.contains("'x == == 1'"), warnings)
        XCTAssertTrue(warnings.contains("'Ghost'"), warnings)
        XCTAssertTrue(warnings.contains("inverse entity 'B' but destination 'A'"), warnings)
        XCTAssertNil(model.fetchRequestTemplate(forName: "bad"))
        XCTAssertEqual(model.fetchRequestTemplate(forName: "good")?.entityName, "Missing")
        XCTAssertNil(try attribute(model, "B", "d").defaultValue)
        // Exactly one of A and B got the other as parent; the cycle was cut.
        XCTAssertEqual(model.entities.filter { $0.superentity != nil }.count, 1)
        let problems = model.validationProblems().joined(separator: "\n")
        XCTAssertTrue(problems.contains("'A.x' has no type"), problems)
        XCTAssertTrue(problems.contains("'B.r' has no destination"), problems)
    }

    // MARK: - Fuzz

    /// Mutates a feature-rich model a few hundred times (deterministically) and loads each
    /// mutant: the loader may throw or warn, but must not crash or hang, and what it returns
    /// must survive the model's own walks (validation, copy, version hashes).
    func testFuzzedModelsNeverCrash() throws {
        let seedXML = Data(Self.fuzzSeed.utf8)
        let folder = try makeTemporaryDirectory("ocd-xcmodel").appendingPathComponent("Fuzz.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let contents = folder.appendingPathComponent("contents")
        let tokens = ["<", ">", "/>", "\"", "=", "&amp;", "YES", "NO", "-1", "0", "99999999999999999999", "A", "B", "C",
                      "parentEntity=\"A\" ", "parentEntity=\"C\" ", "destinationEntity=\"B\" ", "inverseName=\"r\" ",
                      "attributeType=\"Composite\" composite=\"K\" ", "toMany=\"YES\" ", "predicateString=\"%@ == $x\" ",
                      "<entity name=\"A\">", "</entity>", "<attribute name=\"a\"/>", "minValueString=\"x\" ", "\u{0}", "é"]
        var generator = SplitMix64(seed: 20261122)
        var loaded = 0, rejected = 0
        for _ in 0..<400 {
            var bytes = [UInt8](seedXML)
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(bytes.count + 1))
                switch generator.next() % 4 {
                case 0: // delete a run
                    let end = min(bytes.count, position + Int(generator.next() % 40))
                    bytes.removeSubrange(position..<end)
                case 1: // insert a token
                    bytes.insert(contentsOf: Array(tokens[Int(generator.next() % UInt64(tokens.count))].utf8), at: position)
                case 2: // duplicate a run
                    let end = min(bytes.count, position + Int(generator.next() % 200))
                    bytes.insert(contentsOf: Array(bytes[position..<end]), at: position)
                default: // flip a byte
                    if position < bytes.count { bytes[position] ^= UInt8(truncatingIfNeeded: generator.next() | 1) }
                }
            }
            try Data(bytes).write(to: contents)
            do {
                let model = try NSManagedObjectModel.load(contentsOf: folder)
                _ = model.validationProblems()
                _ = model.entityVersionHashesByName
                _ = (model.copy() as? NSManagedObjectModel)?.validationProblems()
                for entity in model.entities { _ = entity.propertiesByName; _ = entity.subentities.count }
                loaded += 1
            } catch {
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
                rejected += 1
            }
        }
        // Both paths must have been exercised, or the mutations are too weak or too strong.
        XCTAssertGreaterThan(loaded, 20)
        XCTAssertGreaterThan(rejected, 20)
    }

    /// The Xcode 3 archive reader walks UID references of a binary property list; mutated
    /// archives (dangling UIDs, wrong types, truncation) must load or throw, never crash.
    func testFuzzedXcode3ArchivesNeverCrash() throws {
        let original = try Data(contentsOf: fixture("apple-stores/magicalpanda__MagicalRecord/Recipes/Recipes.xcdatamodeld/Recipes.xcdatamodel/elements"))
        let folder = try makeTemporaryDirectory("ocd-xcmodel").appendingPathComponent("Fuzz.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SplitMix64(seed: 3)
        var loaded = 0
        for round in 0..<300 {
            var bytes = [UInt8](original)
            if round % 10 == 9 {
                bytes.removeSubrange(Int(generator.next() % UInt64(bytes.count))...)
            } else {
                // Flip bytes in the object table region (the top half) and the offset table.
                for _ in 0..<(1 + Int(generator.next() % 6)) {
                    let i = Int(generator.next() % UInt64(bytes.count))
                    bytes[i] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            try Data(bytes).write(to: folder.appendingPathComponent("elements"))
            if let model = try? NSManagedObjectModel.load(contentsOf: folder) {
                _ = model.validationProblems()
                loaded += 1
            }
        }
        XCTAssertGreaterThan(loaded, 10)
    }

    private static let fuzzSeed = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="v1">
            <entity name="A" representedClassName="AClass" isAbstract="YES" elementID="oldA" versionHashModifier="m">
                <attribute name="s" optional="YES" attributeType="String" minValueString="1" maxValueString="5" regularExpressionString="[a-z]*"/>
                <attribute name="n" attributeType="Integer 16" defaultValueString="3" minValueString="0" maxValueString="9"/>
                <attribute name="d" optional="YES" attributeType="Date" defaultDateTimeInterval="100" minDateTimeInterval="0"/>
                <attribute name="k" optional="YES" attributeType="Composite" composite="K"/>
                <attribute name="v" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="r.@count"/>
                <relationship name="r" optional="YES" toMany="YES" maxCount="4" deletionRule="Cascade" ordered="YES" destinationEntity="B" inverseName="q" inverseEntity="B"/>
                <fetchedProperty name="f" optional="YES"><fetchRequest name="fetchedPropertyFetchRequest" entity="B" predicateString="w == $FETCH_SOURCE"/></fetchedProperty>
                <fetchIndex name="byN"><fetchIndexElement property="n" type="Binary" order="descending"/></fetchIndex>
                <uniquenessConstraints><uniquenessConstraint><constraint value="s"/></uniquenessConstraint></uniquenessConstraints>
                <compoundIndexes><compoundIndex><index value="s"/><index value="n"/></compoundIndex></compoundIndexes>
                <userInfo><entry key="k" value="v"/></userInfo>
            </entity>
            <entity name="B" parentEntity="C">
                <attribute name="w" optional="YES" attributeType="UUID"/>
                <relationship name="q" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="A"/>
            </entity>
            <entity name="C"><attribute name="u" optional="YES" attributeType="URI" defaultValueString="https://example.com"/></entity>
            <composite name="K"><attribute name="x" optional="YES" attributeType="Double" defaultValueString="1.5"/></composite>
            <fetchRequest name="T" entity="A" predicateString="n > $min" fetchLimit="5" fetchBatchSize="2" returnDistinctResults="YES"/>
            <configuration name="Conf"><memberEntity name="A"/><memberEntity name="B"/></configuration>
        </model>
        """
}
