import Foundation

/// The rows a context's objects hold in the coordinator's row cache (the Programming Guide's
/// snapshots): taken when an object is filled from a row, given back when it turns into a fault
/// or leaves the context, in batches so that a fetch takes the cache's lock once.
extension NSManagedObjectContext {
    /// Runs `body` with ``holdSnapshot(of:_:position:)`` collecting rows, then hands them to the
    /// coordinator's cache in one locked call rather than one per object. The caller keeps the
    /// objects alive meanwhile, so none can release a reference it has not taken yet.
    ///
    /// Rows of `source` are collected as positions, not copies: a copy of a row is three
    /// reference counts to take and three to give back.
    ///
    /// Releases made meanwhile wait too, and go after the retains: user code run by the batch
    /// (`awakeFromFetch`) can fire a batched fault whose batch turns an object just filled here
    /// back into a fault, and its release must not reach the cache before its retain does.
    ///
    /// `handingOver`: the caller gives `source` up (passes its last reference), so the row cache
    /// may move values out of it.
    func batchingSnapshots<T>(of source: consuming [StoreRow] = [], handingOver: Bool = false, _ body: () throws -> T) rethrows -> T {
        let outer = state.deferredSnapshots
        state.deferredSnapshots = SnapshotBatch(source: source, ownsSource: handingOver)
        // A batch of releases already open (this one nested in another) is flushed by its owner,
        // after any retains of ours: the outermost batch of retains always owns the releases.
        let ownsReleases = state.deferredReleases == nil
        if ownsReleases { state.deferredReleases = [] }
        defer {
            var held = state.deferredSnapshots ?? SnapshotBatch(source: [])
            state.deferredSnapshots = outer  // before the retains below: `held` the only owner of its source
            if !held.isEmpty {
                if state.deferredSnapshots != nil {
                    state.deferredSnapshots!.others += held.others
                    state.deferredSnapshots!.others += held.positions.map { held.source[$0] }
                } else {
                    persistentStoreCoordinator?.retainSnapshots(&held.source, at: held.positions, and: held.others, movingValues: held.ownsSource)
                }
            }
            if ownsReleases { flushDeferredReleases() }
        }
        return try body()
    }

    /// Takes a reference to `row` in the coordinator's cache for `object` (root contexts only: a
    /// child's rows are its parent's state, not the store's).
    /// `position`: the row's index in the current batch's source, when it comes from there.
    func holdSnapshot(of object: NSManagedObject, _ row: StoreRow, position: Int? = nil) {
        guard parent == nil, !row.isFault, !object.flags.contains(.holdsSnapshot) else { return }
        if state.deferredSnapshots != nil {
            // Only a context with a coordinator fetches rows, so the batch has somewhere to go.
            object.flags.insert(.holdsSnapshot)
            state.deferredSnapshots!.hold(row, position: position)
        } else if let coordinator = persistentStoreCoordinator {
            object.flags.insert(.holdsSnapshot)
            coordinator.retainSnapshot(row)
        }
    }

    /// Gives back `object`'s reference to its cached row.
    func releaseSnapshot(of object: NSManagedObject) {
        guard object.flags.contains(.holdsSnapshot) else { return }
        // An object that holds a snapshot was filled from a row, so it has its store ID.
        releaseSnapshot(of: object, key: object.assignedObjectKey, deferringInto: &state.deferredReleases)
    }

    /// ``releaseSnapshot(of:)`` for an object's `deinit`, with the key it read for the identity
    /// map too. It reaches the context's state without the queue check (see
    /// ``stateForFreedObjects``).
    func releaseSnapshot(ofFreedObject object: NSManagedObject, key: ObjectKey) {
        releaseSnapshot(of: object, key: key, deferringInto: &stateForFreedObjects.deferredReleases)
    }

    /// Gives `object`'s reference back: into `deferred` while a batch collects them
    /// (``batchingSnapshotReleases(_:)``), otherwise to the coordinator now.
    func releaseSnapshot(of object: NSManagedObject, key: ObjectKey, deferringInto deferred: inout [ObjectKey]?) {
        object.flags.remove(.holdsSnapshot)
        if deferred != nil {
            deferred!.append(key)
        } else {
            // Only a root context holds snapshots: its own coordinator, without the overridable
            // getter's dispatch (every object a root context frees comes here).
            withRootCoordinator { $0.releaseSnapshot(key) }
        }
    }

    /// Runs `body` with ``releaseSnapshot(of:)`` collecting keys, then gives them back to the
    /// coordinator in one locked call (a batch of objects turned into faults at once).
    func batchingSnapshotReleases<T>(_ body: () throws -> T) rethrows -> T {
        guard state.deferredReleases == nil else { return try body() }
        state.deferredReleases = []
        defer { flushDeferredReleases() }
        return try body()
    }

    /// Ends a batch of releases: gives the collected keys back in one locked call.
    private func flushDeferredReleases() {
        let keys = state.deferredReleases ?? []
        state.deferredReleases = nil
        if !keys.isEmpty { persistentStoreCoordinator?.releaseSnapshots(keys) }
    }
}
