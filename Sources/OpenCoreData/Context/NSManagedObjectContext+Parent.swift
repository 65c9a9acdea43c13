import Foundation

// Nested contexts. A context with a `parent` is a scratch pad on top of another scratch pad: it
// reads the parent's current state (unsaved changes included), and its save pushes its changes
// into the parent, where they wait for the parent's own save. Only a root context writes to the
// stores. Rows travel as snapshots (`StoreRow`), the same form stores use, so the fetch, fault and
// save paths need no second implementation.

extension NSManagedObjectContext {
    /// The rows a child context's fetch starts from: every object of the plan's entity as the
    /// parent sees it now. (A root context asks its stores: `PreparedFetch`.)
    func rowsFromParent(_ plan: FetchPlan) throws -> [StoreRow] {
        guard let parent else { return [] }
        return try parent.performAndWait { try parent.rowsForChild(entity: plan.entity, includesSubentities: plan.includesSubentities) }
    }

    /// One record's current values: from the parent for a child, from the store for a root context.
    func sourceRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        if let parent {
            return try parent.performAndWait { try parent.rowForChild(objectID) }
        }
        guard !objectID.isTemporaryID else { return nil }
        return try persistentStoreCoordinator?.row(for: objectID, in: self)
    }

    /// Every object of `entity` as this context sees it now, as rows.
    private func rowsForChild(entity: NSEntityDescription, includesSubentities: Bool) throws -> [StoreRow] {
        let request = NSFetchRequest<NSManagedObject>()
        request.entity = entity
        request.includesSubentities = includesSubentities
        return try fetch(request).map { StoreRow(objectID: $0.objectID, values: $0.snapshot(), version: $0.version) }
    }

    func rowForChild(_ objectID: NSManagedObjectID) throws -> StoreRow? {
        let object: NSManagedObject
        if let registered = registry.object(for: objectID.key) {
            object = registered
        } else {
            guard let row = try readingQueryGeneration({ try sourceRow(for: objectID) }) else { return nil }
            object = readingQueryGeneration { materialize(row) }
        }
        if object.isDeleted { return nil }
        object.fireFaultIfNeeded()
        return StoreRow(objectID: object.objectID, values: object.snapshot(), version: object.version)
    }

    /// Pushes a child's saved changes into this context: new objects are inserted (keeping their
    /// temporary IDs), changed values are set as ordinary tracked changes, deletions are deleted.
    func applyChildChanges(_ changes: StoreChanges) {
        for row in changes.inserted where registry.object(for: row.key) == nil {
            let object = row.entity.resolvedClass.init(entity: row.entity, insertInto: nil)
            object.objectID = row.objectID
            insert(object, awake: false)
        }
        for row in changes.inserted + changes.updated {
            let object = self.object(with: row.objectID)
            // Persistent values, and transient attributes too, as Apple's do: they are the
            // object's state, though no store keeps them. Not fetched properties.
            let properties = object.layout.properties
            for i in properties.indices where i < row.values.count && !(properties[i] is NSFetchedPropertyDescription)
                && (!properties[i].isTransient || properties[i] is NSAttributeDescription) {
                if !object.readStored(i).isSame(as: row.values[i]) { object.writeSlot(i, .value(row.values[i])) }
            }
        }
        for row in changes.deleted {
            let object = self.object(with: row.objectID)
            if !object.isDeleted { delete(object) }
        }
        processPendingChanges()
    }

    /// A child's save: validated like any save, then handed to the parent.
    func saveToParent(_ parent: NSManagedObjectContext) throws {
        let insertedNow = Array(state.inserted), updatedNow = Array(state.updated), deletedNow = Array(state.deleted)
        let changes = StoreChanges(
            inserted: insertedNow.map { StoreRow(objectID: $0.objectID, values: $0.snapshot(), version: 0) },
            updated: updatedNow.map { StoreRow(objectID: $0.objectID, values: $0.snapshot(), version: $0.version) },
            deleted: deletedNow.map { StoreRow(objectID: $0.objectID, values: [], version: $0.version) })
        let rows = UncheckedSendableBox(changes)
        parent.performAndWait { parent.applyChildChanges(rows.value) }
        didSave(inserted: insertedNow, updated: updatedNow, deleted: deletedNow, toStore: false)
    }

    /// Applies a save described by object IDs (or their URIs) to `contexts` — for saves made by
    /// another process or a batch operation. Keys: `NSInsertedObjectsKey`, `NSUpdatedObjectsKey`,
    /// `NSDeletedObjectsKey`, with arrays or sets of `NSManagedObjectID` or `URL`.
    public class func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any], into contexts: [NSManagedObjectContext]) {
        for context in contexts {
            context.performAndWait {
                func ids(_ key: String) -> Set<NSManagedObjectID> {
                    let values: [Any]
                    switch changeNotificationData[key] {
                    case let array as [Any]: values = array
                    case let set as Set<NSManagedObjectID>: values = Array(set)
                    case let set as Set<URL>: values = Array(set)
                    default: values = []
                    }
                    return Set(values.compactMap { value in
                        if let id = value as? NSManagedObjectID { return id }
                        if let url = value as? URL { return context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: url) }
                        return nil
                    })
                }
                let info: [String: Any] = [
                    NSInsertedObjectIDsKey: ids(NSInsertedObjectsKey), NSUpdatedObjectIDsKey: ids(NSUpdatedObjectsKey),
                    NSDeletedObjectIDsKey: ids(NSDeletedObjectsKey),
                ]
                context.mergeChanges(fromContextDidSave: Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: info))
            }
        }
    }
}
