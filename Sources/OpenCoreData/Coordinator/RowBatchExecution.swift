import Foundation

/// Runs a batch request on any store through the contract's reads and one save: the records'
/// rows are read, changed as the request says, and written back as one ``StoreChanges``.
///
/// ```swift
/// let outcome = try RowBatchExecution(store: store).run(.delete(deletion))
/// ```
///
/// This is what a store gets unless it runs batch requests itself; the SQLite and PostgreSQL
/// stores use it for what their SQL does not cover (delete rules that reach other records, expressions, external
/// binary data). Reading and writing are two steps: a record another coordinator changes in
/// between fails the save with `NSManagedObjectMergeError` (the versions are checked as for
/// any save), and nothing is written.
struct RowBatchExecution {
    let store: any StoreBackend

    func run(_ operation: BatchOperation) throws -> BatchOutcome {
        switch operation {
        case .delete(let deletion): return try delete(deletion)
        case .update(let update): return try self.update(update)
        case .insert(let insertion): return try insert(insertion)
        }
    }

    /// The complete rows of the target's records (faults an incremental store answered with
    /// are loaded).
    private func rows(of target: BatchTarget) throws -> [StoreRow] {
        let rows: [StoreRow]
        switch target {
        case .matching(let plan): rows = try store.prepareFetch(plan).rows(.answer)
        case .objectIDs(let ids): rows = try store.rows(for: ids.map { .id($0) })
        }
        return try rows.compactMap { $0.isFault ? try store.row(for: $0.objectID) : $0 }
    }

    /// The IDs a relationship slot of `row` holds, loading it if the store left it out.
    private func relatedIDs(of row: StoreRow, slot: Int, _ relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        var value = row.values[slot]
        if UnloadedRelationship.isMarker(value) { value = try store.relationshipValue(relationship, for: row.objectID, in: nil) }
        switch value {
        case .objectID(let id): return [id]
        case .objectIDs(let ids): return ids
        default: return []
        }
    }

    // MARK: Delete

    /// The target's records and, by cascade rules, the records they reach; nullify rules clear
    /// the inverses of the destinations that stay. (The context refused deny rules before.)
    private func delete(_ deletion: BatchDeletion) throws -> BatchOutcome {
        var deleting: [ObjectKey: Int] = [:]
        var deleted: [StoreRow] = []
        let targets = try rows(of: deletion.target)
        var pending = Array(targets.reversed())
        var nullified: [(ids: [NSManagedObjectID], inverse: NSRelationshipDescription)] = []
        while let row = pending.popLast() {
            guard deleting[row.key] == nil else { continue }
            deleting[row.key] = deleted.count
            deleted.append(row)
            guard let layout = row.entity.layout else { continue }
            for slot in layout.relationshipIndexes {
                guard let relationship = layout.properties[slot] as? NSRelationshipDescription else { continue }
                switch relationship.deleteRule {
                case .cascadeDeleteRule:
                    let reached = try relatedIDs(of: row, slot: slot, relationship).filter { deleting[$0.key] == nil }
                    pending += try store.rows(for: reached.map { .id($0) }).compactMap { $0.isFault ? try store.row(for: $0.objectID) : $0 }
                case .nullifyDeleteRule:
                    guard let inverse = relationship.inverseRelationship else { continue }
                    let ids = try relatedIDs(of: row, slot: slot, relationship)
                    if !ids.isEmpty { nullified.append((ids, inverse)) }
                case .noActionDeleteRule, .denyDeleteRule:
                    continue
                }
            }
        }
        let updated = try nullifying(nullified, deleting: deleting)
        var changes = StoreChanges(inserted: [], updated: updated.map(\.row), deleted: deleted)
        changes.history = deletion.history
        changes.updatedSlots = updated.map(\.slots)
        try store.save(changes)
        let targetIDs = targets.map(\.objectID)
        return BatchOutcome(count: targetIDs.count, objectIDs: targetIDs, deleted: deleted.map(\.objectID), updated: updated.map(\.row.objectID))
    }

