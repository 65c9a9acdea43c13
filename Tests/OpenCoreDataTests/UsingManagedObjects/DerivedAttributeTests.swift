import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Derived attributes (`NSDerivedAttributeDescription`): a save computes them, as Apple's store
/// does — key paths of the object or through a to-one relationship, aggregates of a to-many
/// relationship, `now()`, and `lowercase:`/`uppercase:`/`canonical:` of a key path — and a
/// change at the far end of a relationship updates the objects that read through it.
final class DerivedAttributeTests: XCTestCase {
    private func derived(_ name: String, _ type: NSAttributeType, _ format: String) -> NSDerivedAttributeDescription {
        let attribute = NSDerivedAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = true
        attribute.derivationExpression = NSExpression(format: format)
        return attribute
    }

    /// Department (employeeCount, payroll, key, savedAt derived) and Employee (departmentName).
    private func model(extra: [NSDerivedAttributeDescription] = []) -> NSManagedObjectModel {
        let department = NSEntityDescription(name: "Department"), employee = NSEntityDescription(name: "Employee")
        let employees = NSRelationshipDescription(), worksIn = NSRelationshipDescription()
        employees.name = "employees"; employees.destinationEntity = employee; employees.maxCount = 0; employees.inverseRelationship = worksIn
        worksIn.name = "department"; worksIn.destinationEntity = department; worksIn.maxCount = 1; worksIn.inverseRelationship = employees
        department.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), employees,
                                 derived("employeeCount", .integer64AttributeType, "employees.@count"),
                                 derived("payroll", .integer64AttributeType, "employees.@sum.salary"),
                                 derived("key", .stringAttributeType, "canonical:(name)"),
                                 derived("savedAt", .dateAttributeType, "now()")] + extra
        employee.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType),
                               NSAttributeDescription(name: "salary", type: .integer64AttributeType, defaultValue: 0), worksIn,
                               derived("departmentName", .stringAttributeType, "department.name"),
                               derived("upperName", .stringAttributeType, "uppercase:(name)")]
        let model = NSManagedObjectModel()
        model.entities = [department, employee]
        return model
    }

    private func context(_ model: NSManagedObjectModel, at url: URL, options: [AnyHashable: Any]? = nil) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    private func insert(_ entity: String, _ values: [String: Any], into context: NSManagedObjectContext) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        object.setValuesForKeys(values)
        return object
    }

    func testASaveComputesEachDerivationAndChangesAtTheFarEndUpdateIt() throws {
        let model = model()
        let url = try makeTemporaryDirectory("ocd-derived").appendingPathComponent("Company.sqlite")
        let context = try context(model, at: url)
        try context.performAndWait {
            let sales = insert("Department", ["name": "Crème BRÛLÉE"], into: context)
            let tools = insert("Department", ["name": "Tools"], into: context)
            let ann = insert("Employee", ["name": "Ann", "salary": 100, "department": sales], into: context)
            _ = insert("Employee", ["name": "Bob", "salary": 50, "department": sales], into: context)
            XCTAssertNil(sales.value(forKey: "employeeCount"), "computed at save, not before")
            let beforeSave = Date()
            try context.save()
            XCTAssertEqual(sales.value(forKey: "employeeCount") as? Int64, 2)
            XCTAssertEqual(sales.value(forKey: "payroll") as? Int64, 150)
            XCTAssertEqual(sales.value(forKey: "key") as? String, "creme brulee")
            XCTAssertEqual(tools.value(forKey: "employeeCount") as? Int64, 0)
            XCTAssertEqual(ann.value(forKey: "departmentName") as? String, "Crème BRÛLÉE")
            XCTAssertEqual(ann.value(forKey: "upperName") as? String, "ANN")
            let savedAt = try XCTUnwrap(sales.value(forKey: "savedAt") as? Date)
            XCTAssertGreaterThanOrEqual(savedAt, beforeSave)
            XCTAssertFalse(context.hasChanges, "the computed values were saved")

            // Ann moves: both departments' counts and payrolls change, and her department name.
            ann.setValue(tools, forKey: "department")
            try context.save()
            XCTAssertEqual(sales.value(forKey: "employeeCount") as? Int64, 1)
            XCTAssertEqual(sales.value(forKey: "payroll") as? Int64, 50)
            XCTAssertEqual(tools.value(forKey: "employeeCount") as? Int64, 1)
            XCTAssertEqual(tools.value(forKey: "payroll") as? Int64, 100)
            XCTAssertEqual(ann.value(forKey: "departmentName") as? String, "Tools")

            // A renamed department renames its employees' copies; a deleted employee leaves the count.
            tools.setValue("Hardware", forKey: "name")
            try context.save()
            XCTAssertEqual(ann.value(forKey: "departmentName") as? String, "Hardware")
            XCTAssertEqual(tools.value(forKey: "key") as? String, "hardware")
            context.delete(ann)
            try context.save()
            XCTAssertEqual(tools.value(forKey: "employeeCount") as? Int64, 0)
            XCTAssertEqual(tools.value(forKey: "payroll") as? Int64, 0)

            // now() is the time of the object's last save: a save that leaves it alone keeps it.
            let salesSavedAt = try XCTUnwrap(sales.value(forKey: "savedAt") as? Date)
            _ = insert("Department", ["name": "Other"], into: context)
            try context.save()
            XCTAssertEqual(sales.value(forKey: "savedAt") as? Date, salesSavedAt)
        }

        // The values are in the store: another coordinator reads them.
        let reader = try self.context(model, at: url)
        try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Department")
            request.predicate = NSPredicate(format: "employeeCount == 1")
            XCTAssertEqual(try reader.fetch(request).compactMap { $0.value(forKey: "name") as? String }, ["Crème BRÛLÉE"])
        }
    }

    func testAChildContextsSaveLeavesDerivationToTheRootsSave() throws {
        let url = try makeTemporaryDirectory("ocd-derived-child").appendingPathComponent("Company.sqlite")
        let root = try context(model(), at: url)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        try child.performAndWait {
            let sales = insert("Department", ["name": "Sales"], into: child)
            _ = insert("Employee", ["name": "Ann", "department": sales], into: child)
            try child.save()
            XCTAssertNil(sales.value(forKey: "employeeCount"), "the parent, not a store, received the save")
        }
        try root.performAndWait {
            try root.save()
            let sales = try root.fetch(NSFetchRequest<NSManagedObject>(entityName: "Department")).first
            XCTAssertEqual(sales?.value(forKey: "employeeCount") as? Int64, 1)
        }
    }

    /// A derivation no store computes is a clear error when the store is added, not a wrong value.
    func testADerivationThatCantBeComputedStopsTheStoreFromBeingAdded() throws {
        let unsupported = derived("names", .stringAttributeType, "employees.name")
        let model = model(extra: [unsupported])
        XCTAssertTrue(model.validationProblems().contains { $0.contains("Derived attribute 'Department.names' is derived as 'employees.name'") }, "\(model.validationProblems())")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)) { error in
            XCTAssertEqual((error as NSError).code, 134060)
            XCTAssertTrue((error as NSError).localizedDescription.contains("reads a to-many relationship without @count"), (error as NSError).localizedDescription)
        }
    }

    /// A store Apple's framework made keeps its derived attributes with triggers: a save leaves
    /// them to the store, which counts an inserted page once, not twice.
    func testTheTriggersOfAStoreAppleMadeKeepTheirAttributes() throws {
        let url = try copyAppleStore("alemar11__CoreDataPlus/SampleModel2/Fixtures/SampleModel2_V1.sqlite")
        let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url)
        let pagesCount = try XCTUnwrap(model.entitiesByName["Book"]?.attributesByName["pagesCount"] as? NSDerivedAttributeDescription)
        XCTAssertEqual(pagesCount.derivationExpression?.description, "pages.@count")
        // The store keeps persistent history: without the option it opens read-only, as Apple's does.
        let context = try self.context(model, at: url, options: [NSPersistentHistoryTrackingKey: true])
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "title == %@", "title 1 - author 1")
            let book = try XCTUnwrap(try context.fetch(request).first)
            XCTAssertEqual(book.value(forKey: "pagesCount") as? Int64, 99)
            let page = NSEntityDescription.insertNewObject(forEntityName: "Page", into: context)
            page.setValue(1000, forKey: "number")
            // Page.content is a required transformable of a class this program lacks: bytes
            // stand in for it. (Making it optional would change the model's version: Apple's
            // hash of Page no longer matches the store's, and opening refuses it.)
            page.setValue(Data([1]), forKey: "content")
            page.setValue(book, forKey: "book")
            try context.save()
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZPAGESCOUNT FROM ZBOOK WHERE ZTITLE = 'title 1 - author 1'"), [["100"]])
    }
}
