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

    private func unknownEntity(_ name: String, _ request: NSPersistentStoreRequest) -> NSError {
        CoreDataError.make(NSPersistentStoreOperationError, "\(type(of: request)): the model has no entity named '\(name)'. Check the spelling, or make the request with the entity description.")
    }

    /// The records of `plan` as the store should get them: the plan itself when the store
    /// decides it exactly, else the IDs of the records a fetch finds (in a scratch context, so
    /// this context registers nothing and its unsaved changes don't count).
    private func batchTarget(_ plan: FetchPlan, store: NSPersistentStore, coordinator: NSPersistentStoreCoordinator) throws -> BatchTarget {
        if try coordinator.prepareFetch(plan).isExact { return .matching(plan) }
        let scratch = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        scratch.persistentStoreCoordinator = coordinator
        let fetch = NSFetchRequest<NSManagedObjectID>()
        fetch.entity = plan.entity
        fetch.predicate = plan.predicate
        fetch.sortDescriptors = plan.sortDescriptors
        fetch.includesSubentities = plan.includesSubentities
        fetch.fetchLimit = plan.fetchLimit
        fetch.fetchOffset = plan.fetchOffset
        fetch.resultType = .managedObjectIDResultType
        fetch.includesPendingChanges = false
        fetch.affectedStores = [store]
        return .objectIDs(try scratch.performAndWait { try scratch.fetch(fetch) })
    }

    // MARK: Delete

    private func executeBatchDelete(_ request: NSBatchDeleteRequest) throws -> NSPersistentStoreResult {
        let coordinator = try batchCoordinator(for: request)
        let entity: NSEntityDescription
        let store: NSPersistentStore
        let target: BatchTarget
        if let ids = request.objectIDs {
            guard let first = ids.first else { return NSBatchDeleteResult(resultType: request.resultType, outcome: BatchOutcome()) }
            if let temporary = ids.first(where: \.isTemporaryID) {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchDeleteRequest(objectIDs:) got the temporary ID \(temporary.uriRepresentation().absoluteString): its object was never saved, so the store has no record to delete. Delete the object in its context instead.")
            }
            if let other = ids.first(where: { $0.entity !== first.entity }) {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchDeleteRequest(objectIDs:) got IDs of '\(first.entity.name ?? "?")' and of '\(other.entity.name ?? "?")'. Make one request per entity.")
            }
            guard let firstStore = first.persistentStore, ids.allSatisfy({ $0.persistentStore === firstStore }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchDeleteRequest(objectIDs:) got IDs of records in different stores (or of a store that was removed). Make one request per store.")
            }
            entity = first.entity
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
        let deletion = BatchDeletion(entity: entity, target: target, listsRecords: request.resultType == .resultTypeObjectIDs)
        let outcome = try coordinator.executeBatch(.delete(deletion), in: store)
        return NSBatchDeleteResult(resultType: request.resultType, outcome: outcome)
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
        for (key, value) in properties {
            let name = (key.base as? String) ?? (key.base as? NSPropertyDescription)?.name
            guard let name, let slot = layout.indexByName[name] else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchUpdateRequest: '\(request.entityName)' has no property \(key.base). Keys of propertiesToUpdate are attribute names or descriptions.")
            }
            guard case .attribute(let attribute) = layout.kinds[slot], !attribute.isTransient else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchUpdateRequest can't set '\(request.entityName).\(name)': a batch update sets stored attributes only, not relationships or transient properties.")
            }
            if let expression = value as? NSExpression {
                if expression.expressionType == .constantValue {
                    values.append((slot, attribute, .constant(try batchValue(expression.constantValue, for: attribute, entityName: request.entityName))))
                } else {
                    values.append((slot, attribute, .expression(expression)))
                }
            } else {
                values.append((slot, attribute, .constant(try batchValue(value, for: attribute, entityName: request.entityName))))
            }
        }
        values.sort { $0.slot < $1.slot }
        let plan = FetchPlan(entity: entity, predicate: request.predicate, sortDescriptors: [], includesSubentities: request.includesSubentities,
                             fetchLimit: 0, fetchOffset: 0, affectedStores: [store])
        let target = try batchTarget(plan, store: store, coordinator: coordinator)
        let update = BatchUpdate(entity: entity, target: target, values: values, listsRecords: request.resultType == .updatedObjectIDsResultType)
        let outcome = try coordinator.executeBatch(.update(update), in: store)
        return NSBatchUpdateResult(resultType: request.resultType, outcome: outcome)
    }

    /// `value` in `attribute`'s stored form (`NSNull` and nil are nil).
    ///
    /// - Throws: `NSManagedObjectValidationError` (1550) when it is not of the attribute's type.
    private func batchValue(_ value: Any?, for attribute: NSAttributeDescription, entityName: String) throws -> StoredValue {
        let stored = StoredValue(value, for: attribute)
        guard stored.fits(attribute) else {
            throw CoreDataError.make(NSManagedObjectValidationError,
                "A batch request gives '\(entityName).\(attribute.name)' the value \(value.map { "\($0)" } ?? "nil") of type \(value.map { "\(type(of: $0))" } ?? "nil"), which its attribute type can't hold. Give a value of the attribute's type; nothing was changed.",
                [NSValidationKeyErrorKey: attribute.name])
        }
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
        var rows = try batchInsertRows(request, entity: entity)
        let replacements = try resolveUniquenessConflicts(of: &rows, entity: entity, store: store, coordinator: coordinator)
        let insertion = BatchInsertion(entity: entity, rows: rows, replacements: replacements)
        let outcome = try coordinator.executeBatch(.insert(insertion), in: store)
        return NSBatchInsertResult(resultType: request.resultType, outcome: outcome)
    }

    /// The request's records as rows: the entity's defaults, then the values given, checked.
    private func batchInsertRows(_ request: NSBatchInsertRequest, entity: NSEntityDescription) throws -> [RowValues] {
        guard let layout = entity.layout else { throw unknownEntity(request.entityName, request) }
        let defaults = RowValues(layout.initialSlots.map { slot -> StoredValue in
            switch slot {
            case .toMany: return .objectIDs([])
            default: return slot.storedValue
            }
        })
        var rows: [RowValues] = []
        func add(_ dictionary: [String: Any]) throws {
            var row = defaults
            for (name, value) in dictionary {
                guard let slot = layout.indexByName[name] else {
                    throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchInsertRequest: '\(request.entityName)' has no attribute '\(name)'. Keys of the dictionaries are attribute names.")
                }
                guard case .attribute(let attribute) = layout.kinds[slot], !attribute.isTransient else {
                    throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchInsertRequest can't set '\(request.entityName).\(name)': a batch insert sets stored attributes only; relationships are set on the objects afterwards, in a context.")
                }
                row[slot] = try batchValue(value, for: attribute, entityName: request.entityName)
            }
            rows.append(row)
        }
        if let objects = request.objectsToInsert {
            rows.reserveCapacity(objects.count)
            for dictionary in objects { try add(dictionary) }
        } else if let handler = request.dictionaryHandler {
            while true {
                let dictionary = NSMutableDictionary()
                if handler(dictionary) { break }
                var values: [String: Any] = [:]
                for (key, value) in dictionary { if let name = key as? String { values[name] = value } }
                try add(values)
            }
        } else if let handler = request.managedObjectHandler {
            while true {
                let object = layout.resolvedClass.init(entity: entity, insertInto: nil)
                if handler(object) { break }
                var row = defaults
                for slot in layout.persistentIndexes {
                    guard case .attribute = layout.kinds[slot] else { continue }
                    row[slot] = object.readStored(slot)
                }
                for slot in layout.relationshipIndexes where !layout.properties[slot].isTransient {
                    let value = object.readStored(slot)
                    let empty: Bool
                    switch value {
                    case .objectIDs(let ids): empty = ids.isEmpty
                    case .null: empty = true
                    default: empty = false
                    }
                    if !empty {
                        throw CoreDataError.make(NSPersistentStoreOperationError, "NSBatchInsertRequest can't set '\(request.entityName).\(layout.properties[slot].name)': a batch insert sets attributes only; relationships are set on the objects afterwards, in a context.")
                    }
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// Applies the merge policy to new rows that share uniqueness-constraint values with each
    /// other or with stored records: the error policy refuses the request, store trump and
    /// rollback keep what is there first (the stored record, or the earlier row), object trump
    /// and overwrite let the later values win — over a stored record as a replacement.
    private func resolveUniquenessConflicts(of rows: inout [RowValues], entity: NSEntityDescription, store: NSPersistentStore,
                                            coordinator: NSPersistentStoreCoordinator) throws -> [(objectID: NSManagedObjectID, values: RowValues)] {
        let rules = UniquenessRule.rules(for: entity).compactMap { rule in rule.slots(in: entity).map { (rule, $0) } }
        guard !rules.isEmpty, !rows.isEmpty else { return [] }
        let policy = ((mergePolicy as? NSMergePolicy) ?? .error).mergeType
        let newValuesWin = policy == .mergeByPropertyObjectTrumpMergePolicyType || policy == .overwriteMergePolicyType
        var replacements: [NSManagedObjectID: RowValues] = [:]
        var replacementOrder: [NSManagedObjectID] = []
        for (rule, slots) in rules {
            // Rows among themselves: one row per set of values.
            var firstRow: [ConstraintGroupKey: Int] = [:]
            var kept: [RowValues] = []
            kept.reserveCapacity(rows.count)
            for row in rows {
                guard let key = ConstraintGroupKey(rule: rule, values: slots.map { row[$0] }) else { kept.append(row); continue }
                if let earlier = firstRow[key] {
                    guard policy != .errorMergePolicyType else { throw batchConstraintError(entity, rule) }
                    if newValuesWin { kept[earlier] = row }
                } else {
                    firstRow[key] = kept.count
                    kept.append(row)
                }
            }
            rows = kept
            // Rows against stored records, a few hundred values per fetch.
            let scratch = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            scratch.persistentStoreCoordinator = coordinator
            var conflicting: [Int: NSManagedObjectID] = [:]
            let positions = Array(rows.indices)
            for chunk in stride(from: 0, to: positions.count, by: 300).map({ Array(positions[$0..<min($0 + 300, positions.count)]) }) {
                let fetch = NSFetchRequest<NSManagedObject>()
                fetch.entity = rule.owner
                fetch.includesSubentities = true
                fetch.includesPendingChanges = false
                fetch.affectedStores = [store]
                fetch.predicate = rule.predicate(matchingAnyOf: chunk.map { i in slots.map { rows[i][$0] } })
                let stored: [(NSManagedObjectID, ConstraintGroupKey)] = try scratch.performAndWait {
                    try scratch.fetch(fetch).compactMap { object in
                        ConstraintGroupKey(rule: rule, values: slots.map { object.readStored($0) }).map { (object.objectID, $0) }
                    }
                }
                for (id, key) in stored { if let i = firstRow[key] { conflicting[i] = id } }
            }
            guard !conflicting.isEmpty else { continue }
            guard policy != .errorMergePolicyType else { throw batchConstraintError(entity, rule, conflicting.values.first) }
            if newValuesWin {
                for (i, id) in conflicting.sorted(by: { $0.key < $1.key }) {
                    if replacements.updateValue(rows[i], forKey: id) == nil { replacementOrder.append(id) }
                }
            }
            rows = rows.indices.filter { conflicting[$0] == nil }.map { rows[$0] }
        }
        return replacementOrder.map { ($0, replacements[$0]!) }
    }

    private func batchConstraintError(_ entity: NSEntityDescription, _ rule: UniquenessRule, _ stored: NSManagedObjectID? = nil) -> NSError {
        CoreDataError.make(NSManagedObjectConstraintMergeError,
            "NSBatchInsertRequest: records of '\(entity.name ?? "?")' share the values of its uniqueness constraint (\(rule.names.joined(separator: ", ")))\(stored.map { " with the stored record \($0.uriRepresentation().absoluteString)" } ?? " with each other"), and the context's merge policy is the error policy. Set the executing context's mergePolicy (NSMergeByPropertyObjectTrumpMergePolicy updates the stored records) or remove the duplicates; nothing was inserted.")
    }
}
