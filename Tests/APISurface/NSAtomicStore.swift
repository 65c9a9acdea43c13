import OpenCoreData

// NSAtomicStore, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nsatomicstore and its per-symbol pages). The members a
// subclass must override (load(), save(), newCacheNode(for:), newReferenceObject(for:),
// updateCacheNode(_:from:)) and the willRemoveCacheNodes(_:) hook are checked as overrides in a
// small subclass; the utility methods a subclass calls are checked as calls.

// MARK: - Initializing a store

/// api: NSAtomicStore.init(persistentStoreCoordinator:configurationName:at:options:)
func api_NSAtomicStore_init_persistentStoreCoordinator_configurationName_at_options(
    _ coordinator: NSPersistentStoreCoordinator?, _ url: URL, _ options: [AnyHashable: Any]?
) {
    final class Store: NSAtomicStore {
        override init(
            persistentStoreCoordinator coordinator: NSPersistentStoreCoordinator?, configurationName: String?,
            at url: URL, options: [AnyHashable: Any]?
        ) {
            super.init(persistentStoreCoordinator: coordinator, configurationName: configurationName, at: url, options: options)
        }
    }
    let _: NSAtomicStore = NSAtomicStore(
        persistentStoreCoordinator: coordinator, configurationName: nil, at: url, options: options)
    let _: NSAtomicStore = NSAtomicStore(persistentStoreCoordinator: nil, configurationName: "Default", at: url)
    let _: Store = Store(persistentStoreCoordinator: coordinator, configurationName: nil, at: url, options: nil)
}

// MARK: - Loading a store

/// api: NSAtomicStore.load()
final class API_NSAtomicStore_Load: NSAtomicStore {
    override func load() throws {
        try super.load()
    }
}

/// api: NSAtomicStore.objectID(for:withReferenceObject:)
func api_NSAtomicStore_objectID_for_withReferenceObject(
    _ store: NSAtomicStore, _ entity: NSEntityDescription, _ reference: Any
) {
    let _: NSManagedObjectID = store.objectID(for: entity, withReferenceObject: reference)
    let _: NSManagedObjectID = store.objectID(for: entity, withReferenceObject: "row-1")
}

/// api: NSAtomicStore.addCacheNodes(_:)
func api_NSAtomicStore_addCacheNodes(_ store: NSAtomicStore, _ nodes: Set<NSAtomicStoreCacheNode>) {
    store.addCacheNodes(nodes)
}

// MARK: - Updating cache nodes

/// api: NSAtomicStore.newCacheNode(for:)
final class API_NSAtomicStore_NewCacheNode: NSAtomicStore {
    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node: NSAtomicStoreCacheNode = super.newCacheNode(for: managedObject)
        return node
    }
}

/// api: NSAtomicStore.newReferenceObject(for:)
final class API_NSAtomicStore_NewReferenceObject: NSAtomicStore {
    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        let reference: Any = super.newReferenceObject(for: managedObject)
        return reference
    }
}

/// api: NSAtomicStore.updateCacheNode(_:from:)
final class API_NSAtomicStore_UpdateCacheNode: NSAtomicStore {
    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        super.updateCacheNode(node, from: managedObject)
    }
}

/// api: NSAtomicStore.willRemoveCacheNodes(_:)
final class API_NSAtomicStore_WillRemoveCacheNodes: NSAtomicStore {
    override func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        super.willRemoveCacheNodes(cacheNodes)
    }
}

// MARK: - Saving a store

/// api: NSAtomicStore.save()
final class API_NSAtomicStore_Save: NSAtomicStore {
    override func save() throws {
        try super.save()
    }
}

// MARK: - Utility methods

/// api: NSAtomicStore.cacheNodes()
func api_NSAtomicStore_cacheNodes(_ store: NSAtomicStore) {
    let _: Set<NSAtomicStoreCacheNode> = store.cacheNodes()
}

/// api: NSAtomicStore.cacheNode(for:)
func api_NSAtomicStore_cacheNode_for(_ store: NSAtomicStore, _ objectID: NSManagedObjectID) {
    let _: NSAtomicStoreCacheNode? = store.cacheNode(for: objectID)
}

/// api: NSAtomicStore.referenceObject(for:)
func api_NSAtomicStore_referenceObject_for(_ store: NSAtomicStore, _ objectID: NSManagedObjectID) {
    let _: Any = store.referenceObject(for: objectID)
}
