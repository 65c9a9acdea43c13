import Foundation

/// Merging another context's save into this one.
///
/// ```swift
/// NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) { note in
///     viewContext.perform { viewContext.mergeChanges(fromContextDidSave: note) }
/// }
/// ```
extension NSManagedObjectContext {
    /// Applies another context's save (the `NSManagedObjectContextDidSave` notification) to this
    /// context: changed objects are refreshed with their new values, deleted ones are removed,
    /// inserted ones become available to fetches.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        mergeChanges(fromContextDidSave: notification, parentRows: [:])
    }

    /// ``mergeChanges(fromContextDidSave:)`` with the updated records as the parent context had
    /// them when it saved, taken on its queue, so that the merge does not wait for that queue
    /// (a main-queue parent whose thread may be waiting for this context).
    func mergeChanges(fromContextDidSave notification: Notification, parentRows: [NSManagedObjectID: StoreRow]) {
        assertOnQueue()
        let info = notification.userInfo ?? [:]
        func ids(_ idKey: String, _ objectKey: String) -> [NSManagedObjectID] {
            if let ids = info[idKey] as? Set<NSManagedObjectID> { return Array(ids) }
            return (info[objectKey] as? Set<NSManagedObject>)?.map(\.objectID) ?? []
        }
        let insertedIDs = ids(NSInsertedObjectIDsKey, NSInsertedObjectsKey)
        let updatedIDs = ids(NSUpdatedObjectIDsKey, NSUpdatedObjectsKey)
        let deletedIDs = ids(NSDeletedObjectIDsKey, NSDeletedObjectsKey)
        var refreshed = Set<NSManagedObject>(), removed = Set<NSManagedObject>()
        for id in updatedIDs {
            guard let object = registry.object(for: id.key) else { continue }
            refresh(object, mergeChanges: true, fromStore: true, knownRow: parentRows[id])
            refreshed.insert(object)
        }
        for id in deletedIDs {
            guard let object = registry.object(for: id.key) else { continue }
            releaseSnapshot(of: object)
            object.flags.formIntersection(.slotsFollowCommitted)
            state.inserted.remove(object); state.updated.remove(object); state.deleted.remove(object)
            registry.forget(object)
            object.managedObjectContext = nil
            removed.insert(object)
        }
        if !refreshed.isEmpty || !removed.isEmpty {
            var userInfo: [String: Any] = [:]
            if !refreshed.isEmpty { userInfo[NSRefreshedObjectsKey] = refreshed }
            if !removed.isEmpty { userInfo[NSDeletedObjectsKey] = removed }
            NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: userInfo)
        }
        // Then the merged save's IDs, for observers on any thread.
        let merged: [String: Any] = [
            NSInsertedObjectIDsKey: Set(insertedIDs), NSUpdatedObjectIDsKey: Set(updatedIDs), NSDeletedObjectIDsKey: Set(deletedIDs),
        ]
        NotificationCenter.default.post(name: .NSManagedObjectContextDidMergeChangesObjectIDs, object: self, userInfo: merged)
    }
}
