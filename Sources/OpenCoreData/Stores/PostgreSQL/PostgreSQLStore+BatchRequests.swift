import Foundation

// Batch requests in SQL: one DELETE or UPDATE statement with the fetch's WHERE clause, its
// RETURNING listing the records it changed, in one transaction with the request's history and
// notification, when that is all the request needs. What the SQL here does not cover —
// predicates SQL can't decide exactly, delete rules that reach other records, values per
// record, tombstones for history, inserts — goes through the store contract's rows
// (`RowBatchExecution`), as in the SQLite store (SQLiteStore+BatchRequests.swift).
extension PostgreSQLStore {
    func executeBatch(_ operation: BatchOperation) throws -> BatchOutcome {
        switch operation {
        case .delete(let deletion):
            if let selection = sqlSelection(deletion.target, deleting: true) {
                return try runBatch(deletion.history) { try delete(selection) }
            }
        case .update(let update):
            if let selection = sqlSelection(update.target, deleting: false), let assignments = sqlAssignments(update, table: selection.table) {
                return try runBatch(update.history, updatedSlots: update.values.map(\.slot)) { try self.update(selection, assignments) }
            }
        case .insert:
            break
        }
        return try RowBatchExecution(store: self).run(operation)
    }

    /// The records of a batch target as SQL decides them: a ` WHERE ...` for the table, with
    /// its parameters (`$1` on).
    struct BatchSelection {
        let table: StoreEntityTable
        let whereClause: String
        let values: [PostgreSQLValue]
    }

    /// The selection of `target` when SQL decides it exactly; for a delete, also only when the
    /// records have no relationships (no delete rule to apply, no join rows) and history keeps
    /// no values of them (tombstones are read from the rows).
    private func sqlSelection(_ target: BatchTarget, deleting: Bool) -> BatchSelection? {
        guard case .matching(let plan) = target, let prepared = try? prepareFetch(plan), let fetch = prepared as? PostgreSQLFetch,
              fetch.isExact, let table = fetch.table, let whereClause = fetch.whereClause else { return nil }
        if deleting {
            for entity in table.entities where plan.includes(entity) {
                guard entity.relationshipsByName.isEmpty else { return nil }
                if tracksHistory, !HistoryColumns.tombstoneAttributes(of: entity).isEmpty { return nil }
            }
        }
        guard let (orderAndLimit, limitValues) = fetch.orderAndLimit else {
            return BatchSelection(table: table, whereClause: whereClause, values: fetch.values)
        }
        // The records a sorted or limited fetch answers: chosen by key in a subquery. The
        // condition is repeated outside it, where READ COMMITTED re-checks it against a row
        // another server changed meanwhile (it re-checks no subquery).
        let page = "\"Z_PK\" IN (SELECT \"Z_PK\" FROM \(table.sqlName)\(whereClause)\(orderAndLimit))"
        return BatchSelection(table: table, whereClause: whereClause.isEmpty ? " WHERE " + page : whereClause + " AND " + page,
                              values: fetch.values + limitValues)
    }

    /// `column = $n` terms of an update that sets constants to attributes of `table`; nil when
    /// a value is per record.
    private func sqlAssignments(_ update: BatchUpdate, table: StoreEntityTable) -> [(column: StoreColumn, value: PostgreSQLValue)]? {
        var assignments: [(column: StoreColumn, value: PostgreSQLValue)] = []
        for (_, attribute, value) in update.values {
            guard case .constant(let stored) = value, let column = table.columnIndex(for: attribute),
                  let bound = try? PostgreSQLValueCoding.columnValue(stored, for: attribute) else { return nil }
            assignments.append((table.columns[column], bound))
        }
        return assignments
    }

