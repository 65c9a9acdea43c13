import Foundation

/// Migrates a store from one model to another by running a mapping model: every record of the
/// source store becomes objects of the destination model through the mapping's value
/// expressions and ``NSEntityMigrationPolicy`` objects, and the result is saved to a new store.
///
/// ```swift
/// let mapping = try NSMappingModel.load(contentsOf: URL(fileURLWithPath: "V2toV3.cdm"))
/// NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: "App.MakerPolicy")
/// let manager = NSMigrationManager(sourceModel: v2, destinationModel: v3)
/// try manager.migrateStore(from: oldURL, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
///                          toDestinationURL: newURL, destinationType: NSSQLiteStoreType, destinationOptions: nil)
/// ```
///
/// The three stages, as in Apple's framework, each going through the entity mappings in order:
/// 1. `begin`, then `createDestinationInstances(forSource:in:manager:)` for each source
///    instance the mapping's source expression selects (default: every instance of the source
///    entity, subentities excluded — they have mappings of their own), then
///    `endInstanceCreation`;
/// 2. `createRelationships(forDestination:in:manager:)` for each destination instance the
///    mapping created, then `endRelationshipCreation`;
/// 3. `performCustomValidation`, `end`; then the destination context is saved (which
///    validates every object).
///
/// The source store is opened read-only, so a failure at any point leaves it as it was; the
/// destination store is then removed. The destination URL must not hold a store yet.
///
/// Expressions see `$manager`, `$source`, `$destination`, `$entityMapping`, `$propertyMapping`
/// and `$entityPolicy`, and may call the manager's methods by selector:
/// `destinationInstancesForEntityMappingNamed:sourceInstances:`,
/// `destinationInstancesForSourceRelationshipNamed:sourceInstances:`,
/// `sourceInstancesForEntityMappingNamed:destinationInstances:` and
/// `fetchRequestForSourceEntityNamed:predicateString:`.
open class NSMigrationManager: NSObject, ExpressionMethodReceiver, @unchecked Sendable {
    // @unchecked Sendable: a migration runs on its destination context's queue; the manager's
    // state is touched only from there.
    public let sourceModel: NSManagedObjectModel
    public let destinationModel: NSManagedObjectModel
    /// The mapping model of the migration under way or last run (nil before the first).
    open private(set) var mappingModel: NSMappingModel!
    /// The context the source store's records are read in (during a migration).
    open private(set) var sourceContext: NSManagedObjectContext!
    /// The context destination instances are created in (during a migration).
    open private(set) var destinationContext: NSManagedObjectContext!
    /// The entity mapping being processed (nil between migrations).
    open private(set) var currentEntityMapping: NSEntityMapping!
    /// Whether a store's own migration manager runs the migration when the store has one.
    /// No store here has one, so a migration runs the same way either way, as Apple's does for
    /// stores without one.
    open var usesStoreSpecificMigrationManager = true
    /// Yours: policies keep lookup tables here during a migration.
    open var userInfo: [AnyHashable: Any]?
    /// The share of source instances processed in stage 1, from 0 to 1.
    open private(set) var migrationProgress: Float = 0

