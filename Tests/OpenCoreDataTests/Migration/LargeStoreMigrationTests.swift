import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Lightweight migration of a store far larger than one batch of the migration's streaming
/// copy: every record and every relationship must come through, including relationships
/// whose two ends are copied in different batches or tables.
final class LargeStoreMigrationTests: XCTestCase {
    private var directory: URL!
    private var storeURL: URL { directory.appendingPathComponent("Large.sqlite") }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-large-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    static let employeeCount = 50_000
    static let departmentCount = 100
    static let projectCount = 500
    /// Milestone j belongs to project j % projectCount, so each project has three milestones
    /// a few hundred keys apart (in different batches of the copy).
    static let milestoneCount = 1_500

    /// Employee i's manager: an employee far before or after it, so the foreign key often
    /// points into another batch.
    static func managerIndex(of i: Int) -> Int? {
        let m = (i * 7_919 + 13) % employeeCount
        return m == i ? nil : m
    }
    static func projectIndices(of i: Int) -> Set<Int> { [i % projectCount, (i * 13 + 7) % projectCount] }
    /// Project p's milestones, in order: the latest-inserted first, so the order differs from
    /// key order.
    static func milestoneIndices(of p: Int) -> [Int] { [p + 2 * projectCount, p, p + projectCount] }

    /// v2: Department renamed Division, Project.title renamed name, Employee.nickname added.
    private func version2() -> NSManagedObjectModel {
        let model = CompanyModel.make()
        let department = model.entitiesByName["Department"]!
        department.name = "Division"
        department.renamingIdentifier = "Department"
        let title = model.entitiesByName["Project"]!.properties.first { $0.name == "title" }!
        title.name = "name"
        title.renamingIdentifier = "title"
        model.entitiesByName["Employee"]!.properties.append(NSAttributeDescription(name: "nickname", type: .stringAttributeType))
        return model
    }

    private func open(_ model: NSManagedObjectModel, options: [AnyHashable: Any]? = nil) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    private func close(_ coordinator: NSPersistentStoreCoordinator) throws {
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }

    /// Saves the v1 store; returns the URI of every 997th employee by index.
    private func saveLargeStore() throws -> [Int: URL] {
        let (coordinator, context) = try open(CompanyModel.make())
        var uris: [Int: URL] = [:]
        try context.performAndWait {
            let departments = (0..<Self.departmentCount).map { d -> Department in
                let department = Department(context: context)
                department.name = "D\(d)"
                department.budget = Double(d) + 0.5
                return department
            }
            let projects = (0..<Self.projectCount).map { p -> Project in
                let project = Project(context: context)
                project.title = "P\(p)"
                return project
            }
            let milestones = (0..<Self.milestoneCount).map { j -> Milestone in
                let milestone = Milestone(context: context)
                milestone.title = "M\(j)"
                return milestone
            }
            for (p, project) in projects.enumerated() {
                project.milestones = Self.milestoneIndices(of: p).map { milestones[$0] }
            }
            let employees = (0..<Self.employeeCount).map { i -> Employee in
                // Every hundredth is a Manager: the subentity shares Employee's table and keys.
                let employee = i % 100 == 0
                    ? NSEntityDescription.insertNewObject(forEntityName: "Manager", into: context) as! Employee
                    : Employee(context: context)
                employee.firstName = "E\(i)"
                employee.salary = Int64(i)
                if i % 3 != 0 { employee.email = "e\(i)@example.com" }
                if i % 100 == 0 { employee.setValue(i / 100, forKey: "bonus") }
                employee.department = departments[i % Self.departmentCount]
                return employee
            }
            for (i, employee) in employees.enumerated() {
                employee.manager = Self.managerIndex(of: i).map { employees[$0] }
                employee.projects = Set(Self.projectIndices(of: i).map { projects[$0] })
            }
            try context.save()
            for i in stride(from: 0, to: Self.employeeCount, by: 997) { uris[i] = employees[i].objectID.uriRepresentation() }
            context.reset()
        }
        try close(coordinator)
        return uris
    }