    /// The rows of the records that stay and pointed at deleted ones, with those references
    /// removed from their inverse relationships, one version up.
    ///
    /// - Throws: `NSValidationMissingMandatoryPropertyError` (1570) when a record would be left
    ///   without a relationship its model requires (Apple's batch delete fails there too).
    private func nullifying(_ references: [(ids: [NSManagedObjectID], inverse: NSRelationshipDescription)], deleting: [ObjectKey: Int]) throws -> [(row: StoreRow, slots: [Int])] {
        var changed: [ObjectKey: Int] = [:]
        var rows: [StoreRow] = []
        var slots: [[Int]] = []
        for (ids, inverse) in references {
            for id in ids where deleting[id.key] == nil {
                let position: Int
                if let known = changed[id.key] {
                    position = known
                } else {
                    guard let stored = try store.row(for: id) else { continue }
                    position = rows.count
                    changed[id.key] = position
                    rows.append(StoreRow(identity: stored.identity, values: stored.values, version: stored.version + 1))
                    slots.append([])
                }
                guard let slot = rows[position].entity.layout?.indexByName[inverse.name] else { continue }
                if !slots[position].contains(slot) { slots[position].append(slot) }
                let members = try relatedIDs(of: rows[position], slot: slot, inverse)
                let remaining = members.filter { deleting[$0.key] == nil }
                if remaining.isEmpty && !inverse.isOptional {
                    throw CoreDataError.make(NSValidationMissingMandatoryPropertyError,
                        "The batch delete would leave '\(rows[position].entity.name ?? "?")' \(id.uriRepresentation().absoluteString) without its required relationship '\(inverse.name)' (nullify). Give it another destination, or delete it too; nothing was deleted.",
                        [NSValidationKeyErrorKey: inverse.name])
                }
                rows[position].values[slot] = inverse.isToMany ? .objectIDs(remaining) : (remaining.first.map { .objectID($0) } ?? .null)
            }
        }
        return Array(zip(rows, slots))
    }

    // MARK: Update

    /// Each record takes the new values and one version more.
    private func update(_ update: BatchUpdate) throws -> BatchOutcome {
        var updated: [StoreRow] = []
        for row in try rows(of: update.target) {
            var values = row.values
            for (slot, _, value) in update.values {
                switch value {
                case .constant(let stored): values[slot] = stored
                case .perRecord(let byKey): if let stored = byKey[row.key] { values[slot] = stored }
                }
            }
            updated.append(StoreRow(identity: row.identity, values: values, version: row.version + 1))
        }
        var changes = StoreChanges(inserted: [], updated: updated, deleted: [])
        changes.history = update.history
        let slots = update.values.map(\.slot)
        changes.updatedSlots = update.history == nil ? [] : updated.map { _ in slots }
        try store.save(changes)
        let ids = updated.map(\.objectID)
        return BatchOutcome(count: ids.count, objectIDs: ids, updated: ids)
    }

    // MARK: Insert

    private func insert(_ insertion: BatchInsertion) throws -> BatchOutcome {
        var inserted: [StoreRow] = []
        if !insertion.rows.isEmpty {
            guard let persistentStore = store as? NSPersistentStore else { return BatchOutcome() }
            let keys = try store.newPrimaryKeys(for: insertion.entity, count: insertion.rows.count)
            let origin = ObjectIDOrigin(entity: insertion.entity, store: persistentStore)
            inserted.reserveCapacity(keys.count)
            for (key, values) in zip(keys, insertion.rows) {
                inserted.append(StoreRow(identity: .stored(origin, primaryKey: key), values: values, version: 1))
            }
        }
        var replaced: [StoreRow] = []
        var replacedSlots: [[Int]] = []
        for replacement in insertion.replacements {
            guard let stored = try store.row(for: replacement.objectID) else { continue }
            var values = stored.values
            for slot in replacement.slots { values[slot] = replacement.values[slot] }
            replaced.append(StoreRow(identity: stored.identity, values: values, version: stored.version + 1))
            replacedSlots.append(replacement.slots)
        }
        var changes = StoreChanges(inserted: inserted, updated: replaced, deleted: [])
        changes.history = insertion.history
        changes.updatedSlots = insertion.history == nil ? [] : replacedSlots
        try store.save(changes)
        let replacedIDs = replaced.map(\.objectID)
        let ids = insertion.listsRecords ? inserted.map(\.objectID) + replacedIDs : []
        return BatchOutcome(count: inserted.count + replaced.count, objectIDs: ids, updated: replacedIDs)
    }
}
