import Foundation

extension NSManagedObjectContext {
    /// Saves every insertion, update and deletion to the persistent stores — all or nothing.
    ///
    /// Runs pending delete rules, posts `WillSave`, calls each object's `willSave()`, computes
    /// derived attributes (a root context), validates
    /// (`validateForInsert/Update/Delete`; several failures combine into
    /// `NSValidationMultipleErrorsError`), gives new objects permanent IDs, writes, and posts
    /// `DidSave`. If anything fails, the error is thrown and both the stores and this context stay
    /// as they were: the changes are still pending and can be fixed and saved again.
    public func save() throws {
        assertOnQueue()
        processPendingChanges(propagatingDeletes: true)
        if let error = state.assignmentError {
            state.assignmentError = nil
            throw error
        }
        // A root context's save reaches the stores without object changes when they need it
        // (changed metadata, incremental stores).
        guard hasChanges || !state.lockedObjects.isEmpty || (parent == nil && persistentStoreCoordinator?.needsSaveWithoutChanges == true) else { return }
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "This context has no persistent store coordinator. Set persistentStoreCoordinator before saving.")
        }
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self)
        // Each changed object once (an object may sit in more than one set), without hashing
        // every object into a union.
        for object in state.inserted { object.fireFaultIfNeeded(); object.willSave() }
        for object in state.updated where !state.inserted.contains(object) { object.willSave() }
        for object in state.deleted where !state.inserted.contains(object) && !state.updated.contains(object) { object.willSave() }
        processPendingChanges(propagatingDeletes: true)
        if parent == nil {
            deriveAttributes(coordinator: coordinator)
            processPendingChanges(propagatingDeletes: false)
        }

        try validatePendingChanges()
        if let parent {
            try saveToParent(parent)
            return
        }
        // Saved objects nobody else holds are freed as the save returns; their row-cache
        // references go back in one locked call rather than one each.
        try batchingSnapshotReleases { try saveToStores(with: coordinator) }
    }

    /// How many times a save goes back to its merge policy when the store's write transaction
    /// finds a conflict the policy did not see: another process (or another coordinator on the
    /// same file) committed the same record, or the same unique value, between the policy's
    /// check and the write.
    static let storeConflictAttempts = 32

    /// A conflict the store found inside its write transaction, which the merge policy resolves
    /// on the next attempt (the store wrote nothing).
    private struct ConflictFoundOnWrite: Error {
        let error: NSError
    }

    /// The part of ``save()`` after validation, for a context whose parent is a coordinator.
    ///
    /// The store checks every version (and every unique value) again inside its write
    /// transaction. Under a merge policy that resolves conflicts, a conflict found there goes
    /// back to the policy, with the records as the store now has them, and the save is tried
    /// again, up to ``storeConflictAttempts`` times; under the error policy it fails the save.
    private func saveToStores(with coordinator: NSPersistentStoreCoordinator) throws {
        var attempt = 1
        while true {
            do {
                try writeToStores(with: coordinator)
                return
            } catch let conflict as ConflictFoundOnWrite {
                guard attempt < Self.storeConflictAttempts else { throw conflict.error }
                attempt += 1
                // Processes that keep colliding take turns: a short random pause, growing.
                usleep(UInt32.random(in: 0...UInt32(min(attempt, 10) * 2_000)))
            }
        }
    }

    /// One attempt of ``saveToStores(with:)``.
    private func writeToStores(with coordinator: NSPersistentStoreCoordinator) throws {
        // Conflict checks, resolution and write happen under the coordinator's lock, so no other
        // context of this coordinator can save in between. Constraint conflicts first: the
        // record a policy merges duplicates into is then version-checked like any change.
        let (insertedNow, updatedNow, deletedNow, savedRows) = try coordinator.locked {
            try resolveConstraintConflicts(with: coordinator)
            // Under the error policy a conflict only fails the save, and stores that check
            // versions as they write find it anyway: reading every changed record first would
            // cost a query per object per save. The full check then runs only on failure, to
            // report the conflicts as the policy would.
            let checkOnWrite = coordinator.storesCheckVersionsOnWrite && isPlainErrorPolicy
            if checkOnWrite {
                for object in state.deleted where object.isFault { object.fireFaultIfNeeded() }  // its version
            } else {
                try resolveOptimisticLockingConflicts(with: coordinator)
            }
            let insertedNow = Array(state.inserted), updatedNow = Array(state.updated), deletedNow = Array(state.deleted)
            let lockedNow = state.lockedObjects.filter { !$0.hasChanges && !$0.objectID.isTemporaryID && $0.managedObjectContext === self }
            // Permanent IDs first (references between new objects must be stored by permanent
            // ID), undone if the store then refuses the save. Usually every new object still
            // has its temporary ID, and the list is not copied.
            let needingIDs = insertedNow.allSatisfy(\.identity.isTemporary) ? insertedNow : insertedNow.filter(\.identity.isTemporary)
            var permanentIterator = try coordinator.permanentIDs(for: needingIDs, assignedStores: state.assignedStores).makeIterator()
            // Identities, not IDs: a new object has no temporary ID object unless one was asked for.
            var temporaryIdentities: [ObjectIdentity] = []
            temporaryIdentities.reserveCapacity(insertedNow.count)
            for object in insertedNow {
                let identity = object.identity
                temporaryIdentities.append(identity)
                if identity.isTemporary { reassign(object, to: .id(permanentIterator.next()!)) }
            }
            let withSources = coordinator.savesNeedSourceObjects
            let history = coordinator.keepsHistory ? HistoryTransactionInfo.current(author: transactionAuthor, contextName: name) : nil
            func source(_ object: NSManagedObject) -> SourceObjectReference? { withSources ? .init(object) : nil }
            let changes = StoreChanges(
                inserted: insertedNow.map { StoreRow(objectID: $0.objectID, values: $0.snapshot(), version: 1, source: source($0)) },
                updated: updatedNow.map { StoreRow(objectID: $0.objectID, values: $0.snapshot(), version: $0.version + 1, source: source($0)) },
                // A store that keeps history records a deleted object's preserved values (its tombstone).
                deleted: deletedNow.map { StoreRow(objectID: $0.objectID, values: history == nil ? [] : ($0.committed ?? []), version: $0.version, source: source($0)) },
                locked: lockedNow.map { StoreRow(objectID: $0.objectID, values: $0.snapshot(), version: $0.version + 1, source: source($0)) },
                // What the stored records hold, when the version check on write guarantees it.
                updatedFrom: checkOnWrite ? updatedNow.compactMap(\.committed) : [],
                history: history,
                updatedSlots: history == nil ? [] : updatedNow.map { $0.changedPersistentSlots() })
            do {
                try coordinator.save(changes)
            } catch {
                for (object, identity) in zip(insertedNow, temporaryIdentities) where !object.identity.names(identity) { reassign(object, to: identity) }
                let nsError = error as NSError
                let isConflict = nsError.domain == NSCocoaErrorDomain
                    && (nsError.code == NSManagedObjectMergeError || nsError.code == NSManagedObjectConstraintMergeError)
                if checkOnWrite, isConflict, nsError.code == NSManagedObjectMergeError {
                    try resolveOptimisticLockingConflicts(with: coordinator)  // throws the conflicts
                }
                if isConflict && !isPlainErrorPolicy { throw ConflictFoundOnWrite(error: nsError) }
                throw error
            }
            // Saved new objects now have store rows; they hold them like fetched objects.
            batchingSnapshots(of: changes.inserted) {
                // Rows borrowed from the buffer: subscripting the array would copy each one.
                changes.inserted.withUnsafeBufferPointer { rows in
                    for (position, object) in zip(rows.indices, insertedNow) { holdSnapshot(of: object, rows[position], position: position) }
                }
            }
            for object in lockedNow { object.version += 1 }
            state.lockedObjects.removeAll()
            if !state.assignedStores.isEmpty { for identity in temporaryIdentities { state.assignedStores[identity.key] = nil } }
            return (insertedNow, updatedNow, deletedNow, (changes.inserted, changes.updated))
        }
        didSave(inserted: insertedNow, updated: updatedNow, deleted: deletedNow, savedRows: savedRows)
    }

    /// Gives `object` a new ID (permanent, or its temporary one back) and moves its identity-map
    /// entry with it.
    private func reassign(_ object: NSManagedObject, to identity: ObjectIdentity) {
        let old = object.assignedObjectKey
        object.assignIdentity(identity)
        registry.rekey(object, from: old)
    }

    /// Whether the merge policy is the stock error policy (not a subclass, which may resolve).
    private var isPlainErrorPolicy: Bool {
        guard let policy = mergePolicy as? NSMergePolicy else { return true }
        return policy.mergeType == .errorMergePolicyType && type(of: policy) == NSMergePolicy.self
    }

    /// The store no longer has `object`'s record: the object counts as deleted here too, so the
    /// save goes on without it.
    func adoptStoreDeletion(of object: NSManagedObject) {
        state.updated.remove(object)
        object.flags.remove(.updated)
        if !object.isDeleted {
            object.flags.insert(.deleted)
            state.deleted.insert(object)
        }
    }

    /// Validation of every pending change, combined into one error.
    private func validatePendingChanges() throws {
        var errors: [NSError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let error as NSError {
                if error.code == NSValidationMultipleErrorsError, let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
                    errors += details
                } else {
                    errors.append(error)
                }
            }
        }
        for object in state.inserted { collect(object.validateForInsert) }
        for object in state.updated { collect(object.validateForUpdate) }
        for object in state.deleted { collect(object.validateForDelete) }
        if let error = NSManagedObject.combine(errors) { throw error }
    }

    /// Commits the saved state. `toStore` is false for a child's save into its parent: nothing
    /// reached a store, so record versions stay as they were.
    /// `savedRows` are the rows just written for `insertedNow` and `updatedNow`, in that order:
    /// their values are the objects' new committed values (a second snapshot would copy them).
    func didSave(inserted insertedNow: [NSManagedObject], updated updatedNow: [NSManagedObject], deleted deletedNow: [NSManagedObject],
                 toStore: Bool = true, savedRows: (inserted: [StoreRow], updated: [StoreRow])? = nil) {
        for (i, object) in insertedNow.enumerated() {
            object.flags.remove(.inserted)
            object.committed = savedRows?.inserted[i].values ?? object.snapshot()
            if toStore { object.version = 1 }
        }
        for (i, object) in updatedNow.enumerated() {
            object.flags.remove(.updated)
            object.committed = savedRows?.updated[i].values ?? object.snapshot()
            if toStore { object.version += 1 }
        }
        for object in deletedNow {
            registry.forget(object)
            object.managedObjectContext = nil
        }
        // The change sets usually hold exactly the saved objects, and then already made the
        // `Set`s the objects-did-change notification of the save's last event reported.
        let insertedObjects = state.inserted.set(of: insertedNow), updatedObjects = state.updated.set(of: updatedNow)
        let deletedObjects = state.deleted.set(of: deletedNow)
        state.inserted.removeAll(); state.updated.removeAll(); state.deleted.removeAll()

        // Filled from templates ([AnyHashable: Any], the type `post` takes): no key is hashed.
        let insertedIDs = Set(distinct: insertedNow.lazy.map(\.objectID)), updatedIDs = Set(distinct: updatedNow.lazy.map(\.objectID))
        let deletedIDs = Set(distinct: deletedNow.lazy.map(\.objectID))
        var info = UserInfoTemplate.didSave(insertedIDs: insertedIDs, updatedIDs: updatedIDs, deletedIDs: deletedIDs,
                                            inserted: insertedObjects, updated: updatedObjects, deleted: deletedObjects)
        if toStore, case .pinned = queryGenerationPin.withLock({ $0 }) {
            // A pinned context moves to the generation its save made, and says so.
            if let token = try? resolvedQueryGeneration(replacing: true) { info[NSManagedObjectContextQueryGenerationKey] = token }
        }
        let ids = UserInfoTemplate.didSaveObjectIDs(inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs)
        NotificationCenter.default.post(name: .NSManagedObjectContextDidSave, object: self, userInfo: info)
        NotificationCenter.default.post(name: NSManagedObjectContext.didSaveObjectIDsNotification, object: self, userInfo: ids)
        for object in insertedNow { object.didSave() }
        for object in updatedNow { object.didSave() }
        for object in deletedNow { object.didSave() }
        // A deleted object leaves the context with its record: a fault, no longer deleted (as
        // Apple's `isDeleted` is false after the save).
        for object in deletedNow {
            releaseSnapshot(of: object)
            inFaultingTransition(of: object) { object.willTurnIntoFault() }
            object.flags.insert(.fault)
            if toStore { object.flags.remove(.deleted) }
            inFaultingTransition(of: object) { object.didTurnIntoFault() }
        }
    }

    /// Discards every unsaved change: new objects leave the context, changed and deleted ones
    /// get their last saved values back, and the undo stack is cleared.
    public func rollback() {
        assertOnQueue()
        processPendingChanges()
        for object in state.inserted {
            object.flags.remove(.inserted)
            registry.forget(object)
            object.managedObjectContext = nil
        }
        for object in state.updated.union(state.deleted) {
            object.flags.remove([.updated, .deleted])
            if let committed = object.committed { object.slots = committed.map { .value($0) } }
            object.dropFetchedPropertyCache()
            object.awake(fromSnapshotEvents: .rollback)
        }
        state.inserted.removeAll(); state.updated.removeAll(); state.deleted.removeAll()
        state.lockedObjects.removeAll()
        state.deletesToPropagate.removeAll()
        state.assignedStores.removeAll()
        undoManager?.removeAllActions()
    }

    /// Forgets every object: they all become invalid, changes are discarded, undo is cleared.
    public func reset() {
        assertOnQueue()
        // Reported once the context is empty (objects-did-change, NSInvalidatedAllObjectsKey).
        let invalidated = registry.allObjects
        defer { NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: [NSInvalidatedAllObjectsKey: invalidated]) }
        batchingSnapshotReleases {
            for object in registry.allObjects {
                releaseSnapshot(of: object)
                object.managedObjectContext = nil
                object.flags.formIntersection(.slotsFollowCommitted)
            }
        }
        for object in state.inserted.union(state.updated).union(state.deleted) { object.managedObjectContext = nil; object.flags.formIntersection(.slotsFollowCommitted) }
        registry.removeAll()
        state.batchLoaders.removeAll()
        state.relationshipLoaders.removeAll()
        state.inserted.removeAll(); state.updated.removeAll(); state.deleted.removeAll()
        state.lockedObjects.removeAll()
        state.eventInserted.removeAll(); state.eventUpdated.removeAll(); state.eventDeleted.removeAll()
        state.deletesToPropagate.removeAll()
        state.assignedStores.removeAll()
        state.eventRefreshed.removeAll()
        for o in state.eventChangedObjects { o.clearEventOriginals() }
        state.eventChangedObjects.removeAll()
        undoManager?.removeAllActions()
        advanceQueryGeneration()
    }

    /// Gives `objects` permanent IDs now, before they are saved (for example to pass their IDs to
    /// another context), in the stores ``assign(_:to:)`` chose for them.
    public func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        assertOnQueue()
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "obtainPermanentIDs: this context has no persistent store coordinator.")
        }
        let temporary = objects.filter(\.identity.isTemporary)
        let ids = try coordinator.permanentIDs(for: temporary, assignedStores: state.assignedStores)
        for (object, id) in zip(temporary, ids) {
            state.assignedStores[object.identity.key] = nil
            reassign(object, to: .id(id))
        }
    }

    /// Saves `object`, new in this context, to `store` rather than to the first store whose
    /// configuration holds its entity.
    ///
    /// ```swift
    /// let note = Note(context: context)
    /// context.assign(note, to: archiveStore)   // both stores' configurations hold Note
    /// try context.save()
    /// ```
    ///
    /// Apple's framework raises an exception for an object that is not new in this context, or
    /// a store of another coordinator or whose configuration lacks the entity: the next
    /// ``save()`` throws `NSPersistentStoreOperationError` saying which.
    public func assign(_ object: NSManagedObject, to store: NSPersistentStore) {
        assertOnQueue()
        let problem: String?
        if object.managedObjectContext !== self || !object.isInserted || !object.identity.isTemporary {
            problem = "the object is not a new object of this context (only an object inserted and not yet saved can be assigned)"
        } else if store.persistentStoreCoordinator == nil || store.persistentStoreCoordinator !== persistentStoreCoordinator {
            problem = "the store is not one of this context's coordinator"
        } else if !(persistentStoreCoordinator?.managedObjectModel.entities(forConfigurationName: store.configurationName) ?? []).contains(where: { $0 === object.entity }) {
            problem = "the configuration '\(store.configurationName)' of the store does not hold entity '\(object.entity.name ?? "?")'"
        } else {
            problem = nil
        }
        if let problem {
            state.assignmentError = CoreDataError.make(NSPersistentStoreOperationError, "assign(_:to:): \(problem). Nothing was saved.")
            return
        }
        state.assignedStores[object.identity.key] = store
    }
}
