import Foundation

/// Refreshing: bringing registered objects up to date with their store, or turning them back
/// into faults to free their values.
///
/// ```swift
/// context.refresh(employee, mergeChanges: false)   // a fault again; unsaved changes dropped
/// context.refreshAllObjects()                      // every object without unsaved changes
/// ```
extension NSManagedObjectContext {
    /// Brings an object up to date with its store.
    ///
    /// `mergeChanges: false` turns it into a fault, discarding unsaved changes and releasing the
    /// objects it referenced. `true` loads the store's newest values, re-applies this context's
    /// unsaved changes on top, and puts transient values back after `awakeFromFetch()`; an
    /// object without changes becomes a fault, as on Apple platforms (CoreDataPlus's
    /// investigation tests), its values loading again on next use.
    public func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        assertOnQueue()
        // Reported when the event ends (objects-did-change, NSRefreshedObjectsKey).
        if object.managedObjectContext === self, !object.isFault, !object.isInserted {
            state.eventRefreshed.insert(object)
            scheduleEndOfEvent()
        }
        // An object not yet saved: all its values are unsaved changes, so they go; it stays
        // inserted, and reads as nil attributes and empty to-manys once fired (nothing to
        // reload). Other objects that point at it keep pointing at it, as after any refresh.
        if !flag, object.managedObjectContext === self, object.isInserted, !object.isFault {
            turnIntoFault(object)
            return
        }
        // An object without changes becomes a fault either way, as Apple's does (its values
        // reload on next use); one with changes reloads and keeps them when `flag` says so.
        refresh(object, mergeChanges: flag && object.hasChanges, fromStore: false)
    }

    /// Makes `object` a fault: its values, its snapshot and its unsaved changes go, with the
    /// faulting hooks around it. An updated object is no longer updated; an inserted one stays
    /// inserted.
    func turnIntoFault(_ object: NSManagedObject) {
        inFaultingTransition(of: object) { object.willTurnIntoFault() }
        releaseSnapshot(of: object)
        object.slots = []
        object.committed = nil
        object.dropFetchedPropertyCache()
        object.flags.insert(.fault)
        if object.flags.contains(.updated) { object.flags.remove(.updated); state.updated.remove(object) }
        inFaultingTransition(of: object) { object.didTurnIntoFault() }
    }

    /// `fromStore` skips the row cache (a save elsewhere is known to have changed the record);
    /// `knownRow` is the record as the parent context gave it (see ``mergeChanges(fromContextDidSave:)``).
    func refresh(_ object: NSManagedObject, mergeChanges flag: Bool, fromStore: Bool, knownRow: StoreRow? = nil) {
        guard object.managedObjectContext === self, !object.isFault, !object.isInserted else { return }
        readingQueryGeneration { refreshInQueryGeneration(object, mergeChanges: flag, fromStore: fromStore, knownRow: knownRow) }
    }

    /// ``refresh(_:mergeChanges:fromStore:knownRow:)``, inside the context's query generation.
    private func refreshInQueryGeneration(_ object: NSManagedObject, mergeChanges flag: Bool, fromStore: Bool, knownRow: StoreRow?) {
        let row: StoreRow?
        if !flag {
            row = nil
        } else if let knownRow {
            row = knownRow
        } else if parent != nil {
            row = try? sourceRow(for: object.objectID)
        } else {
            row = try? (fromStore ? persistentStoreCoordinator?.row(for: object.objectID, in: self)
                        : persistentStoreCoordinator?.currentRow(for: object.objectID, stalenessInterval: stalenessInterval, in: self))
        }
        if !flag || row == nil {
            turnIntoFault(object)
            return
        }
        let layout = object.layout
        var localChanges: [Int: PropertySlot] = [:]
        var transients: [Int: PropertySlot] = [:]
        for i in layout.properties.indices {
            if layout.properties[i].isTransient { transients[i] = object.slots[i] }
            else if let committed = object.committed, !object.slots[i].storedValue.isSame(as: committed[i]) { localChanges[i] = object.slots[i] }
        }
        object.dropFetchedPropertyCache()
        fill(object, from: row!)
        for (i, slot) in localChanges { object.slots[i] = slot }
        for (i, slot) in transients { object.slots[i] = slot }
        if localChanges.isEmpty, object.flags.contains(.updated) { object.flags.remove(.updated); state.updated.remove(object) }
    }

    /// `refresh(_:mergeChanges: true)` of every registered object, as Apple's: those without
    /// unsaved changes become faults, the others are brought up to date with their changes kept.
    public func refreshAllObjects() {
        for object in registry.allObjects where !object.isInserted { refresh(object, mergeChanges: true) }
    }
}
