import Foundation

// Change tracking. Every change to an object lands here through `objectDidChange`, `insert` or
// `delete`; `processPendingChanges` ends the event: it runs delete rules, posts
// ObjectsDidChange, and closes the undo group.

extension NSManagedObjectContext {
    /// Objects inserted since the last save.
    public var insertedObjects: Set<NSManagedObject> { state.inserted.set }
    /// Objects changed since the last save (not counting inserted or deleted ones).
    public var updatedObjects: Set<NSManagedObject> { state.updated.set }
    /// Objects deleted since the last save.
    public var deletedObjects: Set<NSManagedObject> { state.deleted.set }
    /// Every object this context currently knows.
    public var registeredObjects: Set<NSManagedObject> { Set(registry.allObjects) }
    /// Whether there are unsaved insertions, updates or deletions.
    public var hasChanges: Bool { !state.inserted.isEmpty || !state.updated.isEmpty || !state.deleted.isEmpty }

    /// Inserts a new object; it is saved by the next `save()`.
    public func insert(_ object: NSManagedObject) {
        insert(object, awake: true)
    }

    /// Inserts `object`; `awake: false` skips `awakeFromInsert` for objects that were already
    /// created elsewhere (a child context's save).
    func insert(_ object: NSManagedObject, awake: Bool) {
        assertOnQueue()
        if let other = object.managedObjectContext, other !== self {
            preconditionFailure("insert(_:): this \(object.entity.name ?? "?") object belongs to another context. Create it in this context, or fetch it here with object(with: objectID).")
        }
        if object.isInserted && object.managedObjectContext === self { return }
        let isNew = object.identity.isTemporary && object.managedObjectContext == nil && !object.flags.contains(.deleted)
        object.managedObjectContext = self
        object.flags.insert(.inserted)
        object.flags.remove(.awaitingRemoval)
        registry.register(object)
        // Not inserted here yet (checked above), so in neither set: eventInserted ⊆ inserted,
        // and inserted holds exactly the objects with the `.inserted` flag.
        state.inserted.insertNew(object)
        state.eventInserted.insertNew(object)
        scheduleEndOfEvent()
        undoManager?.registerUndo(withTarget: self) { context in context.undoInsertion(of: object) }
        if isNew && awake { object.awakeFromInsert() }
    }

    /// Marks an object deleted, after calling its `prepareForDeletion()`. Its delete rules run at the next `processPendingChanges()`
    /// (at the latest when saving); the record is removed from the store by `save()`.
    public func delete(_ object: NSManagedObject) {
        assertOnQueue()
        guard object.managedObjectContext === self else {
            preconditionFailure("delete(_:): this \(object.entity.name ?? "?") object is not registered in this context (it belongs to \(object.managedObjectContext == nil ? "no context" : "another context")). Delete it through its own context, or get it here with object(with: objectID).")
        }
        // Apple's framework calls the hook on every delete(_:), before the delete rules run.
        object.prepareForDeletion()
        guard !object.isDeleted else { return }
        let wasInserted = object.isInserted
        object.flags.insert(.deleted)
        if wasInserted {
            // A new object deleted before any save never reaches the store: it is dropped at the
            // end of the event, after its delete rules have detached it from other objects.
            object.flags.insert(.awaitingRemoval)
        } else {
            state.deleted.insert(object)
            state.updated.remove(object)
        }
        state.eventDeleted.insert(object)
        scheduleEndOfEvent()
        state.deletesToPropagate.append(object)
        undoManager?.registerUndo(withTarget: self) { context in context.undoDeletion(of: object, wasInserted: wasInserted) }
    }

    /// Called by an object whose class does not ignore changes to unmodeled properties
    /// (`contextShouldIgnoreUnmodeledPropertyChanges`) after one changed: a saved object
    /// becomes updated, so the next save writes it.
    func objectDidChangeUnmodeledProperty(_ object: NSManagedObject) {
        assertOnQueue()
        guard !object.isInserted, !object.isDeleted, !object.isFault else { return }
        if !object.flags.contains(.updated) {
            object.flags.insert(.updated)
            state.updated.insertNew(object)  // the flag says it is not a member
        }
        state.eventUpdated.insert(object)
    }

