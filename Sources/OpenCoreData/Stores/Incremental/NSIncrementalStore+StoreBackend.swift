import Foundation

// The adapter between Apple's NSIncrementalStore API and the coordinator's internal store
// interface (`StoreBackend`). The built-in stores implement StoreBackend directly; a custom
// store goes through here, on the same paths: fetch, fault, permanent IDs, save.

extension NSIncrementalStore: StoreBackend {
    /// Subclasses receive managed objects at save (cache nodes, `NSSaveChangesRequest`).
    var needsSourceObjects: Bool { true }

    /// Incremental stores apply predicates, sort descriptors and limits themselves (the guide's
    /// "Handling Scope Modifiers and Sort Descriptors"): their fetches are exact.
    func prepareFetch(_ plan: FetchPlan) throws -> any PreparedStoreFetch { IncrementalStoreFetch(store: self, plan: plan) }

    /// A fetch: `execute(_:with:)` with an `NSFetchRequest<NSFetchRequestResult>`; the answer's
    /// objects or IDs become fault rows, so values load only when a fault fires.
    fileprivate func fetchRows(_ plan: FetchPlan) throws -> [StoreRow] {
        let request = storeRequest(for: plan)
        let answer = try execute(request, with: plan.context as? NSManagedObjectContext)
        guard let elements = answer as? [Any] else {
            throw CoreDataError.make(NSCoreDataError, "\(Swift.type(of: self)).execute(_:with:) answered a fetch with \(Swift.type(of: answer)); return an array of managed objects (context.object(with:)) or of NSManagedObjectIDs.")
        }
        return try elements.map { element in
            let objectID: NSManagedObjectID
            switch element {
            case let object as NSManagedObject: objectID = object.objectID
            case let id as NSManagedObjectID: objectID = id
            default:
                throw CoreDataError.make(NSCoreDataError, "\(Swift.type(of: self)).execute(_:with:) answered a fetch with a \(Swift.type(of: element)); return managed objects (context.object(with:)) or NSManagedObjectIDs.")
            }
            guard objectID.persistentStore === self, !objectID.isTemporaryID else {
                throw CoreDataError.make(NSCoreDataError, "\(Swift.type(of: self)).execute(_:with:) returned \(objectID.uriRepresentation().absoluteString), which is not an ID of this store. Make IDs with newObjectID(for:referenceObject:).")
            }
            guard plan.includes(objectID.entity) else {
                throw CoreDataError.make(NSCoreDataError, "\(Swift.type(of: self)).execute(_:with:) returned a '\(objectID.entity.name ?? "?")' for a fetch of '\(plan.entity.name ?? "?")'\(plan.includesSubentities ? "" : " without subentities"). Return only objects of the request's entity.")
            }
            return StoreRow(objectID: objectID, values: [], version: 0, isFault: true)
        }
    }

    /// The request the store receives: a copy of the caller's, typed exactly
    /// `NSFetchRequest<NSFetchRequestResult>` so the guide's `request as! NSFetchRequest<...>` cast
    /// works, with the entity resolved and the limits of this fetch.
    private func storeRequest(for plan: FetchPlan) -> NSFetchRequest<NSFetchRequestResult> {
        let request = (plan.request as? FetchRequestConvertible)?.resultRequestCopy() ?? NSFetchRequest<NSFetchRequestResult>()
        let wantsIDs = request.resultType == .managedObjectIDResultType
        request.entity = plan.entity
        request.entityName = plan.entity.name
        request.predicate = plan.predicate
        request.sortDescriptors = plan.sortDescriptors.isEmpty ? request.sortDescriptors : plan.sortDescriptors
        request.includesSubentities = plan.includesSubentities
        request.fetchLimit = plan.fetchLimit
        request.fetchOffset = plan.fetchOffset
        request.resultType = wantsIDs || plan.context == nil ? .managedObjectIDResultType : .managedObjectResultType
        return request
    }

