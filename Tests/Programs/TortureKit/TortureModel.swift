import OpenCoreData

/// The store the crash and stress harnesses torture (`ocd-torture`, `ReliabilityTests`), and the
/// rules its saves follow, so that a check can tell from the file alone whether every save is
/// whole.
///
/// Save `n` of the save loop (n = 1, 2, ...):
/// - inserts `Department` "save n" with ``employees(inSave:)`` employees; every fourth save
///   gives its first employee a ``photoSize``-byte photo, which the SQLite store keeps in an
///   external file;
/// - when `n` is a multiple of 3, deletes department "save n-2", whose employees go with it
///   (cascade) and whose photo file is removed after the commit;
/// - sets `Counter.value` to `n`.
public enum TortureModel {
    /// Just over the 128 KiB above which the SQLite store keeps a value in a file.
    public static let photoSize = 140 * 1024

    public static func employees(inSave n: Int) -> Int { 2 + n % 4 }
    public static func deletedDepartment(bySave n: Int) -> Int? { n % 3 == 0 && n > 2 ? n - 2 : nil }
    public static func hasPhoto(save n: Int) -> Bool { n % 4 == 0 }
    public static func photo(save n: Int) -> Data { Data((0..<photoSize).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ n) }) }

    /// Department (name, save) ↔ employees (cascade) / department; Employee (name, save, photo:
    /// external storage); Counter (value); and for the stress harness Shared (w0...w3), Item
    /// (worker, sequence) and Tag (name, unique; worker).
    ///
    /// Version 2 adds an optional `nickname` to Employee: the lightweight migration the crash
    /// harness kills part way.
    public static func make(version: Int = 1) -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
            NSAttributeDescription(name: name, type: type, isOptional: optional)
        }
        let department = NSEntityDescription(name: "Department")
        let employee = NSEntityDescription(name: "Employee")
        let employees = NSRelationshipDescription()
        employees.name = "employees"
        employees.maxCount = 0
        employees.deleteRule = .cascadeDeleteRule
        employees.destinationEntity = employee
        let owner = NSRelationshipDescription()
        owner.name = "department"
        owner.maxCount = 1
        owner.deleteRule = .nullifyDeleteRule
        owner.destinationEntity = department
        employees.inverseRelationship = owner
        owner.inverseRelationship = employees
        department.properties = [attribute("name", .stringAttributeType), attribute("save", .integer64AttributeType, optional: false), employees]
        let photo = attribute("photo", .binaryDataAttributeType)
        photo.allowsExternalBinaryDataStorage = true
        employee.properties = [attribute("name", .stringAttributeType), attribute("save", .integer64AttributeType, optional: false), photo, owner]
            + (version >= 2 ? [attribute("nickname", .stringAttributeType)] : [])
        let counter = NSEntityDescription(name: "Counter")
        counter.properties = [attribute("value", .integer64AttributeType, optional: false)]
        let shared = NSEntityDescription(name: "Shared")
        shared.properties = (0..<4).map { attribute("w\($0)", .integer64AttributeType, optional: false) }
        let item = NSEntityDescription(name: "Item")
        item.properties = [attribute("worker", .integer64AttributeType, optional: false), attribute("sequence", .integer64AttributeType, optional: false)]
        let tag = NSEntityDescription(name: "Tag")
        tag.properties = [attribute("name", .stringAttributeType, optional: false), attribute("worker", .integer64AttributeType, optional: false)]
        tag.uniquenessConstraints = [["name"]]
        let model = NSManagedObjectModel()
        model.entities = [department, employee, counter, shared, item, tag]
        return model
    }

    /// A coordinator with the SQLite store at `url` added, and a private-queue context on it
    /// with `mergePolicy`.
    /// `version` 2 migrates a version-1 store first (lightweight, all or nothing).
    /// `extraOptions` are added to the store's options.
    public static func open(_ url: URL, version: Int = 1, mergePolicy: Any = NSErrorMergePolicy, extraOptions: [AnyHashable: Any] = [:]) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: make(version: version))
        var options: [AnyHashable: Any] = [NSPersistentStoreTimeoutOption: 30]
        options.merge(extraOptions) { _, extra in extra }
        if version >= 2 {
            options[NSMigratePersistentStoresAutomaticallyOption] = true
            options[NSInferMappingModelAutomaticallyOption] = true
            options[OCDMigrationSourceModelsOption] = [make(version: 1)]
        }
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.mergePolicy = mergePolicy
        return (coordinator, context)
    }

    /// Runs save `n` of the save loop in `context` (on its queue).
    public static func save(_ n: Int, in context: NSManagedObjectContext) throws {
        let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
        department.setValue("save \(n)", forKey: "name")
        department.setValue(n, forKey: "save")
        for i in 0..<employees(inSave: n) {
            let employee = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            employee.setValue("employee \(i) of save \(n)", forKey: "name")
            employee.setValue(n, forKey: "save")
            if i == 0 && hasPhoto(save: n) { employee.setValue(photo(save: n), forKey: "photo") }
            employee.setValue(department, forKey: "department")
        }
        if let old = deletedDepartment(bySave: n) {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Department")
            request.predicate = NSPredicate(format: "save == %d", old)
            for object in try context.fetch(request) { context.delete(object) }
        }
        let counter = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first
            ?? NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
        counter.setValue(n, forKey: "value")
        try context.save()
        context.reset()
    }
}
