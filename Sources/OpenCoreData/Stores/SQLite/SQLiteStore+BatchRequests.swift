import Foundation

// Batch requests in SQL: one DELETE or UPDATE statement with the fetch's WHERE clause, in one
// write transaction, when that is all the request needs. What the SQL here does not cover —
// predicates SQL can't decide, delete rules that reach other records, values per record,
// external binary data, composite attributes, inserts — goes through the store contract's rows
// (`RowBatchExecution`), in the same store.
extension SQLiteStore {
    func executeBatch(_ operation: BatchOperation) throws -> BatchOutcome {
        do {
            switch operation {
            case .delete(let deletion):
                if let query = sqlDeletion(deletion) { return try runInTransaction { db in try delete(query, deletion, in: db) } }
            case .update(let update):
                if let (query, assignments) = sqlUpdate(update) { return try runInTransaction { db in try self.update(query, assignments, update, in: db) } }
            case .insert:
                break
            }
        } catch is RowBatchFallback {
            // Rolled back; the rows path below does the request.
        }
        return try RowBatchExecution(store: self).run(operation)
    }

    // MARK: Delete

    /// The query of a delete SQL decides by itself: an exact fetch of entities without
    /// relationships (no delete rule to apply, no join rows) and without external binary data.
    private func sqlDeletion(_ deletion: BatchDeletion) -> SQLiteFetchQuery? {
        guard case .matching(let plan) = deletion.target, let query = query(for: plan), query.isExact else { return nil }
        let entities = schema.entities.filter { plan.includes($0) }
        for entity in entities {
            guard let entityPlan = self.plan(for: entity), entityPlan.externalDataSlots.isEmpty,
                  entity.relationshipsByName.isEmpty else { return nil }
            // History keeps preserved values of deleted records: the rows path reads them.
            if tracksHistory, !HistoryColumns.tombstoneAttributes(of: entity).isEmpty { return nil }
        }
        return query
    }

    /// `DELETE FROM <table> WHERE <condition>` (rows chosen by an order and a limit through
    /// `Z_PK IN (SELECT ...)`), after reading the keys when the result lists them.
    private func delete(_ query: SQLiteFetchQuery, _ deletion: BatchDeletion, in db: SQLiteConnection) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let history = tracksHistory ? deletion.history : nil
        if deletion.listsRecords || history != nil {
            guard let keys = try readObjectKeys(query, in: db) else { throw RowBatchFallback() }
            outcome.objectIDs = keys.objectIDs
            outcome.deleted = outcome.objectIDs
        } else {
            outcome.listsRecords = false
        }
        let sql = query.limit.isEmpty && query.order == nil
            ? "DELETE FROM \(query.table.sqlName)\(query.whereClause)"
            : "DELETE FROM \(query.table.sqlName) WHERE Z_PK IN (\(query.select("Z_PK")))"
        outcome.count = try db.run(sql, query.bindings)
        if let history {
            var changes = StoreChanges(inserted: [], updated: [], deleted: outcome.deleted.map { StoreRow(objectID: $0, values: [], version: 0) })
            changes.history = history
            try recordHistory(changes, history, in: db)
        }
        return outcome
    }

    // MARK: Update

    /// The query and `SET` terms of an update SQL decides by itself: an exact fetch, and
    /// constants for attributes stored in one column each.
    private func sqlUpdate(_ update: BatchUpdate) -> (SQLiteFetchQuery, [(column: String, value: SQLiteValue)])? {
        guard case .matching(let plan) = update.target, let query = query(for: plan), query.isExact else { return nil }
        var assignments: [(column: String, value: SQLiteValue)] = []
        for (_, attribute, value) in update.values {
            guard case .constant(let stored) = value, !(attribute is NSCompositeAttributeDescription), !attribute.storesExternally,
                  let column = query.table.columnIndex(for: attribute),
                  let bound = try? SQLiteValueCoding.columnValue(stored, for: attribute) else { return nil }
            assignments.append((query.table.columns[column].sqlName, bound))
        }
        return (query, assignments)
    }

    /// `UPDATE <table> SET <column> = ?, ..., Z_OPT = Z_OPT + 1 WHERE <condition>`: every record
    /// changed is one version newer, as after a save.
    private func update(_ query: SQLiteFetchQuery, _ assignments: [(column: String, value: SQLiteValue)], _ update: BatchUpdate, in db: SQLiteConnection) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let history = tracksHistory ? update.history : nil
        if update.listsRecords || history != nil {
            guard let keys = try readObjectKeys(query, in: db) else { throw RowBatchFallback() }
            outcome.objectIDs = keys.objectIDs
            outcome.updated = outcome.objectIDs
        } else {
            outcome.listsRecords = false
        }
        let set = (assignments.map { "\($0.column) = ?" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")
        outcome.count = try db.run("UPDATE \(query.table.sqlName) SET \(set)\(query.whereClause)", assignments.map(\.value) + query.conditionBindings)
        if let history {
            let slots = update.values.map(\.slot)
            var changes = StoreChanges(inserted: [], updated: outcome.updated.map { StoreRow(objectID: $0, values: [], version: 0) }, deleted: [])
            changes.history = history
            changes.updatedSlots = changes.updated.map { _ in slots }
            try recordHistory(changes, history, in: db)
        }
        return outcome
    }

    // MARK: Transaction

    /// `body` inside `BEGIN IMMEDIATE` ... `COMMIT` on the store's connection, under its lock;
    /// rolled back when it throws. SQLite's errors become Core Data's save errors.
    private func runInTransaction(_ body: (SQLiteConnection) throws -> BatchOutcome) throws -> BatchOutcome {
        lock.lock(); defer { lock.unlock() }
        let db = try openConnection()
        batchRequestsInSQL += 1
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't run a batch request on the SQLite store at \(url?.path ?? "?"): it was opened read-only (NSReadOnlyPersistentStoreOption).")
        }
        do {
            try db.executePrepared("BEGIN IMMEDIATE")
            do {
                let outcome = try body(db)
                try db.executePrepared("COMMIT")
                return outcome
            } catch {
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                throw error
            }
        } catch let error as SQLiteError {
            throw saveError(error)
        }
    }
}

/// Thrown inside a batch transaction when its SQL path can't list the records (a key list of
/// an unusual store); never escapes: see `executeBatch(_:)`.
private struct RowBatchFallback: Error {}
