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
        // A pinned context merges into the current generation, as Apple's does.
        advanceQueryGeneration()
        let info = notification.userInfo ?? [:]
        func ids(_ idKey: String, _ objectKey: String) -> [NSManagedObjectID] {
            if let ids = info[idKey] as? Set<NSManagedObjectID> { return Array(ids) }
            return (info[objectKey] as? Set<NSManagedObject>)?.map(\.objectID) ?? []
        }
        let insertedIDs = ids(NSInsertedObjectIDsKey, NSInsertedObjectsKey)
        let updatedIDs = ids(NSUpdatedObjectIDsKey, NSUpdatedObjectsKey)
        let deletedIDs = ids(NSDeletedObjectIDsKey, NSDeletedObjectsKey)
        var refreshed = Set<NSManagedObject>(), removed = Set<NSManagedObject>(), inserted = Set<NSManagedObject>()
        // New objects of the save are registered here (as faults), as Apple's merge does; they
        // are kept until the event ends, as Apple's autorelease pool keeps them.
        for id in insertedIDs where !id.isTemporaryID {
            let object = self.object(with: id)
            inserted.insert(object)
            state.mergedObjectsKeptForEvent.append(object)
        }
        if !inserted.isEmpty { scheduleEndOfEvent() }
        for id in updatedIDs {
            guard let object = registry.object(for: id.key) else { continue }
            refresh(object, mergeChanges: true, fromStore: true, knownRow: parentRows[id])
            refreshed.insert(object)
        }
        // A deleted record's object stays registered, with the values it had, and is marked
        // deleted, as Apple's is: code holding it can still read it, fetches no longer find it,
        // and this context has nothing of it left to save (it joins no change set).
        for id in deletedIDs {
            guard let object = registry.object(for: id.key) else { continue }
            releaseSnapshot(of: object)   // the record's row left the cache with the save
            if object.isFault { giveNoValues(to: object) }   // no record behind it any more
            state.inserted.remove(object); state.updated.remove(object); state.deleted.remove(object)
            object.flags.remove([.inserted, .updated])
            object.flags.insert(.deleted)
            removed.insert(object)
        }
        if !refreshed.isEmpty || !removed.isEmpty || !inserted.isEmpty {
            var userInfo: [String: Any] = [:]
            if !inserted.isEmpty { userInfo[NSInsertedObjectsKey] = inserted }
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
