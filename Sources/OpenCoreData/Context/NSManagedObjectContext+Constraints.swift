import Foundation

// Uniqueness constraints at save. The context finds the conflicts itself — among the objects it
// is saving, and against the records already in the stores (one batched fetch per constraint) —
// so they reach the merge policy as NSConstraintConflicts for every kind of store; a SQLite
// store's unique index stays the last guard at write time.

extension NSManagedObjectContext {
    /// Finds constraint conflicts, lets the merge policy resolve them, and checks that none
    /// remain. Runs under the coordinator's lock, before the optimistic-locking check (a record
    /// the policy merges into is checked and written like any other changed object).
    func resolveConstraintConflicts(with coordinator: NSPersistentStoreCoordinator) throws {
        let conflicts = try findConstraintConflicts(with: coordinator)
        guard !conflicts.isEmpty else { return }
        let policy = (mergePolicy as? NSMergePolicy) ?? .error
        try policy.resolve(constraintConflicts: conflicts)
        // The policy deleted the duplicates it merged away: new ones leave the context now.
        processPendingChanges()
        let remaining = try findConstraintConflicts(with: coordinator)
        guard remaining.isEmpty else {
            throw Self.constraintError(remaining, "the merge policy left them unresolved")
        }
    }

    /// The error of an unresolved constraint conflict: 133021 with the conflicts in
    /// `userInfo["conflictList"]`.
    static func constraintError(_ conflicts: [NSConstraintConflict], _ why: String) -> NSError {
        let described = conflicts.prefix(5).map(\.description).joined(separator: "; ")
        return CoreDataError.make(NSManagedObjectConstraintMergeError,
            "The save violates \(conflicts.count) uniqueness constraint(s) (\(described)); \(why), so nothing was saved. Set the context's mergePolicy (for example NSMergeByPropertyObjectTrumpMergePolicy) to merge duplicates, or change the values.",
            ["conflictList": conflicts])
    }

    /// The constraint conflicts of the pending insertions and updates, in a stable order
    /// (objects by creation, constraints as declared).
    func findConstraintConflicts(with coordinator: NSPersistentStoreCoordinator) throws -> [NSConstraintConflict] {
        // Most models have no constraints: then a save pays one pass over the entities.
        guard coordinator.managedObjectModel.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }) else { return [] }
        var rulesByEntity: [ObjectIdentifier: [UniquenessRule]] = [:]
        func rules(for entity: NSEntityDescription) -> [UniquenessRule] {
            if let known = rulesByEntity[ObjectIdentifier(entity)] { return known }
            let rules = UniquenessRule.rules(for: entity)
            rulesByEntity[ObjectIdentifier(entity)] = rules
            return rules
        }
        var groups: [ConstraintGroupKey: ConstraintGroup] = [:]
        var order: [ConstraintGroupKey] = []
        // Saved objects first (they keep their records), then new ones in creation order.
        let candidates = state.inserted.union(state.updated).filter { !$0.isDeleted }.sorted { a, b in
            if a.isInserted != b.isInserted { return !a.isInserted }
            return a.objectID.key.primaryKey < b.objectID.key.primaryKey
        }
        for object in candidates {
            for rule in rules(for: object.entity) {
                guard let slots = rule.slots(in: object.entity) else { continue }
                let values = slots.map { object.readStored($0) }
                // A saved object whose constrained values did not change still holds them in its
                // own record: nothing new to check.
                if !object.isInserted, let committed = object.committed,
                   zip(slots, values).allSatisfy({ $0.0 < committed.count && $0.1.isSame(as: committed[$0.0]) }) { continue }
                // A nil value never conflicts: SQLite's unique indexes allow any number of NULLs.
                guard let key = ConstraintGroupKey(rule: rule, values: values) else { continue }
                if groups[key] == nil {
                    order.append(key)
                    groups[key] = ConstraintGroup(rule: rule, values: values)
                }
                groups[key]!.objects.append(object)
            }
        }
        guard !order.isEmpty else { return [] }
        try findDatabaseRows(for: &groups, order: order, with: coordinator)

        var conflicts: [NSConstraintConflict] = []
        for key in order {
            let group = groups[key]!
            let snapshots: [Any] = group.objects.map { o in o.committed.map { o.snapshotDictionary(of: $0) as [AnyHashable: Any] } ?? [:] }
            if let row = group.databaseRow {
                let databaseObject = object(with: row.objectID)
                conflicts.append(NSConstraintConflict(constraint: group.rule.names, database: databaseObject,
                                                      databaseSnapshot: databaseObject.snapshotDictionary(of: row.values),
                                                      conflicting: group.objects, conflictingSnapshots: snapshots))
            } else if group.objects.count > 1 {
                conflicts.append(NSConstraintConflict(constraint: group.rule.names, database: nil, databaseSnapshot: nil,
                                                      conflicting: group.objects, conflictingSnapshots: snapshots))
            }
        }
        return conflicts
    }

    /// Looks up, per constraint, the store records that hold any group's values (batches of
    /// `IN`/`OR` predicates) and records the first one that is still a conflict.
    private func findDatabaseRows(for groups: inout [ConstraintGroupKey: ConstraintGroup], order: [ConstraintGroupKey], with coordinator: NSPersistentStoreCoordinator) throws {
        var keysByRule: [UniquenessRule.ID: [ConstraintGroupKey]] = [:]
        var ruleOrder: [UniquenessRule.ID] = []
        for key in order {
            let id = groups[key]!.rule.id
            if keysByRule[id] == nil { ruleOrder.append(id) }
            keysByRule[id, default: []].append(key)
        }
        for id in ruleOrder {
            let keys = keysByRule[id]!
            let rule = groups[keys[0]]!.rule
            var start = 0
            while start < keys.count {
                let batch = Array(keys[start..<min(start + 200, keys.count)])
                start += batch.count
                let predicate = rule.predicate(matchingAnyOf: batch.map { groups[$0]!.values })
                let plan = FetchPlan(entity: rule.owner, predicate: predicate, sortDescriptors: [], includesSubentities: true,
                                     fetchLimit: 0, fetchOffset: 0, affectedStores: nil)
                // The store may only narrow the rows (a plan it can't evaluate exactly): each row's
                // values are compared here.
                for row in try coordinator.prepareFetch(plan).rows(.candidates) {
                    guard let slots = rule.slots(in: row.entity), slots.allSatisfy({ $0 < row.values.count }),
                          let key = ConstraintGroupKey(rule: rule, values: slots.map { row.values[$0] }),
                          groups[key] != nil, groups[key]!.databaseRow == nil else { continue }
                    // This context's version of the record decides: deleted, or changed to other
                    // values, it no longer holds these (the store writes deletes and updates
                    // before inserts); one of the conflicting objects itself is no conflict.
                    if let registered = registry.object(for: row.key) {
                        if registered.isDeleted || groups[key]!.objects.contains(where: { $0 === registered }) { continue }
                        if !registered.isFault, ConstraintGroupKey(rule: rule, values: slots.map { registered.readStored($0) }) != key { continue }
                    }
                    groups[key]!.databaseRow = row
                }
            }
        }
    }
}

