import Foundation

extension NSPersistentStoreCoordinator {
    /// Whether a store of the coordinator keeps persistent history: saves then say what to
    /// record about their transaction.
    var keepsHistory: Bool { persistentStores.contains { ($0 as? HistoryKeepingStore)?.tracksHistory == true } }

    /// The one store a batch request for `entity` runs in: among the request's
    /// `affectedStores` (or all stores), the first writable store whose configuration holds
    /// the entity.
    ///
    /// - Throws: `NSPersistentStoreUnsupportedRequestTypeError` (134091) when that store does not
    ///   run batch requests, `NSPersistentStoreSaveError` (134030) when no writable store holds
    ///   the entity.
    func storeForBatchRequest(of entity: NSEntityDescription, among affected: [NSPersistentStore]?) throws -> NSPersistentStore {
        let candidates = locked { stores(for: entity, among: affected) }
        guard let store = candidates.first(where: { !$0.isReadOnly }) else {
            let reason = candidates.isEmpty ? "no store of the coordinator holds entity '\(entity.name ?? "?")'" : "every store that holds entity '\(entity.name ?? "?")' is read-only"
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't run the batch request: \(reason). Add a writable store whose configuration includes the entity.")
        }
        return store
    }

    /// Runs `operation` in `store` under the coordinator's lock, then drops the cached rows it
    /// changed: contexts see the new values when they refresh or merge the IDs.
    func executeBatch(_ operation: BatchOperation, in store: NSPersistentStore) throws -> BatchOutcome {
        try locked {
            let backend = try backend(of: store)
            guard backend.runsBatchRequests else {
                throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "A \(store.type) store does not run batch requests. Fetch the objects, change or delete them in a context, and save.")
            }
            let outcome = try backend.executeBatch(operation)
            for id in outcome.deleted { rowCache.remove(id.key) }
            for id in outcome.updated { rowCache.remove(id.key) }
            if !outcome.listsRecords {
                let entity: NSEntityDescription
                switch operation {
                case .delete(let d): entity = d.entity
                case .update(let u): entity = u.entity
                case .insert(let i): entity = i.entity
                }
                rowCache.removeRows(of: Set(managedObjectModel.entities.filter { $0.isKindOf(entity: entity.rootEntity) }.map(ObjectIdentifier.init)))
            }
            return outcome
        }
    }
}
