import Foundation

/// Presents one or more persistent stores to contexts as a single store.
///
/// ```swift
/// let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
/// try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
/// context.persistentStoreCoordinator = coordinator
/// ```
///
/// Creating a coordinator freezes its model. Store access is serialised by one lock, so contexts
/// on different queues can share a coordinator.
open class NSPersistentStoreCoordinator: NSObject, @unchecked Sendable {
    // @unchecked Sendable: every mutable field is guarded by `lock`.

    public let managedObjectModel: NSManagedObjectModel
    let lock = NSRecursiveLock()
    private var stores: [NSPersistentStore] = []

    public var name: String?

    public init(managedObjectModel model: NSManagedObjectModel) {
        managedObjectModel = model
        model.freeze()
        ModelRegistry.register(model)
        super.init()
    }

    /// The stores, in the order they were added.
    public var persistentStores: [NSPersistentStore] { locked { stores } }

    // MARK: Store types

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var storeClasses: [String: NSPersistentStore.Type] = [  // guarded by `registryLock`
        NSInMemoryStoreType: InMemoryStore.self,
        NSBinaryStoreType: BinaryStore.self,
        NSXMLStoreType: XMLStore.self,
    ]

    /// Makes `storeClass` available under `storeType` for `addPersistentStore(ofType:...)`.
    open class func registerStoreClass(_ storeClass: AnyClass?, forStoreType storeType: String) {
        registryLock.lock(); defer { registryLock.unlock() }
        storeClasses[storeType] = storeClass as? NSPersistentStore.Type
    }

    /// The registered store types and their classes.
    open class var registeredStoreTypes: [String: NSPersistentStore.Type] {
        registryLock.lock(); defer { registryLock.unlock() }
        return storeClasses
    }

    // MARK: Adding and removing stores