/// One uniqueness constraint as the save checks it: declared on `owner`, it holds across
/// `owner` and all its sub-entities (in a SQLite store they share one table and index).
struct UniquenessRule {
    struct ID: Hashable {
        let owner: ObjectIdentifier
        let index: Int
    }
    let owner: NSEntityDescription
    let index: Int
    let names: [String]
    var id: ID { ID(owner: ObjectIdentifier(owner), index: index) }

    /// The constraints that apply to objects of `entity`: its own and its super-entities'.
    static func rules(for entity: NSEntityDescription) -> [UniquenessRule] {
        var rules: [UniquenessRule] = []
        var current: NSEntityDescription? = entity
        while let e = current {
            for (i, constraint) in e.uniquenessConstraints.enumerated() {
                // Apple's model API accepts property names or property descriptions.
                let names = constraint.compactMap { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name }
                if !names.isEmpty, names.count == constraint.count { rules.append(UniquenessRule(owner: e, index: i, names: names)) }
            }
            current = e.superentity
        }
        return rules
    }

    /// The slots of the constrained attributes in objects of `entity` (the same in an entity
    /// and its sub-entities); nil if one is not a persistent attribute there.
    func slots(in entity: NSEntityDescription) -> [Int]? {
        guard let layout = entity.layout else { return nil }
        var slots: [Int] = []
        for name in names {
            guard let i = layout.indexByName[name], layout.properties[i] is NSAttributeDescription, !layout.properties[i].isTransient else { return nil }
            slots.append(i)
        }
        return slots
    }

    /// `a == v1 AND b == w1 OR a == v2 AND b == w2 ...` (`a IN {...}` for one attribute).
    func predicate(matchingAnyOf valueLists: [[StoredValue]]) -> NSPredicate {
        let attributes = names.map { owner.propertiesByName[$0] as? NSAttributeDescription }
        func constant(_ value: StoredValue, _ i: Int) -> NSExpression {
            NSExpression(forConstantValue: attributes[i].flatMap { value.publicValue(for: $0) })
        }
        if names.count == 1 {
            let constants = valueLists.compactMap { attributes[0].flatMap($0[0].publicValue(for:)) }
            return NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: names[0]), rightExpression: NSExpression(forConstantValue: constants),
                                         modifier: .direct, type: .in)
        }
        return NSCompoundPredicate(orPredicateWithSubpredicates: valueLists.map { values in
            NSCompoundPredicate(andPredicateWithSubpredicates: names.indices.map { i in
                NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: names[i]), rightExpression: constant(values[i], i), modifier: .direct, type: .equalTo)
            })
        })
    }
}

/// The objects being saved that share one constraint's values, and the store record that
/// already holds them, if any.
struct ConstraintGroup {
    let rule: UniquenessRule
    let values: [StoredValue]
    var objects: [NSManagedObject] = []
    var databaseRow: StoreRow?
}

/// Groups equal constraint values: the constraint and the values in a hashable form.
struct ConstraintGroupKey: Hashable {
    let rule: UniquenessRule.ID
    let values: [Value]

    enum Value: Hashable {
        case integer(Int64), double(Double), bool(Bool), string(String), date(Date), data(Data), decimal(Decimal), uuid(UUID), url(URL), objectID(NSManagedObjectID)
    }

    /// nil when a value is nil (never a conflict) or can't be compared (transformable).
    init?(rule: UniquenessRule, values: [StoredValue]) {
        var keys: [Value] = []
        for value in values {
            switch value {
            case .integer(let v): keys.append(.integer(v))
            case .double(let v): keys.append(.double(v))
            case .bool(let v): keys.append(.bool(v))
            case .string(let v): keys.append(.string(v))
            case .date(let v): keys.append(.date(v))
            case .data(let v): keys.append(.data(v))
            case .decimal(let v): keys.append(.decimal(v))
            case .uuid(let v): keys.append(.uuid(v))
            case .url(let v): keys.append(.url(v))
            case .objectID(let v): keys.append(.objectID(v))
            case .null, .objectIDs, .boxed: return nil
            }
        }
        self.rule = rule.id
        self.values = keys
    }
}
