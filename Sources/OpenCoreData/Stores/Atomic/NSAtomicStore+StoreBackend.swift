import Foundation

// The adapter between Apple's NSAtomicStore API and the coordinator's internal store interface
// (`StoreBackend`): rows come from cache nodes; a save turns managed objects into nodes through
// the subclass's callbacks and then lets the subclass write its file.

extension NSAtomicStore: RowListingStore {
    /// Subclasses receive managed objects at save (cache nodes, `NSSaveChangesRequest`).
    var needsSourceObjects: Bool { true }

    /// Every record of the entity; the context evaluates predicates and sort descriptors in
    /// memory, as for the in-memory store.
    func allRows(for plan: FetchPlan) throws -> [StoreRow] {
        try dataLock.withLock {
            try nodes.values.filter { plan.includes($0.objectID.entity) }
                .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
                .map(row(from:))
        }
    }

    func row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try dataLock.withLock { try nodes[objectID.key].map(row(from:)) }
    }

    /// A node's values in slot order: attributes converted to their stored form, related nodes
    /// (or IDs) to object IDs.
    private func row(from node: NSAtomicStoreCacheNode) throws -> StoreRow {
        let objectID = node.objectID
        guard let layout = objectID.entity.layout else {
            throw CoreDataError.make(NSCoreDataError, "The entity of \(objectID.uriRepresentation().absoluteString) belongs to no model in use.")
        }
        let values: [StoredValue] = try layout.properties.map { property in
            switch property {
            case let attribute as NSAttributeDescription:
                return attribute.isTransient ? attribute.defaultStoredValue : StoredValue(node.value(forKey: attribute.name), for: attribute)
            case let relationship as NSRelationshipDescription:
                if relationship.isTransient { return relationship.isToMany ? .objectIDs([]) : .null }
                return try Self.storedRelationshipValue(node.value(forKey: relationship.name), relationship, of: node)
            default:
                return .null
            }
        }
        return StoreRow(objectID: objectID, values: RowValues(values), version: versions[objectID.key] ?? 1)
    }

    private static func storedRelationshipValue(_ value: Any?, _ relationship: NSRelationshipDescription, of node: NSAtomicStoreCacheNode) throws -> StoredValue {
        func id(_ element: Any) throws -> NSManagedObjectID {
            if let related = element as? NSAtomicStoreCacheNode { return related.objectID }
            if let id = element as? NSManagedObjectID { return id }
            throw CoreDataError.make(NSCoreDataError, "The cache node \(node.objectID.uriRepresentation().absoluteString) holds a \(Swift.type(of: element)) for relationship '\(relationship.name)'; use the related NSAtomicStoreCacheNode (a collection of them for a to-many).")
        }
        guard let value else { return relationship.isToMany ? .objectIDs([]) : .null }
        if !relationship.isToMany { return .objectID(try id(value)) }
        let elements: [Any]
        switch value {
        case let set as Set<NSAtomicStoreCacheNode>: elements = Array(set)
        case let array as [NSAtomicStoreCacheNode]: elements = array
        case let set as NSOrderedSet: elements = set.array
        case let set as NSSet: elements = set.allObjects
        case let array as [Any]: elements = array
        default: elements = [value]
        }
        // An unordered relationship's members come in a stable order (by key).
        let ids = try elements.map(id)
        return .objectIDs(relationship.isOrdered ? ids : ids.sorted { $0.primaryKey < $1.primaryKey })
    }

    /// Unused: new records are named by `newReferenceObject(for:)` (`permanentIDs(for:)` below).
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        throw CoreDataError.make(NSPersistentStoreSaveError, "An NSAtomicStore names new records with newReferenceObject(for:); it has no primary-key sequence.")
    }

    /// `newReferenceObject(for:)` for each new object, turned into permanent IDs.
    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID]? {
        try dataLock.withLock {
            try objects.map { object in
                let id = objectID(for: object.entity, withReferenceObject: newReferenceObject(for: object))
                if nodes[id.key] != nil {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "\(Swift.type(of: self)).newReferenceObject(for:) returned \(referenceObject(for: id)) for a new '\(object.entity.name ?? "?")', which an existing record already uses. Return a reference unique within the entity's hierarchy.")
                }
                return id
            }
        }
    }

    /// A save: nodes from the managed objects, then the subclass's `save()`. All or nothing:
    /// if anything throws, the nodes and versions are put back as they were.
    func save(_ changes: StoreChanges) throws {
        try dataLock.withLock {
            for row in changes.updated + changes.deleted {
                if let current = versions[row.key], nodes[row.key] != nil,
                   current != (changes.deleted.contains { $0.objectID == row.objectID } ? row.version : row.version - 1) {
                    throw CoreDataError.make(NSManagedObjectMergeError, "Optimistic locking failure: '\(row.entity.name ?? "?")' \(row.objectID.uriRepresentation().absoluteString) was changed by another context since it was fetched (version \(current)). Refresh it and save again, or set a merge policy.")
                }
            }
            func object(_ row: StoreRow) throws -> NSManagedObject {
                guard let object = row.source?.object else {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "An NSAtomicStore saves managed objects, and the object for \(row.objectID.uriRepresentation().absoluteString) is gone. Save through a managed object context.")
                }
                return object
            }
            let inserted = try changes.inserted.map(object)
            let updated = try changes.updated.map(object)
            let savedNodes = nodes, savedVersions = versions
            var savedCaches: [(NSAtomicStoreCacheNode, NSMutableDictionary?)] = []
            do {
                let newNodes = inserted.map { newCacheNode(for: $0) }
                addCacheNodes(Set(newNodes))
                for (node, object) in zip(newNodes, inserted) {
                    updateCacheNode(node, from: object)
                    versions[node.objectID.key] = 1
                }
                for (row, object) in zip(changes.updated, updated) {
                    guard let node = nodes[row.key] else { continue }
                    savedCaches.append((node, node.propertyCache?.mutableCopy() as? NSMutableDictionary))
                    updateCacheNode(node, from: object)
                    versions[row.key] = row.version
                }
                let removed = Set(changes.deleted.compactMap { nodes[$0.key] })
                if !removed.isEmpty {
                    willRemoveCacheNodes(removed)
                    for node in removed { nodes[node.objectID.key] = nil; versions[node.objectID.key] = nil }
                }
                try save()
            } catch {
                nodes = savedNodes
                versions = savedVersions
                for (node, cache) in savedCaches { node.propertyCache = cache }
                throw error
            }
        }
    }

    /// After `load()`: fill in missing metadata, then check the file's type and model.
    func didLoadMetadata(model: NSManagedObjectModel) throws {
        try dataLock.withLock {
            var metadata = self.metadata ?? [:]
            if let storedType = metadata[NSStoreTypeKey] as? String, storedType != type {
                throw CoreDataError.make(NSPersistentStoreTypeMismatchError, "\(url?.path ?? "The store") is a '\(storedType)' store, not '\(type)'. Open it with addPersistentStore(ofType: \"\(storedType)\", ...).", [NSStoreTypeKey: storedType])
            }
            metadata[NSStoreTypeKey] = type
            if metadata[NSStoreUUIDKey] == nil { metadata[NSStoreUUIDKey] = UUID().uuidString }
            self.metadata = metadata
            try StoreMetadataCheck.checkModel(of: self, against: model)
            if self.metadata[NSStoreModelVersionHashesKey] == nil {
                let entities = model.entities(forConfigurationName: configurationName) ?? []
                self.metadata[NSStoreModelVersionHashesKey] = entities.reduce(into: [String: Data]()) { $0[$1.name ?? ""] = $1.versionHash }
            }
        }
    }
}