    /// Adds a store of `storeType` (``NSInMemoryStoreType``, or a registered type) holding the
    /// entities of `configuration` (all entities for nil).
    ///
    /// Throws `NSPersistentStoreInvalidTypeError` (134000) for an unknown type and
    /// `NSCoreDataError` (134060) when the model has problems (see `validationProblems()`).
    @discardableResult
    open func addPersistentStore(ofType storeType: String, configurationName configuration: String?, at storeURL: URL?, options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        try managedObjectModel.validate()
        guard let storeClass = Self.registeredStoreTypes[storeType] else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unknown store type '\(storeType)'. Use NSInMemoryStoreType or NSSQLiteStoreType, or register your class with registerStoreClass(_:forStoreType:). Registered: \(Self.registeredStoreTypes.keys.sorted().joined(separator: ", ")).", ["NSStoreType": storeType])
        }
        if let configuration, managedObjectModel.entities(forConfigurationName: configuration) == nil {
            throw CoreDataError.make(NSPersistentStoreIncompatibleSchemaError, "The model has no configuration named '\(configuration)'. Its configurations: \(managedObjectModel.configurations.joined(separator: ", ")).")
        }
        let url = storeURL ?? URL(fileURLWithPath: "/dev/null")
        return try locked {
            if let storeURL, storeType != NSInMemoryStoreType, stores.contains(where: { $0.url == storeURL }) {
                throw CoreDataError.make(NSPersistentStoreOperationError, "A store at \(storeURL.path) is already added to this coordinator.")
            }
            let store = storeClass.init(persistentStoreCoordinator: self, configurationName: configuration, at: url, options: options)
            if storeURL == nil { store.url = nil }
            try store.loadMetadata()
            try (store as? StoreBackend)?.didLoadMetadata(model: managedObjectModel)
            stores.append(store)
            store.didAdd(to: self)
            return store
        }
    }

    /// Adds the store a description describes; calls `block` with the result.
    open func addPersistentStore(with description: NSPersistentStoreDescription, completionHandler block: (NSPersistentStoreDescription, Error?) -> Void) {
        do {
            try addPersistentStore(ofType: description.type, configurationName: description.configuration, at: description.url, options: description.options)
            block(description, nil)
        } catch {
            block(description, error)
        }
    }

    /// Removes a store; its objects can no longer be fetched or saved.
    open func remove(_ store: NSPersistentStore) throws {
        try locked {
            guard let index = stores.firstIndex(where: { $0 === store }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "remove(_:): the store is not part of this coordinator.")
            }
            store.willRemove(from: self)
            stores.remove(at: index)
            store.persistentStoreCoordinator = nil
        }
    }

    /// The store at `url`.
    open func persistentStore(for url: URL) -> NSPersistentStore? {
        locked { stores.first { $0.url?.standardizedFileURL == url.standardizedFileURL } }
    }

    /// The object ID a URI from ``NSManagedObjectID/uriRepresentation()`` names, if one of this
    /// coordinator's stores has that UUID and the entity exists.
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let storeID = url.host, !storeID.isEmpty else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[1].first == "p", let key = Int64(parts[1].dropFirst()),
              let entity = managedObjectModel.entitiesByName[String(parts[0])],
              let store = locked({ stores.first { $0.identifier == storeID } }) else { return nil }
        return NSManagedObjectID(entity: entity, store: store, primaryKey: key)
    }

    /// Runs `block` with the coordinator's lock held.
    open func performAndWait<T>(_ block: () throws -> T) rethrows -> T { try locked(block) }
    open func perform(_ block: @escaping @Sendable () -> Void) { DispatchQueue.global().async { self.locked(block) } }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body()
    }

    // MARK: Routing (internal)

    /// The stores that hold `entity`.
    func stores(for entity: NSEntityDescription, among affected: [NSPersistentStore]? = nil) -> [NSPersistentStore] {
        (affected ?? stores).filter { store in
            guard let entities = managedObjectModel.entities(forConfigurationName: store.configurationName) else { return false }
            return entities.contains { $0 === entity || entity.isKindOf(entity: $0) }
        }
    }

    func backend(of store: NSPersistentStore?) throws -> StoreBackend {
        guard let store, let backend = store as? StoreBackend else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The object's store is not available (it was removed, or the ID is temporary).")
        }
        return backend
    }

    /// Whether every store for the plan evaluates predicates itself.
    func storesEvaluate(_ plan: FetchPlan) -> Bool {
        locked {
            let targets = stores(for: plan.entity, among: plan.affectedStores)
            return targets.count <= 1 && targets.allSatisfy { ($0 as? StoreBackend)?.evaluatesFetchPlans ?? false }
        }
    }

    func fetchRows(_ plan: FetchPlan) throws -> [StoreRow] {
        try locked {
            try stores(for: plan.entity, among: plan.affectedStores).flatMap { try backend(of: $0).fetchRows(plan) }
        }
    }

    func row(for objectID: NSManagedObjectID, in context: NSManagedObjectContext? = nil) throws -> StoreRow? {
        guard !objectID.isTemporaryID else { return nil }
        return try locked { try backend(of: objectID.persistentStore).row(for: objectID, in: context) }
    }

    /// A relationship the store left out of an object's row, loaded on first read.
    func relationshipValue(_ relationship: NSRelationshipDescription, for objectID: NSManagedObjectID, in context: NSManagedObjectContext?) throws -> StoredValue {
        guard !objectID.isTemporaryID else { return relationship.isToMany ? .objectIDs([]) : .null }
        return try locked { try backend(of: objectID.persistentStore).relationshipValue(relationship, for: objectID, in: context) }
    }

    /// Permanent IDs for new objects, each in the first store whose configuration holds its entity.
    /// A store that chooses its own IDs (`NSIncrementalStore.obtainPermanentIDs(for:)`) gets all
    /// of its objects in one call, as Apple's coordinator does.
    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        try locked {
            var result = [NSManagedObjectID?](repeating: nil, count: objects.count)
            var perStore: [ObjectIdentifier: (store: NSPersistentStore, indexes: [Int])] = [:]
            var storeOrder: [ObjectIdentifier] = []
            for (index, object) in objects.enumerated() {
                guard let store = stores(for: object.entity).first(where: { !$0.isReadOnly }) ?? stores(for: object.entity).first else {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "No persistent store holds entity '\(object.entity.name ?? "?")'. Add a store whose configuration includes it.")
                }
                guard !store.isReadOnly else {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "The store for entity '\(object.entity.name ?? "?")' is read-only.")
                }
                let id = ObjectIdentifier(store)
                if perStore[id] == nil { perStore[id] = (store, []); storeOrder.append(id) }
                perStore[id]!.indexes.append(index)
            }
            for id in storeOrder {
                let (store, indexes) = perStore[id]!
                let backend = try backend(of: store)
                if let ids = try backend.permanentIDs(for: indexes.map { objects[$0] }) {
                    for (index, objectID) in zip(indexes, ids) { result[index] = objectID }
                } else {
                    for index in indexes {
                        let key = try backend.newPrimaryKeys(for: objects[index].entity, count: 1)[0]
                        result[index] = NSManagedObjectID(entity: objects[index].entity, store: store, primaryKey: key)
                    }
                }
            }
            return result.map { $0! }
        }
    }

    /// Routes each row to its store and saves. With one store the store's own atomicity is the
    /// save's; the multi-store protocol is the persistence issue's.
    func save(_ changes: StoreChanges) throws {
        try locked {
            var perStore: [ObjectIdentifier: (NSPersistentStore, StoreChanges)] = [:]
            func add(_ row: StoreRow, _ path: WritableKeyPath<StoreChanges, [StoreRow]>) throws {
                guard let store = row.objectID.persistentStore else {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "An object's store was removed before the save.")
                }
                if store.isReadOnly {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "Can't save '\(row.objectID.entity.name ?? "?")': its store is read-only (NSReadOnlyPersistentStoreOption).")
                }
                perStore[ObjectIdentifier(store), default: (store, StoreChanges(inserted: [], updated: [], deleted: []))].1[keyPath: path].append(row)
            }
            for row in changes.inserted { try add(row, \.inserted) }
            for row in changes.updated { try add(row, \.updated) }
            for row in changes.deleted { try add(row, \.deleted) }
            for (store, storeChanges) in perStore.values { try backend(of: store).save(storeChanges) }
        }
    }
}
