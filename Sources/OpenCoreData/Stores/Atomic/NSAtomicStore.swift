import Foundation

/// The base class of a store that keeps every record in memory and reads and writes its file
/// whole — the model behind the binary (``NSBinaryStoreType``) and XML (``NSXMLStoreType``)
/// stores, and the class to subclass for a file format of your own.
///
/// ```swift
/// final class CSVStore: NSAtomicStore {
///     override func load() throws {
///         guard let url, FileManager.default.fileExists(atPath: url.path) else { return }   // a new store
///         for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
///             let fields = line.split(separator: ",").map(String.init)
///             let node = NSAtomicStoreCacheNode(objectID: objectID(for: employee, withReferenceObject: fields[0]))
///             node.setValue(fields[1], forKey: "name")
///             addCacheNodes([node])
///         }
///     }
///     override func save() throws {
///         let lines = cacheNodes().map { "\(referenceObject(for: $0.objectID)),\($0.value(forKey: "name") ?? "")" }
///         try lines.joined(separator: "\n").write(to: url!, atomically: true, encoding: .utf8)
///     }
///     override func newReferenceObject(for managedObject: NSManagedObject) -> Any { UUID().uuidString }
/// }
///
/// NSPersistentStoreCoordinator.registerStoreClass(CSVStore.self, forStoreType: "CSV")
/// ```
///
/// What the coordinator calls, and when:
/// - `load()` when the store is added (through `loadMetadata()`): read the file, make a node per
///   record with ``objectID(for:withReferenceObject:)``, register them with ``addCacheNodes(_:)``,
///   and set ``NSPersistentStore/metadata`` if the file keeps it. Metadata left out is filled in
///   (type, UUID, the model's version hashes); a file whose `NSStoreTypeKey` names another type
///   fails with 134010, one whose `NSStoreModelVersionHashesKey` names another model with 134100.
/// - Fetches and faults read the nodes; nothing is read from the file again.
/// - At save: `newReferenceObject(for:)` for each new object (its permanent ID), then
///   `newCacheNode(for:)` for each new object, `updateCacheNode(_:from:)` for each new and
///   changed object (after every new node is registered, so relationships between new objects
///   find their nodes), `willRemoveCacheNodes(_:)` with the deleted ones, and finally `save()`.
///   If `save()` throws, the nodes are put back as they were and the error reaches the caller of
///   the context's `save()` unchanged.
///
/// `newCacheNode(for:)`, `updateCacheNode(_:from:)` and `newReferenceObject(for:)` have working
/// defaults (copy every persistent property; increasing integers), so a subclass needs only
/// `load()` and `save()`.
open class NSAtomicStore: NSPersistentStore, @unchecked Sendable {
    // @unchecked Sendable: `nodes`, `versions`, `references` and `lastIntegerReference` are
    // guarded by `dataLock` — recursive, because a subclass's callbacks (cacheNode(for:),
    // addCacheNodes(_:)) run inside the store's own locked operations.
    let dataLock = NSRecursiveLock()
    var nodes: [ObjectKey: NSAtomicStoreCacheNode] = [:]
    /// Optimistic-locking versions: 1 for a loaded or new record, +1 per saved change. Kept in
    /// memory only: an atomic store reads its file once, so versions matter among the contexts
    /// of one coordinator.
    var versions: [ObjectKey: Int64] = [:]
    private var references = ReferenceObjectTable()
    private var lastIntegerReference: [Int32: Int] = [:]

    public required init(persistentStoreCoordinator coordinator: NSPersistentStoreCoordinator?, configurationName: String?, at url: URL, options: [AnyHashable: Any]? = nil) {
        super.init(persistentStoreCoordinator: coordinator, configurationName: configurationName, at: url, options: options)
    }

    /// The store type: the name the class was registered under (the built-in stores: their
    /// type constants).
    open override var type: String {
        NSPersistentStoreCoordinator.registeredStoreTypes.first { $0.value == Swift.type(of: self) }?.key ?? super.type
    }

    /// The store's identifier: the metadata's `NSStoreUUIDKey` unless set explicitly.
    open override var identifier: String! {
        get { super.identifier ?? metadata?[NSStoreUUIDKey] as? String }
        set { super.identifier = newValue }
    }

    /// Loads the store: calls ``load()``. Override `load()`, not this.
    open override func loadMetadata() throws {
        try dataLock.withLock { try load() }
    }

