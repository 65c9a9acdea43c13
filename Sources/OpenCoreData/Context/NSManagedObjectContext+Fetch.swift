import Foundation

extension NSManagedObjectContext {
    /// Returns the objects (or IDs, dictionaries, count) that match `request`.
    ///
    /// With `includesPendingChanges` (the default) the result is what this context sees now:
    /// unsaved insertions that match are included, deleted objects are left out, and changed
    /// objects are matched and sorted by their current values.
    ///
    /// ```swift
    /// let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
    /// request.predicate = NSPredicate(format: "department.name == %@", "Sales")
    /// let sales = try context.fetch(request)
    /// ```
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        assertOnQueue()
        if request.resultType == .dictionaryResultType {
            // Dictionary results check their sort keys with their other properties.
            let (coordinator, entity) = try fetchTarget(request)
            return try fetchDictionaries(request, entity: entity, coordinator: coordinator)
        }
        try checkSortKeys(of: request)
        if !(request.propertiesToGroupBy ?? []).isEmpty {
            // Apple raises: GROUP BY needs dictionary results.
            throw CoreDataError.make(NSCoreDataError, "fetch: propertiesToGroupBy requires resultType .dictionaryResultType (a group has no single object to return).")
        }
        if request.resultType == .managedObjectIDResultType, let ids = try storeObjectIDs(request) {
            // The store lists the IDs (SQLite: SELECT Z_PK, Z_ENT): no rows read, no objects made.
            return try ids.map { id in
                guard let typed = id as? T else {
                    throw CoreDataError.make(NSCoreDataError, "fetch: an object ID result is not a \(T.self). Fetch NSFetchRequest<NSManagedObjectID> or NSFetchRequest<NSFetchRequestResult>.")
                }
                return typed
            }
        }
        if request.resultType == .countResultType, let count = try storeCount(request) {
            guard let typed = NSNumber(value: count) as? T else {
                throw CoreDataError.make(NSCoreDataError, "fetch: a count result is an NSNumber, not a \(T.self). Fetch NSFetchRequest<NSNumber> or NSFetchRequest<NSFetchRequestResult>.")
            }
            return [typed]
        }
        let (entity, objects) = try fetchObjects(request)
        return try shape(objects, of: entity, for: request)
    }

    /// The number of objects `fetch(_:)` would return, without returning them.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        assertOnQueue()
        if let count = try storeCount(request) { return count }
        return try fetchObjects(request).objects.count
    }

    /// The count as the store computes it (`COUNT(*)` in SQLite), when the store evaluates the
    /// whole request and nothing unsaved in this context could change the answer; else nil.
    private func storeCount<T>(_ request: NSFetchRequest<T>) throws -> Int? {
        guard let (coordinator, plan) = storeEvaluatedPlan(request) else { return nil }
        return try coordinator.countRows(plan)
    }

    /// The IDs as the store lists them, when it evaluates the whole request, nothing unsaved
    /// could change the answer and nothing is to be prefetched; else nil.
    private func storeObjectIDs<T>(_ request: NSFetchRequest<T>) throws -> [NSManagedObjectID]? {
        guard (request.relationshipKeyPathsForPrefetching ?? []).isEmpty,
              let (coordinator, plan) = storeEvaluatedPlan(request) else { return nil }
        return try coordinator.fetchObjectIDs(plan)
    }

    /// The request's plan, when a root context's single store evaluates all of it and no
    /// pending change of this context could alter the answer.
    func storeEvaluatedPlan<T>(_ request: NSFetchRequest<T>) -> (NSPersistentStoreCoordinator, FetchPlan)? {
        guard parent == nil, let coordinator = persistentStoreCoordinator else { return nil }
        let model = coordinator.managedObjectModel
        guard let entity = request.entity ?? request.entityName.flatMap({ model.entitiesByName[$0] }) else { return nil }
        if request.includesPendingChanges { processPendingChanges() }
        guard !(request.includesPendingChanges && hasChanges) else { return nil }
        let plan = FetchPlan(request, entity: entity, context: self)
        guard coordinator.storesEvaluate(plan) else { return nil }
        return (coordinator, plan)
    }

    /// The coordinator to fetch through and the request's entity, or the error explaining why
    /// there is none.
    private func fetchTarget<T>(_ request: NSFetchRequest<T>) throws -> (NSPersistentStoreCoordinator, NSEntityDescription) {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "fetch: this context has no persistent store coordinator. Set persistentStoreCoordinator (or use NSPersistentContainer.viewContext).")
        }
        let model = coordinator.managedObjectModel
        guard let entity = request.entity ?? request.entityName.flatMap({ model.entitiesByName[$0] }) else {
            throw CoreDataError.make(NSCoreDataError, "fetch: the request names entity '\(request.entityName ?? "nil")', which the model does not have. Known entities: \(model.entitiesByName.keys.sorted().joined(separator: ", ")).")
        }
        return (coordinator, entity)
    }

    /// Resolves the request's entity and returns the matching objects in order.
    private func fetchObjects<T>(_ request: NSFetchRequest<T>) throws -> (entity: NSEntityDescription, objects: [NSManagedObject]) {
        let (coordinator, entity) = try fetchTarget(request)
        if request.includesPendingChanges { processPendingChanges() }
        let pendingMayMatter = request.includesPendingChanges && hasChanges
        var plan = FetchPlan(request, entity: entity, context: self)
        // The store must know before it says whether it evaluates the plan: then it leaves
        // whatever crosses relationships to memory (FetchPlan.evaluatesPendingChanges).
        plan.evaluatesPendingChanges = pendingMayMatter
        // A child context evaluates predicates itself: its parent hands over every row of the
        // entity as the parent sees it, unsaved changes included.
        let storeEvaluates = parent == nil && coordinator.storesEvaluate(plan)
        let prefetching = !(request.relationshipKeyPathsForPrefetching ?? []).isEmpty
        // Batch faulting: the store lists the IDs, values load a batch at a time as faults fire.
        if request.fetchBatchSize > 0, storeEvaluates, !pendingMayMatter, !prefetching, request.includesPropertyValues,
           request.resultType == .managedObjectResultType,
           let objects = try batchedObjects(plan, batchSize: request.fetchBatchSize) {
            return (entity, objects)
        }
        let rows = try sourceRows(storeEvaluates && !pendingMayMatter ? plan : storeEvaluates ? plan.inStoreOrder : plan.withoutLimits)
        // Faults are cheap to return: their rows wait in the coordinator's cache. Without property
        // values, rows are not kept and each fault reads its own row when it fires.
        // Objects that must be evaluated in memory would fire at once, so they are filled instead.
        let evaluatesInMemory = !(storeEvaluates && !pendingMayMatter) && (request.predicate != nil || !(request.sortDescriptors ?? []).isEmpty)
        let asFaults = request.resultType == .managedObjectIDResultType || (request.returnsObjectsAsFaults && !evaluatesInMemory && !prefetching)
        var objects: [NSManagedObject]
        if request.includesPropertyValues || parent != nil {
            objects = materialize(consume rows, asFaults: asFaults)  // handed over: see SnapshotBatch
        } else {
            objects = rows.map { object(identifiedBy: $0.identity) }
        }
        if prefetching { try prefetchRelationships(request.relationshipKeyPathsForPrefetching ?? [], of: objects) }
        if storeEvaluates && !pendingMayMatter { return (entity, objects) }

        // Evaluate in memory what the store did not, and correct the store's answer with what
        // this context changed but has not saved.
        let matches: (NSManagedObject) throws -> Bool = { object in
            guard plan.includes(object.entity) else { return false }
            return try request.predicate.map { try $0.evaluateThrowing(with: object) } ?? true
        }
        var seen = Set(objects.map(ObjectIdentifier.init))
        objects = try objects.filter { object in
            if request.includesPendingChanges && object.isDeleted { return false }
            return storeEvaluates && !object.isUpdated ? true : try matches(object)
        }
        if request.includesPendingChanges {
            // In a fixed order — saved objects by key, then new ones as created — not the set's,
            // which varies from call to call: a stable sort keeps it for ties, and two fetches of
            // the same request must agree (one the store narrowed, one it did not).
            let pending = inserted.union(updated).sorted { a, b in
                let x = a.assignedObjectKey, y = b.assignedObjectKey
                return (x.storeToken == 0 ? 1 : 0, x.storeToken, x.rootEntity, x.primaryKey) < (y.storeToken == 0 ? 1 : 0, y.storeToken, y.rootEntity, y.primaryKey)
            }
            for object in pending where !object.isDeleted && !seen.contains(ObjectIdentifier(object)) {
                if try matches(object) { objects.append(object); seen.insert(ObjectIdentifier(object)) }
            }
        }
        if let sortDescriptors = request.sortDescriptors, !sortDescriptors.isEmpty {
            objects = try SortEvaluation.sorted(objects, by: sortDescriptors)
        }
        if request.fetchOffset > 0 { objects = Array(objects.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { objects = Array(objects.prefix(request.fetchLimit)) }
        return (entity, objects)
    }

    /// Loads the destinations of `keyPaths` (e.g. "employees", "employees.projects") for all
    /// `objects` with one batched store read per step, instead of one read per fault later.
    private func prefetchRelationships(_ keyPaths: [String], of objects: [NSManagedObject]) throws {
        guard parent == nil, let coordinator = persistentStoreCoordinator else { return }
        for keyPath in keyPaths {
            var level = objects
            for name in keyPath.split(separator: ".").map(String.init) {
                var targets: [NSManagedObjectID] = []
                for object in level where !object.isFault {
                    guard let i = object.layout.indexByName[name], object.layout.properties[i] is NSRelationshipDescription else { continue }
                    // The slot as it is: a relationship an incremental store has not given yet
                    // is skipped, not loaded object by object.
                    switch object.currentSlot(i).storedValue {
                    case .objectID(let id): targets.append(id)
                    case .objectIDs(let ids): targets += ids
                    default: break
                    }
                }
                var seen = Set<ObjectKey>()
                targets = targets.filter { seen.insert($0.key).inserted }
                let unloaded = targets.filter { registry.object(for: $0.key)?.isFault ?? true }
                let loaded = try coordinator.rows(for: unloaded).map { materialize($0) }
                // Realize the relationships now, while `loaded` keeps the objects alive: from
                // here on the relationships hold them, as Apple's prefetching does.
                for object in level where !object.isFault {
                    guard let i = object.layout.indexByName[name], let r = object.layout.properties[i] as? NSRelationshipDescription else { continue }
                    if r.isToMany { _ = object.readToMany(i) } else { _ = object.readToOne(i) }
                }
                withExtendedLifetime(loaded) {}
                level = targets.map { object(with: $0) }
            }
        }
    }

    /// Turns objects into the request's result type (dictionaries: `fetchDictionaries`).
    private func shape<T>(_ objects: [NSManagedObject], of entity: NSEntityDescription, for request: NSFetchRequest<T>) throws -> [T] {
        let values: [Any]
        switch request.resultType {
        case .managedObjectIDResultType:
            values = objects.map(\.objectID)
        case .countResultType:
            values = [NSNumber(value: objects.count)]
        default:
            if let typed = Self.objects(objects, as: T.self) { return typed }
            values = objects
        }
        return try values.map { value in
            guard let typed = value as? T else {
                throw CoreDataError.make(NSCoreDataError, "fetch: a result of type \(type(of: value)) is not a \(T.self). For entity '\(entity.name ?? "?")', set managedObjectClassName to the class (\"Module.\(T.self)\"), or fetch NSFetchRequest<NSManagedObject>.")
            }
            return typed
        }
    }

    /// `objects` as `[T]` without a dynamic cast per element, when `T` is a class every object's
    /// class descends from. Each object's class is compared with the last one checked (one
    /// pointer compare; a fetch rarely mixes more than a few classes), and a new class is
    /// checked with `is T`; then the array is reinterpreted: arrays of class references share
    /// one layout. Nil when some object is not a `T` (say, a plain `NSManagedObject` made for
    /// a subclassed entity) or `T` is not a class: the caller then casts each element.
    static func objects<T>(_ objects: [NSManagedObject], as type: T.Type) -> [T]? {
        guard T.self is NSManagedObject.Type else { return nil }
        var verified: ObjectIdentifier?
        for object in objects {
            let objectClass = ObjectIdentifier(Swift.type(of: object))
            if objectClass == verified { continue }
            guard object is T else { return nil }
            verified = objectClass
        }
        return unsafeBitCast(objects, to: [T].self)
    }

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
            let held = deferredSnapshots!.source
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
        deferredSnapshots!.holdSourceRow(at: position)
    }

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
        let outer = deferredSnapshots
        deferredSnapshots = SnapshotBatch(source: source, ownsSource: handingOver)
        // A batch of releases already open (this one nested in another) is flushed by its owner,
        // after any retains of ours: the outermost batch of retains always owns the releases.
        let ownsReleases = deferredReleases == nil
        if ownsReleases { deferredReleases = [] }
        defer {
            var held = deferredSnapshots ?? SnapshotBatch(source: [])
            deferredSnapshots = outer  // before the retains below: `held` the only owner of its source
            if !held.isEmpty {
                if deferredSnapshots != nil {
                    deferredSnapshots!.others += held.others
                    deferredSnapshots!.others += held.positions.map { held.source[$0] }
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
        if deferredSnapshots != nil {
            // Only a context with a coordinator fetches rows, so the batch has somewhere to go.
            object.flags.insert(.holdsSnapshot)
            deferredSnapshots!.hold(row, position: position)
        } else if let coordinator = persistentStoreCoordinator {
            object.flags.insert(.holdsSnapshot)
            coordinator.retainSnapshot(row)
        }
    }

    /// Gives back `object`'s reference to its cached row.
    func releaseSnapshot(of object: NSManagedObject) {
        guard object.flags.contains(.holdsSnapshot) else { return }
        // An object that holds a snapshot was filled from a row, so it has its store ID.
        releaseSnapshot(of: object, key: object.assignedObjectKey)
    }

    /// ``releaseSnapshot(of:)`` with the object's key already read (an object's `deinit` needs
    /// it for the identity map too).
    func releaseSnapshot(of object: NSManagedObject, key: ObjectKey) {
        object.flags.remove(.holdsSnapshot)
        if deferredReleases != nil {
            deferredReleases!.append(key)
        } else {
            // Only a root context holds snapshots: its own coordinator, without the overridable
            // getter's dispatch (every object a root context frees comes here).
            withRootCoordinator { $0.releaseSnapshot(key) }
        }
    }

    /// Runs `body` with ``releaseSnapshot(of:)`` collecting keys, then gives them back to the
    /// coordinator in one locked call (a batch of objects turned into faults at once).
    func batchingSnapshotReleases<T>(_ body: () throws -> T) rethrows -> T {
        guard deferredReleases == nil else { return try body() }
        deferredReleases = []
        defer { flushDeferredReleases() }
        return try body()
    }

    /// Ends a batch of releases: gives the collected keys back in one locked call.
    private func flushDeferredReleases() {
        let keys = deferredReleases ?? []
        deferredReleases = nil
        if !keys.isEmpty { persistentStoreCoordinator?.releaseSnapshots(keys) }
    }

    /// A new object for `identity`, registered here. Takes the identity over: the object keeps it.
    private func makeObject(for identity: consuming ObjectIdentity) -> NSManagedObject {
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

    private func fill(_ object: NSManagedObject, from row: StoreRow) {
        holdSnapshot(of: object, row)
        object.takeValues(of: row)
        object.flags.remove(.fault)
        object.awakeFromFetch()
    }

    /// The object for `objectID`: the registered one, or a fault that loads on first use. Does
    /// not touch the store.
    public func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        assertOnQueue()
        return object(identifiedBy: .id(objectID))
    }

    /// ``object(with:)`` for an identity, which makes no ID object.
    func object(identifiedBy identity: ObjectIdentity) -> NSManagedObject {
        if let registered = registry.object(for: identity.key) { return registered }
        let object = makeObject(for: identity)
        object.slots = []
        object.flags.insert(.fault)
        return object
    }

    /// The object for `objectID`, loaded; throws if the store has no such record.
    public func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        assertOnQueue()
        if let registered = registry.object(for: objectID.key), !registered.isFault { return registered }
        guard let row = try sourceRow(for: objectID) else {
            throw CoreDataError.make(NSManagedObjectReferentialIntegrityError, "existingObject(with:): no record with ID \(objectID.uriRepresentation().absoluteString) exists in the store (it may have been deleted, or never saved).")
        }
        return materialize(row)
    }

    /// The object for `objectID` if this context has it registered; nil otherwise.
    public func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        registry.object(for: objectID.key)
    }

    /// Loads a fault's values from its store.
    func fulfillFault(for object: NSManagedObject) {
        if !object.flags.contains(.holdsSnapshot), fulfillFaultFromBatch(object) { return }
        let row: StoreRow?
        if parent != nil || object.flags.contains(.holdsSnapshot) {
            row = parent != nil ? try? sourceRow(for: object.objectID)
                : try? persistentStoreCoordinator?.currentRow(for: object.objectID, stalenessInterval: stalenessInterval, in: self)
        } else {
            row = try? persistentStoreCoordinator?.retainedRow(for: object.objectID, stalenessInterval: stalenessInterval, in: self)
            if row != nil { object.flags.insert(.holdsSnapshot) }
        }
        guard let row else {
            // Apple raises "could not fulfill a fault" here. A property getter cannot throw, so the
            // object keeps default values and is marked inaccessible (docs/DEVIATIONS.md).
            object.flags.remove(.fault)
            object.slots = object.layout.properties.map { p in
                (p as? NSRelationshipDescription)?.isToMany == true ? .toMany(RelatedObjects()) : .null
            }
            return
        }
        fill(object, from: row)
    }

    /// Brings an object up to date with its store.
    ///
    /// `mergeChanges: false` turns it into a fault, discarding unsaved changes and releasing the
    /// objects it referenced. `true` loads the store's newest values, re-applies this context's
    /// unsaved changes on top, and puts transient values back after `awakeFromFetch()`.
    public func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        assertOnQueue()
        refresh(object, mergeChanges: flag, fromStore: false)
    }

    /// `fromStore` skips the row cache (a save elsewhere is known to have changed the record).
    func refresh(_ object: NSManagedObject, mergeChanges flag: Bool, fromStore: Bool) {
        guard object.managedObjectContext === self, !object.isFault, !object.isInserted else { return }
        let row: StoreRow?
        if !flag {
            row = nil
        } else if parent != nil {
            row = try? sourceRow(for: object.objectID)
        } else {
            row = try? (fromStore ? persistentStoreCoordinator?.row(for: object.objectID, in: self)
                        : persistentStoreCoordinator?.currentRow(for: object.objectID, stalenessInterval: stalenessInterval, in: self))
        }
        if !flag || row == nil {
            object.willTurnIntoFault()
            releaseSnapshot(of: object)
            object.slots = []
            object.committed = nil
            object.dropFetchedPropertyCache()
            object.flags.insert(.fault)
            if object.flags.contains(.updated) { object.flags.remove(.updated); updated.remove(object) }
            object.didTurnIntoFault()
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
        if localChanges.isEmpty, object.flags.contains(.updated) { object.flags.remove(.updated); updated.remove(object) }
    }

    /// Refreshes every registered object that has no unsaved changes.
    public func refreshAllObjects() {
        for object in registry.allObjects where !object.hasChanges { refresh(object, mergeChanges: true) }
    }

    /// Applies another context's save (the `NSManagedObjectContextDidSave` notification) to this
    /// context: changed objects are refreshed with their new values, deleted ones are removed,
    /// inserted ones become available to fetches.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        assertOnQueue()
        let info = notification.userInfo ?? [:]
        func ids(_ idKey: String, _ objectKey: String) -> [NSManagedObjectID] {
            if let ids = info[idKey] as? Set<NSManagedObjectID> { return Array(ids) }
            return (info[objectKey] as? Set<NSManagedObject>)?.map(\.objectID) ?? []
        }
        var refreshed = Set<NSManagedObject>(), removed = Set<NSManagedObject>()
        for id in ids(NSUpdatedObjectIDsKey, NSUpdatedObjectsKey) {
            guard let object = registry.object(for: id.key) else { continue }
            refresh(object, mergeChanges: true, fromStore: true)
            refreshed.insert(object)
        }
        for id in ids(NSDeletedObjectIDsKey, NSDeletedObjectsKey) {
            guard let object = registry.object(for: id.key) else { continue }
            releaseSnapshot(of: object)
            object.flags.formIntersection(.slotsFollowCommitted)
            inserted.remove(object); updated.remove(object); deleted.remove(object)
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
    }
}

extension NSManagedObject {
    /// A fetched property's value: the fetch request run with `$FETCH_SOURCE` = this object and
    /// `$FETCHED_PROPERTY` = the description, cached until the object is refreshed.
    func fetchedPropertyValue(_ property: NSFetchedPropertyDescription, slot i: Int) -> [NSManagedObject] {
        if let cached = cachedFetchedProperty(slot: i) { return cached }
        guard let context = managedObjectContext, let template = property.fetchRequest else { return [] }
        let request = template.copyRequest()
        request.predicate = template.predicate?.withSubstitutionVariables(["FETCH_SOURCE": self, "FETCHED_PROPERTY": property])
        let result = (try? context.fetch(request)) ?? []
        cacheFetchedProperty(result, slot: i)
        return result
    }
}

extension FetchPlan {
    /// The plan of `request` on `entity`, as `context` runs it.
    init<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription, context: NSManagedObjectContext) {
        self.init(entity: entity, predicate: request.predicate, sortDescriptors: request.sortDescriptors ?? [],
                  includesSubentities: request.includesSubentities,
                  fetchLimit: request.fetchLimit, fetchOffset: request.fetchOffset, affectedStores: request.affectedStores,
                  context: context, request: request)
    }
}