    /// Called by an object after one of its slots changed.
    func objectDidChange(_ object: NSManagedObject, slot i: Int, from old: PropertySlot) {
        assertOnQueue()
        // A new object has no earlier values to report in changedValuesForCurrentEvent(); not
        // recording them saves a dictionary per inserted object.
        if !object.isInserted {
            if object.recordEventOriginal(old.storedValue, slot: i) { state.eventChangedObjects.append(object) }
            if !object.isDeleted {
                if !object.flags.contains(.updated) {
                    object.flags.insert(.updated)
                    state.updated.insertNew(object)  // the flag says it is not a member
                }
                state.eventUpdated.insert(object)
            }
        }
        scheduleEndOfEvent()
        if let undoManager, undoManager.isUndoRegistrationEnabled {
            undoManager.registerUndo(withTarget: object) { o in o.writeSlot(i, old) }
        }
    }

    /// A main-queue context ends each event when the main queue finishes the work in which the
    /// change was made, as Apple's does at the end of a run-loop turn: the first change of an
    /// event queues one `processPendingChanges()` on the main queue. Private-queue contexts end
    /// events at the end of each `perform` block.
    @inline(__always) func scheduleEndOfEvent() {
        guard concurrencyType == .mainQueueConcurrencyType, !state.endOfEventScheduled else { return }
        state.endOfEventScheduled = true
        let weakSelf = WeakContextReference(self)
        DispatchQueue.main.async {
            guard let context = weakSelf.context else { return }
            context.state.endOfEventScheduled = false
            context.processPendingChanges()
        }
    }

    /// Ends the current event: runs delete rules for objects deleted since the last call, posts
    /// `NSManagedObjectContextObjectsDidChange`, and closes the undo group of the event.
    public func processPendingChanges() {
        processPendingChanges(propagatingDeletes: state.propagatesDeletesAtEndOfEvent)
    }

    /// ``processPendingChanges()``; without `propagatingDeletes` only the deletes of new objects
    /// propagate now (they leave the context at once), the others at the next save.
    func processPendingChanges(propagatingDeletes: Bool) {
        assertOnQueue()
        guard !state.isProcessingPendingChanges else { return }
        state.isProcessingPendingChanges = true
        defer { state.isProcessingPendingChanges = false }

        if propagatingDeletes {
            propagateDeletes()
        } else {
            let pending = state.deletesToPropagate
            state.deletesToPropagate = pending.filter { $0.flags.contains(.awaitingRemoval) }
            propagateDeletes()
            state.deletesToPropagate = pending.filter { !$0.flags.contains(.awaitingRemoval) }
        }
        for object in state.eventDeleted where object.flags.contains(.awaitingRemoval) {
            object.flags.remove([.inserted, .awaitingRemoval])
            state.inserted.remove(object)
            state.eventInserted.remove(object)
            state.updated.remove(object)
        }

        let refreshedNow = state.eventRefreshed
        state.eventRefreshed.removeAll()
        if !state.mergedObjectsKeptForEvent.isEmpty { state.mergedObjectsKeptForEvent.removeAll() }
        let insertedNow = state.eventInserted.filter { !$0.isDeleted }
        let updatedNow = state.eventUpdated.filter { !$0.isDeleted && !$0.isInserted }
        let deletedNow = state.eventDeleted
        state.eventInserted.removeAll()
        state.eventUpdated.removeAll()
        state.eventDeleted.removeAll()

        if !insertedNow.isEmpty || !updatedNow.isEmpty || !deletedNow.isEmpty || !refreshedNow.isEmpty {
            var info: [AnyHashable: Any] = [:]
            if !refreshedNow.isEmpty { info[NSRefreshedObjectsKey] = refreshedNow }
            // The event's objects are often all the context's new (changed) ones: then the
            // context's own `Set` is reported, which did-save reports again (ManagedObjectSet.set).
            if !insertedNow.isEmpty { info[ContextNotificationKeys.inserted] = state.inserted.set(of: insertedNow) }
            if !updatedNow.isEmpty { info[ContextNotificationKeys.updated] = state.updated.set(of: updatedNow) }
            if !deletedNow.isEmpty { info[ContextNotificationKeys.deleted] = state.deleted.set(of: deletedNow) }
            NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: info)
        }
        for o in state.eventChangedObjects { o.clearEventOriginals() }
        state.eventChangedObjects.removeAll()
        // Objects deleted while new are gone now; the undo manager may still hold them for undo.
        for object in deletedNow where !object.isInserted && !state.deleted.contains(object) {
            registry.forget(object)
            object.managedObjectContext = nil
        }
        undoManager?.closeEventGroupIfNeeded()
    }
}