    func row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try row(for: objectID, in: nil)
    }

    /// A fault fires: `newValuesForObject(with:with:)`. Relationships the node left out stay
    /// unloaded until read (`relationshipValue(_:for:in:)`).
    func row(for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoreRow? {
        guard let context = context as? NSManagedObjectContext else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "An NSIncrementalStore loads values on behalf of a context (newValuesForObject(with:with:)), and none was given for \(objectID.uriRepresentation().absoluteString). Load objects through a managed object context.")
        }
        let node = try newValuesForObject(with: objectID, with: context)
        guard let layout = objectID.entity.layout else { return nil }
        let values: [StoredValue] = try layout.properties.map { property in
            switch property {
            case let attribute as NSAttributeDescription:
                return attribute.isTransient ? attribute.defaultStoredValue : StoredValue(node.value(for: attribute), for: attribute)
            case let relationship as NSRelationshipDescription:
                if relationship.isTransient { return relationship.isToMany ? .objectIDs([]) : .null }
                // Left out of the node: loaded through newValue(forRelationship:...) on first read.
                guard node.hasEntry(for: relationship.name) else { return UnloadedRelationship.value }
                return try storedRelationshipValue(node.value(for: relationship), relationship, of: objectID)
            default:
                return .null
            }
        }
        return StoreRow(objectID: objectID, values: RowValues(values), version: Int64(clamping: node.version))
    }

    /// A relationship the node left out, when it is first read.
    func relationshipValue(_ relationship: NSRelationshipDescription, for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoredValue {
        let value = try newValue(forRelationship: relationship, forObjectWith: objectID, with: context as? NSManagedObjectContext)
        return try storedRelationshipValue(value, relationship, of: objectID)
    }

    /// A relationship value from a node or `newValue(forRelationship:...)` in stored form.
    private func storedRelationshipValue(_ value: Any?, _ relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> StoredValue {
        func id(_ element: Any) throws -> NSManagedObjectID {
            if let id = element as? NSManagedObjectID { return id }
            if let object = element as? NSManagedObject { return object.objectID }
            throw CoreDataError.make(NSCoreDataError, "\(Swift.type(of: self)): the value of '\(objectID.entity.name ?? "?").\(relationship.name)' for \(objectID.uriRepresentation().absoluteString) holds a \(Swift.type(of: element)); use NSManagedObjectIDs made with newObjectID(for:referenceObject:).")
        }
        guard let value, !(value is NSNull) else { return relationship.isToMany ? .objectIDs([]) : .null }
        if !relationship.isToMany { return .objectID(try id(value)) }
        let elements: [Any]
        switch value {
        case let ids as [NSManagedObjectID]: return .objectIDs(ids)
        case let ids as Set<NSManagedObjectID>: elements = Array(ids)
        case let set as NSOrderedSet: elements = set.array
        case let set as NSSet: elements = set.allObjects
        case let array as [Any]: elements = array
        default:
            throw CoreDataError.make(NSCoreDataError, "\(Swift.type(of: self)): the to-many relationship '\(objectID.entity.name ?? "?").\(relationship.name)' of \(objectID.uriRepresentation().absoluteString) came back as a \(Swift.type(of: value)); return an array of NSManagedObjectIDs.")
        }
        return .objectIDs(try elements.map(id))
    }

    /// Unused: an incremental store names new records itself, in `obtainPermanentIDs(for:)`
    /// (`permanentIDs(for:)` below), so the coordinator never asks it for primary keys.
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        throw CoreDataError.make(NSPersistentStoreSaveError, "An NSIncrementalStore chooses IDs in obtainPermanentIDs(for:); it has no primary-key sequence.")
    }

    /// `obtainPermanentIDs(for:)`, checked: one permanent ID of this store per object, in order.
    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID]? {
        let ids = try obtainPermanentIDs(for: objects)
        guard ids.count == objects.count else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "\(Swift.type(of: self)).obtainPermanentIDs(for:) returned \(ids.count) IDs for \(objects.count) objects. Return one ID per object, in the order given.")
        }
        for (object, id) in zip(objects, ids) {
            guard id.persistentStore === self, !id.isTemporaryID, id.entity === object.entity else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "\(Swift.type(of: self)).obtainPermanentIDs(for:) returned \(id.uriRepresentation().absoluteString) for a new '\(object.entity.name ?? "?")'. Return newObjectID(for: object.entity, referenceObject: <new key>) from this store.")
            }
        }
        return ids
    }

    /// A save: one `NSSaveChangesRequest` with the objects (the coordinator already asked for
    /// permanent IDs). Whatever the store throws is the save's error.
    func save(_ changes: StoreChanges) throws {
        func objects(_ rows: [StoreRow]) throws -> Set<NSManagedObject> {
            Set(try rows.map { row in
                guard let object = row.source?.object else {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "An NSIncrementalStore saves managed objects, and the object for \(row.objectID.uriRepresentation().absoluteString) is gone. Save through a managed object context.")
                }
                return object
            })
        }
        let request = NSSaveChangesRequest(inserted: try objects(changes.inserted), updated: try objects(changes.updated),
                                           deleted: try objects(changes.deleted), locked: try objects(changes.locked))
        let context = (changes.inserted + changes.updated + changes.deleted + changes.locked).lazy.compactMap { $0.source?.object?.managedObjectContext }.first
        _ = try execute(request, with: context)
    }

    /// Fills in the metadata `loadMetadata()` left out and checks the model version hashes.
    func didLoadMetadata(model: NSManagedObjectModel) throws {
        var metadata = self.metadata ?? [:]
        if metadata[NSStoreTypeKey] == nil { metadata[NSStoreTypeKey] = registeredTypeName ?? type }
        if metadata[NSStoreUUIDKey] == nil, let url {
            let identifier = Swift.type(of: self).identifierForNewStore(at: url)
            metadata[NSStoreUUIDKey] = (identifier as? String) ?? String(describing: identifier)
        }
        self.metadata = metadata
        try StoreMetadataCheck.checkModel(of: self, against: model)
    }

    func contextDidRegister(_ objectIDs: [NSManagedObjectID]) {
        managedObjectContextDidRegisterObjects(with: objectIDs)
    }

    func contextDidUnregister(_ objectIDs: [NSManagedObjectID]) {
        managedObjectContextDidUnregisterObjects(with: objectIDs)
    }
}

/// An incremental store's fetch: the subclass runs the request (`execute(_:with:)`) when rows
/// are asked for; nothing is translated beforehand.
private final class IncrementalStoreFetch: PreparedStoreFetch {
    let store: NSIncrementalStore
    let plan: FetchPlan
    init(store: NSIncrementalStore, plan: FetchPlan) { self.store = store; self.plan = plan }
    var isExact: Bool { true }
    func rows(_ form: FetchForm) throws -> [StoreRow] {
        try store.fetchRows(form == .answer ? plan : plan.inStoreOrder)
    }
}

extension NSIncrementalStore: RequestForwardingStore {
    /// Batch requests reach the subclass as Apple sends them: `execute(_:with:)` with the
    /// request, whose answer goes back to the caller.
    func forward(_ request: NSPersistentStoreRequest, from context: (any RequestingContext)?) throws -> Any {
        try execute(request, with: context as? NSManagedObjectContext)
    }
}
