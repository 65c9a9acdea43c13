import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Entities, properties, inheritance, configurations, version hashes, and model problems.
final class ManagedObjectModelTests: XCTestCase {
    func testEntitiesPropertiesAndInheritance() {
        let model = CompanyModel.make()
        let employee = model.entitiesByName["Employee"]!, manager = model.entitiesByName["Manager"]!
        XCTAssertTrue(manager.superentity === employee)
        XCTAssertEqual(employee.subentities, [manager])
        XCTAssertNotNil(manager.propertiesByName["firstName"], "subentities inherit properties")
        XCTAssertNotNil(manager.attributesByName["bonus"])
        XCTAssertNil(employee.attributesByName["bonus"])
        XCTAssertEqual(employee.relationshipsByName["department"]?.destinationEntity?.name, "Department")
        XCTAssertEqual(employee.relationshipsByName["department"]?.inverseRelationship?.name, "employees")
        XCTAssertTrue(employee.relationshipsByName["directReports"]!.isToMany)
        XCTAssertFalse(employee.relationshipsByName["manager"]!.isToMany)
        XCTAssertTrue(manager.isKindOf(entity: employee))
        XCTAssertFalse(employee.isKindOf(entity: manager))
        XCTAssertEqual(employee.relationships(forDestination: model.entitiesByName["Department"]!).map(\.name), ["department"])
        XCTAssertEqual(model.entitiesByName["Department"]!.attributesByName["budget"]?.attributeValueClassName, "NSNumber")
    }

    func testVersionHashesAreDeterministicAndSensitive() {
        let a = CompanyModel.make(), b = CompanyModel.make()
        XCTAssertEqual(a.entityVersionHashesByName, b.entityVersionHashesByName)
        XCTAssertEqual(a.entityVersionHashesByName["Employee"]?.count, 32)
        b.entitiesByName["Employee"]!.attributesByName["lastName"]!.isOptional = false
        XCTAssertNotEqual(a.entityVersionHashesByName["Employee"], b.entityVersionHashesByName["Employee"])
        XCTAssertEqual(a.entityVersionHashesByName["Department"], b.entityVersionHashesByName["Department"])
        let c = CompanyModel.make()
        c.entitiesByName["Department"]!.versionHashModifier = "v2"
        XCTAssertNotEqual(a.entityVersionHashesByName["Department"], c.entityVersionHashesByName["Department"])
    }

