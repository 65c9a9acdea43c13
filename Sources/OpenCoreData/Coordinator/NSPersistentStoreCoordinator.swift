import Foundation

// Longer than most files (about 530 lines) for a reason: Apple's coordinator methods are
// `open`, and Swift on Linux cannot override members declared in extensions, so they stay in the
// class body. What is not overridable lives beside it: +BuiltInStores, PreparedFetch.swift,
// FetchedObjectKeys.swift.

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
    // @unchecked Sendable: every mutable field is guarded by `storeAccessLock`.

    public let managedObjectModel: NSManagedObjectModel
    let storeAccessLock = NSRecursiveLock()
    private var stores: [NSPersistentStore] = []
    /// Row snapshots shared by this coordinator's contexts; see ``RowCache``.
    let rowCache = RowCache()

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
    nonisolated(unsafe) private static var storeClasses = builtInStoreClasses  // guarded by `registryLock`

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
        let store = try addStoreQuietly(ofType: storeType, configurationName: configuration, at: storeURL, options: options)
        // Posted after the lock is given back: an observer may use a context on another queue,
        // which needs the lock.
        postStoreNotification(.NSPersistentStoreCoordinatorStoresWillChange, object: self)
        postStoreNotification(.NSPersistentStoreCoordinatorStoresDidChange, object: self, [NSAddedPersistentStoresKey: [store]])
        return store
    }

    /// ``addPersistentStore(ofType:configurationName:at:options:)`` without its notifications.
    private func addStoreQuietly(ofType storeType: String, configurationName configuration: String?, at storeURL: URL?, options: [AnyHashable: Any]?) throws -> NSPersistentStore {
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
            store.metadataNeedsWrite = false   // as read (or just written) by the store
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
        guard locked({ stores.contains { $0 === store } }) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "remove(_:): the store is not part of this coordinator.")
        }
        // Outside the lock, as every store notification (see addPersistentStore).
        postStoreNotification(.NSPersistentStoreCoordinatorStoresWillChange, object: self)
        postStoreNotification(.NSPersistentStoreCoordinatorWillRemoveStore, object: store)
        try removeQuietly(store)
        postStoreNotification(.NSPersistentStoreCoordinatorStoresDidChange, object: self, [NSRemovedPersistentStoresKey: [store]])
    }

    /// ``remove(_:)`` without its notifications.
    private func removeQuietly(_ store: NSPersistentStore) throws {
        try locked {
            guard let index = stores.firstIndex(where: { $0 === store }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "remove(_:): the store is not part of this coordinator.")
            }
            store.willRemove(from: self)
            stores.remove(at: index)
            store.persistentStoreCoordinator = nil
        }
    }

    /// Posts a store-change notification. Never called with the lock held.
    private func postStoreNotification(_ name: Notification.Name, object: AnyObject, _ userInfo: [String: Any]? = nil) {
        NotificationCenter.default.post(name: name, object: object, userInfo: userInfo)
    }

    /// The store at `url`.
    open func persistentStore(for url: URL) -> NSPersistentStore? {
        locked { stores.first { $0.url?.standardizedFileURL == url.standardizedFileURL } }
    }

    /// The object ID a URI from ``NSManagedObjectID/uriRepresentation()`` names, if one of this
    /// coordinator's stores has that UUID and the entity exists.
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let storeID = url.host, !storeID.isEmpty else { return nil }
        // The path as written (escapes kept): a custom store's string reference may hold '/'.
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        let parts = path.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let entity = managedObjectModel.entitiesByName[String(parts[0])],
              let store = locked({ stores.first { $0.identifier == storeID } }),
              let key = store.key(forURIComponent: String(parts[1]), entity: entity) else { return nil }
        return NSManagedObjectID(entity: entity, store: store, primaryKey: key)
    }

    /// The object ID a URI string names (``managedObjectID(forURIRepresentation:)`` of its URL).
    open func managedObjectID(for uriRepresentation: String) -> NSManagedObjectID? {
        URL(string: uriRepresentation).flatMap(managedObjectID(forURIRepresentation:))
    }

    /// The URL of `store` (an in-memory store added without one: `/dev/null`).
    open func url(for store: NSPersistentStore) -> URL {
        store.url ?? URL(fileURLWithPath: "/dev/null")
    }

    /// Takes the lock that serialises this coordinator's store access, as Apple's deprecated
    /// `NSLocking` methods do; prefer `perform` and `performAndWait`, which need no lock.
    @available(*, deprecated, message: "Use perform(_:) or performAndWait(_:)")
    open func lock() { storeAccessLock.lock() }
    /// Takes the lock if it is free (see ``lock()``).
    @available(*, deprecated, message: "Use perform(_:) or performAndWait(_:)")
    open func tryLock() -> Bool { storeAccessLock.try() }
    /// Gives the lock back (see ``lock()``).
    @available(*, deprecated, message: "Use perform(_:) or performAndWait(_:)")
    open func unlock() { storeAccessLock.unlock() }

    // MARK: Metadata

    /// The metadata of the store of `storeType` at `url`, read without adding the store.
    open class func metadataForPersistentStore(ofType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        try storeClass(for: storeType).metadataForPersistentStore(with: url)
    }

    /// Writes metadata into the store of `storeType` at `url` without adding it.
    open class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreOfType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil) throws {
        try storeClass(for: storeType).setMetadata(metadata, forPersistentStoreAt: url)
    }

    /// The metadata of the store at `url`; a nil `storeType` reads the file with each
    /// registered store type until one can.
    @available(*, deprecated, renamed: "metadataForPersistentStore(ofType:at:options:)")
    open class func metadataForPersistentStore(ofType storeType: String?, at url: URL) throws -> [String: Any] {
        if let storeType { return try metadataForPersistentStore(ofType: storeType, at: url, options: nil) }
        return try metadataOfStoreOfAnyType(at: url).metadata
    }

    /// Writes metadata into the store at `url`; a nil `storeType` finds the type as
    /// ``metadataForPersistentStore(ofType:at:)`` does.
    @available(*, deprecated, renamed: "setMetadata(_:forPersistentStoreOfType:at:options:)")
    open class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreOfType storeType: String?, at url: URL) throws {
        let storeClass = try storeType.map { try self.storeClass(for: $0) } ?? metadataOfStoreOfAnyType(at: url).storeClass
        try storeClass.setMetadata(metadata, forPersistentStoreAt: url)
    }

    /// The metadata of the store at `url`, whatever its type.
    @available(*, deprecated, renamed: "metadataForPersistentStore(ofType:at:options:)")
    open class func metadataForPersistentStore(with url: URL) throws -> [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (key, value) in try metadataOfStoreOfAnyType(at: url).metadata { result[key] = value }
        return result
    }

    /// The first registered store type (the built-in ones first) that reads the file at `url`.
    private class func metadataOfStoreOfAnyType(at url: URL) throws -> (storeClass: NSPersistentStore.Type, metadata: [String: Any]) {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.make(NSFileReadNoSuchFileError, "There is no store at \(url.path).", [NSFilePathErrorKey: url.path])
        }
        let builtIn = [NSSQLiteStoreType, NSBinaryStoreType, NSXMLStoreType]
        let types = builtIn + registeredStoreTypes.keys.filter { !builtIn.contains($0) }.sorted()
        for type in types {
            guard let storeClass = registeredStoreTypes[type], let metadata = try? storeClass.metadataForPersistentStore(with: url) else { continue }
            return (storeClass, metadata)
        }
        throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "No store type can read the file at \(url.path) (tried \(types.joined(separator: ", "))). Check that it is a store, or pass its type.", [NSFilePathErrorKey: url.path])
    }

    /// The metadata of an added store.
    open func metadata(for store: NSPersistentStore) -> [String: Any] {
        locked { store.metadata ?? [:] }
    }

    /// Replaces an added store's metadata (type and UUID are kept); saved with the store's next save.
    open func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        locked {
            var merged = metadata ?? [:]
            merged[NSStoreTypeKey] = store.metadata[NSStoreTypeKey]
            merged[NSStoreUUIDKey] = store.metadata[NSStoreUUIDKey]
            store.metadata = merged
        }
    }

    class func storeClass(for storeType: String) throws -> NSPersistentStore.Type {
        guard let storeClass = registeredStoreTypes[storeType] else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unknown store type '\(storeType)'. Registered: \(registeredStoreTypes.keys.sorted().joined(separator: ", ")).", ["NSStoreType": storeType])
        }
        return storeClass
    }

    // MARK: Migrating and destroying stores

    /// Copies every record of `store` into a new store of `storeType` at `url`, then removes the
    /// old store from this coordinator and returns the new one (the old file is left as it was).
    ///
    /// ```swift
    /// let sqlite = try coordinator.migratePersistentStore(memoryStore, to: url, options: nil, withType: NSSQLiteStoreType)
    /// ```
    ///
    /// The copy is one save into the new store: if it fails, the new store is removed again and
    /// the old one stays in use. Objects registered in contexts keep the old store's IDs; fetch
    /// them again.
    @discardableResult
    open func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil, withType storeType: String) throws -> NSPersistentStore {
        let target = try migrateQuietly(store, to: url, options: options, withType: storeType)
        // One will-change and one did-change for the whole move, after the lock is given back.
        postStoreNotification(.NSPersistentStoreCoordinatorStoresWillChange, object: self)
        postStoreNotification(.NSPersistentStoreCoordinatorStoresDidChange, object: self, [
            NSAddedPersistentStoresKey: [target], NSRemovedPersistentStoresKey: [store], NSUUIDChangedPersistentStoresKey: [store, target],
        ])
        return target
    }

    private func migrateQuietly(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]?, withType storeType: String) throws -> NSPersistentStore {
        try locked {
            guard stores.contains(where: { $0 === store }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "migratePersistentStore: the store is not part of this coordinator.")
            }
            let source = try backend(of: store)
            let target = try addStoreQuietly(ofType: storeType, configurationName: store.configurationName == "PF_DEFAULT_CONFIGURATION_NAME" ? nil : store.configurationName, at: url, options: options)
            do {
                let destination = try backend(of: target)
                let entities = (managedObjectModel.entities(forConfigurationName: store.configurationName) ?? []).filter { $0.superentity == nil }
                var rows: [StoreRow] = []
                for root in entities {
                    rows += try source.prepareFetch(FetchPlan(entity: root, predicate: nil, sortDescriptors: [], includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil)).rows(.candidates)
                }
                // A store that loads to-many relationships on first use (the PostgreSQL store)
                // leaves them unloaded in its rows; the copy needs their members.
                // One read per relationship of an entity for all its rows, not one per row.
                var unloaded = UnloadedRelationships<Int>()
                var loaded: [Int: [StoredValue]] = [:]
                for i in rows.indices {
                    let values = rows[i].values
                    guard values.contains(where: UnloadedRelationship.isMarker), let layout = rows[i].entity.layout else { continue }
                    loaded[i] = Array(values)
                    for slot in values.indices where UnloadedRelationship.isMarker(values[slot]) {
                        guard slot < layout.properties.count, let relationship = layout.properties[slot] as? NSRelationshipDescription else { loaded[i]![slot] = .null; continue }
                        unloaded.append(i, relationship: relationship, slot: slot)
                    }
                }
                for (relationship, slot, indices) in unloaded.groups {
                    let values = try source.relationshipValues(relationship, for: indices.map { rows[$0].objectID }, in: nil)
                    for (i, value) in zip(indices, values) { loaded[i]![slot] = value }
                }
                for (i, values) in loaded { rows[i].values = RowValues(values) }
                // The same keys in the new store when it takes them (object URIs keep their
                // primary keys), else new ones; relationships are rewritten through the key map.
                let keepsKeys = destination.acceptsForeignPrimaryKeys
                var newIDs: [ObjectKey: NSManagedObjectID] = [:]
                for row in rows {
                    let key = keepsKeys ? row.key.primaryKey : try destination.newPrimaryKeys(for: row.entity, count: 1)[0]
                    newIDs[row.key] = NSManagedObjectID(entity: row.entity, store: target, primaryKey: key)
                }
                func remap(_ value: StoredValue) -> StoredValue {
                    switch value {
                    case .objectID(let id): return newIDs[id.key].map { .objectID($0) } ?? .null
                    case .objectIDs(let ids): return .objectIDs(ids.compactMap { newIDs[$0.key] })
                    default: return value
                    }
                }
                let copied = rows.map { StoreRow(objectID: newIDs[$0.key]!, values: RowValues($0.values.map(remap)), version: 1) }
                try destination.save(StoreChanges(inserted: copied, updated: [], deleted: []))
                target.metadata = store.metadata.merging([NSStoreUUIDKey: target.metadata[NSStoreUUIDKey] as Any, NSStoreTypeKey: target.type]) { _, new in new }
                try removeQuietly(store)
                return target
            } catch {
                try? removeQuietly(target)
                throw error
            }
        }
    }

    /// Completes the lightweight migrations `NSPersistentStoreDeferredLightweightMigrationOptionKey`
    /// deferred. A migration here defers nothing (each store is migrated whole before it is
    /// added), so there is never work left: this returns at once.
    open func finishDeferredLightweightMigration() throws {}

    /// Completes one deferred lightweight migration task; as for
    /// ``finishDeferredLightweightMigration()``, there is none left.
    open func finishDeferredLightweightMigrationTask() throws {}

    /// Removes the store of `storeType` at `url` from this coordinator (if added) and deletes its files.
    open func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        if let added = persistentStore(for: url) { try remove(added) }
        try locked { try Self.storeClass(for: storeType).destroyPersistentStore(at: url, options: options) }
    }

    /// Runs `block` with the coordinator's lock held.
    open func performAndWait<T>(_ block: () throws -> T) rethrows -> T { try locked(block) }
    open func perform(_ block: @escaping @Sendable () -> Void) { DispatchQueue.global().async { self.locked(block) } }

    /// Runs `block` with the coordinator's lock held, off the caller's thread, and returns its
    /// result. Two overloads, as for the context's `perform`: a block that cannot throw needs no `try`.
    open func perform<T>(_ block: @escaping () throws -> T) async throws -> T {
        let box = UncheckedSendableBox(block)
        let result: UncheckedSendableBox<Result<T, Error>> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: UncheckedSendableBox(Result { try self.locked(box.value) })) }
        }
        return try result.value.get()
    }

    open func perform<T>(_ block: @escaping () -> T) async -> T {
        let box = UncheckedSendableBox(block)
        let result: UncheckedSendableBox<T> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: UncheckedSendableBox(self.locked(box.value))) }
        }
        return result.value
    }

    /// Whether a save must attach each row's managed object (see `StoreBackend.needsSourceObjects`).
    /// Call under ``locked(_:)``.
    var storesCheckVersionsOnWrite: Bool { stores.allSatisfy { ($0 as? StoreBackend)?.checksVersionsOnWrite == true } }
    var savesNeedSourceObjects: Bool { stores.contains { ($0 as? StoreBackend)?.needsSourceObjects == true } }
    /// The derived attributes ("Entity.attribute") a store of this coordinator computes itself.
    var derivedAttributesMaintainedByStores: Set<String> {
        locked { stores.reduce(into: Set<String>()) { $0.formUnion(($1 as? StoreBackend)?.derivedAttributesMaintainedByStore ?? []) } }
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        storeAccessLock.lock(); defer { storeAccessLock.unlock() }
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

    /// How many fetches read rows from stores (`PreparedFetch.rows`; for tests of fetches that need none).
    var rowFetches = 0

    /// How many dictionary fetches a store answered itself (for tests that the SQL path ran).
    var dictionaryFetchesAnsweredByStores = 0

    /// The record's row without taking a reference: cached if fresh enough, else from the store.
    func currentRow(for objectID: NSManagedObjectID, stalenessInterval: TimeInterval, in context: (any RequestingContext)? = nil) throws -> StoreRow? {
        guard !objectID.isTemporaryID else { return nil }
        // A context pinned to a query generation reads its generation, never the shared cache.
        if QueryGenerationScope.isPinned { return try row(for: objectID, in: context) }
        return try locked { try rowCache.row(for: objectID.key, stalenessInterval: stalenessInterval) ?? row(for: objectID, in: context) }
    }

    /// A relationship the store left out of an object's row, loaded on first read.
    func relationshipValue(_ relationship: NSRelationshipDescription, for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoredValue {
        guard !objectID.isTemporaryID else { return relationship.isToMany ? .objectIDs([]) : .null }
        return try locked {
            storeRoundTrips += 1
            return try backend(of: objectID.persistentStore).relationshipValue(relationship, for: objectID, in: context)
        }
    }

    /// ``relationshipValue(_:for:in:)`` of several objects, in their order: one store call per
    /// store (relationship prefetching).
    func relationshipValues(_ relationship: NSRelationshipDescription, for objectIDs: [NSManagedObjectID], in context: (any RequestingContext)?) throws -> [StoredValue] {
        var values = [StoredValue](repeating: relationship.isToMany ? .objectIDs([]) : .null, count: objectIDs.count)
        let groups = Self.positionsByStore(objectIDs.count, key: { objectIDs[$0].key }, store: { objectIDs[$0].persistentStore })
        try locked {
            for (store, positions) in groups {
                storeRoundTrips += 1
                let loaded = try backend(of: store).relationshipValues(relationship, for: positions.map { objectIDs[$0] }, in: context)
                for (i, value) in zip(positions, loaded) { values[i] = value }
            }
        }
        return values
    }

    /// The record's row as the store has it now (the cache is refreshed with it). `context` is
    /// passed on to stores that want it (`NSIncrementalStore.newValuesForObject(with:with:)`).
    func row(for objectID: NSManagedObjectID, in context: (any RequestingContext)? = nil) throws -> StoreRow? {
        guard !objectID.isTemporaryID else { return nil }
        return try locked {
            storeRoundTrips += 1
            let row = try backend(of: objectID.persistentStore).row(for: objectID, in: context)
            guard !QueryGenerationScope.isPinned else { return row }  // an older generation's row
            if let row { rowCache.update(row) } else { rowCache.remove(objectID.key) }
            return row
        }
    }

    /// The record's row for an object that will hold it: from the cache when it is fresh
    /// enough, else from the store. Counts one reference.
    func retainedRow(for objectID: NSManagedObjectID, stalenessInterval: TimeInterval, in context: (any RequestingContext)? = nil) throws -> StoreRow? {
        guard !objectID.isTemporaryID else { return nil }
        let pinned = QueryGenerationScope.isPinned
        return try locked {
            if !pinned, let cached = rowCache.row(for: objectID.key, stalenessInterval: stalenessInterval) {
                rowCache.retain(cached)
                return cached
            }
            storeRoundTrips += 1
            guard let row = try backend(of: objectID.persistentStore).row(for: objectID, in: context) else {
                if !pinned { rowCache.remove(objectID.key) }
                return nil
            }
            rowCache.retain(row, at: RowCache.loadTimeNow)
            return row
        }
    }

    /// Rows for several records in one store round trip per store (relationship prefetching).
    func rows(for objectIDs: [NSManagedObjectID]) throws -> [StoreRow] {
        try rows(for: objectIDs.map { .id($0) })
    }

    /// ``rows(for:)-([NSManagedObjectID])`` for identities (the faults of a batched fetch).
    func rows(for identities: [ObjectIdentity]) throws -> [StoreRow] {
        try locked {
            // One store (a batch of a batched fetch, usually): the list as it is.
            if let first = identities.first, case let token = first.key.storeToken, token != 0,
               identities.allSatisfy({ $0.key.storeToken == token }) {
                guard let store = first.persistentStore else { return [] }
                storeRoundTrips += 1
                let result = try backend(of: store).rows(for: identities)
                if !QueryGenerationScope.isPinned { rowCache.update(result) }
                return result
            }
            var result: [StoreRow] = []
            for case let (store?, positions) in Self.positionsByStore(identities.count, key: { identities[$0].key }, store: { identities[$0].persistentStore }) {
                storeRoundTrips += 1
                result.append(adopting: try backend(of: store).rows(for: positions.map { identities[$0] }))
            }
            if !QueryGenerationScope.isPinned { rowCache.update(result) }
            return result
        }
    }

    /// The positions of `count` records grouped by store, in the order the stores first appear;
    /// temporary IDs (store token 0) are left out, and `store` is nil for a removed store.
    /// Grouped by the store token: a coordinator has a handful of stores, so a short list
    /// beats hashing, and the token spares a weak load per record.
    private static func positionsByStore(_ count: Int, key: (Int) -> ObjectKey, store: (Int) -> NSPersistentStore?) -> [(store: NSPersistentStore?, positions: [Int])] {
        var groups: [(token: Int32, store: NSPersistentStore?, positions: [Int])] = []
        for i in 0..<count {
            let token = key(i).storeToken
            if token == 0 { continue }
            if let group = groups.firstIndex(where: { $0.token == token }) {
                groups[group].positions.append(i)
            } else {
                groups.append((token, store(i), [i]))
            }
        }
        return groups.map { ($0.store, $0.positions) }
    }

    /// How many times single or batched rows, or relationships left out of rows, were read from
    /// stores: for tests of batching and prefetching, through
    /// `@_spi(Testing) import OpenCoreData`; not Core Data's API.
    @_spi(Testing) public private(set) var storeRoundTrips = 0

    /// Rows a pinned context read are kept for its objects but answer no other context
    /// (``RowCache``'s NaN time).
    func retainSnapshot(_ row: StoreRow) {
        let now = RowCache.loadTimeNow
        locked { rowCache.retain(row, at: now) }
    }
    /// Takes a reference to each of `rows` at `positions`, and to each of `others`.
    /// `movingValues`: the caller owns `rows` alone and gives up their values to the cache.
    func retainSnapshots(_ rows: inout [StoreRow], at positions: [Int], and others: [StoreRow], movingValues: Bool) {
        let now = RowCache.loadTimeNow
        locked {
            if movingValues {
                rowCache.retain(movingValuesOf: &rows, at: positions, at: now)
            } else {
                rowCache.retain(rows, at: positions, at: now)
            }
            rowCache.retain(others, at: now)
        }
    }
    func releaseSnapshot(_ key: ObjectKey) { locked { rowCache.release(key) } }
    func releaseSnapshots(_ keys: [ObjectKey]) { locked { for key in keys { rowCache.release(key) } } }
    /// How many row snapshots the coordinator holds (for tests and diagnostics).
    var snapshotCount: Int { locked { rowCache.count } }
    /// How many rows the snapshot table has room for (for tests that it gives memory back).
    var snapshotCapacity: Int { locked { rowCache.capacity } }

    /// Permanent IDs for new objects, each in the first store whose configuration holds its
    /// entity. A store that chooses its own IDs (`NSIncrementalStore.obtainPermanentIDs(for:)`)
    /// gets all of its objects in one call, as Apple's coordinator does; for the others keys are
    /// reserved once per store and entity hierarchy, not once per object: for a store on disk
    /// each reservation is a write.
    ///
    /// `assignedStores` (by temporary key) overrides the choice for objects a context assigned
    /// to a store (`assign(_:to:)`).
    func permanentIDs(for objects: [NSManagedObject], assignedStores: [ObjectKey: NSPersistentStore] = [:]) throws -> [NSManagedObjectID] {
        try locked {
            // New objects come in runs of one entity (usually a single run): the store is looked
            // up once a run, and stores and entity hierarchies are grouped by run, not by object,
            // so no object's index is appended to a group. A coordinator has few stores, so a
            // short list beats hashing.
            typealias Run = (entity: NSEntityDescription, range: Range<Int>)
            var perStore: [(store: NSPersistentStore, runs: [Run])] = []
            var start = 0
            while start < objects.count {
                let entity = objects[start].entity
                let assigned = assignedStores.isEmpty ? nil : assignedStores[objects[start].identity.key]
                var end = start + 1
                while end < objects.count, objects[end].entity === entity,
                      assignedStores.isEmpty || assignedStores[objects[end].identity.key] === assigned { end += 1 }
                let store = try assigned.map { try assignedStore($0, for: entity) } ?? storeForNewObjects(of: entity)
                if let existing = perStore.firstIndex(where: { $0.store === store }) {
                    perStore[existing].runs.append((entity, start..<end))
                } else {
                    perStore.append((store, [(entity, start..<end)]))
                }
                start = end
            }
            var result = [NSManagedObjectID?](repeating: nil, count: objects.count)
            for (store, runs) in perStore {
                let backend = try backend(of: store)
                // Every object in one run (the usual save): the array as it is, not a copy.
                let storeObjects = runs.count == 1 && runs[0].range.count == objects.count ? objects : runs.flatMap { objects[$0.range] }
                if let ids = try backend.permanentIDs(for: storeObjects) {
                    var next = ids.makeIterator()
                    for run in runs { for index in run.range { result[index] = next.next() } }
                    continue
                }
                // One key reservation per entity hierarchy of this store.
                var byRoot: [(root: NSEntityDescription, runs: [Run], count: Int)] = []
                for run in runs {
                    let root = run.entity.rootEntity
                    if let existing = byRoot.lastIndex(where: { $0.root === root }) {
                        byRoot[existing].runs.append(run)
                        byRoot[existing].count += run.range.count
                    } else {
                        byRoot.append((root, [run], run.range.count))
                    }
                }
                for group in byRoot {
                    var keys = try backend.newPrimaryKeys(for: group.runs[0].entity, count: group.count).makeIterator()
                    for run in group.runs {
                        for index in run.range {
                            result[index] = NSManagedObjectID(entity: run.entity, store: store, primaryKey: keys.next()!)
                        }
                    }
                }
            }
            return result.map { $0! }
        }
    }

    /// `store`, which a context assigned new objects of `entity` to, if it can still take them.
    private func assignedStore(_ store: NSPersistentStore, for entity: NSEntityDescription) throws -> NSPersistentStore {
        guard stores.contains(where: { $0 === store }) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "An object of entity '\(entity.name ?? "?")' was assigned (assign(_:to:)) to a store that is no longer added to the coordinator.")
        }
        guard !store.isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "An object of entity '\(entity.name ?? "?")' was assigned (assign(_:to:)) to a read-only store.")
        }
        return store
    }

    /// The store new objects of `entity` are saved to: the first writable store whose
    /// configuration holds the entity.
    private func storeForNewObjects(of entity: NSEntityDescription) throws -> NSPersistentStore {
        let candidates = stores(for: entity)
        guard let store = candidates.first(where: { !$0.isReadOnly }) ?? candidates.first else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "No persistent store holds entity '\(entity.name ?? "?")'. Add a store whose configuration includes it.")
        }
        guard !store.isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The store for entity '\(entity.name ?? "?")' is read-only.")
        }
        return store
    }

    /// Refuses relationships between objects in different stores: a store can only hold
    /// foreign keys to its own records.
    private func checkRelationshipsStayInTheirStores(_ changes: StoreChanges) throws {
        // Rows are read in place, not gathered into one array, which would copy every saved
        // row, even those of entities without relationships.
        try checkRelationshipsStayInTheirStores(changes.inserted)
        try checkRelationshipsStayInTheirStores(changes.updated)
    }

    private func checkRelationshipsStayInTheirStores(_ rows: [StoreRow]) throws {
        for index in rows.indices {
            let layout = rows[index].entity.layout!
            if layout.relationshipIndexes.isEmpty { continue }
            let row = rows[index]
            for i in layout.relationshipIndexes where i < row.values.count {
                let targets: [NSManagedObjectID]
                switch row.values[i] {
                case .objectID(let id): targets = [id]
                case .objectIDs(let ids): targets = ids
                default: targets = []
                }
                for target in targets where target.persistentStore !== row.objectID.persistentStore {
                    throw CoreDataError.make(NSManagedObjectExternalRelationshipError,
                        "'\(row.entity.name ?? "?").\(layout.properties[i].name)' relates an object in one store to an object in another. Cross-store relationships are not supported; use fetched properties (or store object URIs) instead.",
                        [NSAffectedObjectsErrorKey: [row.objectID, target]])
                }
            }
        }
    }

    /// Routes each row to its store and saves. With one store the store's own atomicity is the
    /// save's; the multi-store protocol is the persistence issue's.
    /// Whether a save must reach the stores even without object changes: a store's metadata
    /// changed since it was written (Apple writes it at the next save), or an incremental store
    /// is added (Apple sends it an empty save request).
    var needsSaveWithoutChanges: Bool { locked { stores.contains { ($0.metadataNeedsWrite || $0.receivesEmptySaves) && $0 is StoreBackend } } }

    func save(_ changes: StoreChanges) throws {
        try locked {
            var perStore = try changesByStore(changes)
            // Stores with new metadata and no rows in this save write their metadata too, and
            // incremental stores receive the save even when it has nothing for them.
            for store in stores where (store.metadataNeedsWrite || store.receivesEmptySaves) && !store.isReadOnly && !perStore.contains(where: { $0.0 === store }) {
                perStore.append((store, StoreChanges(inserted: [], updated: [], deleted: [])))
            }
            try checkRelationshipsStayInTheirStores(changes)
            if perStore.count == 1 {
                // One store: its own atomicity is the save's, and it may save in fewer steps
                // than staging and committing (the PostgreSQL store: one statement).
                try backend(of: perStore[0].0).save(perStore[0].1)
            } else {
                try saveInTwoPhases(perStore)
            }
            for (store, _) in perStore { store.metadataNeedsWrite = false }
            rowCache.update(changes.updated)
            rowCache.update(changes.locked)
            for row in changes.deleted { rowCache.remove(row.key) }
        }
    }

    /// A save across several stores: every store stages its part first; one refusal rolls all back.
    private func saveInTwoPhases(_ perStore: [(NSPersistentStore, StoreChanges)]) throws {
        var prepared: [PreparedStoreSave] = []
        do {
            for (store, storeChanges) in perStore { prepared.append(try backend(of: store).prepareSave(storeChanges)) }
        } catch {
            for p in prepared { p.rollback() }
            throw error
        }
        // A commit that fails leaves the stores after it staged: roll them back, so none
        // keeps an open transaction (and its locks) for a later save to commit.
        for (i, p) in prepared.enumerated() {
            do { try p.commit() } catch {
                for later in prepared[(i + 1)...] { later.rollback() }
                throw error
            }
        }
    }

    /// Each store's part of `changes`; refuses rows whose store is gone or read-only. When every
    /// row is in one store (the usual case) the changes go to it as they are: splitting them
    /// costs a store lookup, a hash lookup and a copy per row.
    private func changesByStore(_ changes: StoreChanges) throws -> [(NSPersistentStore, StoreChanges)] {
        var only: NSPersistentStore?
        var severalStores = false
        // Until a second store shows up; the split below checks every row again anyway. A row
        // whose key names the store of the row before is in that store (each store has its own
        // token): its store, which a weak reference holds, is not loaded again (loading a weak
        // reference takes the runtime's slow path and a retain).
        var checkedToken: Int32?
        findStores: for rows in [changes.inserted, changes.updated, changes.deleted, changes.locked] {
            for index in rows.indices {
                let token = rows[index].key.storeToken
                if token == checkedToken { continue }
                checkedToken = token
                let store = try writableStore(of: rows[index])
                if only == nil { only = store } else if only !== store { severalStores = true; break findStores }
            }
        }
        guard let only else { return [] }
        if !severalStores { return [(only, changes)] }

        var perStore: [ObjectIdentifier: (NSPersistentStore, StoreChanges)] = [:]
        func add(_ row: StoreRow, _ path: WritableKeyPath<StoreChanges, [StoreRow]>, from old: RowValues? = nil) throws {
            let store = try writableStore(of: row)
            perStore[ObjectIdentifier(store), default: (store, StoreChanges(inserted: [], updated: [], deleted: []))].1[keyPath: path].append(row)
            if let old { perStore[ObjectIdentifier(store)]!.1.updatedFrom.append(old) }
        }
        for row in changes.inserted { try add(row, \.inserted) }
        for (i, row) in changes.updated.enumerated() { try add(row, \.updated, from: changes.valuesReplaced(byUpdate: i)) }
        for row in changes.deleted { try add(row, \.deleted) }
        for row in changes.locked { try add(row, \.locked) }
        return Array(perStore.values)
    }

    private func writableStore(of row: StoreRow) throws -> NSPersistentStore {
        guard let store = row.objectID.persistentStore else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "An object's store was removed before the save.")
        }
        if store.isReadOnly {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't save '\(row.entity.name ?? "?")': its store is read-only (NSReadOnlyPersistentStoreOption).")
        }
        return store
    }
}
