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
        return try readingQueryGeneration { try fetchInQueryGeneration(request) }
    }

    /// ``fetch(_:)``, inside the context's query generation if it is pinned to one.
    private func fetchInQueryGeneration<T>(_ request: NSFetchRequest<T>) throws -> [T] {
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
        return try readingQueryGeneration {
            if let count = try storeCount(request) { return count }
            return try fetchObjects(request).objects.count
        }
    }

    /// The count as the store computes it (`COUNT(*)` in SQLite), when the store evaluates the
    /// whole request and nothing unsaved in this context could change the answer; else nil.
    private func storeCount<T>(_ request: NSFetchRequest<T>) throws -> Int? {
        try storeEvaluatedFetch(request)?.count()
    }

    /// The IDs as the store lists them, when it evaluates the whole request, nothing unsaved
    /// could change the answer and nothing is to be prefetched; else nil.
    private func storeObjectIDs<T>(_ request: NSFetchRequest<T>) throws -> [NSManagedObjectID]? {
        guard (request.relationshipKeyPathsForPrefetching ?? []).isEmpty,
              let fetch = try storeEvaluatedFetch(request) else { return nil }
        return try fetch.objectIDs()
    }

    /// The request's fetch, prepared by the stores, when a root context's single store decides
    /// all of it and no pending change of this context could alter the answer.
    func storeEvaluatedFetch<T>(_ request: NSFetchRequest<T>) throws -> PreparedFetch? {
        guard parent == nil, let coordinator = persistentStoreCoordinator else { return nil }
        let model = coordinator.managedObjectModel
        guard let entity = request.entity(in: model) else { return nil }
        if request.entity == nil { request.entity = entity }
        if request.includesPendingChanges { processPendingChanges() }
        guard !(request.includesPendingChanges && hasChanges) else { return nil }
        let fetch = try coordinator.prepareFetch(FetchPlan(request, entity: entity, context: self))
        return fetch.isExact ? fetch : nil
    }

    /// The coordinator to fetch through and the request's entity, or the error explaining why
    /// there is none.
    private func fetchTarget<T>(_ request: NSFetchRequest<T>) throws -> (NSPersistentStoreCoordinator, NSEntityDescription) {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "fetch: this context has no persistent store coordinator. Set persistentStoreCoordinator (or use NSPersistentContainer.viewContext).")
        }
        let model = coordinator.managedObjectModel
        guard let entity = request.entity(in: model) else {
            throw CoreDataError.make(NSCoreDataError, "fetch: the request names entity '\(request.entityName ?? "nil")', which the model does not have. Known entities: \(model.entitiesByName.keys.sorted().joined(separator: ", ")).")
        }
        // A request made with an entity name knows its entity once executed, as Apple's does.
        if request.entity == nil { request.entity = entity }
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
        // entity as the parent sees it, unsaved changes included. A root context has its stores
        // prepare the fetch once, and asks that for whatever it needs below.
        let fetch = parent == nil ? try coordinator.prepareFetch(plan) : nil
        let storeEvaluates = fetch?.isExact ?? false
        let prefetching = !(request.relationshipKeyPathsForPrefetching ?? []).isEmpty
        // Batch faulting: the store lists the IDs, values load a batch at a time as faults fire.
        if let fetch, request.fetchBatchSize > 0, storeEvaluates, !pendingMayMatter, !prefetching, request.includesPropertyValues,
           request.resultType == .managedObjectResultType,
           let objects = try batchedObjects(fetch, batchSize: request.fetchBatchSize) {
            return (entity, objects)
        }
        // The store's answer when it decides everything; otherwise the rows that may match, which
        // are evaluated (and corrected for unsaved changes) here.
        let rows = try fetch.map { try $0.rows(storeEvaluates && !pendingMayMatter ? .answer : .candidates) } ?? rowsFromParent(plan)
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
            let pending = state.inserted.union(state.updated).sorted { a, b in
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
                loadUnloadedRelationships(name, of: level, coordinator)
                var targets: [NSManagedObjectID] = []
                for object in level where !object.isFault {
                    guard let i = object.layout.indexByName[name], object.layout.properties[i] is NSRelationshipDescription else { continue }
                    // The slot as it is: a relationship still unloaded (its batched read
                    // failed) is skipped.
                    switch object.currentSlot(i).storedValue {
                    case .objectID(let id): targets.append(id)
                    case .objectIDs(let ids): targets += ids
                    default: break
                    }
                }
                var seen = Set<ObjectKey>()
                targets = targets.filter { seen.insert($0.key).inserted }
                let unloaded = targets.filter { registry.object(for: $0.key)?.isFault ?? true }
                // One locked call for the snapshots of all of them, as a fetch's rows.
                let loaded = materialize(try coordinator.rows(for: unloaded), asFaults: false)
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

    /// Relationship `name` of the objects of `level` whose store left it out of their row (the
    /// PostgreSQL store reads to-many members on first use), read in one call per store rather
    /// than one per object.
    private func loadUnloadedRelationships(_ name: String, of level: [NSManagedObject], _ coordinator: NSPersistentStoreCoordinator) {
        var unloaded = UnloadedRelationships<NSManagedObject>()
        for object in level where !object.isFault {
            guard let i = object.layout.indexByName[name], object.currentSlot(i).isUnloadedRelationship,
                  let relationship = object.layout.properties[i] as? NSRelationshipDescription else { continue }
            unloaded.append(object, relationship: relationship, slot: i)
        }
        for (relationship, slot, objects) in unloaded.groups {
            // A read that fails leaves them to load one by one when used, where a failure reads
            // as empty (docs/DEVIATIONS.md), as without prefetching.
            guard let values = try? readingQueryGeneration({ try coordinator.relationshipValues(relationship, for: objects.map(\.objectID), in: self) }) else { continue }
            for (object, value) in zip(objects, values) { object.setLoadedRelationship(slot, value) }
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

extension NSFetchRequest {
    /// The request's entity for a fetch with `model`: its `entity` when that belongs to `model`,
    /// else the entity of its `entityName` there (a request resolved for one model, then run
    /// with another of the same names, finds that model's entity).
    func entity(in model: NSManagedObjectModel) -> NSEntityDescription? {
        if let entity, entity.managedObjectModel === model { return entity }
        return entityName.flatMap { model.entitiesByName[$0] } ?? entity
    }
}
