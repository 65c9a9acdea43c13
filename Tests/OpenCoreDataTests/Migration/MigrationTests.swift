import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Lightweight migration of SQLite stores: the inferred mapping, every lightweight change with
/// the data checked value by value, refusals that leave the file untouched, a migration killed
/// halfway, and `ocd migrate`.
final class MigrationTests: XCTestCase {
    private var directory: URL!
    private var storeURL: URL { directory.appendingPathComponent("Company.sqlite") }

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-migration")
    }

    // MARK: Helpers

    private func migrationOptions(from sources: [NSManagedObjectModel]) -> [AnyHashable: Any] {
        [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true, OCDMigrationSourceModelsOption: sources]
    }

    private func open(_ model: NSManagedObjectModel, options: [AnyHashable: Any]? = nil) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    /// Removes the coordinator's stores, which closes their files (and checkpoints their WAL).
    private func close(_ coordinator: NSPersistentStoreCoordinator) throws {
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }

    private func objects(_ entity: String, _ context: NSManagedObjectContext, sortedBy key: String, subentities: Bool = true) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
        request.includesSubentities = subentities
        return try context.performAndWait { try context.fetch(request) }
    }

    private func names(_ value: Any?, _ key: String) -> [String] {
        switch value {
        case let set as Set<NSManagedObject>: return set.map { $0.value(forKey: key) as? String ?? "nil" }.sorted()
        case let ordered as NSOrderedSet: return ordered.array.map { ($0 as! NSManagedObject).value(forKey: key) as? String ?? "nil" }
        case let object as NSManagedObject: return [object.value(forKey: key) as? String ?? "nil"]
        default: return []
        }
    }

    private func code(_ body: () throws -> Void) -> Int? {
        do { try body(); return nil } catch { return (error as NSError).code }
    }

    private func entity(_ model: NSManagedObjectModel, _ name: String) -> NSEntityDescription { model.entitiesByName[name]! }
    private func property<T: NSPropertyDescription>(_ model: NSManagedObjectModel, _ entity: String, _ name: String, as: T.Type = T.self) -> T {
        self.entity(model, entity).properties.first { $0.name == name } as! T
    }

    /// CompanyModel with `change` applied: a new model version built in code.
    private func variant(_ change: (NSManagedObjectModel) -> Void) -> NSManagedObjectModel {
        let model = CompanyModel.make()
        change(model)
        return model
    }

    /// v2 with one change of every lightweight kind: Department renamed Division, Project.title
    /// renamed name, Employee.email removed, Employee.nickname (optional) and Employee.level
    /// (non-optional, default 1) added, Badge removed, Office added, Manager.bonus widened to
    /// Integer 64.
    private func manyChanges() -> NSManagedObjectModel {
        variant { m in
            let department = entity(m, "Department")
            department.name = "Division"
            department.renamingIdentifier = "Department"
            let title: NSAttributeDescription = property(m, "Project", "title")
            title.name = "name"
            title.renamingIdentifier = "title"
            let employee = entity(m, "Employee")
            employee.properties.removeAll { $0.name == "email" || $0.name == "badge" }
            employee.properties.append(NSAttributeDescription(name: "nickname", type: .stringAttributeType))
            employee.properties.append(NSAttributeDescription(name: "level", type: .integer16AttributeType, isOptional: false, defaultValue: 1))
            let bonus: NSAttributeDescription = property(m, "Manager", "bonus")
            bonus.attributeType = .integer64AttributeType
            let office = NSEntityDescription(name: "Office", properties: [NSAttributeDescription(name: "city", type: .stringAttributeType)])
            m.entities = m.entities.filter { $0.name != "Badge" } + [office]
        }
    }

    /// Ann (Sales, manager Boss, projects Apollo and Gemini, badge B-1, email), Boss (a Manager,
    /// bonus 7, Apollo), Cy (no department, no last name); Apollo's milestones three, one, two.
    private func saveCompany(_ model: NSManagedObjectModel = CompanyModel.make()) throws -> [String: URL] {
        let (coordinator, context) = try open(model)
        var uris: [String: URL] = [:]
        try context.performAndWait {
            let sales = Department(context: context)
            sales.name = "Sales"
            sales.budget = 1.5
            let empty = Department(context: context)
            empty.name = "Empty"
            let boss = NSEntityDescription.insertNewObject(forEntityName: "Manager", into: context) as! Employee
            boss.firstName = "Boss"
            boss.lastName = "Big"
            boss.salary = 5000
            boss.setValue(7, forKey: "bonus")
            boss.department = sales
            let ann = Employee(context: context)
            ann.firstName = "Ann"
            ann.lastName = "Lee"
            ann.salary = 1000
            ann.email = "ann@example.com"
            ann.department = sales
            ann.manager = boss
            let cy = Employee(context: context)
            cy.firstName = "Cy"
            cy.salary = 10
            cy.startDate = Date(timeIntervalSinceReferenceDate: 86400)
            let apollo = Project(context: context)
            apollo.title = "Apollo"
            let gemini = Project(context: context)
            gemini.title = "Gemini"
            ann.projects = [apollo, gemini]
            boss.projects = [apollo]
            let milestones = ["one", "two", "three"].map { title -> Milestone in
                let m = Milestone(context: context)
                m.title = title
                return m
            }
            apollo.milestones = [milestones[2], milestones[0], milestones[1]]
            let badge = Badge(context: context)
            badge.code = "B-1"
            ann.badge = badge
            try context.save()
            for (name, object) in [("Ann", ann), ("Boss", boss), ("Cy", cy), ("Sales", sales), ("Apollo", apollo)] as [(String, NSManagedObject)] {
                uris[name] = object.objectID.uriRepresentation()
            }
        }
        try close(coordinator)
        return uris
    }

    private func fileBytes() throws -> Data { try Data(contentsOf: storeURL) }

    // MARK: The inferred mapping

    func testInferredMappingModelDescribesEveryEntityChange() throws {
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: CompanyModel.make(), destinationModel: manyChanges())
        let byName = mapping.entityMappingsByName
        XCTAssertEqual(Set(byName.keys), ["IEM_Remove_Badge", "IEM_Transform_Division", "IEM_Transform_Employee", "IEM_Transform_Manager",
                                          "IEM_Copy_Milestone", "IEM_Transform_Project", "IEM_Add_Office"])
        XCTAssertEqual(byName["IEM_Remove_Badge"]?.mappingType, .removeEntityMappingType)
        XCTAssertEqual(byName["IEM_Remove_Badge"]?.sourceEntityName, "Badge")
        XCTAssertNil(byName["IEM_Remove_Badge"]?.destinationEntityName)
        XCTAssertEqual(byName["IEM_Add_Office"]?.mappingType, .addEntityMappingType)
        XCTAssertEqual(byName["IEM_Add_Office"]?.attributeMappings?.map(\.name), ["city"])
        XCTAssertEqual(byName["IEM_Transform_Division"]?.mappingType, .transformEntityMappingType)
        XCTAssertEqual(byName["IEM_Transform_Division"]?.sourceEntityName, "Department")
        XCTAssertEqual(byName["IEM_Transform_Division"]?.destinationEntityName, "Division")
        // Milestone changed in nothing, so its records are copied.
        XCTAssertEqual(byName["IEM_Copy_Milestone"]?.mappingType, .copyEntityMappingType)
        let title = try XCTUnwrap(byName["IEM_Transform_Project"]?.attributeMappings?.first { $0.name == "name" })
        XCTAssertEqual(title.sourceName, "title")
        XCTAssertTrue(title.isRename)
        XCTAssertEqual(title.valueExpression?.description, #"FUNCTION($source, "valueForKey:", "title")"#)
        let employee = try XCTUnwrap(byName["IEM_Transform_Employee"])
        XCTAssertEqual(employee.mappingType, .transformEntityMappingType)
        XCTAssertEqual(Set(employee.attributeMappings?.compactMap(\.name) ?? []), ["firstName", "lastName", "salary", "startDate", "nickname", "level"],
                       "stored attributes only: email is gone, the transient isSelected is not mapped")
        XCTAssertNil(employee.attributeMappings?.first { $0.name == "nickname" }?.sourceName)
        XCTAssertEqual(Set(employee.relationshipMappings?.compactMap(\.name) ?? []), ["department", "manager", "directReports", "projects"])
        // Apple's userInfo: which destination properties come from the source, are new, or are gone.
        XCTAssertEqual(employee.userInfo?["addedProperties"] as? Set<String>, ["nickname", "level"])
        XCTAssertEqual(employee.userInfo?["removedProperties"] as? Set<String>, ["email", "badge"])
        XCTAssertEqual(employee.userInfo?["mappedProperties"] as? Set<String>, ["firstName", "lastName", "salary", "startDate", "department", "manager", "directReports", "projects"])
        XCTAssertEqual(byName["IEM_Transform_Project"]?.userInfo?["mappedProperties"] as? Set<String>, ["name", "members", "milestones"], "a renamed property under its new name")
        XCTAssertEqual(byName["IEM_Add_Office"]?.userInfo?["addedProperties"] as? Set<String>, ["city"])
        XCTAssertTrue(mapping.entityMappings.allSatisfy { $0.name.hasPrefix("IEM_") }, "inferred, as Apple's names say")
        // Inherited properties are mapped in the subentity too.
        XCTAssertEqual(byName["IEM_Transform_Manager"]?.attributeMappings?.contains { $0.name == "bonus" && $0.sourceName == "bonus" }, true)
    }

    /// A model that only renames an entity (with its renaming identifier) migrates the store,
    /// whose metadata then carries the new model's hashes.
    func testAStoreWhoseModelOnlyRenamedAnEntityMigrates() throws {
        let (v1Coordinator, v1Context) = try open(CompanyModel.make())
        try v1Context.performAndWait {
            Department(context: v1Context).name = "Sales"
            try v1Context.save()
        }
        try close(v1Coordinator)
        let v2 = variant { m in
            let department = entity(m, "Department")
            department.name = "Division"
            department.renamingIdentifier = "Department"
        }
        let (coordinator, context) = try open(v2, options: migrationOptions(from: [CompanyModel.make()]))
        let hashes = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: storeURL)[NSStoreModelVersionHashesKey] as? [String: Data]
        XCTAssertEqual(hashes, v2.entityVersionHashesByName)
        XCTAssertEqual(try objects("Division", context, sortedBy: "name").map { $0.value(forKey: "name") as? String }, ["Sales"])
        try close(coordinator)
    }

    func testRenamingIdentifiersWinOverEqualNames() throws {
        // Department is renamed Division, and a new, unrelated entity takes the name Department;
        // Project.title is renamed name, and a new attribute takes the name title.
        let v2 = variant { m in
            let department = entity(m, "Department")
            department.name = "Division"
            department.renamingIdentifier = "Department"
            let title: NSAttributeDescription = property(m, "Project", "title")
            title.name = "name"
            title.renamingIdentifier = "title"
            entity(m, "Project").properties.append(NSAttributeDescription(name: "title", type: .dateAttributeType))
            m.entities = [NSEntityDescription(name: "Department", properties: [NSAttributeDescription(name: "floor", type: .integer16AttributeType)])] + m.entities
        }
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: CompanyModel.make(), destinationModel: v2)
        let byName = mapping.entityMappingsByName
        XCTAssertEqual(byName["IEM_Transform_Division"]?.mappingType, .transformEntityMappingType)
        XCTAssertEqual(byName["IEM_Add_Department"]?.mappingType, .addEntityMappingType)
        XCTAssertNil(byName["IEM_Transform_Department"])
        XCTAssertNil(byName["IEM_Copy_Department"])
        let project = try XCTUnwrap(byName["IEM_Transform_Project"]?.attributeMappings)
        XCTAssertEqual(project.first { $0.name == "name" }?.sourceName, "title")
        XCTAssertNil(project.first { $0.name == "title" }?.sourceName, "the new title is not the old one (which was a string)")
    }

    func testInferenceRefusesChangesThatAreNotLightweightAndNamesThemAll() {
        let impossible = variant { m in
            let employee = entity(m, "Employee")
            employee.properties.append(NSAttributeDescription(name: "badgeNumber", type: .integer32AttributeType, isOptional: false))
            let title: NSAttributeDescription = property(m, "Project", "title")
            title.attributeType = .dateAttributeType
        }
        XCTAssertThrowsError(try NSMappingModel.inferredMappingModel(forSourceModel: CompanyModel.make(), destinationModel: impossible)) { error in
            let e = error as NSError
            XCTAssertEqual(e.code, NSInferredMappingModelError)
            XCTAssertTrue(e.localizedDescription.contains("'Employee.badgeNumber' is not optional and has no default value"), e.localizedDescription)
            XCTAssertTrue(e.localizedDescription.contains("'Project.title' changed type"), e.localizedDescription)
        }
    }

    // MARK: Migrating data

    func testLightweightMigrationCarriesEveryRecordValueByValue() throws {
        try migrateWithManyChanges(sources: [membersBecomeToOne(), CompanyModel.make()])
    }

    /// With `NSPersistentStoreDeferredLightweightMigrationOptionKey` the store is migrated whole
    /// when it is added (nothing is left for later), and finishing the deferred work succeeds.
    func testADeferredLightweightMigrationIsCompleteWhenTheStoreIsAdded() throws {
        let (v1Coordinator, v1Context) = try open(CompanyModel.make())
        try v1Context.performAndWait {
            let ann = Employee(context: v1Context)
            ann.firstName = "Ann"
            try v1Context.save()
        }
        try close(v1Coordinator)
        let v2 = variant { m in entity(m, "Employee").properties.append(NSAttributeDescription(name: "nickname", type: .stringAttributeType)) }
        var options = migrationOptions(from: [CompanyModel.make()])
        options[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
        let (coordinator, context) = try open(v2, options: options)
        XCTAssertTrue(try SQLiteInspector.rows(at: storeURL.path, "SELECT name FROM pragma_table_info('ZEMPLOYEE')").contains(["ZNICKNAME"]))
        try coordinator.finishDeferredLightweightMigration()
        try coordinator.finishDeferredLightweightMigrationTask()
        XCTAssertEqual(try objects("Employee", context, sortedBy: "firstName").map { $0.value(forKey: "firstName") as? String }, ["Ann"])
    }

    /// Without the old model, the store's own schema shows the changes of manyChanges() (no
    /// relationship or type changes), so the migration runs the same.
    func testWithoutTheSourceModelTheStoreSchemaStandsInForIt() throws {
        try migrateWithManyChanges(sources: [])
    }

    private func migrateWithManyChanges(sources: [NSManagedObjectModel]) throws {
        let uris = try saveCompany()
        let v2 = manyChanges()
        let (coordinator, context) = try open(v2, options: migrationOptions(from: sources))
        try context.performAndWait {
            let employees = try objects("Employee", context, sortedBy: "firstName")
            XCTAssertEqual(employees.map { $0.value(forKey: "firstName") as? String }, ["Ann", "Boss", "Cy"])
            let (ann, boss, cy) = (employees[0], employees[1], employees[2])
            XCTAssertEqual(ann.value(forKey: "lastName") as? String, "Lee")
            XCTAssertEqual(ann.value(forKey: "salary") as? Int64, 1000)
            XCTAssertNil(ann.value(forKey: "nickname"))
            XCTAssertEqual(ann.value(forKey: "level") as? Int16, 1, "a new attribute starts with its default value")
            XCTAssertEqual(names(ann.value(forKey: "department"), "name"), ["Sales"])
            XCTAssertTrue(ann.value(forKey: "manager") as? NSManagedObject === boss)
            XCTAssertEqual(names(ann.value(forKey: "projects"), "name"), ["Apollo", "Gemini"])
            XCTAssertEqual(boss.entity.name, "Manager")
            XCTAssertEqual(boss.value(forKey: "bonus") as? Int64, 7)
            XCTAssertEqual(boss.value(forKey: "salary") as? Int64, 5000)
            XCTAssertEqual(names(boss.value(forKey: "directReports"), "firstName"), ["Ann"])
            XCTAssertNil(cy.value(forKey: "lastName"))
            XCTAssertNil(cy.value(forKey: "department"))
            XCTAssertEqual(cy.value(forKey: "startDate") as? Date, Date(timeIntervalSinceReferenceDate: 86400))

            let divisions = try objects("Division", context, sortedBy: "name")
            XCTAssertEqual(divisions.map { $0.value(forKey: "name") as? String }, ["Empty", "Sales"])
            XCTAssertEqual(divisions[1].value(forKey: "budget") as? Double, 1.5)
            XCTAssertEqual(names(divisions[1].value(forKey: "employees"), "firstName"), ["Ann", "Boss"])

            let projects = try objects("Project", context, sortedBy: "name")
            XCTAssertEqual(projects.map { $0.value(forKey: "name") as? String }, ["Apollo", "Gemini"])
            XCTAssertEqual(names(projects[0].value(forKey: "members"), "firstName"), ["Ann", "Boss"])
            XCTAssertEqual(names(projects[0].value(forKey: "milestones"), "title"), ["three", "one", "two"], "the order survives")
            XCTAssertEqual(try objects("Milestone", context, sortedBy: "title").count, 3)
            XCTAssertEqual(try objects("Office", context, sortedBy: "city").count, 0)

            // Same store UUID and primary keys: object URIs saved before still name the same records.
            XCTAssertEqual(ann.objectID.uriRepresentation(), uris["Ann"])
            XCTAssertEqual(boss.objectID.uriRepresentation(), uris["Boss"])
            XCTAssertEqual(projects[0].objectID.uriRepresentation(), uris["Apollo"])
            XCTAssertEqual(divisions[1].objectID.uriRepresentation().lastPathComponent, uris["Sales"]?.lastPathComponent)

            // The migrated store takes new records with fresh keys.
            let dana = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            dana.setValue("Dana", forKey: "firstName")
            try context.save()
            XCTAssertEqual(dana.objectID.uriRepresentation().lastPathComponent, "p4", "new keys continue after the migrated ones (Ann, Boss, Cy: p1...p3)")
        }
        try close(coordinator)
        let tables = try SQLiteInspector.rows(at: storeURL.path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { $0[0]! }
        XCTAssertFalse(tables.contains("ZBADGE"))
        XCTAssertTrue(tables.contains("ZDIVISION") && tables.contains("ZOFFICE"), "\(tables)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + ".migrating"))

        // Opened again with v2, nothing is migrated; with v1 it is now the other model.
        let (again, _) = try open(v2, options: migrationOptions(from: []))
        try close(again)
        XCTAssertEqual(code { _ = try open(CompanyModel.make()) }, NSPersistentStoreIncompatibleVersionHashError)
    }

    func testAPersistentContainerMigratesWithItsDefaultOptions() throws {
        _ = try saveCompany()
        let container = NSPersistentContainer(name: "Company", managedObjectModel: manyChanges())
        let description = NSPersistentStoreDescription(url: storeURL)
        description.type = NSSQLiteStoreType
        XCTAssertTrue(description.shouldMigrateStoreAutomatically && description.shouldInferMappingModelAutomatically)
        description.setOption(CompanyModel.make(), forKey: OCDMigrationSourceModelsOption)
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        XCTAssertNil(loadError)
        let context = container.newBackgroundContext()
        XCTAssertEqual(try objects("Division", context, sortedBy: "name").map { $0.value(forKey: "name") as? String }, ["Empty", "Sales"])
        try close(container.persistentStoreCoordinator)
    }

    func testOptionalityAndDefaultValueChanges() throws {
        _ = try saveCompany()
        let v2 = variant { m in
            let lastName: NSAttributeDescription = property(m, "Employee", "lastName")
            lastName.isOptional = false
            lastName.defaultValue = "Unknown"
            let firstName: NSAttributeDescription = property(m, "Employee", "firstName")
            firstName.isOptional = true
            let title: NSAttributeDescription = property(m, "Project", "title")
            title.defaultValue = "Untitled"
        }
        let (coordinator, context) = try open(v2, options: migrationOptions(from: [CompanyModel.make()]))
        try context.performAndWait {
            let employees = try objects("Employee", context, sortedBy: "firstName")
            XCTAssertEqual(employees.map { $0.value(forKey: "lastName") as? String }, ["Lee", "Big", "Unknown"],
                           "values stay; a missing value of a now non-optional attribute gets the default")
            let project = NSEntityDescription.insertNewObject(forEntityName: "Project", into: context)
            XCTAssertEqual(project.value(forKey: "title") as? String, "Untitled")
        }
        try close(coordinator)
    }

    func testANewlyRequiredAttributeWithoutDefaultFailsWhenARecordLacksIt() throws {
        _ = try saveCompany()
        let before = try fileBytes()
        let v2 = variant { m in
            let lastName: NSAttributeDescription = property(m, "Employee", "lastName")
            lastName.isOptional = false
        }
        XCTAssertThrowsError(try open(v2, options: migrationOptions(from: [CompanyModel.make()]))) { error in
            let e = error as NSError
            XCTAssertEqual(e.code, NSMigrationError)
            XCTAssertTrue(e.localizedDescription.contains("'Employee.lastName' is no longer optional"), e.localizedDescription)
            XCTAssertTrue(e.localizedDescription.contains("original store was left unchanged"), e.localizedDescription)
        }
        XCTAssertEqual(try fileBytes(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + ".migrating"))
        let (coordinator, context) = try open(CompanyModel.make())
        XCTAssertEqual(try objects("Employee", context, sortedBy: "firstName").count, 3)
        try close(coordinator)
    }

    func testToOneBecomingToManyKeepsTheMember() throws {
        _ = try saveCompany()
        let v2 = variant { m in
            let department: NSRelationshipDescription = property(m, "Employee", "department")
            department.name = "departments"
            department.renamingIdentifier = "department"
            department.maxCount = 0
        }
        let (coordinator, context) = try open(v2, options: migrationOptions(from: [CompanyModel.make()]))
        try context.performAndWait {
            let employees = try objects("Employee", context, sortedBy: "firstName")
            XCTAssertEqual(employees.map { names($0.value(forKey: "departments"), "name") }, [["Sales"], ["Sales"], []])
            let departments = try objects("Department", context, sortedBy: "name")
            XCTAssertEqual(departments.map { names($0.value(forKey: "employees"), "firstName") }, [[], ["Ann", "Boss"]])
        }
        try close(coordinator)
        XCTAssertEqual(try SQLiteInspector.rows(at: storeURL.path, "SELECT COUNT(*) FROM Z_2EMPLOYEES")[0][0], "2",
                       "now many-to-many: the pairs live in a join table")
    }

    /// Project.members becomes to-one `lead` (renamed), so Employee.projects' inverse is to-one.
    private func membersBecomeToOne() -> NSManagedObjectModel {
        variant { m in
            let members: NSRelationshipDescription = property(m, "Project", "members")
            members.name = "lead"
            members.renamingIdentifier = "members"
            members.maxCount = 1
        }
    }

    func testToManyBecomingToOneKeepsTheOnlyMember() throws {
        _ = try saveCompany()
        // Leave each project at most one member first.
        let (v1, context1) = try open(CompanyModel.make())
        try context1.performAndWait {
            let ann = try objects("Employee", context1, sortedBy: "firstName")[0] as! Employee
            ann.projects = ann.projects.filter { $0.title == "Gemini" }
            try context1.save()
        }
        try close(v1)
        let (coordinator, context) = try open(membersBecomeToOne(), options: migrationOptions(from: [CompanyModel.make()]))
        try context.performAndWait {
            let projects = try objects("Project", context, sortedBy: "title")
            XCTAssertEqual(projects.map { names($0.value(forKey: "lead"), "firstName") }, [["Boss"], ["Ann"]])
            let employees = try objects("Employee", context, sortedBy: "firstName")
            XCTAssertEqual(employees.map { names($0.value(forKey: "projects"), "title") }, [["Gemini"], ["Apollo"], []])
        }
        try close(coordinator)
    }

    func testToManyBecomingToOneFailsWhenARecordHasSeveralAndLeavesTheFile() throws {
        _ = try saveCompany()
        let before = try fileBytes()
        XCTAssertThrowsError(try open(membersBecomeToOne(), options: migrationOptions(from: [CompanyModel.make()]))) { error in
            let e = error as NSError
            XCTAssertEqual(e.code, NSMigrationError)
            XCTAssertTrue(e.localizedDescription.contains("'Project.lead' became to-one, but record Project"), e.localizedDescription)
        }
        XCTAssertEqual(try fileBytes(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + ".migrating"))
    }

    // MARK: Refusals

    func testWithoutBothOptionsOpeningFailsWith134100AndTheFileIsByteIdentical() throws {
        _ = try saveCompany()
        let before = try fileBytes()
        let companions = ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: storeURL.path + $0) }
        let v2 = manyChanges()
        XCTAssertEqual(code { _ = try open(v2) }, NSPersistentStoreIncompatibleVersionHashError)
        XCTAssertEqual(code { _ = try open(v2, options: [NSMigratePersistentStoresAutomaticallyOption: true, OCDMigrationSourceModelsOption: [CompanyModel.make()]]) },
                       NSMigrationMissingMappingModelError, "without inference, migrating needs a mapping model")
        XCTAssertEqual(code { _ = try open(v2, options: [NSInferMappingModelAutomaticallyOption: true, OCDMigrationSourceModelsOption: [CompanyModel.make()]]) },
                       NSPersistentStoreIncompatibleVersionHashError, "migrating must be allowed too")
        XCTAssertEqual(try fileBytes(), before)
        XCTAssertEqual(["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: storeURL.path + $0) }, companions)
    }

    func testAnImpossibleMappingFailsWith134190AndTheFileIsByteIdentical() throws {
        _ = try saveCompany()
        let before = try fileBytes()
        let impossible = variant { m in
            entity(m, "Employee").properties.append(NSAttributeDescription(name: "badgeNumber", type: .integer32AttributeType, isOptional: false))
        }
        XCTAssertThrowsError(try open(impossible, options: migrationOptions(from: [CompanyModel.make()]))) { error in
            XCTAssertEqual((error as NSError).code, NSInferredMappingModelError)
            XCTAssertTrue((error as NSError).localizedDescription.contains("badgeNumber"))
        }
        XCTAssertEqual(try fileBytes(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + ".migrating"))
    }

    func testWithoutTheSourceModelATypeChangeTheFileCannotExplainFailsWith134130() throws {
        _ = try saveCompany()
        let before = try fileBytes()
        // Employee.salary becomes a String: its INTEGER column no longer fits the new model, so
        // the old model can't be rebuilt from the file.
        let v2 = variant { m in
            let salary: NSAttributeDescription = property(m, "Employee", "salary")
            salary.attributeType = .stringAttributeType
            salary.defaultValue = "0"
            salary.setValidationPredicates([], withValidationWarnings: [])
        }
        XCTAssertEqual(code { _ = try open(v2, options: migrationOptions(from: [])) }, NSMigrationMissingSourceModelError)
        XCTAssertEqual(try fileBytes(), before)
    }

    func testAMigrationWhileAnotherCoordinatorHasTheStoreOpenFailsAndLeavesIt() throws {
        _ = try saveCompany()
        let (holder, holderContext) = try open(CompanyModel.make())
        XCTAssertThrowsError(try open(manyChanges(), options: migrationOptions(from: [CompanyModel.make()]))) { error in
            XCTAssertEqual((error as NSError).code, NSMigrationError)
            XCTAssertTrue((error as NSError).localizedDescription.contains("another connection holds the store open"), (error as NSError).localizedDescription)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + ".migrating"))
        try holderContext.performAndWait {
            let ann = try objects("Employee", holderContext, sortedBy: "firstName")[0]
            ann.setValue("Anne", forKey: "firstName")
            try holderContext.save()
        }
        try close(holder)
        let (coordinator, context) = try open(CompanyModel.make())
        XCTAssertEqual(try objects("Employee", context, sortedBy: "firstName").map { $0.value(forKey: "firstName") as? String }, ["Anne", "Boss", "Cy"])
        try close(coordinator)
    }

    func testWithoutTheSourceModelARelationshipChangeFailsWith134130() throws {
        _ = try saveCompany()
        let before = try fileBytes()
        XCTAssertThrowsError(try open(membersBecomeToOne(), options: migrationOptions(from: [manyChanges()]))) { error in
            XCTAssertEqual((error as NSError).code, NSMigrationMissingSourceModelError)
            XCTAssertTrue((error as NSError).localizedDescription.contains("OCDMigrationSourceModelsOption"))
        }
        XCTAssertEqual(try fileBytes(), before)
    }

    // MARK: Xcode models, ocd migrate, and a kill during migration

    /// Writes an Xcode model folder `<name>.xcdatamodel` holding `entities` (XML elements).
    private func writeXcodeModel(_ name: String, _ entities: String) throws -> URL {
        let folder = directory.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            \(entities)
            </model>
            """
        try Data(xml.utf8).write(to: folder.appendingPathComponent("contents"))
        return folder
    }

    /// v1: Person (name, age) ⇄ Team (title), and Note. v2: Team renamed Group (elementID),
    /// Team.title renamed label, Person.nickname added, Note removed.
    private func writeXcodeModels() throws -> (v1: URL, v2: URL) {
        let v1 = try writeXcodeModel("V1", """
            <entity name="Person" representedClassName="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
                <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
            </entity>
            <entity name="Team" representedClassName="Team">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="team" inverseEntity="Person"/>
            </entity>
            <entity name="Note" representedClassName="Note">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            """)
        let v2 = try writeXcodeModel("V2", """
            <entity name="Person" representedClassName="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
                <attribute name="nickname" optional="YES" attributeType="String"/>
                <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Group" inverseName="members" inverseEntity="Group"/>
            </entity>
            <entity name="Group" representedClassName="Group" elementID="Team">
                <attribute name="label" optional="YES" attributeType="String" elementID="title"/>
                <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="team" inverseEntity="Person"/>
            </entity>
            """)
        return (v1, v2)
    }

    /// A store made with the v1 Xcode model: Ann (30) and Bob (40) in Red, Cy (no team) , Blue, one note.
    private func saveXcodeStore(_ v1: URL) throws {
        let (coordinator, context) = try open(try NSManagedObjectModel.load(contentsOf: v1))
        try context.performAndWait {
            let red = NSEntityDescription.insertNewObject(forEntityName: "Team", into: context)
            red.setValue("Red", forKey: "title")
            let blue = NSEntityDescription.insertNewObject(forEntityName: "Team", into: context)
            blue.setValue("Blue", forKey: "title")
            for (name, age, team) in [("Ann", 30, red), ("Bob", 40, red), ("Cy", 50, nil)] as [(String, Int, NSManagedObject?)] {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue(name, forKey: "name")
                person.setValue(age, forKey: "age")
                person.setValue(team, forKey: "team")
            }
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("remember", forKey: "text")
            try context.save()
        }
        try close(coordinator)
    }

    /// Checks the store still opens with the v1 model and has every v1 record.
    private func assertOriginalIntact(_ v1: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let (coordinator, context) = try open(try NSManagedObjectModel.load(contentsOf: v1))
        try context.performAndWait {
            let people = try objects("Person", context, sortedBy: "name")
            XCTAssertEqual(people.map { $0.value(forKey: "name") as? String }, ["Ann", "Bob", "Cy"], file: file, line: line)
            XCTAssertEqual(people.map { ($0.value(forKey: "age") as? NSNumber)?.intValue }, [30, 40, 50], file: file, line: line)
            XCTAssertEqual(people.map { names($0.value(forKey: "team"), "title") }, [["Red"], ["Red"], []], file: file, line: line)
            XCTAssertEqual(try objects("Team", context, sortedBy: "title").map { $0.value(forKey: "title") as? String }, ["Blue", "Red"], file: file, line: line)
            XCTAssertEqual(try objects("Note", context, sortedBy: "text").map { $0.value(forKey: "text") as? String }, ["remember"], file: file, line: line)
        }
        try close(coordinator)
    }

    func testOcdMigrateMigratesAndPrintsChangesAndRecordCounts() throws {
        let (v1, v2) = try writeXcodeModels()
        try saveXcodeStore(v1)
        let (status, output, errors) = try runOCD(["migrate", storeURL.path, "--from", v1.path, "--to", v2.path])
        XCTAssertEqual(status, 0, errors)
        for line in ["Migrating \(storeURL.path)", "  entity Note removed", "  entity Team renamed Group",
                     "  Person: attribute nickname added", "  Group: attribute title renamed label",
                     "  Group   2", "  Person  3", "Migrated: the store's metadata now carries OpenCoreData's version hashes of the new model"] {
            XCTAssertTrue(output.contains(line), "missing '\(line)' in:\n\(output)")
        }

        let (coordinator, context) = try open(try NSManagedObjectModel.load(contentsOf: v2))
        try context.performAndWait {
            let people = try objects("Person", context, sortedBy: "name")
            XCTAssertEqual(people.map { $0.value(forKey: "name") as? String }, ["Ann", "Bob", "Cy"])
            XCTAssertEqual(people.map { ($0.value(forKey: "age") as? NSNumber)?.intValue }, [30, 40, 50])
            XCTAssertEqual(people.map { names($0.value(forKey: "team"), "label") }, [["Red"], ["Red"], []])
            XCTAssertEqual(try objects("Group", context, sortedBy: "label").map { $0.value(forKey: "label") as? String }, ["Blue", "Red"])
        }
        try close(coordinator)

        let (again, secondOutput, _) = try runOCD(["migrate", storeURL.path, "--from", v1.path, "--to", v2.path])
        XCTAssertEqual(again, 0)
        XCTAssertTrue(secondOutput.contains("nothing to migrate"), secondOutput)

        let (usage, _, usageErrors) = try runOCD(["migrate", storeURL.path, "--from", v1.path])
        XCTAssertEqual(usage, 2)
        XCTAssertTrue(usageErrors.contains("usage: ocd migrate"), usageErrors)
    }

    func testOcdMigrateReportsAnImpossibleMigrationAndLeavesTheStore() throws {
        let (v1, _) = try writeXcodeModels()
        try saveXcodeStore(v1)
        let before = try fileBytes()
        let v3 = try writeXcodeModel("V3", """
            <entity name="Person" representedClassName="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Date"/>
            </entity>
            """)
        let (status, _, errors) = try runOCD(["migrate", storeURL.path, "--from", v1.path, "--to", v3.path])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("'Person.age' changed type") && errors.contains("134190"), errors)
        XCTAssertEqual(try fileBytes(), before)
    }

    /// Runs `ocd migrate` with the test pause at `point`, kills it there with SIGKILL, and
    /// checks that the original store still opens with the old model with every record.
    private func killMigration(at point: String) throws {
        let (v1, v2) = try writeXcodeModels()
        try saveXcodeStore(v1)
        let process = Process()
        process.executableURL = try ocdExecutable()
        process.arguments = ["migrate", storeURL.path, "--from", v1.path, "--to", v2.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["OCD_MIGRATION_TEST_PAUSE": point]) { _, new in new }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        var seen = ""
        while !seen.contains("OCD_MIGRATION_PAUSED \(point)") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }   // the process ended without pausing
            seen += String(decoding: chunk, as: UTF8.self)
        }
        XCTAssertTrue(seen.contains("OCD_MIGRATION_PAUSED \(point)"), "ocd did not reach the pause: \(seen)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: storeURL.path + ".migrating"), "the migrated copy was being written")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        try assertOriginalIntact(v1)

        // A later migration cleans up the half-written copy and succeeds.
        let (status, output, errors) = try runOCD(["migrate", storeURL.path, "--from", v1.path, "--to", v2.path])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("  Person  3"), output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + ".migrating"))
        XCTAssertEqual(code { _ = try open(try NSManagedObjectModel.load(contentsOf: v1)) }, NSPersistentStoreIncompatibleVersionHashError)
    }

    func testAMigrationKilledWhileWritingTheCopyLeavesTheOriginalReadable() throws {
        try killMigration(at: "after-schema")
    }

    func testAMigrationKilledJustBeforeTheReplaceLeavesTheOriginalReadable() throws {
        try killMigration(at: "before-replace")
    }

    // MARK: A store Apple's framework wrote

    /// CoreDataPlus's SampleModel_V1.sqlite (Apple's), migrated to SampleModel2 as Apple's
    /// framework did it to make SampleModel_V2.sqlite: ExpensiveSportCar renamed LuxuryCar
    /// (elementID), Car.color and Person.id removed. Source and destination are matched by the
    /// hashes in the compiled model's VersionInfo.plist.
    func testAnAppleStoreMigratesToTheNextVersionOfItsXcodeModel() throws {
        let base = fixturesRoot.appendingPathComponent("apple-stores/alemar11__CoreDataPlus/SampleModel")
        let fixture = base.appendingPathComponent("Fixtures/SampleModel_V1.sqlite")
        guard FileManager.default.fileExists(atPath: fixture.path) else {
            XCTFail("Missing fixture \(fixture.path). Set OCD_FIXTURES to the shared fixtures directory.")
            return
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: fixture.path + suffix) {
            try FileManager.default.copyItem(atPath: fixture.path + suffix, toPath: storeURL.path + suffix)
        }
        let momd = base.appendingPathComponent("Fixtures/SampleModel.momd")
        let v1 = try NSManagedObjectModel.load(contentsOf: base.appendingPathComponent("SampleModel.xcdatamodeld/SampleModel.xcdatamodel"), versionInfo: momd)
        let v2 = try NSManagedObjectModel.load(contentsOf: base.appendingPathComponent("SampleModel.xcdatamodeld/SampleModel2.xcdatamodel"), versionInfo: momd)
        XCTAssertNotNil(v1.appleEntityVersionHashesByName)

        let (coordinator, context) = try open(v2, options: migrationOptions(from: [v2, v1]))
        XCTAssertEqual(coordinator.persistentStores.first?.identifier, "753753D3-A961-4901-AB05-8CC48B1D3853", "the store keeps its UUID")
        try context.performAndWait {
            func count(_ entity: String) throws -> Int {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.includesSubentities = false
                return try context.count(for: request)
            }
            XCTAssertEqual(try count("Car"), 115)
            XCTAssertEqual(try count("SportCar"), 5)
            XCTAssertEqual(try count("LuxuryCar"), 5)
            XCTAssertEqual(try count("Person"), 20)
            let byPlate = NSFetchRequest<NSManagedObject>(entityName: "Car")
            byPlate.predicate = NSPredicate(format: "numberPlate == %@", "300")
            let bmw = try XCTUnwrap(context.fetch(byPlate).first)
            XCTAssertEqual(bmw.entity.name, "LuxuryCar")
            XCTAssertEqual(bmw.value(forKey: "maker") as? String, "BMW")
            XCTAssertEqual(bmw.value(forKey: "model") as? String, "M6 Coupe")
            XCTAssertEqual(bmw.value(forKey: "isLimitedEdition") as? Bool, true)
            XCTAssertEqual(bmw.objectID.uriRepresentation().absoluteString, "x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/LuxuryCar/p87")
            let owner = try XCTUnwrap(bmw.value(forKey: "owner") as? NSManagedObject)
            XCTAssertEqual(owner.value(forKey: "firstName") as? String, "Faron")
            XCTAssertEqual(owner.value(forKey: "lastName") as? String, "Moreton")
            XCTAssertEqual(Set(names(owner.value(forKey: "cars"), "numberPlate")), ["3", "300"])
        }
        try close(coordinator)
        XCTAssertEqual(try SQLiteInspector.rows(at: storeURL.path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'")[0][0], "125")
    }
}