    // MARK: Methods to override

    /// Reads the store's file into cache nodes (``addCacheNodes(_:)``) and metadata. A missing
    /// file is a new, empty store. Throw if the file can't be read.
    open func load() throws {
        throw CoreDataError.make(NSPersistentStoreOpenError, "\(Swift.type(of: self)) does not override load(). An NSAtomicStore subclass reads its file in load() and writes it in save().")
    }

    /// Writes every cache node (``cacheNodes()``) and the metadata to the store's file.
    open func save() throws {
        throw CoreDataError.make(NSPersistentStoreSaveError, "\(Swift.type(of: self)) does not override save(). An NSAtomicStore subclass reads its file in load() and writes it in save().")
    }

    /// A node for a newly inserted object. The default makes a node with the object's ID and
    /// copies its persistent values (see ``updateCacheNode(_:from:)``).
    open func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        updateCacheNode(node, from: managedObject)
        return node
    }

    /// Copies `managedObject`'s persistent values into `node`: attributes as values, to-one
    /// relationships as the related node, to-many as a set of related nodes (an array for an
    /// ordered relationship). Related objects without a node yet are filled in by the call for
    /// the same object after all new nodes are registered.
    open func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        for i in managedObject.layout.persistentIndexes {
            let property = managedObject.layout.properties[i]
            switch property {
            case is NSAttributeDescription:
                node.setValue(managedObject.value(forKey: property.name), forKey: property.name)
            case let relationship as NSRelationshipDescription:
                let related = NSManagedObject.objects(in: managedObject.value(forKey: property.name), for: relationship, of: managedObject)
                let relatedNodes = related.compactMap { cacheNode(for: $0.objectID) }
                if !relationship.isToMany {
                    node.setValue(relatedNodes.first, forKey: property.name)
                } else if relationship.isOrdered {
                    node.setValue(relatedNodes, forKey: property.name)
                } else {
                    node.setValue(Set(relatedNodes), forKey: property.name)
                }
            default:
                break
            }
        }
    }

    /// Called with the nodes of deleted objects before they are removed and ``save()`` runs.
    open func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {}

    /// A reference object for a new object: unique within its entity's inheritance hierarchy
    /// in this store, and stable. The default returns increasing integers (`Int`), one sequence
    /// per root entity, above any integer reference loaded.
    open func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        dataLock.withLock {
            let root = managedObject.entity.rootEntityNumber
            let next = (lastIntegerReference[root] ?? 0) + 1
            lastIntegerReference[root] = next
            return next
        }
    }

    // MARK: Methods not to override

    /// Every registered node.
    public func cacheNodes() -> Set<NSAtomicStoreCacheNode> {
        dataLock.withLock { Set(nodes.values) }
    }

    /// Registers nodes with the store (call it from ``load()``).
    public func addCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        dataLock.withLock {
            for node in cacheNodes {
                nodes[node.objectID.key] = node
                if versions[node.objectID.key] == nil { versions[node.objectID.key] = 1 }
            }
        }
    }

    /// The node for `objectID`, if registered.
    public func cacheNode(for objectID: NSManagedObjectID) -> NSAtomicStoreCacheNode? {
        dataLock.withLock { nodes[objectID.key] }
    }

    /// The object ID for the record of `entity` known as `data` (call it from ``load()``).
    public func objectID(for entity: NSEntityDescription, withReferenceObject data: Any) -> NSManagedObjectID {
        let key: Int64 = dataLock.withLock {
            if let integer = data as? Int, integer >= 0 {
                let root = entity.rootEntityNumber
                lastIntegerReference[root] = max(lastIntegerReference[root] ?? 0, integer)
            }
            return references.key(for: data, entity: entity)
        }
        return NSManagedObjectID(entity: entity, store: self, primaryKey: key)
    }

    /// The reference object `objectID` was made from. Stops if the ID is not this store's.
    public func referenceObject(for objectID: NSManagedObjectID) -> Any {
        precondition(objectID.persistentStore === self && !objectID.isTemporaryID, "referenceObject(for:): \(objectID.uriRepresentation().absoluteString) is not an ID of this store (\(type)).")
        guard let reference = dataLock.withLock({ references.reference(for: objectID.primaryKey, entity: objectID.entity) }) else {
            preconditionFailure("referenceObject(for:): this store never made \(objectID.uriRepresentation().absoluteString).")
        }
        return reference
    }
}
