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
        // A row without values (an incremental store's fetch): a fault, loaded on first use.
        if row.isFault { return object(identifiedBy: row.identity) }
        if let existing = registry.object(for: row.key) {
            if existing.isFault && !asFault { fill(existing, from: row) }
            return existing
        }
        let object = makeObject(for: row.identity)
        if asFault {
            object.slots = []
            object.flags.insert(.fault)
            holdSnapshot(of: object, row)
        } else {
            fill(object, from: row)
        }
        return object
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
                        (objects.baseAddress! + i).initialize(to: materialize(buffer, at: i, asFault: asFaults))
                        initialized = i + 1
                    }
                }
            }
        }
    }

    /// ``materialize(_:asFault:)`` for row `i` of the snapshot batch's source, with the row's
    /// fields read where they lie. Passing `rows[i]` on copied the row first (three reference
    /// counts taken and three given back, per row of a fetch): the compiler cannot tell that
    /// making or filling an object leaves the buffer alone. A new object takes one reference
    /// to the row's identity and one to its values, and nothing else is counted.
    private func materialize(_ rows: UnsafeBufferPointer<StoreRow>, at i: Int, asFault: Bool) -> NSManagedObject {
        let row = rows.baseAddress.unsafelyUnwrapped + i
        if row.pointee.isFault { return object(identifiedBy: row.pointee.identity) }
        if let existing = registry.object(for: row.pointee.key) {
            // A fault of a batched fetch, filled with the rest of its batch.
            if existing.isFault && !asFault { fill(existing, fromSourceRowAt: row, position: i) }
            return existing
        }
        let object = makeObject(for: row.pointee.identity)
        if asFault {
            object.slots = []
            object.flags.insert(.fault)
            holdSourceRow(at: i, for: object)
        } else {
            fill(object, fromSourceRowAt: row, position: i)
        }
        return object
    }

    /// ``fill(_:from:)`` from row `position` of the snapshot batch's source, read in place.
    private func fill(_ object: NSManagedObject, fromSourceRowAt row: UnsafePointer<StoreRow>, position: Int) {
        holdSourceRow(at: position, for: object)
        object.takeValues(ofRowAt: row)
        object.flags.remove(.fault)
        object.awakeFromFetch()
    }

    /// ``holdSnapshot(of:_:position:)`` for row `position` of the snapshot batch's source.
    private func holdSourceRow(at position: Int, for object: NSManagedObject) {
        guard parent == nil, !object.flags.contains(.holdsSnapshot) else { return }
        object.flags.insert(.holdsSnapshot)
        state.deferredSnapshots!.holdSourceRow(at: position)
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

    func fill(_ object: NSManagedObject, from row: StoreRow) {
        holdSnapshot(of: object, row)
        object.takeValues(of: row)
        object.flags.remove(.fault)
        object.awakeFromFetch()
    }
}