    func testEveryRowAndRelationshipOfFiftyThousandEmployeesSurvivesMigration() throws {
        let uris = try saveLargeStore()
        let (coordinator, context) = try open(version2(), options: [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: true,
            OCDMigrationSourceModelsOption: [CompanyModel.make()],
        ])
        try context.performAndWait {
            func all(_ entity: String, by key: String) throws -> [NSManagedObject] {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
                request.returnsObjectsAsFaults = false
                return try context.fetch(request)
            }
            // Sorted by the number in the name, so index i is record i.
            let departments = try all("Division", by: "budget")
            XCTAssertEqual(departments.map { $0.value(forKey: "name") as? String }, (0..<Self.departmentCount).map { "D\($0)" })
            let projects = try all("Project", by: "name").sorted { Int(($0.value(forKey: "name") as! String).dropFirst())! < Int(($1.value(forKey: "name") as! String).dropFirst())! }
            XCTAssertEqual(projects.map { $0.value(forKey: "name") as? String }, (0..<Self.projectCount).map { "P\($0)" })
            let employees = try all("Employee", by: "salary")
            XCTAssertEqual(employees.count, Self.employeeCount)
            guard employees.count == Self.employeeCount, projects.count == Self.projectCount, departments.count == Self.departmentCount else { return }

            var wrong: [String] = []
            func check(_ ok: Bool, _ what: @autoclosure () -> String) {
                if !ok && wrong.count < 10 { wrong.append(what()) }
            }
            for (i, employee) in employees.enumerated() {
                check(employee.value(forKey: "firstName") as? String == "E\(i)", "E\(i) firstName \(employee.value(forKey: "firstName") ?? "nil")")
                check((employee.value(forKey: "salary") as? NSNumber)?.intValue == i, "E\(i) salary")
                check(employee.value(forKey: "email") as? String == (i % 3 != 0 ? "e\(i)@example.com" : nil), "E\(i) email")
                check(employee.value(forKey: "nickname") == nil, "E\(i) nickname")
                check(employee.entity.name == (i % 100 == 0 ? "Manager" : "Employee"), "E\(i) entity \(employee.entity.name ?? "?")")
                if i % 100 == 0 { check((employee.value(forKey: "bonus") as? NSNumber)?.intValue == i / 100, "E\(i) bonus") }
                // Related objects are the registered ones, so identity says which record it is.
                check(employee.value(forKey: "department") as? NSManagedObject === departments[i % Self.departmentCount], "E\(i) department")
                let manager = employee.value(forKey: "manager") as? NSManagedObject
                check(manager === Self.managerIndex(of: i).map { employees[$0] }, "E\(i) manager")
                let related = (employee.value(forKey: "projects") as? Set<NSManagedObject> ?? []).map(ObjectIdentifier.init)
                check(Set(related) == Set(Self.projectIndices(of: i).map { ObjectIdentifier(projects[$0]) }), "E\(i) projects")
            }
            XCTAssertEqual(wrong, [], "first wrong values")

            // The other ends, read from the migrated store.
            for (d, department) in departments.enumerated() {
                let members = department.value(forKey: "employees") as? Set<NSManagedObject> ?? []
                XCTAssertEqual(members.count, Self.employeeCount / Self.departmentCount, "D\(d)")
            }
            var expectedMembers = [Int](repeating: 0, count: Self.projectCount)
            for i in 0..<Self.employeeCount { for p in Self.projectIndices(of: i) { expectedMembers[p] += 1 } }
            XCTAssertEqual(projects.map { ($0.value(forKey: "members") as? Set<NSManagedObject> ?? []).count }, expectedMembers)
            let orders = projects.map { project in
                ((project.value(forKey: "milestones") as? NSOrderedSet)?.array ?? []).map { ($0 as! NSManagedObject).value(forKey: "title") as? String ?? "nil" }
            }
            XCTAssertEqual(orders, (0..<Self.projectCount).map { p in Self.milestoneIndices(of: p).map { "M\($0)" } })

            // Keys were kept: object URIs from before the migration name the same records.
            for (i, uri) in uris {
                let id = try XCTUnwrap(coordinator.managedObjectID(forURIRepresentation: uri), "E\(i)")
                XCTAssertEqual(context.object(with: id).value(forKey: "firstName") as? String, "E\(i)")
            }
        }
        try close(coordinator)
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + ".migrating"))
    }
}
