import Foundation

extension NSManagedObjectContext {
    /// Runs a batched fetch whose result makes its objects one batch at a time, as they are
    /// read — what `fetch(_:)` returns on Apple platforms when `fetchBatchSize` is set.
    ///
    /// ```swift
    /// let request = NSFetchRequest<Item>(entityName: "Item")
    /// request.fetchBatchSize = 500
    /// for item in try context.fetchBatched(request) {  // a few batches of objects at a time
    ///     total += item.price
    /// }
    /// ```
    ///
    /// The elements are the objects `fetch(request)` returns, in the same order. Use this instead
    /// of `fetch(_:)` to iterate results too large to hold as objects: `fetch(_:)` returns a
    /// Swift `[T]`, which must hold every object (docs/DEVIATIONS.md). See
    /// ``NSBatchFaultingArray`` for when the result is realized lazily and when it holds
    /// `fetch(_:)`'s array.
    public func fetchBatched<T>(_ request: NSFetchRequest<T>) throws -> NSBatchFaultingArray<T> {
        assertOnQueue()
        try checkSortKeys(of: request)
        if let batches = try readingQueryGeneration({ try batchFaultingStorage(request) }) { return NSBatchFaultingArray(batches) }
        return NSBatchFaultingArray(try fetch(request))
    }

    /// The lazy state for `request`, when the store can list the matching keys and its answer is
    /// exactly `fetch(_:)`'s; nil when `fetch(_:)` must answer (the conditions mirror its own
    /// batched path, so both make the same query).
    private func batchFaultingStorage<T>(_ request: NSFetchRequest<T>) throws -> BatchFaultingStorage<T>? {
        guard request.fetchBatchSize > 0, request.resultType == .managedObjectResultType,
              (request.propertiesToGroupBy ?? []).isEmpty, (request.relationshipKeyPathsForPrefetching ?? []).isEmpty,
              request.includesPropertyValues,
              // Unsaved changes could add, remove or reorder objects: fetch(_:) corrects the
              // store's answer in memory, which needs every object.
              let fetch = try storeEvaluatedFetch(request),
              let keys = try fetch.objectKeys(),
              let convert = BatchFaultingStorage<T>.converter(for: keys.entities) else { return nil }
        return BatchFaultingStorage(context: self, keys: keys, batchSize: request.fetchBatchSize,
                                    asFaults: request.returnsObjectsAsFaults, convert: convert)
    }

    /// The objects of rows `rows` of a lazily batched fetch, in order: registered objects as they
    /// are, the others made from their rows, read with one `rows(for:)` call (one
    /// `WHERE Z_PK IN (...)` query) for the batch. `asFaults` leaves new objects as faults
    /// holding their cached rows, as `fetch(_:)` returns them.
    func batchObjects(_ rows: Range<Int>, of keys: FetchedObjectKeys, asFaults: Bool) -> [NSManagedObject] {
        assertOnQueue()
        return readingQueryGeneration { batchObjectsInQueryGeneration(rows, of: keys, asFaults: asFaults) }
    }

    /// ``batchObjects(_:of:asFaults:)``, inside the context's query generation if it is pinned.
    private func batchObjectsInQueryGeneration(_ rows: Range<Int>, of keys: FetchedObjectKeys, asFaults: Bool) -> [NSManagedObject] {
        var unread: [ObjectIdentity] = []
        for row in rows {
            if let registered = registry.object(for: keys.key(at: row)) {
                // A registered fault without a cached row would read its row alone later.
                if registered.isFault && !registered.flags.contains(.holdsSnapshot) { unread.append(registered.identity) }
            } else {
                unread.append(keys.identity(at: row))
            }
        }
        var made: [NSManagedObject] = []
        // A failed read leaves faults (made below), which load alone when they fire and report
        // a missing record as any fault does: a subscript cannot throw.
        if !unread.isEmpty, let coordinator = persistentStoreCoordinator, let read = try? coordinator.rows(for: unread) {
            made = batchingSnapshots {
                read.map { row in
                    if asFaults, let registered = registry.object(for: row.key) {
                        if registered.isFault { holdSnapshot(of: registered, row) }
                        return registered
                    }
                    return materialize(row, asFault: asFaults)
                }
            }
        }
        // `made` keeps the new objects alive (the identity map does not) until the result does.
        let objects = rows.map { row in registry.object(for: keys.key(at: row)) ?? object(identifiedBy: keys.identity(at: row)) }
        withExtendedLifetime(made) {}
        return objects
    }
}
