import Foundation

// Batch requests (`execute(_:)` with NSBatchInsertRequest, NSBatchUpdateRequest,
// NSBatchDeleteRequest): the context checks the request against its model, turns values into
// stored form, finds the records when the store can't decide the predicate itself, applies its
// merge policy to a batch insert's uniqueness conflicts, and hands the store one operation. The
// context's own objects and unsaved changes are left alone: the caller merges the result's IDs.
extension NSManagedObjectContext {
    /// Runs a batch request; nil when `request` is not one.
    func executeBatchRequest(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult? {
        switch request {
        case let delete as NSBatchDeleteRequest: return try executeBatchDelete(delete)
        case let update as NSBatchUpdateRequest: return try executeBatchUpdate(update)
        case let insert as NSBatchInsertRequest: return try executeBatchInsert(insert)
        default: return nil
        }
    }

    private func batchCoordinator(for request: NSPersistentStoreRequest) throws -> NSPersistentStoreCoordinator {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "A \(type(of: request)) needs a context with a persistent store coordinator (or a parent that has one).")
        }
        return coordinator
    }

    /// What a custom store (`NSIncrementalStore`) answers to the request itself; nil for the
    /// built-in stores, which run it through the store contract.
    private func forwardedResult(_ request: NSPersistentStoreRequest, to store: NSPersistentStore) throws -> NSPersistentStoreResult? {
        guard let forwarding = store as? RequestForwardingStore else { return nil }
        let answer = try forwarding.forward(request, from: self)
        guard let result = answer as? NSPersistentStoreResult else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "\(type(of: store)).execute(_:with:) answered a \(type(of: request)) with \(type(of: answer)); return the request's result object (\(type(of: request)) → its NSPersistentStoreResult subclass).")
        }
        return result
    }

    /// What persistent history records about a batch request: one transaction, by this
    /// context's author and name (nil when no store keeps history).
    private func batchHistory(_ coordinator: NSPersistentStoreCoordinator) -> HistoryTransactionInfo? {
        coordinator.keepsHistory ? HistoryTransactionInfo.current(author: transactionAuthor, contextName: name) : nil
    }

    private func unknownEntity(_ name: String, _ request: NSPersistentStoreRequest) -> NSError {
        CoreDataError.make(NSPersistentStoreOperationError, "\(type(of: request)): the model has no entity named '\(name)'. Check the spelling, or make the request with the entity description.")
    }

    /// The records of `plan` as the store should get them: the plan itself when the store
    /// decides it exactly, else the IDs of the records a fetch finds (in a scratch context, so
    /// this context registers nothing and its unsaved changes don't count).
    private func batchTarget(_ plan: FetchPlan, store: NSPersistentStore, coordinator: NSPersistentStoreCoordinator) throws -> BatchTarget {
        if try coordinator.prepareFetch(plan).isExact { return .matching(plan) }
        let (scratch, fetch): (NSManagedObjectContext, NSFetchRequest<NSManagedObjectID>) = scratchFetch(of: plan, in: store, coordinator: coordinator)
        fetch.resultType = .managedObjectIDResultType
        return .objectIDs(try scratch.performAndWait { try scratch.fetch(fetch) })
    }

    /// A new private-queue context on `coordinator`, and a fetch there of `plan`'s records as
    /// `store` has them (no unsaved changes count): where a batch request reads records, so that
    /// the executing context registers none.
    private func scratchFetch<Result>(of plan: FetchPlan, in store: NSPersistentStore, coordinator: NSPersistentStoreCoordinator) -> (NSManagedObjectContext, NSFetchRequest<Result>) {
        let scratch = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        scratch.persistentStoreCoordinator = coordinator
        let fetch = NSFetchRequest<Result>()
        fetch.entity = plan.entity
        fetch.predicate = plan.predicate
        fetch.sortDescriptors = plan.sortDescriptors
        fetch.includesSubentities = plan.includesSubentities
        fetch.fetchLimit = plan.fetchLimit
        fetch.fetchOffset = plan.fetchOffset
        fetch.includesPendingChanges = false
        fetch.affectedStores = [store]
        return (scratch, fetch)
    }

    // MARK: Delete

    private func executeBatchDelete(_ request: NSBatchDeleteRequest) throws -> NSPersistentStoreResult {
        let coordinator = try batchCoordinator(for: request)
        let entity: NSEntityDescription
        let store: NSPersistentStore
        let target: BatchTarget
        if let ids = request.objectIDs {
            guard let first = ids.first else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchDeleteRequest(objectIDs:) got no IDs. Give the IDs of the records to delete (Apple raises an exception for an empty array).")
            }
            if let temporary = ids.first(where: \.isTemporaryID) {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchDeleteRequest(objectIDs:) got the temporary ID \(temporary.uriRepresentation().absoluteString): its object was never saved, so the store has no record to delete. Delete the object in its context instead.")
            }
            if let other = ids.first(where: { $0.entity.rootEntity !== first.entity.rootEntity }) {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchDeleteRequest(objectIDs:) got IDs of '\(first.entity.name ?? "?")' and of '\(other.entity.name ?? "?")', which are not of one inheritance hierarchy. Make one request per entity.")
            }
            guard let firstStore = first.persistentStore, ids.allSatisfy({ $0.persistentStore === firstStore }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchDeleteRequest(objectIDs:) got IDs of records in different stores (or of a store that was removed). Make one request per store.")
            }
            entity = ids.dropFirst().allSatisfy({ $0.entity === first.entity }) ? first.entity : first.entity.rootEntity
            store = firstStore
            if let result = try forwardedResult(request, to: store) { return result }
            target = .objectIDs(ids)
        } else {
            let fetch = request.fetchRequest
            guard let found = fetch.entity ?? fetch.entityName.flatMap({ coordinator.managedObjectModel.entitiesByName[$0] }) else {
                throw unknownEntity(fetch.entityName ?? "", request)
            }
            entity = found
            store = try coordinator.storeForBatchRequest(of: entity, among: request.affectedStores ?? fetch.affectedStores)
            if let result = try forwardedResult(request, to: store) { return result }
            let plan = FetchPlan(entity: entity, predicate: fetch.predicate, sortDescriptors: fetch.sortDescriptors ?? [],
                                 includesSubentities: fetch.includesSubentities, fetchLimit: fetch.fetchLimit,
                                 fetchOffset: fetch.fetchOffset, affectedStores: [store])
            target = try batchTarget(plan, store: store, coordinator: coordinator)
        }
        try Self.checkBatchDeleteRules(from: entity)
        var deletion = BatchDeletion(entity: entity, target: target, listsRecords: request.resultType == .resultTypeObjectIDs)
        deletion.history = batchHistory(coordinator)
        let outcome = try coordinator.executeBatch(.delete(deletion), in: store)
        return NSBatchDeleteResult(resultType: request.resultType, outcome: outcome)
    }

    /// Refuses a batch delete that would meet a deny rule: Apple's store supports cascade,
    /// nullify and no action in a batch delete and fails for any other rule — on the entity, its
    /// sub-entities and every entity a cascade reaches — whether or not a record matches.
    static func checkBatchDeleteRules(from entity: NSEntityDescription) throws {
        var seen: Set<ObjectIdentifier> = []
        var pending = [entity]
        while let next = pending.popLast() {
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            pending += next.subentities
            for relationship in next.relationshipsByName.values {
                switch relationship.deleteRule {
                case .denyDeleteRule:
                    throw CoreDataError.make(NSCoreDataError,
                        "A batch delete of '\(entity.name ?? "?")' can't apply the deny delete rule of '\(next.name ?? "?").\(relationship.name)' (Apple's batch deletes support cascade, nullify and no action). Delete those objects in a context instead.",
                        ["Reason": "Delete rule is not supported for batch deletes", "Relationship": "\(next.name ?? "?").\(relationship.name)"])
                case .cascadeDeleteRule:
                    if let destination = relationship.destinationEntity { pending.append(destination) }
                case .nullifyDeleteRule, .noActionDeleteRule:
                    continue
                }
            }
        }
    }

    // MARK: Update

    private func executeBatchUpdate(_ request: NSBatchUpdateRequest) throws -> NSPersistentStoreResult {
        let coordinator = try batchCoordinator(for: request)
        guard let entity = request.entity(in: coordinator.managedObjectModel) else { throw unknownEntity(request.entityName, request) }
        let store = try coordinator.storeForBatchRequest(of: entity, among: request.affectedStores)
        if let result = try forwardedResult(request, to: store) { return result }
        guard let properties = request.propertiesToUpdate, !properties.isEmpty else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "NSBatchUpdateRequest for '\(request.entityName)' has no propertiesToUpdate. Set attribute names (or descriptions) to their new values or NSExpressions.")
        }
        guard let layout = entity.layout else { throw unknownEntity(request.entityName, request) }
        var values: [(slot: Int, attribute: NSAttributeDescription, value: BatchUpdateValue)] = []
        var expressions: [(slot: Int, attribute: NSAttributeDescription, expression: NSExpression)] = []
        for (key, value) in properties {
            let name = (key.base as? String) ?? (key.base as? NSPropertyDescription)?.name
            guard let name, let slot = layout.indexByName[name] else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchUpdateRequest: '\(request.entityName)' has no property \(key.base). Keys of propertiesToUpdate are attribute names or descriptions.")
            }
            guard case .attribute(let attribute) = layout.kinds[slot], !attribute.isTransient else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchUpdateRequest can't set '\(request.entityName).\(name)': a batch update sets stored attributes only, not relationships or transient properties.")
            }
            if let expression = value as? NSExpression, expression.expressionType != .constantValue {
                expressions.append((slot, attribute, expression))
            } else {
                let constant = (value as? NSExpression)?.constantValue ?? value
                values.append((slot, attribute, .constant(try batchValue(constant, for: attribute, entityName: request.entityName))))
            }
        }
        let plan = FetchPlan(entity: entity, predicate: request.predicate, sortDescriptors: [], includesSubentities: request.includesSubentities,
                             fetchLimit: 0, fetchOffset: 0, affectedStores: [store])
        let target: BatchTarget
        if expressions.isEmpty {
            target = try batchTarget(plan, store: store, coordinator: coordinator)
        } else {
            // Expressions are evaluated here, per record, on the objects as the store has them
            // (key paths may cross to-one relationships); the store gets the results by ID.
            let evaluated = try evaluateBatchExpressions(expressions, plan: plan, store: store, coordinator: coordinator, entityName: request.entityName)
            target = .objectIDs(evaluated.ids)
            values += evaluated.values
        }
        values.sort { $0.slot < $1.slot }
        var update = BatchUpdate(entity: entity, target: target, values: values, listsRecords: request.resultType == .updatedObjectIDsResultType)
        update.history = batchHistory(coordinator)
        let outcome = try coordinator.executeBatch(.update(update), in: store)
        return NSBatchUpdateResult(resultType: request.resultType, outcome: outcome)
    }

    /// The values `expressions` give each record `plan` matches, evaluated on the records'
    /// objects in a scratch context (their values before the update), by record.
    private func evaluateBatchExpressions(_ expressions: [(slot: Int, attribute: NSAttributeDescription, expression: NSExpression)],
                                          plan: FetchPlan, store: NSPersistentStore, coordinator: NSPersistentStoreCoordinator,
                                          entityName: String) throws -> (ids: [NSManagedObjectID], values: [(slot: Int, attribute: NSAttributeDescription, value: BatchUpdateValue)]) {
        let (scratch, fetch): (NSManagedObjectContext, NSFetchRequest<NSManagedObject>) = scratchFetch(of: plan, in: store, coordinator: coordinator)
        return try scratch.performAndWait {
            let objects = try scratch.fetch(fetch)
            var perSlot = expressions.map { _ in [ObjectKey: StoredValue](minimumCapacity: objects.count) }
            for object in objects {
                for (i, (_, attribute, expression)) in expressions.enumerated() {
                    let value = expression.expressionValue(with: object, context: nil)
                    let stored = StoredValue(value, for: attribute)
                    guard stored.fits(attribute) else {
                        throw CoreDataError.make(NSManagedObjectValidationError,
                            "The batch update's expression '\(expression)' gives \(value.map { "\($0)" } ?? "nil") (\(value.map { "\(type(of: $0))" } ?? "nil")) for '\(entityName).\(attribute.name)', which its attribute type can't hold. Give an expression of the attribute's type; nothing was updated.",
                            [NSValidationKeyErrorKey: attribute.name])
                    }
                    perSlot[i][object.objectID.key] = stored
                }
            }
            return (objects.map(\.objectID), expressions.enumerated().map { i, e in (e.slot, e.attribute, BatchUpdateValue.perRecord(perSlot[i])) })
        }
    }

    /// `value` in `attribute`'s stored form (`NSNull` and nil are nil).
    ///
    /// - Throws: `NSManagedObjectValidationError` (1550) when it is not of the attribute's type.
    private func batchValue(_ value: Any?, for attribute: NSAttributeDescription, entityName: String) throws -> StoredValue {
        guard let value else { return .null }
        let conversion = AttributeConversion(attribute)
        guard let stored = conversion.storedValue(value) else { throw conversion.mismatch(value, entityName: entityName) }
        return stored
    }

    // MARK: Insert

    private func executeBatchInsert(_ request: NSBatchInsertRequest) throws -> NSPersistentStoreResult {
        let coordinator = try batchCoordinator(for: request)
        guard let entity = request.entity(in: coordinator.managedObjectModel) else { throw unknownEntity(request.entityName, request) }
        if entity.isAbstract {
            throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchInsertRequest can't insert records of '\(request.entityName)': the entity is abstract. Insert records of one of its sub-entities.")
        }
        let store = try coordinator.storeForBatchRequest(of: entity, among: request.affectedStores)
        if let result = try forwardedResult(request, to: store) { return result }
        guard let layout = entity.layout else { throw unknownEntity(request.entityName, request) }
        var builder = BatchInsertRowBuilder(entity: entity, layout: layout)
        if let objects = request.objectsToInsert {
            for dictionary in objects { try builder.add(dictionary) }
        } else if let handler = request.dictionaryHandler {
            while true {
                let dictionary = NSMutableDictionary()
                if handler(dictionary) { break }
                try builder.add(dictionary)
            }
        } else if let handler = request.managedObjectHandler {
            while true {
                let object = layout.resolvedClass.init(entity: entity, insertInto: nil)
                if handler(object) { break }
                try builder.add(object)
            }
        }
        var rows = builder.rows
        let replacements = try resolveUniquenessConflicts(of: &rows, entity: entity, store: store, coordinator: coordinator)
        let insertion = BatchInsertion(entity: entity, rows: rows.map(\.values), listsRecords: request.resultType == .objectIDs,
                                       replacements: replacements, history: batchHistory(coordinator))
        let outcome = try coordinator.executeBatch(.insert(insertion), in: store)
        return NSBatchInsertResult(resultType: request.resultType, outcome: outcome)
    }

    /// Applies the merge policy to new rows that share uniqueness-constraint values with each
    /// other or with stored records, as Apple's store does: under object trump and overwrite the
    /// later values win — over an earlier new row, or over a stored record as a replacement (an
    /// upsert of the attributes given); under the other policies what is there first stays
    /// (`INSERT OR IGNORE`) and the new row is skipped.
    private func resolveUniquenessConflicts(of rows: inout [BatchInsertRow], entity: NSEntityDescription, store: NSPersistentStore,
                                            coordinator: NSPersistentStoreCoordinator) throws -> [BatchReplacement] {
        let rules = UniquenessRule.rules(for: entity).compactMap { rule in rule.slots(in: entity).map { (rule, $0) } }
        guard !rules.isEmpty, !rows.isEmpty else { return [] }
        let policy = ((mergePolicy as? NSMergePolicy) ?? .error).mergeType
        let newValuesWin = policy == .mergeByPropertyObjectTrumpMergePolicyType || policy == .overwriteMergePolicyType
        var replacements: [NSManagedObjectID: BatchInsertRow] = [:]
        var replacementOrder: [NSManagedObjectID] = []
        func merge(_ later: BatchInsertRow, over earlier: BatchInsertRow) -> BatchInsertRow {
            var merged = earlier
            for slot in later.given { merged.values[slot] = later.values[slot] }
            merged.given = Array(Set(earlier.given).union(later.given)).sorted()
            return merged
        }
        for (rule, slots) in rules {
            // New rows among themselves: one row per set of values.
            var firstRow: [ConstraintGroupKey: Int] = [:]
            var kept: [BatchInsertRow] = []
            kept.reserveCapacity(rows.count)
            for row in rows {
                guard let key = ConstraintGroupKey(rule: rule, values: slots.map { row.values[$0] }) else { kept.append(row); continue }
                if let earlier = firstRow[key] {
                    if newValuesWin { kept[earlier] = merge(row, over: kept[earlier]) }
                } else {
                    firstRow[key] = kept.count
                    kept.append(row)
                }
            }
            rows = kept
            // New rows against stored records, a few hundred values per fetch.
            let scratch = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            scratch.persistentStoreCoordinator = coordinator
            var conflicting: [Int: NSManagedObjectID] = [:]
            for start in stride(from: 0, to: rows.count, by: 300) {
                let chunk = rows[start..<min(start + 300, rows.count)]
                let fetch = NSFetchRequest<NSManagedObject>()
                fetch.entity = rule.owner
                fetch.includesSubentities = true
                fetch.includesPendingChanges = false
                fetch.affectedStores = [store]
                fetch.predicate = rule.predicate(matchingAnyOf: chunk.map { row in slots.map { row.values[$0] } })
                let stored: [(NSManagedObjectID, ConstraintGroupKey)] = try scratch.performAndWait {
                    try scratch.fetch(fetch).compactMap { object in
                        ConstraintGroupKey(rule: rule, values: slots.map { object.readStored($0) }).map { (object.objectID, $0) }
                    }
                }
                for (id, key) in stored { if let i = firstRow[key] { conflicting[i] = id } }
            }
            guard !conflicting.isEmpty else { continue }
            if newValuesWin {
                for (i, id) in conflicting.sorted(by: { $0.key < $1.key }) {
                    if let earlier = replacements[id] {
                        replacements[id] = merge(rows[i], over: earlier)
                    } else {
                        replacements[id] = rows[i]
                        replacementOrder.append(id)
                    }
                }
            }
            rows = rows.indices.filter { conflicting[$0] == nil }.map { rows[$0] }
        }
        return replacementOrder.map { id in BatchReplacement(objectID: id, values: replacements[id]!.values, slots: replacements[id]!.given) }
    }
}
