import Foundation

// Reading a whole table a bounded batch at a time, for lightweight migration.
extension SQLiteStore {
    /// The rows of `root`'s table — every non-abstract entity of its hierarchy — whose keys are
    /// above `key`, in key order, at most `limit` of them, with the members of their to-many
    /// relationships except those in `skipping` (left empty).
    ///
    /// ```swift
    /// var last: Int64 = 0
    /// while true {
    ///     let batch = try store.rows(of: root, afterKey: last, limit: 512)
    ///     guard let end = batch.last else { break }
    ///     last = end.key.primaryKey
    ///     // convert and write the batch; nothing else of the table is in memory
    /// }
    /// ```
    ///
    /// Why keys and not `OFFSET`: `WHERE Z_PK > ? ORDER BY Z_PK LIMIT ?` walks the primary-key
    /// index from where the last batch ended, so every batch costs the same, whereas an offset
    /// makes SQLite step over all earlier rows again. The to-many members are read by the
    /// batch's owner keys (`IN (...)`, as ``rows(for:)`` does), never for the whole table; a
    /// batch of owners with very many members each still holds all of them, which is why a
    /// caller skips the relationships it does not need.
    /// Keep `limit` at most ``rowBatchLimit``: that bounds the `IN` list under SQLite's oldest
    /// default of 999 bound parameters.
    func rows(of root: NSEntityDescription, afterKey key: Int64, limit: Int, skippingToMany skipping: Set<ObjectIdentifier> = []) throws -> [StoreRow] {
        lock.lock(); defer { lock.unlock() }
        let db = try readConnection()
        // The entities a fetch of `root` with subentities reads: rows of any other Z_ENT
        // (none in a sound store) are skipped, as such a fetch skips them.
        let numbers = schema.entities.filter { $0.isKindOf(entity: root) && !$0.isAbstract }.map { schema.number(of: $0) }
        guard limit > 0, !numbers.isEmpty, let table = plan(for: root)?.table else { return [] }
        var decoded = DecodedRows(of: table, in: self)
        decoded.rows.reserveCapacity(limit)
        do {
            let entityTest = table.entityTest(numbers)
            let statement = try db.statement("SELECT \(SQLiteEntityPlan.selectList(of: table)) FROM \(table.sqlName) WHERE \(entityTest.map { $0 + " AND " } ?? "")Z_PK > ? ORDER BY Z_PK LIMIT ?")
            var index: Int32 = 1
            if entityTest != nil {
                for number in numbers { statement.bind(Int64(number), at: index); index += 1 }
            }
            statement.bind(key, at: index)
            statement.bind(Int64(limit), at: index + 1)
            try decoded.appendRows(of: statement, from: self)
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
        return try completeToMany(decoded, in: db, byOwner: true, skipping: skipping)
    }
}
