import Foundation

// Writing: primary keys and saves.
//
// A save is one transaction on the store's connection. Updates and deletes carry the version
// the context last saw (`Z_OPT`) in their WHERE clause. Under PostgreSQL's READ COMMITTED, an
// UPDATE that meets a row another transaction changed waits for it, then re-checks its WHERE
// against the committed row: a version that moved on matches no row, and the save fails with
// `NSManagedObjectMergeError` — no update is ever lost between servers.
extension PostgreSQLStore {
    /// How many keys beyond a request ``newPrimaryKeys(for:count:)`` reserves at once, so that
    /// inserting one object at a time does not write `Z_PRIMARYKEY` for each.
    static let primaryKeyBlock: Int64 = 100

    /// Hands out `count` keys of `entity`'s hierarchy from a block reserved by raising `Z_MAX`
    /// on the root entity's `Z_PRIMARYKEY` row in one statement, which holds that row's lock
    /// until it commits: servers reserving at once wait for each other and get disjoint
    /// blocks. Keys are never handed out twice; a server that stops leaves its unused keys as
    /// a gap, as a failed save leaves gaps in Apple's stores (Z_MAX is a high-water mark).
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        lock.lock(); defer { lock.unlock() }
        guard count > 0 else { return [] }
        let root = schema.number(of: entity.rootEntity)
        var (next, last) = reservedKeys[root] ?? (1, 0)
        if last - next + 1 < Int64(count) {
            guard !isInTransaction else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "The PostgreSQL store can't reserve primary keys while a save is being committed.")
            }
            let block = Int64(count) + Self.primaryKeyBlock
            let rows = try query("UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = \"Z_MAX\" + $1 WHERE \"Z_ENT\" = $2 RETURNING \"Z_MAX\"", [.integer(block), .integer(Int64(root))])
            guard case .integer(let max)? = rows.first?.first else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The PostgreSQL store's Z_PRIMARYKEY has no row for entity '\(entity.rootEntity.name ?? "?")' (Z_ENT \(root)); the store is damaged.")
            }
            (next, last) = (max - block + 1, max)
        }
        reservedKeys[root] = (next + Int64(count), last)
        return (0..<Int64(count)).map { next + $0 }
    }

    /// A save of this store alone (the coordinator stages saves across stores with
    /// ``prepareSave(_:)`` instead).
    func save(_ changes: StoreChanges) throws {
        if try saveAsOneStatement(changes) { return }
        try prepareSave(changes).commit()
    }

    /// Saves one edited object — the commonest save of an app server — as one autocommitted
    /// statement when that is all the save does: the version-checked `UPDATE` with the save's
    /// notification (`pg_notify`) in one `WITH`, a transaction of its own, so the save stays all
    /// or nothing, in one round trip instead of four (`BEGIN`, `UPDATE`, `NOTIFY`, `COMMIT`).
    /// The session's default isolation is READ COMMITTED (``openConnection()``), as a staged
    /// save's. False, having done nothing, for any other save: inserts, deletes, locked
    /// objects, several objects, to-many values, history, metadata.
    private func saveAsOneStatement(_ changes: StoreChanges) throws -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard changes.updated.count == 1, changes.inserted.isEmpty, changes.deleted.isEmpty, changes.locked.isEmpty,
              changes.history == nil || !tracksHistory, !metadataNeedsWrite, !isReadOnly else { return false }
        let row = changes.updated[0]
        let plan = try entityPlan(row)
        for (slot, _) in plan.toManySlots { if case .objectIDs = row.values[slot] { return false } }
        rollBack()
        var values: [PostgreSQLValue] = [.integer(row.version)]
        do {
            try appendWrites(of: row, plan, to: &values)
        } catch {
            throw saveError(error)
        }
        values += [.integer(row.key.primaryKey), .integer(row.version - 1), .text(notificationChannel),
                   .text(changeNotice(historyNumber: nil, changed: [row], deleted: []).payload)]
        let saved: [[PostgreSQLValue]]
        do {
            // pg_notify runs once per updated row (none when the version check fails); it
            // returns `void`, which is never NULL, and which the store does not read.
            saved = try query("WITH saved AS (\(plan.updateSQL)) SELECT \"Z_PK\" FROM saved WHERE pg_notify($\(values.count - 1), $\(values.count)) IS NOT NULL", values)
        } catch {
            // Lost while the statement ran: the server may have committed it.
            throw connection == nil ? lostWhileCommitting(error) : saveError(error)
        }
        if saved.isEmpty { throw try versionConflict(row, plan) }
        return true
    }

    /// Phase one of a save: `BEGIN` and every write, so a conflict or constraint violation shows
    /// here and rolls back; `commit` is then only `COMMIT`.
    func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave {
        lock.lock(); defer { lock.unlock() }
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't save to the PostgreSQL store at \(describedURL): it was opened read-only (NSReadOnlyPersistentStoreOption).")
        }
        let writesMetadata = metadataNeedsWrite
        guard !changes.isEmpty || writesMetadata else { return PreparedStoreSave(commit: {}, rollback: {}) }
        // A save staged and never committed or rolled back (a caller's failure between the
        // phases) must not be committed by this one.
        rollBack()
        let transaction: Int64
        do {
            // READ COMMITTED whatever the database's default: the version checks rely on an
            // UPDATE re-checking its WHERE against a row another server committed meanwhile
            // (stricter levels fail such a save with SQLSTATE 40001 instead).
            try query("BEGIN ISOLATION LEVEL READ COMMITTED")
            isInTransaction = true
            do {
                if writesMetadata { try writeMetadata() }
                transaction = try write(changes)
            } catch {
                rollBack()
                throw error
            }
        } catch {
            throw saveError(error)
        }
        return PreparedStoreSave(
            commit: { [self] in
                lock.lock(); defer { lock.unlock() }
                guard isInTransaction else { throw saveError(CoreDataError.make(NSPersistentStoreSaveError, "the connection was lost before COMMIT")) }
                try commitResolvingLostReply(transaction)
            },
            rollback: { [self] in
                lock.lock(); defer { lock.unlock() }
                rollBack()
            })
    }

    func rollBack() {
        if isInTransaction { _ = try? query("ROLLBACK") }
        isInTransaction = false
    }

    private func writeMetadata() throws {
        var plist = metadata ?? [:]
        let uuid = plist[NSStoreUUIDKey] as? String ?? identifier ?? UUID().uuidString
        plist[NSStoreUUIDKey] = nil
        try Self.writeMetadata(plist, uuid: uuid, errorCode: NSPersistentStoreSaveError, at: describedURL) { try query($0, $1) }
    }

    /// Every write of a save, inside the caller's transaction: deletes first (an inserted
    /// object may take a unique value a deleted one held), then updates, versions of locked
    /// objects, inserts, to-many memberships, history and the notification. Returns the
    /// transaction's ID (`txid_current()`), by which a commit whose reply was lost is looked up.
    private func write(_ changes: StoreChanges) throws -> Int64 {
        // Deletes, then updates, each in key order: two servers' saves updating the same
        // records lock them in the same order. (A save deleting X and updating Y beside one
        // deleting Y and updating X can still deadlock; PostgreSQL then fails one of them with
        // NSPersistentStoreSaveError, and nothing of it is written.)
        let inKeyOrder = { (a: StoreRow, b: StoreRow) in (a.entity.rootEntityNumber, a.key.primaryKey) < (b.entity.rootEntityNumber, b.key.primaryKey) }
        for row in changes.deleted.sorted(by: inKeyOrder) { try delete(row) }
        for row in changes.updated.sorted(by: inKeyOrder) { try update(row) }
        for row in changes.locked {
            let plan = try entityPlan(row)
            if try query("UPDATE \(plan.table.sqlName) SET \"Z_OPT\" = $1 WHERE \"Z_PK\" = $2 AND \"Z_OPT\" = $3 RETURNING \"Z_PK\"",
                         [.integer(row.version), .integer(row.key.primaryKey), .integer(row.version - 1)]).isEmpty {
                throw conflict(row, "was changed or deleted by another context or process")
            }
        }
        try insert(changes.inserted)
        try writeToManyRelationships(of: changes.inserted + changes.updated)
        var number: Int64?
        if let history = changes.history, tracksHistory { number = try recordHistory(changes, history) }
        // Delivered at COMMIT (never for a save that rolls back) to every server listening
        // (PostgreSQLRemoteChangeListener), with the history number when there is one.
        return try notify(changeNotice(historyNumber: number, changed: [changes.updated, changes.locked].joined(), deleted: changes.deleted))
    }

    /// Queues `notice` for delivery at `COMMIT` (never for a transaction that rolls back) and
    /// returns the open transaction's ID (`txid_current()`), by which
    /// ``commitResolvingLostReply(_:)`` looks up a commit whose reply was lost — one round trip
    /// for both. Inside a transaction, under the store's lock.
    func notify(_ notice: PostgreSQLChangeNotice) throws -> Int64 {
        // pg_notify is NOTIFY as a function; it returns `void`, which the store does not read.
        guard case .integer(let transaction)? = try query("SELECT txid_current(), pg_notify($1, $2) IS NULL", [.text(notificationChannel), .text(notice.payload)]).first?.first else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The PostgreSQL store at \(describedURL) answered txid_current() without a number.")
        }
        return transaction
    }

    /// `COMMIT` of transaction `transaction` (from ``notify(_:)``), under the store's lock. A
    /// failure rolls back and throws `NSPersistentStoreSaveError`; when the connection was lost
    /// after `COMMIT` was sent, the server may have committed, and ``resolveLostCommit(_:_:)``
    /// asks it.
    func commitResolvingLostReply(_ transaction: Int64) throws {
        do {
            try query("COMMIT")
            isInTransaction = false
        } catch {
            let lost = connection == nil
            rollBack()
            guard lost else { throw saveError(error) }
            try resolveLostCommit(transaction, error)
        }
    }

    /// What became of transaction `transaction`, whose `COMMIT` was sent when the connection was
    /// lost (`error`): asked on a new connection with `txid_status`. Committed: the save stands,
    /// and this returns. Aborted (the server rolled it back when the session ended): throws
    /// `NSPersistentStoreSaveError` saying nothing was saved. Still in progress after two
    /// seconds (the old session is still ending), or no answer: throws the "may or may not have
    /// been saved" error.
    func resolveLostCommit(_ transaction: Int64, _ error: Error) throws {
        let deadline = Date().addingTimeInterval(2)
        while true {
            let status: String?
            do {
                status = try query("SELECT txid_status($1)", [.integer(transaction)]).first?.first.flatMap { value in
                    if case .text(let text) = value { text } else { nil }
                }
            } catch {
                throw lostWhileCommitting(error)
            }
            switch status {
            case "committed"?:
                return
            case "aborted"?:
                throw CoreDataError.make(NSPersistentStoreSaveError, "The connection to the PostgreSQL store at \(describedURL) was lost before the save committed, and the server rolled it back: nothing was saved. Save again.", [NSUnderlyingErrorKey: error as NSError])
            case "in progress"? where Date() < deadline:
                Thread.sleep(forTimeInterval: 0.01)
            default:
                throw lostWhileCommitting(error)
            }
        }
    }

    /// The notification of a save that changed and deleted these rows (inserted ones are in
    /// no other server's cache): each with the version it now has, deleted ones with the
    /// largest, which no row of theirs reaches.
    func changeNotice<Changed: Sequence<StoreRow>>(historyNumber: Int64?, changed: Changed, deleted: [StoreRow]) -> PostgreSQLChangeNotice {
        let records = changed.map { PostgreSQLChangeNotice.Record(entity: schema.number(of: $0.entity), key: $0.key.primaryKey, version: $0.version) }
            + deleted.map { PostgreSQLChangeNotice.Record(entity: schema.number(of: $0.entity), key: $0.key.primaryKey, version: .max) }
        return PostgreSQLChangeNotice(historyNumber: historyNumber, saver: saverID, records: records)
    }

    /// A migration's rows, without their to-many relationships (``writeMigratedRelationships(of:)``
    /// writes those once every row is in).
    func insertMigrated(_ rows: [StoreRow]) throws {
        try insert(rows)
    }

    /// The to-many relationships of a migration's rows: join rows, and an ordered one-to-many's
    /// order in its members' rows (which must be in already). The join tables are new, so
    /// nothing is deleted first: a pair the other side wrote in an earlier batch keeps the
    /// order that side gave it.
    func writeMigratedRelationships(of rows: [StoreRow]) throws {
        try writeToManyRelationships(of: rows, deletingLeftPairs: false)
    }

    /// New rows, entity by entity, many per INSERT (at most ``insertParameterLimit`` parameters).
    /// Keys this store did not reserve (a copy keeping another store's keys) raise `Z_MAX`
    /// past them; reserved ones are below it already, and cost no lock on `Z_PRIMARYKEY`.
    private func insert(_ rows: [StoreRow]) throws {
        var highest: [Int: Int64] = [:]
        for row in rows {
            let root = schema.number(of: row.entity.rootEntity)
            if row.key.primaryKey > (reservedKeys[root]?.last ?? 0) { highest[root] = max(highest[root] ?? 0, row.key.primaryKey) }
        }
        for (root, key) in highest {
            try query("UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = GREATEST(\"Z_MAX\", $1) WHERE \"Z_ENT\" = $2", [.integer(key), .integer(Int64(root))])
        }
        var start = 0
        while start < rows.count {
            let plan = try entityPlan(rows[start])
            let perStatement = max(1, Self.insertParameterLimit / plan.insertColumns.count)
            var end = start + 1
            while end < rows.count, end - start < perStatement, rows[end].entity === plan.entity { end += 1 }
            var values: [PostgreSQLValue] = []
            values.reserveCapacity((end - start) * plan.insertColumns.count)
            for row in rows[start..<end] {
                values += [.integer(row.key.primaryKey), .integer(Int64(plan.entityNumber)), .integer(row.version)]
                try appendWrites(of: row, plan, to: &values)
            }
            try query("INSERT INTO \(plan.table.sqlName) (\(plan.insertColumns.joined(separator: ", "))) VALUES \(plan.insertValues(rows: end - start))", values)
            start = end
        }
    }

    /// PostgreSQL takes at most 65,535 parameters per statement.
    static let insertParameterLimit = 30_000

    private func update(_ row: StoreRow) throws {
        let plan = try entityPlan(row)
        var values: [PostgreSQLValue] = [.integer(row.version)]
        try appendWrites(of: row, plan, to: &values)
        values += [.integer(row.key.primaryKey), .integer(row.version - 1)]
        if try query(plan.updateSQL, values).isEmpty { throw try versionConflict(row, plan) }
    }

    /// The error of an update whose version check matched no row: the record was changed, or
    /// deleted, by another context or server since `row`'s version was read.
    private func versionConflict(_ row: StoreRow, _ plan: PostgreSQLEntityPlan) throws -> NSError {
        let exists = try !query("SELECT 1 FROM \(plan.table.sqlName) WHERE \"Z_PK\" = $1", [.integer(row.key.primaryKey)]).isEmpty
        return conflict(row, exists ? "was changed by another context or process" : "was deleted by another context or process")
    }

    /// The error of a save whose connection was lost after its commit was sent: the server may
    /// have committed it, so it must not say "nothing was saved".
    func lostWhileCommitting(_ error: Error) -> NSError {
        CoreDataError.make(NSPersistentStoreSaveError, "The connection to the PostgreSQL store at \(describedURL) was lost while the save committed: it may or may not have been saved. Fetch the objects again before saving them again.", [NSUnderlyingErrorKey: error as NSError])
    }

    private func delete(_ row: StoreRow) throws {
        let plan = try entityPlan(row)
        let key = row.key.primaryKey
        if try query("DELETE FROM \(plan.table.sqlName) WHERE \"Z_PK\" = $1 AND \"Z_OPT\" = $2 RETURNING \"Z_PK\"", [.integer(key), .integer(row.version)]).isEmpty {
            // Gone already (deleted elsewhere): nothing to do. Still there: someone changed it.
            if try !query("SELECT 1 FROM \(plan.table.sqlName) WHERE \"Z_PK\" = $1", [.integer(key)]).isEmpty {
                throw conflict(row, "was changed by another context or process")
            }
        }
        for (_, relationship) in plan.toManySlots {
            if case let .joinTable(join, ownerColumn, _, _, _)? = schema.toManySource(for: relationship) {
                try query("DELETE FROM \(join.sqlName) WHERE \(ownerColumn) = $1", [.integer(key)])
            }
        }
    }

    /// Appends the parameters of `plan.writes` for `row`.
    private func appendWrites(of row: StoreRow, _ plan: PostgreSQLEntityPlan, to values: inout [PostgreSQLValue]) throws {
        for write in plan.writes {
            switch write {
            case let .attribute(slot, attribute):
                values.append(try PostgreSQLValueCoding.columnValue(row.values[slot], for: attribute))
            case let .compositeLeaf(slot, composite, leaf):
                values.append(try PostgreSQLValueCoding.columnValue(composite.leafValue(of: row.values[slot], leaf: leaf), for: composite.leaves[leaf].attribute))
            case let .foreignKey(slot):
                values.append(try savedRelatedID(row.values[slot], row).map { .integer($0.primaryKey) } ?? .null)
            case let .foreignEntity(slot):
                values.append(try savedRelatedID(row.values[slot], row).map { .integer(Int64(schema.number(of: $0.entity))) } ?? .null)
            }
        }
    }

    /// Join-table pairs of many-to-many relationships and the positions of ordered one-to-many
    /// members, for the to-many values the save carries (a relationship never read is
    /// unchanged and not rewritten). Unordered sides first, so that an ordered side's order
    /// column is written last; a pair already there keeps the other side's order column.
    /// `deletingLeftPairs`: first delete an owner's pairs whose member left. A migration's join
    /// tables start empty, so it passes false only to save a `DELETE` per relationship.
    ///
    /// The writes of one relationship side go as one statement for all the saved owners,
    /// their keys as `bigint[]` parameters (``ToManyWrite``), not one statement per owner.
    private func writeToManyRelationships(of rows: [StoreRow], deletingLeftPairs: Bool = true) throws {
        var writes: [ToManyWrite] = []  // in the order of their first owner: unordered sides first
        var writeIndex: [String: Int] = [:]
        try schema.forEachSavedToMany(in: rows, toManySlots: { try entityPlan($0).toManySlots }) { row, members, source in
            let key = ToManyWrite.key(of: source)
            let i: Int
            if let known = writeIndex[key] { i = known } else {
                i = writes.count
                writeIndex[key] = i
                writes.append(ToManyWrite(source: source))
            }
            writes[i].owners.append(row.key.primaryKey)
            for (position, member) in members.enumerated() {
                guard let target = try savedRelatedID(.objectID(member), row) else { continue }
                writes[i].append(owner: row.key.primaryKey, target: target.primaryKey, position: position)
            }
        }
        for write in writes {
            switch write.source {
            case let .foreignKey(table, _, orderColumn):
                guard let orderColumn, !write.targets.isEmpty else { continue }
                try query("UPDATE \(table.sqlName) AS t SET \(table.columns[orderColumn].sqlName) = m.position "
                          + "FROM unnest($1::bigint[], $2::bigint[]) AS m(key, position) WHERE t.\"Z_PK\" = m.key",
                          [Self.bigintArray(write.targets), Self.bigintArray(write.orderKeys)])
            case let .joinTable(join, ownerColumn, targetColumn, orderColumn, _):
                if deletingLeftPairs {
                    // Only the pairs that left: a pair that stays keeps the order column its
                    // other side wrote (an ordered inverse whose owner this save did not touch).
                    try query("DELETE FROM \(join.sqlName) AS j WHERE j.\(ownerColumn) = ANY($1::bigint[]) AND NOT EXISTS "
                              + "(SELECT 1 FROM unnest($2::bigint[], $3::bigint[]) AS k(owner, target) WHERE k.owner = j.\(ownerColumn) AND k.target = j.\(targetColumn))",
                              [Self.bigintArray(write.owners), Self.bigintArray(write.pairOwners), Self.bigintArray(write.targets)])
                }
                guard !write.targets.isEmpty else { continue }
                var columns = [ownerColumn, targetColumn]
                var arrays = [Self.bigintArray(write.pairOwners), Self.bigintArray(write.targets)]
                if let orderColumn {
                    columns.append(orderColumn)
                    arrays.append(Self.bigintArray(write.orderKeys))
                }
                let unnested = arrays.indices.map { "$\($0 + 1)::bigint[]" }.joined(separator: ", ")
                try query("INSERT INTO \(join.sqlName) (\(columns.joined(separator: ", "))) SELECT * FROM unnest(\(unnested)) "
                          + join.onConflictClause(updating: orderColumn), arrays)
            }
        }
    }

    /// The to-many writes of one relationship side in a save: its owners, and their members'
    /// pairs in order. The pairs are unique (an owner is saved once, a to-many holds a member
    /// once), as `ON CONFLICT DO UPDATE` needs within one statement.
    private struct ToManyWrite {
        let source: StoreToManySource
        /// Every saved owner, those left without members included (their pairs all go).
        var owners: [Int64] = []
        /// Parallel: pair `i` is (`pairOwners[i]`, `targets[i]`) at order key `orderKeys[i]`.
        private(set) var pairOwners: [Int64] = [], targets: [Int64] = [], orderKeys: [Int64] = []

        init(source: StoreToManySource) { self.source = source }

        mutating func append(owner: Int64, target: Int64, position: Int) {
            pairOwners.append(owner)
            targets.append(target)
            orderKeys.append(StoreSchema.orderKey(position))
        }

        /// Names a relationship side: its join table and owner column, or its members' order column.
        static func key(of source: StoreToManySource) -> String {
            switch source {
            case let .foreignKey(table, column, _): return "\(table.sqlName).\(column)"
            case let .joinTable(join, ownerColumn, _, _, _): return "\(join.sqlName).\(ownerColumn)"
            }
        }
    }

    /// `keys` as one `bigint[]` parameter, in PostgreSQL's array text form (`{1,2,3}`).
    static func bigintArray(_ keys: [Int64]) -> PostgreSQLValue {
        .text("{" + keys.map(String.init).joined(separator: ",") + "}")
    }

    /// `strings` as one `text[]` parameter: each element quoted, its `"` and `\` escaped.
    static func textArray(_ strings: [String]) -> PostgreSQLValue {
        .text("{" + strings.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}")
    }

    private func entityPlan(_ row: StoreRow) throws -> PostgreSQLEntityPlan {
        guard let plan = plan(for: row.entity) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The PostgreSQL store at \(describedURL) does not hold entity '\(row.entity.name ?? "?")'.")
        }
        return plan
    }

    private func conflict(_ row: StoreRow, _ what: String) -> NSError {
        CoreDataError.make(NSManagedObjectMergeError,
                           "Optimistic locking failure: '\(row.entity.name ?? "?")' \(row.objectID.uriRepresentation().absoluteString) \(what) since it was fetched. Nothing was saved. Refresh the object and save again, or set a merge policy.",
                           ["conflictList": [row.objectID]])
    }

    /// `error` as a save error: a uniqueness violation (SQLSTATE 23505) as
    /// `NSManagedObjectConstraintMergeError`, Core Data's own errors as they are.
    func saveError(_ error: Error) -> NSError {
        if let coding = error as? StoreCodingError {
            return CoreDataError.make(NSPersistentStoreSaveError, "Can't save to the PostgreSQL store: \(coding.message). Nothing was written.")
        }
        let nsError = error as NSError
        switch nsError.userInfo[OCDPostgreSQLSQLStateKey] as? String {
        case "23505"?:
            return CoreDataError.make(NSManagedObjectConstraintMergeError, "The save violates a uniqueness constraint of the PostgreSQL store at \(describedURL) (\(nsError.localizedDescription)); nothing was saved. Another server may have saved the same values meanwhile: fetch them and save again, or set a merge policy.", [NSUnderlyingErrorKey: nsError])
        case nil where nsError.domain == NSCocoaErrorDomain && nsError.code != NSPersistentStoreOperationError:
            return nsError
        default:
            return CoreDataError.make(NSPersistentStoreSaveError, "Saving to the PostgreSQL store at \(describedURL) failed: \(nsError.localizedDescription). Nothing was saved.", [NSUnderlyingErrorKey: nsError])
        }
    }
}
