import Foundation

/// Runs a batch request on any store through the contract's reads and one save: the records'
/// rows are read, changed as the request says, and written back as one ``StoreChanges``.
///
/// ```swift
/// let outcome = try RowBatchExecution(store: store).run(.delete(deletion))
/// ```
///
/// This is what a store gets unless it runs batch requests itself; the SQLite store uses it for
/// what its SQL does not cover (delete rules that reach other records, expressions, external
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

    /// The target's records and, by cascade rules, the records they reach; a deny rule with a
    /// destination that is not deleted too refuses everything; nullify rules clear the
    /// inverses of the destinations that stay.
    private func delete(_ deletion: BatchDeletion) throws -> BatchOutcome {
        var deleting: [ObjectKey: Int] = [:]
        var deleted: [StoreRow] = []
        var pending = try rows(of: deletion.target)
        var denied: [(StoreRow, NSRelationshipDescription, [NSManagedObjectID])] = []
        var nullified: [(ids: [NSManagedObjectID], inverse: NSRelationshipDescription)] = []
        while let row = pending.popLast() {
            guard deleting[row.key] == nil else { continue }
            deleting[row.key] = deleted.count
            deleted.append(row)
            guard let layout = row.entity.layout else { continue }
            for slot in layout.relationshipIndexes {
                guard let relationship = layout.properties[slot] as? NSRelationshipDescription else { continue }
                switch relationship.deleteRule {
                case .noActionDeleteRule:
                    continue
                case .cascadeDeleteRule:
                    let reached = try relatedIDs(of: row, slot: slot, relationship).filter { deleting[$0.key] == nil }
                    pending += try store.rows(for: reached.map { .id($0) }).compactMap { $0.isFault ? try store.row(for: $0.objectID) : $0 }
                case .denyDeleteRule:
                    let ids = try relatedIDs(of: row, slot: slot, relationship)
                    if !ids.isEmpty { denied.append((row, relationship, ids)) }
                case .nullifyDeleteRule:
                    guard let inverse = relationship.inverseRelationship else { continue }
                    let ids = try relatedIDs(of: row, slot: slot, relationship)
                    if !ids.isEmpty { nullified.append((ids, inverse)) }
                }
            }
        }
        for (row, relationship, ids) in denied where ids.contains(where: { deleting[$0.key] == nil }) {
            throw CoreDataError.make(NSValidationRelationshipDeniedDeleteError,
                "The batch delete can't delete '\(row.entity.name ?? "?")' \(row.objectID.uriRepresentation().absoluteString): its relationship '\(relationship.name)' has the deny delete rule and still holds objects. Delete or reassign them first; nothing was deleted.",
                [NSValidationKeyErrorKey: relationship.name, NSAffectedObjectsErrorKey: [row.objectID]])
        }
        let updated = try nullifying(nullified, deleting: deleting)
        try store.save(StoreChanges(inserted: [], updated: updated, deleted: deleted))
        return BatchOutcome(count: deleted.count, deleted: deleted.map(\.objectID), updated: updated.map(\.objectID))
    }

    /// The rows of the records that stay and pointed at deleted ones, with those references
    /// removed from their inverse relationships, one version up.
    private func nullifying(_ references: [(ids: [NSManagedObjectID], inverse: NSRelationshipDescription)], deleting: [ObjectKey: Int]) throws -> [StoreRow] {
        var changed: [ObjectKey: Int] = [:]
        var rows: [StoreRow] = []
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
                }
                guard let slot = rows[position].entity.layout?.indexByName[inverse.name] else { continue }
                let members = try relatedIDs(of: rows[position], slot: slot, inverse)
                let remaining = members.filter { deleting[$0.key] == nil }
                rows[position].values[slot] = inverse.isToMany ? .objectIDs(remaining) : (remaining.first.map { .objectID($0) } ?? .null)
            }
        }
        return rows
    }

    // MARK: Update

    /// Each record takes the new values; expressions see the record's values before the update,
    /// as SQL's `SET` does.
    private func update(_ update: BatchUpdate) throws -> BatchOutcome {
        var updated: [StoreRow] = []
        for row in try rows(of: update.target) {
            var values = row.values
            var attributes: [String: Any]?
            for (slot, attribute, value) in update.values {
                switch value {
                case .constant(let stored):
                    values[slot] = stored
                case .expression(let expression):
                    if attributes == nil { attributes = Self.attributeValues(of: row) }
                    let result = try expression.batchValue(for: attributes ?? [:], attribute: attribute)
                    values[slot] = result
                }
            }
            updated.append(StoreRow(identity: row.identity, values: values, version: row.version + 1))
        }
        try store.save(StoreChanges(inserted: [], updated: updated, deleted: []))
        return BatchOutcome(count: updated.count, updated: updated.map(\.objectID))
    }

    /// A record's attribute values by name, in their public form: what an update's expressions
    /// evaluate against.
    static func attributeValues(of row: StoreRow) -> [String: Any] {
        guard let layout = row.entity.layout else { return [:] }
        var values: [String: Any] = [:]
        for (slot, property) in layout.properties.enumerated() where slot < row.values.count {
            guard let attribute = property as? NSAttributeDescription else { continue }
            values[attribute.name] = row.values[slot].publicValue(for: attribute) ?? NSNull()
        }
        return values
    }

    // MARK: Insert

    private func insert(_ insertion: BatchInsertion) throws -> BatchOutcome {
        var inserted: [StoreRow] = []
        if !insertion.rows.isEmpty {
            let keys = try store.newPrimaryKeys(for: insertion.entity, count: insertion.rows.count)
            guard let persistentStore = store as? NSPersistentStore else { return BatchOutcome() }
            inserted.reserveCapacity(keys.count)
            for (key, values) in zip(keys, insertion.rows) {
                let id = NSManagedObjectID(entity: insertion.entity, store: persistentStore, primaryKey: key)
                inserted.append(StoreRow(objectID: id, values: values, version: 1))
            }
        }
        var replaced: [StoreRow] = []
        for (id, values) in insertion.replacements {
            guard let stored = try store.row(for: id) else { continue }
            replaced.append(StoreRow(identity: stored.identity, values: Self.attributes(of: values, over: stored), version: stored.version + 1))
        }
        try store.save(StoreChanges(inserted: inserted, updated: replaced, deleted: []))
        return BatchOutcome(count: inserted.count + replaced.count, updated: replaced.map(\.objectID), inserted: inserted.map(\.objectID))
    }

    /// `stored`'s values with every attribute slot taken from `values`.
    static func attributes(of values: RowValues, over stored: StoreRow) -> RowValues {
        guard let layout = stored.entity.layout else { return stored.values }
        var result = stored.values
        for (slot, property) in layout.properties.enumerated() where property is NSAttributeDescription && slot < values.count {
            result[slot] = values[slot]
        }
        return result
    }
}

extension NSExpression {
    /// The expression's value for one record of a batch update, in `attribute`'s stored form.
    ///
    /// - Throws: `NSValidationErrorKey`-style `NSManagedObjectValidationError` (1550) when the
    ///   value does not fit the attribute's type.
    func batchValue(for record: [String: Any], attribute: NSAttributeDescription) throws -> StoredValue {
        let value = expressionValue(with: record, context: nil)
        let stored = StoredValue(value, for: attribute)
        guard stored.fits(attribute) else {
            throw CoreDataError.make(NSManagedObjectValidationError,
                "The batch update's expression '\(self)' gives \(value.map { "\($0)" } ?? "nil") (\(value.map { "\(type(of: $0))" } ?? "nil")) for attribute '\(attribute.name)' of type \(attribute.attributeType.rawValue). Give a value of the attribute's type; nothing was updated.",
                [NSValidationKeyErrorKey: attribute.name])
        }
        return stored
    }
}
