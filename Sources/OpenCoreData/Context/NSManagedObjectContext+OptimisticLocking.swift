import Foundation

/// Optimistic locking: a save compares the version of each changed (or explicitly locked)
/// object's snapshot with its record's in the store, and hands differences to the merge policy.
/// The stores check versions again inside their write transaction (`NSManagedObjectContext+Save.swift`
/// retries a save whose policy resolves what another process wrote in between).
///
/// ```swift
/// context.detectConflicts(for: account)   // unchanged, but the save fails if its record changed
/// try context.save()
/// ```
extension NSManagedObjectContext {
    /// Puts an unchanged object under optimistic locking: the next save fails (or merges, by
    /// policy) if its record changed in the store since this context read it, and bumps its version.
    public func detectConflicts(for object: NSManagedObject) {
        assertOnQueue()
        object.fireFaultIfNeeded()
        state.lockedObjects.insert(object)
    }

    /// Compares each changed object's version with its store's and lets the merge policy resolve
    /// the differences (seed 003, "Optimistic Locking"). A record deleted in the store while this
    /// context deleted it too is not a conflict.
    ///
    /// The version compared is that of the snapshot the object's values came from. A fault has
    /// none in hand — `object(with:)` made it without reading, `refresh(_:mergeChanges: false)`
    /// dropped its values, a batched fetch has not loaded its batch yet — and its `version` is
    /// whatever it was before (0 for a fault never filled), so comparing it would report a
    /// conflict on a record this context never read (a deleted fault whose entity has no delete
    /// rule to fire it). It is fired first, as any access would: it then holds the snapshot the
    /// context has for the record (a fetched fault's cached row, while fresh) or the current row.
    func resolveOptimisticLockingConflicts(with coordinator: NSPersistentStoreCoordinator) throws {
        var conflicts: [NSMergeConflict] = []
        for object in state.updated.union(state.deleted).union(state.lockedObjects) where !object.objectID.isTemporaryID {
            object.fireFaultIfNeeded()
            let row = try coordinator.row(for: object.objectID, in: self)
            if row == nil && object.isDeleted { continue }
            if row?.version != object.version { conflicts.append(NSMergeConflict(object: object, persistedRow: row)) }
        }
        guard !conflicts.isEmpty else { return }
        let policy = (mergePolicy as? NSMergePolicy) ?? .error
        try policy.resolve(optimisticLockingConflicts: conflicts)
    }
}
