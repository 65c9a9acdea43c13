import Foundation

/// Uniquing: one object per record in a context. A row that comes from the store becomes the
/// object this context already has registered for its ID, or a new object made from it and
/// registered, never a second object for the same record.
///
/// ```swift
/// let a = try context.fetch(request).first!
/// let b = try context.existingObject(with: a.objectID)
/// a === b   // true
/// ```
extension NSManagedObjectContext {
    /// The registered object for a row, or a new one made from it. `asFault` leaves a new
    /// object unfilled; it still holds the row in the coordinator's cache, so firing it is free.
    func materialize(_ row: StoreRow, asFault: Bool = false) -> NSManagedObject {
        withUnsafePointer(to: row) { materialize(rowAt: $0, batchPosition: nil, asFault: asFault) }
    }

    /// The objects for a fetch's rows, their snapshot references taken in one batch.
    ///
    /// Takes the rows over: their values move into the row cache (see ``SnapshotBatch``).
    func materialize(_ rows: consuming [StoreRow], asFaults: Bool) -> [NSManagedObject] {
        rows.withUnsafeBufferPointer { buffer in registry.reserveCapacity(forKeys: buffer.indices.lazy.map { buffer[$0].key }) }
        return batchingSnapshots(of: consume rows, handingOver: true) {
            // The batch holds the rows now; this copy goes before the batch ends, leaving the
            // batch the only owner. Rows borrowed from the buffer: `rows[i]` would copy each
            // row (three references).
            let held = state.deferredSnapshots!.source
            return held.withUnsafeBufferPointer { buffer in
                [NSManagedObject](unsafeUninitializedCapacity: buffer.count) { objects, initialized in
                    for i in buffer.indices {
                        buffer.prefetchValues(at: i + StoreRow.prefetchDistance)
                        let row = buffer.baseAddress.unsafelyUnwrapped + i
                        (objects.baseAddress! + i).initialize(to: materialize(rowAt: row, batchPosition: i, asFault: asFaults))
                        initialized = i + 1
                    }
                }
            }
        }
    }

    /// The one way a row becomes an object: the object registered for its ID (filled, if it
    /// is a fault and `asFault` is false), or a new one, registered.
    ///
    /// The row is read where it lies. Passed as a value, `rows[i]` was copied first (three
    /// reference counts taken and three given back, per row of a fetch): the compiler cannot
    /// tell that making or filling an object leaves the rows alone. A new object takes one
    /// reference to the row's identity and one to its values, and nothing else is counted.
    /// `batchPosition` is the row's place in the fetch's snapshot batch, whose cache references
    /// are taken together (``SnapshotBatch``); nil for a row from anywhere else.
    private func materialize(rowAt row: UnsafePointer<StoreRow>, batchPosition: Int?, asFault: Bool) -> NSManagedObject {
        // A row without values (an incremental store's fetch): a fault, loaded on first use.
        if row.pointee.isFault { return object(identifiedBy: row.pointee.identity) }
        if let existing = registry.object(for: row.pointee.key) {
            // For a batched fetch: a fault filled with the rest of its batch.
            if existing.isFault && !asFault { fill(existing, fromRowAt: row, batchPosition: batchPosition) }
            return existing
        }
        let object = makeObject(for: row.pointee.identity)
        if asFault {
            object.slots = []
            object.flags.insert(.fault)
            holdSnapshot(of: object, rowAt: row, batchPosition: batchPosition)
        } else {
            fill(object, fromRowAt: row, batchPosition: batchPosition)
        }
        return object
    }

    /// Gives a fault (or a refreshed object) the values of `row`.
    func fill(_ object: NSManagedObject, from row: StoreRow) {
        withUnsafePointer(to: row) { fill(object, fromRowAt: $0, batchPosition: nil) }
    }

    private func fill(_ object: NSManagedObject, fromRowAt row: UnsafePointer<StoreRow>, batchPosition: Int?) {
        holdSnapshot(of: object, rowAt: row, batchPosition: batchPosition)
        object.takeValues(of: row.pointee)
        object.flags.remove(.fault)
        inFaultingTransition(of: object) { object.awakeFromFetch() }
    }

    /// Runs one of `object`'s faulting hooks with its `faultingState` not 0.
    func inFaultingTransition(of object: NSManagedObject, _ hook: () -> Void) {
        let outer = transitioningObject
        transitioningObject = ObjectIdentifier(object)
        hook()
        transitioningObject = outer
    }

    /// Whether one of `object`'s faulting hooks is running (``NSManagedObject/faultingState``).
    func isInFaultingTransition(_ object: NSManagedObject) -> Bool {
        transitioningObject == ObjectIdentifier(object)
    }

    /// Takes `object`'s reference to its row in the coordinator's cache: with the fetch's
    /// batch for a row of it, otherwise as for any row (``holdSnapshot(of:_:position:)``).
    private func holdSnapshot(of object: NSManagedObject, rowAt row: UnsafePointer<StoreRow>, batchPosition: Int?) {
        guard let batchPosition else { return holdSnapshot(of: object, row.pointee) }
        guard parent == nil, !object.flags.contains(.holdsSnapshot) else { return }
        object.flags.insert(.holdsSnapshot)
        state.deferredSnapshots!.holdSourceRow(at: batchPosition)
    }

    /// A new object for `identity`, registered here. Takes the identity over: the object keeps it.
    func makeObject(for identity: consuming ObjectIdentity) -> NSManagedObject {
        let entity = identity.entity
        let objectClass = entity.resolvedClass
        // The init takes its entity owned: handing the local over saves a reference count
        // each way per object (the compiler kept the local alive past the call).
        let object = objectClass.init(entity: consume entity, insertInto: nil)
        object.assignIdentity(identity)
        object.managedObjectContext = self
        registry.register(object)
        return object
    }
}