    func testConfigurationsPlaceEntities() {
        let model = CompanyModel.make()
        model.setEntities([model.entitiesByName["Department"]!], forConfigurationName: "Org")
        XCTAssertEqual(model.configurations, ["Org"])
        XCTAssertEqual(model.entities(forConfigurationName: "Org")?.map(\.name), ["Department"])
        XCTAssertEqual(model.entities(forConfigurationName: nil)?.count, 6)
        XCTAssertNil(model.entities(forConfigurationName: "Missing"))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: "Missing", at: nil))
        XCTAssertNoThrow(try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: "Org", at: nil))
    }

    func testInsertNewObjectResolvesTheSubclass() {
        let stack = TestStack()
        stack.context.performAndWait {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: stack.context)
            XCTAssertTrue(object is Employee)
            XCTAssertEqual(NSEntityDescription.entity(forEntityName: "Department", in: stack.context)?.name, "Department")
            XCTAssertTrue(Employee.entity().name == "Employee" || Employee.entity().name == "Manager")
        }
    }

    func testModelIsFrozenOnceACoordinatorUsesItAndCopiesAreMutable() {
        let model = CompanyModel.make()
        _ = NSPersistentStoreCoordinator(managedObjectModel: model)
        let copy = model.copy() as! NSManagedObjectModel
        copy.entitiesByName["Department"]!.versionHashModifier = "changed"  // allowed on the copy
        XCTAssertEqual(copy.entities.count, model.entities.count)
        XCTAssertTrue(copy.entitiesByName["Employee"]!.relationshipsByName["department"]!.destinationEntity === copy.entitiesByName["Department"])
        XCTAssertTrue(copy.entitiesByName["Manager"]!.superentity === copy.entitiesByName["Employee"])
    }

    func testBrokenModelsAreReportedWhenTheStoreIsAdded() {
        func problems(_ build: (NSManagedObjectModel) -> Void) -> NSError? {
            let model = CompanyModel.make()
            build(model)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            do { try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil); return nil }
            catch { return error as NSError }
        }
        let missingDestination = problems { $0.entitiesByName["Employee"]!.relationshipsByName["badge"]!.destinationEntity = nil }
        XCTAssertEqual(missingDestination?.code, NSCoreDataError)
        XCTAssertTrue(missingDestination?.localizedDescription.contains("Employee.badge") ?? false)

        let brokenInverse = problems { $0.entitiesByName["Employee"]!.relationshipsByName["department"]!.inverseRelationship = $0.entitiesByName["Project"]!.relationshipsByName["members"] }
        XCTAssertTrue(brokenInverse?.localizedDescription.contains("inverse") ?? false)

        let unknownClass = problems { $0.entitiesByName["Badge"]!.managedObjectClassName = "NoSuchModule.NoSuchClass" }
        XCTAssertTrue(unknownClass?.localizedDescription.contains("NoSuchModule.NoSuchClass") ?? false)

        XCTAssertNil(problems { _ in }, "the intact model has no problems")
    }

    func testUnknownStoreTypeThrows134000() {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: "Nope", configurationName: nil, at: nil)) {
            XCTAssertEqual(($0 as NSError).code, NSPersistentStoreInvalidTypeError)
        }
    }

    func testCoordinatorStoreManagement() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        let store = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        XCTAssertEqual(store.type, NSInMemoryStoreType)
        XCTAssertNotNil(store.metadata[NSStoreUUIDKey])
        XCTAssertEqual(store.identifier, store.metadata[NSStoreUUIDKey] as? String)
        XCTAssertNotNil(NSPersistentStoreCoordinator.registeredStoreTypes[NSInMemoryStoreType])
        try coordinator.remove(store)
        XCTAssertTrue(coordinator.persistentStores.isEmpty)
        XCTAssertThrowsError(try coordinator.remove(store))
    }

    /// `init(context:)` finds the entity of the subclass: its only entity, or among several
    /// entities of the class the one named like it.
    func testInitWithContextPicksTheEntityOfItsClass() throws {
        func context(entities names: [String]) throws -> NSManagedObjectContext {
            let model = NSManagedObjectModel()
            model.entities = names.map { NSEntityDescription(name: $0, className: "OpenCoreDataTests.PlainRecord") }
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
        let single = try context(entities: ["Staff"])
        single.performAndWait { XCTAssertEqual(PlainRecord(context: single).entity.name, "Staff") }
        let several = try context(entities: ["Temp", "PlainRecord", "Intern"])
        several.performAndWait { XCTAssertEqual(PlainRecord(context: several).entity.name, "PlainRecord") }
    }

    /// `init(context:)` gives each object its own class's entity, whichever class came before
    /// it, in a root context and in a child context, and each context its own model's.
    func testInitWithContextFollowsTheClassFromObjectToObject() throws {
        let stack = TestStack()
        let other = TestStack()  // another model with the same classes
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        for context in [stack.context, child, other.context] {
            context.performAndWait {
                let model = context.persistentStoreCoordinator!.managedObjectModel
                for _ in 0..<2 {
                    let e = Employee(context: context), d = Department(context: context), e2 = Employee(context: context)
                    XCTAssertTrue(e.entity === model.entitiesByName["Employee"])
                    XCTAssertTrue(d.entity === model.entitiesByName["Department"])
                    XCTAssertTrue(e2.entity === model.entitiesByName["Employee"])
                }
            }
        }
        XCTAssertFalse(stack.model === other.model)

        // A context given another coordinator finds the entity in the new model.
        let moved = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        moved.persistentStoreCoordinator = stack.coordinator
        moved.performAndWait {
            XCTAssertTrue(Employee(context: moved).entity === stack.model.entitiesByName["Employee"])
            moved.reset()
            moved.persistentStoreCoordinator = other.coordinator
            XCTAssertTrue(Employee(context: moved).entity === other.model.entitiesByName["Employee"])
        }
    }

    /// Every new object starts from the attributes' default values, whatever was written to
    /// the objects made before it: new objects of an entity whose defaults are numbers, dates
    /// and nil start from a copy of the same bytes, other entities from a shared array.
    func testNewObjectsStartFromTheDefaultValuesAndKeepTheirOwn() throws {
        let model = NSManagedObjectModel()
        let gauge = NSEntityDescription(), label = NSEntityDescription()
        gauge.name = "Gauge"
        label.name = "Label"
        func attribute(_ name: String, _ type: NSAttributeType, _ value: Any?) -> NSAttributeDescription {
            let a = NSAttributeDescription()
            a.name = name
            a.attributeType = type
            a.defaultValue = value
            return a
        }
        let epoch = Date(timeIntervalSinceReferenceDate: 86_400)
        gauge.properties = [attribute("count", .integer64AttributeType, 7), attribute("level", .doubleAttributeType, 2.5),
                            attribute("on", .booleanAttributeType, true), attribute("since", .dateAttributeType, epoch),
                            attribute("note", .stringAttributeType, nil)]
        label.properties = [attribute("text", .stringAttributeType, "blank"), attribute("size", .integer16AttributeType, 12)]
        model.entities = [gauge, label]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            let first = NSManagedObject(entity: gauge, insertInto: context)
            let second = NSManagedObject(entity: gauge, insertInto: context)
            first.setValue(99, forKey: "count")
            first.setValue(0.5, forKey: "level")
            first.setValue(false, forKey: "on")
            first.setValue(Date(timeIntervalSinceReferenceDate: 5), forKey: "since")
            first.setValue("changed", forKey: "note")
            let third = NSManagedObject(entity: gauge, insertInto: context)
            let detached = NSManagedObject(entity: gauge, insertInto: nil)
            detached.setValue(3, forKey: "count")
            context.insert(detached)
            for object in [second, third] {
                XCTAssertEqual(object.value(forKey: "count") as? Int64, 7)
                XCTAssertEqual(object.value(forKey: "level") as? Double, 2.5)
                XCTAssertEqual(object.value(forKey: "on") as? Bool, true)
                XCTAssertEqual(object.value(forKey: "since") as? Date, epoch)
                XCTAssertNil(object.value(forKey: "note"))
            }
            XCTAssertEqual(first.value(forKey: "count") as? Int64, 99)
            XCTAssertEqual(first.value(forKey: "note") as? String, "changed")
            XCTAssertEqual(detached.value(forKey: "count") as? Int64, 3)
            XCTAssertEqual(detached.value(forKey: "level") as? Double, 2.5)

            let a = NSManagedObject(entity: label, insertInto: context), b = NSManagedObject(entity: label, insertInto: context)
            a.setValue("mine", forKey: "text")
            a.setValue(1, forKey: "size")
            XCTAssertEqual(b.value(forKey: "text") as? String, "blank")
            XCTAssertEqual(b.value(forKey: "size") as? Int16, 12)
            XCTAssertEqual(NSManagedObject(entity: label, insertInto: context).value(forKey: "text") as? String, "blank")
        }
    }

    /// The overlay's attribute types name the same types as `NSAttributeType`, both ways, for
    /// attributes and for expression descriptions.
    func testAttributeTypesInTheOverlaysSpelling() {
        let pairs: [(NSAttributeDescription.AttributeType, NSAttributeType)] = [
            (.undefined, .undefinedAttributeType), (.integer16, .integer16AttributeType), (.integer32, .integer32AttributeType),
            (.integer64, .integer64AttributeType), (.decimal, .decimalAttributeType), (.double, .doubleAttributeType),
            (.float, .floatAttributeType), (.string, .stringAttributeType), (.boolean, .booleanAttributeType),
            (.date, .dateAttributeType), (.binaryData, .binaryDataAttributeType), (.uuid, .UUIDAttributeType),
            (.uri, .URIAttributeType), (.transformable, .transformableAttributeType), (.objectID, .objectIDAttributeType),
            (.composite, .compositeAttributeType),
        ]
        for (type, attributeType) in pairs {
            let a = NSAttributeDescription()
            a.type = type
            XCTAssertEqual(a.attributeType, attributeType)
            a.attributeType = attributeType
            XCTAssertEqual(a.type, type)
            XCTAssertEqual(NSAttributeDescription.AttributeType(rawValue: attributeType), type)
        }
        let total = NSExpressionDescription()
        total.resultType = .integer64
        XCTAssertEqual(total.expressionResultType, .integer64AttributeType)
        XCTAssertEqual(total.resultType, .integer64)
    }

    /// Models merge into one (entities, configurations, templates); two models with an entity of
    /// one name do not; `forStoreMetadata` merges only what can open the store; a bundle's Xcode
    /// models merge as `mergedModel(from:)`.
    func testModelsMergeFromModelsAndFromBundles() throws {
        func model(_ names: [String]) -> NSManagedObjectModel {
            let m = NSManagedObjectModel()
            m.entities = names.map { NSEntityDescription(name: $0, properties: [NSAttributeDescription(name: "title", type: .stringAttributeType)]) }
            return m
        }
        let a = model(["Book"]), b = model(["Order", "Line"])
        b.setFetchRequestTemplate(NSFetchRequest<NSFetchRequestResult>(entityName: "Order"), forName: "AllOrders")
        let merged = try XCTUnwrap(NSManagedObjectModel(byMerging: [a, b]))
        XCTAssertEqual(Set(merged.entitiesByName.keys), ["Book", "Order", "Line"])
        XCTAssertNotNil(merged.fetchRequestTemplate(forName: "AllOrders"))
        XCTAssertFalse(merged.entities[0] === a.entities[0], "the merged model holds copies")
        XCTAssertNil(NSManagedObjectModel(byMerging: [a, model(["Book"])]), "two entities named Book")
        XCTAssertNil(NSManagedObjectModel(byMerging: nil))

        let metadata: [String: Any] = [NSStoreModelVersionHashesKey: merged.entityVersionHashesByName]
        XCTAssertNotNil(NSManagedObjectModel(byMerging: [a, b], forStoreMetadata: metadata))
        let otherOrder = model(["Order"])
        otherOrder.entities[0].properties.append(NSAttributeDescription(name: "total", type: .doubleAttributeType))
        XCTAssertNil(NSManagedObjectModel(byMerging: [a, otherOrder], forStoreMetadata: metadata), "Order differs from the store's")

        let bundleFolder = try makeTemporaryDirectory("ocd-bundle")
        let xcdatamodel = bundleFolder.appendingPathComponent("Shop.xcdatamodel")
        try FileManager.default.createDirectory(at: xcdatamodel, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
                <entity name="Customer" representedClassName="NSManagedObject"><attribute name="name" optional="YES" attributeType="String"/></entity>
            </model>
            """.utf8).write(to: xcdatamodel.appendingPathComponent("contents"))
        let bundle = try XCTUnwrap(Bundle(path: bundleFolder.path))
        let fromBundle = try XCTUnwrap(NSManagedObjectModel.mergedModel(from: [bundle]))
        XCTAssertEqual(fromBundle.entitiesByName.keys.sorted(), ["Customer"])
        XCTAssertNil(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: metadata))
    }

    /// Subentities by name, and the model's version checksum: what a SQLite store records.
    func testSubentitiesByNameAndTheVersionChecksum() throws {
        let model = CompanyModel.make()
        XCTAssertEqual(model.entitiesByName["Employee"]?.subentitiesByName.keys.sorted(), ["Manager"])
        let url = try makeTemporaryDirectory("ocd-checksum").appendingPathComponent("C.sqlite")
        let store = try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .sqlite, at: url)
        XCTAssertEqual(store.metadata[NSPersistentStoreModelVersionChecksumKey] as? String, model.versionChecksum)
        XCTAssertEqual(NSPersistentStoreModelVersionChecksumKey, "NSStoreModelVersionChecksumKey", "the key Apple's stores write")
        let changed = CompanyModel.make()
        changed.entitiesByName["Badge"]!.properties.append(NSAttributeDescription(name: "extra", type: .stringAttributeType))
        XCTAssertNotEqual(changed.versionChecksum, model.versionChecksum, "another schema, another checksum")
        XCTAssertEqual(CompanyModel.make().versionChecksum, model.versionChecksum)
    }

    /// Index element collations have Apple's type and values.
    func testFetchIndexElementTypesHaveApplesValues() {
        XCTAssertEqual(NSFetchIndexElementType.binary.rawValue, 0)
        XCTAssertEqual(NSFetchIndexElementType.rTree.rawValue, 1)
        let element = NSFetchIndexElementDescription(property: NSAttributeDescription(name: "n", type: .doubleAttributeType), collationType: .rTree)
        let collation: NSFetchIndexElementType = element.collationType
        XCTAssertEqual(collation, .rTree)
    }

    /// An object ID copies as itself: it never changes once made.
    func testAnObjectIDCopiesAsItself() throws {
        let stack = TestStack()
        let id = try stack.context.performAndWait {
            let e = stack.employee("A")
            try stack.context.save()
            return e.objectID
        }
        XCTAssertTrue(id.copy() as AnyObject === id)
        XCTAssertEqual(id.copy(with: nil) as? NSManagedObjectID, id)
    }


    /// The model's descriptions copy as Apple's do (`NSCopying`): deep copies in no model,
    /// mutable even when the original is in use, relationships still naming their destination.
    func testModelDescriptionsCopyDeeplyAndUnattached() throws {
        let model = CompanyModel.make()
        _ = NSPersistentStoreCoordinator(managedObjectModel: model)   // in use: frozen
        let modelCopy = try XCTUnwrap(model.copy(with: nil) as? NSManagedObjectModel)
        XCTAssertFalse(modelCopy === model)
        XCTAssertEqual(modelCopy.entitiesByName.keys.sorted(), model.entitiesByName.keys.sorted())
        XCTAssertEqual(modelCopy.entityVersionHashesByName, model.entityVersionHashesByName)
        modelCopy.entitiesByName["Badge"]!.name = "Pass"              // the copy is mutable
        XCTAssertNotNil(model.entitiesByName["Badge"], "the original is unchanged")

        let employee = try XCTUnwrap(model.entitiesByName["Employee"])
        let entityCopy = try XCTUnwrap(employee.copy() as? NSEntityDescription)
        XCTAssertNil(entityCopy.managedObjectModel)
        XCTAssertEqual(entityCopy.propertiesByName.keys.sorted(), employee.propertiesByName.keys.sorted())
        XCTAssertFalse(entityCopy.propertiesByName["salary"] === employee.propertiesByName["salary"])
        XCTAssertTrue(entityCopy.relationshipsByName["department"]?.destinationEntity === model.entitiesByName["Department"])

        let salary = try XCTUnwrap(employee.attributesByName["salary"])
        let salaryCopy = try XCTUnwrap(salary.copy(with: nil) as? NSAttributeDescription)
        XCTAssertNil(salaryCopy.entity as NSEntityDescription?)
        XCTAssertEqual(salaryCopy.attributeType, salary.attributeType)
        XCTAssertEqual(salaryCopy.versionHash, salary.versionHash)

        let index = NSFetchIndexDescription(name: "bySalary", elements: [NSFetchIndexElementDescription(property: salary, collationType: .binary)])
        let indexCopy = try XCTUnwrap(index.copy(with: nil) as? NSFetchIndexDescription)
        XCTAssertEqual(indexCopy.name, "bySalary")
        XCTAssertEqual(indexCopy.elements.count, 1)
        XCTAssertFalse(indexCopy.elements[0] === index.elements[0])
        XCTAssertEqual((index.elements[0].copy(with: nil) as? NSFetchIndexElementDescription)?.collationType, .binary)
    }
}

/// A subclass with no properties of its own, for entities that only need a class.
final class PlainRecord: NSManagedObject {}

/// Models built in code with the convenience initializers: properties are linked to their entity,
/// and a model that breaks a rule is a thrown error, never a trap.
final class ModelBuiltInCodeTests: XCTestCase {
    private func departmentAndEmployees() -> (NSManagedObjectModel, NSRelationshipDescription, NSRelationshipDescription) {
        let employees = NSRelationshipDescription()
        employees.name = "employees"
        employees.maxCount = 0
        let department = NSRelationshipDescription()
        department.name = "department"
        department.maxCount = 1
        let d = NSEntityDescription(name: "Department", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType), employees])
        let e = NSEntityDescription(name: "Employee", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType), department])
        employees.destinationEntity = e
        department.destinationEntity = d
        employees.inverseRelationship = department
        department.inverseRelationship = employees
        let model = NSManagedObjectModel()
        model.entities = [d, e]
        return (model, employees, department)
    }

    func testPropertiesPassedToTheConvenienceInitializerBelongToTheEntity() throws {
        let (model, employees, department) = departmentAndEmployees()
        XCTAssertTrue(employees.entity === model.entitiesByName["Department"])
        XCTAssertTrue(department.entity === model.entitiesByName["Employee"])
        XCTAssertTrue(model.entitiesByName["Employee"]!.attributesByName["name"]!.entity === model.entitiesByName["Employee"])

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = newContext(coordinator)
        try context.performAndWait {
            let sales = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
            let ann = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            ann.setValue(sales, forKey: "department")
            XCTAssertEqual((sales.value(forKey: "employees") as? Set<NSManagedObject>)?.count, 1, "the inverse is maintained")
            try context.save()
        }
    }

    func testBrokenModelsBuiltInCodeThrowInsteadOfTrapping() {
        func addingStore(_ model: NSManagedObjectModel) -> NSError? {
            do {
                try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
                return nil
            } catch { return error as NSError }
        }
        // An inverse that belongs to no entity of the model.
        var (model, employees, _) = departmentAndEmployees()
        let stray = NSRelationshipDescription()
        stray.name = "stray"
        employees.inverseRelationship = stray
        XCTAssertEqual(addingStore(model)?.code, NSCoreDataError)

        // A relationship whose destination is not in the model.
        (model, employees, _) = departmentAndEmployees()
        employees.destinationEntity = NSEntityDescription(name: "Elsewhere")
        XCTAssertEqual(addingStore(model)?.code, NSCoreDataError)

        // A superentity outside the model.
        (model, _, _) = departmentAndEmployees()
        let outside = NSEntityDescription(name: "Outside")
        outside.subentities = [model.entitiesByName["Employee"]!]
        XCTAssertEqual(addingStore(model)?.code, NSCoreDataError)

        // An entity listed twice.
        (model, _, _) = departmentAndEmployees()
        model.entities = model.entities + [model.entities[0]]
        XCTAssertEqual(addingStore(model)?.code, NSCoreDataError)

        // An inheritance cycle: each entity the other's superentity.
        let a = NSEntityDescription(name: "A"), b = NSEntityDescription(name: "B")
        a.subentities = [b]
        b.subentities = [a]
        let cyclic = NSManagedObjectModel()
        cyclic.entities = [a, b]
        let cycle = addingStore(cyclic)
        XCTAssertEqual(cycle?.code, NSCoreDataError)
        XCTAssertTrue(cycle?.localizedDescription.contains("inherits from itself") ?? false, "\(String(describing: cycle))")
    }
}

/// A model and its descriptions are freed once nothing uses them: servers that load a model per
/// tenant, and test suites that build one per test, must not grow without bound.
final class ModelLifetimeTests: XCTestCase {
    private struct Weak { weak var object: AnyObject? }

    /// Runs `body` in a scope of its own, so that everything it made is released when it returns.
    private func inScope(_ body: () throws -> Void) rethrows { try body() }

    private func weakReferences(to model: NSManagedObjectModel) -> [Weak] {
        var references = [Weak(object: model)]
        for entity in model.entities {
            references.append(Weak(object: entity))
            for property in entity.properties { references.append(Weak(object: property)) }
        }
        return references
    }

    func testAModelWithRelationshipsIsFreed() {
        var references: [Weak] = []
        inScope {
            let model = CompanyModel.make()
            XCTAssertFalse(model.entities.flatMap(\.properties).filter { $0 is NSRelationshipDescription }.isEmpty)
            _ = model.entityVersionHashesByName
            references = weakReferences(to: model)
        }
        XCTAssertEqual(references.filter { $0.object != nil }.map { "\($0.object!)" }, [])
    }

    func testAModelUsedByAStackIsFreedWithTheStack() throws {
        var references: [Weak] = []
        try inScope {
            let model = CompanyModel.make()
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
            let context = newContext(coordinator)
            try context.performAndWait {
                let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
                d.setValue("Sales", forKey: "name")
                try context.save()
            }
            references = weakReferences(to: model) + [Weak(object: coordinator), Weak(object: context), Weak(object: coordinator.persistentStores[0])]
        }
        XCTAssertEqual(references.filter { $0.object != nil }.map { "\($0.object!)" }, [])
    }

    func testAModelLoadedFromXcodeFilesIsFreed() throws {
        let url = try appleStores().deletingLastPathComponent().appendingPathComponent("xcdatamodels")
        let all = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let models = all.filter { $0.pathExtension == "xcdatamodeld" }.prefix(4)
        XCTAssertFalse(models.isEmpty)
        for modelURL in models {
            var references: [Weak] = []
            try inScope {
                references = weakReferences(to: try NSManagedObjectModel.load(contentsOf: modelURL))
            }
            XCTAssertEqual(references.filter { $0.object != nil }.map { "\($0.object!)" }, [], modelURL.lastPathComponent)
        }
    }

}
