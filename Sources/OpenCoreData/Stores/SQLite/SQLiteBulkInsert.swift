import Foundation

/// New rows written into an empty SQLite store batch after batch, all in one transaction:
/// how lightweight migration fills its copy without holding every row in memory.
///
/// ```swift
/// let insert = try SQLiteBulkInsert(into: store)       // BEGIN IMMEDIATE
/// do {
///     for batch in batches { try insert.insert(batch) }  // rows, to-one keys, join-table pairs
///     if insert.needsOrderPass {
///         for batch in batchesAgain { try insert.order(batch) }  // ordered one-to-many positions
///     }
///     try insert.commit()                                // Z_MAX, COMMIT
/// } catch {
///     insert.rollback()
///     throw error
/// }
/// ```
///
/// A save (``SQLiteStore/save(_:)``) sees all its rows at once; here a batch may name rows of
/// later batches, so two writes differ:
/// - Join-table pairs are written from both sides, whichever batch comes first: unordered sides
///   `INSERT OR IGNORE` the pair, ordered sides upsert it with their order column. A save's
///   "delete the owner's pairs, then insert them" would drop the order column another side
///   wrote in an earlier batch.
/// - The position of an ordered one-to-many member is a column of the *member's* row, which a
///   later batch may insert; ``order(_:)`` sets them once every row is in (a second pass over
///   the owners, only when the model has such a relationship: ``needsOrderPass``).
///
/// Rows keep the primary keys they are given, so to-one foreign keys and join-table pairs are
/// written as they are, without any map from old keys to new ones.
final class SQLiteBulkInsert {
    private let store: SQLiteStore
    private let db: SQLiteConnection
    private let external: SQLiteExternalDataSave
    /// The highest key inserted per root entity number, for `Z_MAX`.
    private var highest: [Int64: Int64] = [:]

    /// Whether some entity has an ordered to-many whose members hold the owner's key (and
    /// their position) in their own rows: then ``order(_:)`` must see every owner again.
    let needsOrderPass: Bool

    init(into store: SQLiteStore) throws {
        self.store = store
        store.lock.lock(); defer { store.lock.unlock() }
        db = try store.openConnection()
        external = SQLiteExternalDataSave(directory: store.externalDataDirectory ?? URL(fileURLWithPath: NSTemporaryDirectory()), keepsValuesInline: store.isInMemory)
        needsOrderPass = store.plans.values.contains { plan in
            plan.toManySlots.contains { Self.orderedForeignKey(of: $0.relationship, in: store) != nil }
        }
        do {
            try db.executePrepared("BEGIN IMMEDIATE")
        } catch let error as SQLiteError {
            throw store.saveError(error)
        }
    }

    /// Inserts `rows` (new keys) with their attributes, to-one keys and many-to-many pairs.
    func insert(_ rows: [StoreRow]) throws {
        store.lock.lock(); defer { store.lock.unlock() }
        try translatingErrors {
            for row in rows {
                try store.write(row, insert: true, external: external, in: db)
                let root = Int64(store.schema.number(of: row.entity.rootEntity))
                highest[root] = max(highest[root] ?? 0, row.key.primaryKey)
            }
            for row in rows { try writeJoinTablePairs(of: row) }
        }
    }

    /// Sets the positions of the members of `rows`' ordered one-to-many relationships. Call
    /// after every row is inserted.
    func order(_ rows: [StoreRow]) throws {
        store.lock.lock(); defer { store.lock.unlock() }
        try translatingErrors {
            for row in rows {
                guard let plan = store.plan(for: row.entity) else { continue }
                for (slot, relationship) in plan.toManySlots {
                    guard let target = Self.orderedForeignKey(of: relationship, in: store),
                          case .objectIDs(let members) = row.values[slot] else { continue }
                    let sql = "UPDATE \(target.table) SET \(target.column) = ? WHERE Z_PK = ?"
                    for (position, member) in members.enumerated() {
                        try db.run(sql, [.integer(StoreSchema.orderKey(position)), .integer(member.primaryKey)])
                    }
                }
            }
        }
    }

    /// Raises `Z_MAX` to the highest inserted keys and commits; external files stay.
    func commit() throws {
        store.lock.lock(); defer { store.lock.unlock() }
        try translatingErrors {
            for (root, key) in highest {
                try db.run("UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(IFNULL(Z_MAX, 0), ?) WHERE Z_ENT = ?", [.integer(key), .integer(root)])
            }
            try db.executePrepared("COMMIT")
        }
        external.didCommit()
    }

    /// Undoes everything written, external files included.
    func rollback() {
        store.lock.lock(); defer { store.lock.unlock() }
        if db.isInTransaction { try? db.execute("ROLLBACK") }
        external.didRollBack()
    }

    // MARK: Writing

    /// The pairs of `row`'s many-to-many relationships. The other side writes the same pairs
    /// when its rows come; the table's primary key (owner, target) makes the second write a
    /// no-op, or, for an ordered side, only fills in its order column.
    private func writeJoinTablePairs(of row: StoreRow) throws {
        guard let plan = store.plan(for: row.entity) else { return }
        for (slot, relationship) in plan.toManySlots {
            guard case .objectIDs(let members) = row.values[slot], !members.isEmpty,
                  case let .joinTable(join, ownerColumn, targetColumn, orderColumn, _)? = store.schema.toManySource(for: relationship) else { continue }
            let columns = [ownerColumn, targetColumn] + (orderColumn.map { [$0] } ?? [])
            let sql = "INSERT INTO \(join.sqlName) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", "))) "
                + join.onConflictClause(updating: orderColumn)
            for (position, member) in members.enumerated() {
                var values: [SQLiteValue] = [.integer(row.key.primaryKey), .integer(member.primaryKey)]
                if orderColumn != nil { values.append(.integer(StoreSchema.orderKey(position))) }
                try db.run(sql, values)
            }
        }
    }

    /// The members' table and order column of an ordered to-many kept by foreign key, quoted.
    private static func orderedForeignKey(of relationship: NSRelationshipDescription, in store: SQLiteStore) -> (table: String, column: String)? {
        guard relationship.isOrdered, case let .foreignKey(table, _, orderColumn?)? = store.schema.toManySource(for: relationship) else { return nil }
        return (table.sqlName, table.columns[orderColumn].sqlName)
    }

    /// SQLite and value-coding errors as the store's save errors.
    private func translatingErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SQLiteError {
            throw store.saveError(error)
        } catch let error as StoreCodingError {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't write to the SQLite store: \(error.message).")
        }
    }
}