    private var cancellation: Error?
    /// Destination instances by mapping name and source object; source instances by mapping
    /// name and destination object; destination instances of each source object whatever the
    /// mapping; and each mapping's destination instances in creation order (stage 2).
    private var destinationsByMapping: [String: [ObjectIdentifier: [NSManagedObject]]] = [:]
    private var sourcesByMapping: [String: [ObjectIdentifier: [NSManagedObject]]] = [:]
    private var destinationsBySource: [ObjectIdentifier: [NSManagedObject]] = [:]
    private var createdByMapping: [String: [NSManagedObject]] = [:]
    /// Keeps every associated source object alive, so the ObjectIdentifier keys stay valid.
    private var associatedSources: [NSManagedObject] = []

    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        super.init()
    }

    // MARK: Migrating

    /// ``migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)``
    /// with the overlay's store types.
    open func migrateStore(from sourceURL: URL, type sourceType: NSPersistentStore.StoreType, options sourceOptions: [AnyHashable: Any]? = nil,
                           mapping: NSMappingModel, to destinationURL: URL, type destinationType: NSPersistentStore.StoreType,
                           options destinationOptions: [AnyHashable: Any]? = nil) throws {
        try migrateStore(from: sourceURL, sourceType: sourceType.rawValue, options: sourceOptions, with: mapping,
                         toDestinationURL: destinationURL, destinationType: destinationType.rawValue, destinationOptions: destinationOptions)
    }

    open func migrateStore(from sourceURL: URL, sourceType: String, options sOptions: [AnyHashable: Any]? = nil,
                           with mappings: NSMappingModel?, toDestinationURL dURL: URL, destinationType dType: String,
                           destinationOptions dOptions: [AnyHashable: Any]? = nil) throws {
        let mapping = try mappings ?? NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
        mapping.generateValueExpressions(sourceModel: sourceModel, destinationModel: destinationModel)
        if FileManager.default.fileExists(atPath: dURL.path) {
            throw CoreDataError.make(NSMigrationError, "The migration destination \(dURL.path) already exists. Migrate to a new file, then replace the old store with it (NSPersistentStoreCoordinator.replacePersistentStore).", [NSFilePathErrorKey: dURL.path])
        }
        reset()
        mappingModel = mapping

        let sourceCoordinator = NSPersistentStoreCoordinator(managedObjectModel: sourceModel)
        var sourceOptions = sOptions ?? [:]
        sourceOptions[NSReadOnlyPersistentStoreOption] = true
        try sourceCoordinator.addPersistentStore(ofType: sourceType, configurationName: nil, at: sourceURL, options: sourceOptions)
        let destinationCoordinator = NSPersistentStoreCoordinator(managedObjectModel: destinationModel)
        let destinationStore = try destinationCoordinator.addPersistentStore(ofType: dType, configurationName: nil, at: dURL, options: dOptions)

        let destination = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        destination.persistentStoreCoordinator = destinationCoordinator
        // One queue for both: a policy reads source objects and writes destination ones in one call.
        let source = NSManagedObjectContext(sharingQueueOf: destination)
        source.persistentStoreCoordinator = sourceCoordinator
        destinationContext = destination
        sourceContext = source
        defer {
            destination.performAndWait {
                reset()
                source.reset()
                destination.reset()
            }
            sourceContext = nil
            destinationContext = nil
            for store in sourceCoordinator.persistentStores { try? sourceCoordinator.remove(store) }
        }
        do {
            try destination.performAndWait {
                try runStages(of: mapping)
                try destination.save()
            }
            try destinationCoordinator.remove(destinationStore)
        } catch {
            try? destinationCoordinator.remove(destinationStore)
            try? type(of: destinationStore).destroyPersistentStore(at: dURL)
            throw error
        }
    }

    private func runStages(of mapping: NSMappingModel) throws {
        let policies = try mapping.entityMappings.map { try policy(for: $0) }
        let pairs = Array(zip(mapping.entityMappings, policies))

        // Stage 1. Source instances are counted first, so progress means something.
        var sourceLists: [[NSManagedObject]] = []
        for (entityMapping, _) in pairs { sourceLists.append(try sourceInstances(of: entityMapping)) }
        let total = max(1, sourceLists.reduce(0) { $0 + $1.count })
        var done = 0
        for ((entityMapping, policy), sources) in zip(pairs, sourceLists) {
            currentEntityMapping = entityMapping
            try policy.begin(entityMapping, with: self)
            for instance in sources {
                try checkCancellation()
                try policy.createDestinationInstances(forSource: instance, in: entityMapping, manager: self)
                done += 1
                migrationProgress = Float(done) / Float(total)
            }
            try policy.endInstanceCreation(forMapping: entityMapping, manager: self)
        }
        // Stage 2.
        for (entityMapping, policy) in pairs {
            currentEntityMapping = entityMapping
            for instance in createdByMapping[entityMapping.name] ?? [] {
                try checkCancellation()
                try policy.createRelationships(forDestination: instance, in: entityMapping, manager: self)
            }
            try policy.endRelationshipCreation(forMapping: entityMapping, manager: self)
        }
        // Stage 3.
        for (entityMapping, policy) in pairs {
            currentEntityMapping = entityMapping
            try checkCancellation()
            try policy.performCustomValidation(forMapping: entityMapping, manager: self)
            try policy.end(entityMapping, manager: self)
        }
        currentEntityMapping = nil
        migrationProgress = 1
    }

    private func policy(for mapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        guard let className = mapping.entityMigrationPolicyClassName, !className.isEmpty else { return NSEntityMigrationPolicy() }
        guard let policyClass = NSEntityMigrationPolicy.registeredClass(named: className) else {
            throw failure("the entity mapping '\(mapping.name)' names the migration policy class '\(className)', which is not registered. Call NSEntityMigrationPolicy.register(YourPolicy.self, forClassName: \"\(className)\") before migrating (Linux can't find a class by its name)")
        }
        return policyClass.init()
    }

    /// The source instances `mapping` migrates: what its source expression selects (a fetch
    /// request is executed in the source context), else every instance of the source entity.
    private func sourceInstances(of mapping: NSEntityMapping) throws -> [NSManagedObject] {
        guard let name = mapping.sourceEntityName, mapping.mappingType != .addEntityMappingType, mapping.mappingType != .removeEntityMappingType,
              mapping.destinationEntityName != nil else { return [] }
        guard sourceModel.entitiesByName[name] != nil else {
            throw failure("the entity mapping '\(mapping.name)' names source entity '\(name)', which the source model does not have")
        }
        let selected: Any?
        if let expression = mapping.sourceExpression {
            selected = try evaluate(expression, source: nil, destination: nil, mapping: mapping, property: nil, policy: nil)
        } else {
            selected = fetchRequest(forSourceEntityNamed: name, predicateString: "TRUEPREDICATE")
        }
        if let request = selected as? NSFetchRequest<NSManagedObject> {
            return try sourceContext.fetch(request)
        }
        return Self.managedObjects(in: selected)
    }

    // MARK: Associations

    /// Records that `sourceInstance` became `destinationInstance` through `entityMapping`;
    /// relationships are later resolved through these records.
    open func associate(sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject, for entityMapping: NSEntityMapping) {
        let s = ObjectIdentifier(sourceInstance), d = ObjectIdentifier(destinationInstance)
        destinationsByMapping[entityMapping.name, default: [:]][s, default: []].append(destinationInstance)
        sourcesByMapping[entityMapping.name, default: [:]][d, default: []].append(sourceInstance)
        destinationsBySource[s, default: []].append(destinationInstance)
        createdByMapping[entityMapping.name, default: []].append(destinationInstance)
        associatedSources.append(sourceInstance)
    }

    /// The destination instances `mappingName` created from `sourceInstances` (all its
    /// instances when `sourceInstances` is nil), in order.
    open func destinationInstances(forEntityMappingName mappingName: String, sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        guard let sourceInstances else { return createdByMapping[mappingName] ?? [] }
        let table = destinationsByMapping[mappingName] ?? [:]
        return sourceInstances.flatMap { table[ObjectIdentifier($0)] ?? [] }
    }

    /// The source instances `mappingName` made `destinationInstances` from.
    open func sourceInstances(forEntityMappingName mappingName: String, destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        let table = sourcesByMapping[mappingName] ?? [:]
        guard let destinationInstances else { return table.values.flatMap { $0 } }
        return destinationInstances.flatMap { table[ObjectIdentifier($0)] ?? [] }
    }

    /// The destination instances of `sourceInstances` made by any mapping: what a relationship
    /// whose destination has subentities (several mappings) migrates to.
    func destinationInstances(forSourceInstances sourceInstances: [NSManagedObject]) -> [NSManagedObject] {
        sourceInstances.flatMap { destinationsBySource[ObjectIdentifier($0)] ?? [] }
    }

    open func sourceEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.sourceEntityName.flatMap { sourceModel.entitiesByName[$0] }
    }

    open func destinationEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.destinationEntityName.flatMap { destinationModel.entitiesByName[$0] }
    }

    /// A fetch request for the instances of `entityName` itself (not its subentities, which
    /// have mappings of their own) matching `predicateString`.
    open func fetchRequest(forSourceEntityNamed entityName: String, predicateString: String) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        request.includesSubentities = false
        if predicateString != "TRUEPREDICATE" { request.predicate = NSPredicate(format: predicateString) }
        return request
    }

    /// Stops the running migration: it throws `error` at the next instance.
    open func cancelMigrationWithError(_ error: Error) {
        cancellation = error
    }

    /// Forgets the associations and state of the last migration.
    open func reset() {
        destinationsByMapping = [:]
        sourcesByMapping = [:]
        destinationsBySource = [:]
        createdByMapping = [:]
        associatedSources = []
        cancellation = nil
        currentEntityMapping = nil
        migrationProgress = 0
    }

    private func checkCancellation() throws {
        if let cancellation { throw cancellation }
    }

    // MARK: Expressions

    func evaluate(_ expression: NSExpression, source: NSManagedObject?, destination: NSManagedObject?, mapping: NSEntityMapping,
                  property: NSPropertyMapping?, policy: NSEntityMigrationPolicy?) throws -> Any? {
        var variables: [String: Any] = [NSMigrationManagerKey: self, NSMigrationEntityMappingKey: mapping]
        if let source { variables[NSMigrationSourceObjectKey] = source }
        if let destination { variables[NSMigrationDestinationObjectKey] = destination }
        if let property { variables[NSMigrationPropertyMappingKey] = property }
        if let policy { variables[NSMigrationEntityPolicyKey] = policy }
        do {
            return try expression.value(with: source, variables: variables)
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSMigrationError {
            throw error
        } catch {
            throw failure("evaluating \(expression) for '\(property?.name ?? mapping.name)' of mapping '\(mapping.name)' failed: \((error as NSError).localizedDescription)", underlying: error)
        }
    }

    func callExpressionMethod(_ selector: String, arguments: [Any?]) throws -> Any? {
        func string(_ i: Int) throws -> String {
            guard arguments.indices.contains(i), let s = arguments[i] as? String else {
                throw failure("FUNCTION($manager, '\(selector)', ...) needs a string as argument \(i + 1)")
            }
            return s
        }
        switch (selector, arguments.count) {
        case ("destinationInstancesForEntityMappingNamed:sourceInstances:", 2):
            return destinationInstances(forEntityMappingName: try string(0), sourceInstances: Self.managedObjects(in: arguments[1]))
        case ("destinationInstancesForSourceRelationshipNamed:sourceInstances:", 2):
            return destinationInstances(forSourceInstances: Self.managedObjects(in: arguments[1]))
        case ("sourceInstancesForEntityMappingNamed:destinationInstances:", 2):
            return sourceInstances(forEntityMappingName: try string(0), destinationInstances: Self.managedObjects(in: arguments[1]))
        case ("fetchRequestForSourceEntityNamed:predicateString:", 2):
            // The predicate comes from the mapping file: a malformed one fails the migration
            // here rather than trapping in NSPredicate(format:).
            let predicateString = try string(1)
            do { _ = try NSPredicate(validatingFormat: predicateString, argumentArray: []) } catch {
                throw failure("the mapping model's source predicate '\(predicateString)' does not parse", underlying: error)
            }
            return fetchRequest(forSourceEntityNamed: try string(0), predicateString: predicateString)
        case ("sourceContext", 0): return sourceContext
        case ("destinationContext", 0): return destinationContext
        case ("sourceModel", 0): return sourceModel
        case ("destinationModel", 0): return destinationModel
        case ("currentEntityMapping", 0): return currentEntityMapping
        case ("userInfo", 0): return userInfo
        default:
            throw failure("FUNCTION($manager, '\(selector)', ...) with \(arguments.count) arguments is not a method of NSMigrationManager")
        }
    }

    /// The managed objects in an expression's value: one object, a collection of them, or none.
    static func managedObjects(in value: Any?) -> [NSManagedObject] {
        if let object = value as? NSManagedObject { return [object] }
        if let list = value as? [NSManagedObject] { return list }
        if let (elements, _) = KVCValueKinds.collection(value) { return elements.compactMap { $0 as? NSManagedObject } }
        return []
    }

    func requireDestinationEntity(for mapping: NSEntityMapping) throws -> NSEntityDescription {
        guard let entity = destinationEntity(for: mapping) else {
            throw failure("the entity mapping '\(mapping.name)' names destination entity '\(mapping.destinationEntityName ?? "nil")', which the destination model does not have")
        }
        return entity
    }

    func failure(_ message: String, underlying: Error? = nil) -> NSError {
        var info: [String: Any] = [:]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return CoreDataError.make(NSMigrationError, "Migration failed: \(message). The source store was left unchanged.", info)
    }
}