    /// `DELETE FROM <table> WHERE ... RETURNING "Z_PK", "Z_ENT", "Z_OPT"`: the records deleted.
    private func delete(_ selection: BatchSelection) throws -> ([StoreRow], [StoreRow]) {
        let returned = try query("DELETE FROM \(selection.table.sqlName)\(selection.whereClause) RETURNING \"Z_PK\", \"Z_ENT\", \"Z_OPT\"", selection.values)
        return ([], try changedRows(returned))
    }

    /// `UPDATE <table> SET <column> = $n, ..., "Z_OPT" = "Z_OPT" + 1 WHERE ... RETURNING ...`:
    /// every record changed is one version newer, as after a save. Not version-checked, as
    /// Apple's batch updates are not: a record another server changes meanwhile takes the
    /// batch's values after that server's (READ COMMITTED re-checks the WHERE).
    private func update(_ selection: BatchSelection, _ assignments: [(column: StoreColumn, value: PostgreSQLValue)]) throws -> ([StoreRow], [StoreRow]) {
        let first = selection.values.count + 1
        let sets = assignments.enumerated().map { i, a in "\(a.column.sqlName) = $\(first + i)\(PostgreSQLSchema.cast(of: a.column))" } + ["\"Z_OPT\" = \"Z_OPT\" + 1"]
        let returned = try query("UPDATE \(selection.table.sqlName) SET \(sets.joined(separator: ", "))\(selection.whereClause) RETURNING \"Z_PK\", \"Z_ENT\", \"Z_OPT\"",
                                 selection.values + assignments.map(\.value))
        return (try changedRows(returned), [])
    }

    /// The rows of `RETURNING "Z_PK", "Z_ENT", "Z_OPT"`, without values: enough for the
    /// outcome, history and the notification.
    private func changedRows(_ returned: [[PostgreSQLValue]]) throws -> [StoreRow] {
        try returned.map { row in
            guard row.count == 3, case .integer(let key) = row[0], case .integer(let number) = row[1], case .integer(let version) = row[2],
                  let plan = planByNumber(Int(number)) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "The PostgreSQL store at \(describedURL) changed a row its model does not describe (Z_ENT \(row.count > 1 ? "\(row[1])" : "?")). Open it with the model the other servers run.")
            }
            return StoreRow(objectID: plan.origin.objectID(key), values: [], version: version)
        }
    }

    /// `body`'s statement inside a transaction with the request's history and notification,
    /// under the store's lock, committed as a save is (a lost reply is looked up); rolled back
    /// when anything fails. `body` returns the rows it updated
    /// and deleted; history records `updatedSlots` as the updated records' changed attributes.
    private func runBatch(_ history: HistoryTransactionInfo?, updatedSlots: [Int] = [], _ body: () throws -> (updated: [StoreRow], deleted: [StoreRow])) throws -> BatchOutcome {
        lock.lock(); defer { lock.unlock() }
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't run a batch request on the PostgreSQL store at \(describedURL): it was opened read-only (NSReadOnlyPersistentStoreOption).")
        }
        rollBack()
        batchRequestsInSQL += 1
        let outcome: BatchOutcome
        let transaction: Int64
        do {
            try query("BEGIN ISOLATION LEVEL READ COMMITTED")
            isInTransaction = true
            do {
                let (updated, deleted) = try body()
                var number: Int64?
                if let history, tracksHistory {
                    var changes = StoreChanges(inserted: [], updated: updated, deleted: deleted)
                    changes.history = history
                    changes.updatedSlots = updated.map { _ in updatedSlots }
                    number = try recordHistory(changes, history)
                }
                transaction = try notify(changeNotice(historyNumber: number, changed: updated, deleted: deleted))
                let ids = (updated + deleted).map(\.objectID)
                outcome = BatchOutcome(count: ids.count, objectIDs: ids, deleted: deleted.map(\.objectID), updated: updated.map(\.objectID))
            } catch {
                rollBack()
                throw error
            }
        } catch {
            throw saveError(error)
        }
        try commitResolvingLostReply(transaction)
        return outcome
    }
}
