import Foundation

// Writing: primary keys and saves.
//
// A save is one transaction. Deletes and updates carry the version the context last saw
// (`Z_OPT`) in their WHERE clause, so checking and writing are one statement and no other
// connection can slip in between; a row whose version moved on fails the whole save.
extension SQLiteStore {
    /// Reserves `count` keys for `entity`'s hierarchy by raising `Z_MAX` on the root entity's
    /// `Z_PRIMARYKEY` row, in its own short transaction: keys are never reused, even by other
    /// coordinators or processes on the same file, and a save that fails later leaves a gap,
    /// as in Apple's stores (Z_MAX is a high-water mark, not a row count).
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        lock.lock(); defer { lock.unlock() }
        let db = try openConnection()
        guard count > 0 else { return [] }
        let root = Int64(schema.number(of: entity.rootEntity))
        do {
            let last: Int64 = try db.inTransaction {
                try db.run("UPDATE Z_PRIMARYKEY SET Z_MAX = IFNULL(Z_MAX, 0) + ? WHERE Z_ENT = ?", [.integer(Int64(count)), .integer(root)])
                guard let max = try db.query("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(root)], { $0.int64(at: 0) }).first else {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "The store's Z_PRIMARYKEY table has no row for entity '\(entity.rootEntity.name ?? "?")' (Z_ENT \(root)); the store is damaged.")
                }
                return max
            }
            return (0..<Int64(count)).map { last - Int64(count) + 1 + $0 }
        } catch let error as SQLiteError {
            throw saveError(error)
        }
    }

    func save(_ changes: StoreChanges) throws {
        try prepareSave(changes).commit()
    }

    /// Phase one of a save: `BEGIN IMMEDIATE` and every write, so a conflict, constraint or I/O
    /// error shows here and rolls back; `commit` is then only `COMMIT`. Between the phases the
    /// transaction holds SQLite's write lock, so no other connection can write.
    func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave {
        lock.lock(); defer { lock.unlock() }
        let db = try openConnection()
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't save to the SQLite store at \(url?.path ?? "?"): it was opened read-only (NSReadOnlyPersistentStoreOption).")
        }
        let writesMetadata = metadataNeedsWrite
        guard !changes.isEmpty || writesMetadata else { return PreparedStoreSave(commit: {}, rollback: {}) }
        // Files of external binary values are written during the transaction, before COMMIT;
        // replaced ones are removed only after it, new ones again if it rolls back.
        let external = SQLiteExternalDataSave(directory: self.externalDataDirectory ?? URL(fileURLWithPath: NSTemporaryDirectory()), keepsValuesInline: isInMemory)
        do {
            try db.executePrepared("BEGIN IMMEDIATE")
            do {
                try write(changes, external: external, in: db)
                if writesMetadata { try writeMetadata(in: db) }
            } catch {
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                external.didRollBack()
                throw error
            }
        } catch let error as SQLiteError {
            throw saveError(error)
        } catch let error as StoreCodingError {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't save to the SQLite store: \(error.message). Nothing was written.")
        }
        return PreparedStoreSave(
            commit: { [self] in
                lock.lock(); defer { lock.unlock() }
                do {
                    try db.executePrepared("COMMIT")
                } catch let error as SQLiteError {
                    if db.isInTransaction { try? db.execute("ROLLBACK") }
                    external.didRollBack()
                    throw saveError(error)
                }
                external.didCommit()
            },
            rollback: { [self] in
                lock.lock(); defer { lock.unlock() }
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                external.didRollBack()
            })
    }

    /// The store's ``metadata`` into `Z_METADATA`, inside the save's transaction (the UUID in
    /// its column, the rest as the binary property list Apple's stores keep).
    private func writeMetadata(in db: SQLiteConnection) throws {
        try SQLiteMetadata.write(metadata ?? [:], fallbackUUID: identifier ?? UUID().uuidString, to: db) {
            CoreDataError.make(NSPersistentStoreSaveError, "The metadata of the store at \(url?.path ?? "?") holds values a property list cannot (use strings, numbers, dates, data, arrays and dictionaries). Nothing was saved.")
        }
    }

    /// Every write of a save, inside the caller's transaction.
    private func write(_ changes: StoreChanges, external: SQLiteExternalDataSave, in db: SQLiteConnection) throws {
        // Deletes first, so an inserted object may take a unique value a deleted one held.
        // Updates before inserts: Apple's derived-attribute triggers (Z_DA_...) update a
        // parent's count when a child row is inserted, and the parent's UPDATE, which
        // may write every column (it does under merge policies other than the error
        // policy), must not overwrite that afterwards. (The context leaves the attributes
        // such triggers keep alone; see SQLiteDerivedAttributeFunctions.)
        for row in changes.deleted { try delete(row, external: external, in: db) }
        for (i, row) in changes.updated.enumerated() {
            try write(row, insert: false, replacing: changes.valuesReplaced(byUpdate: i), external: external, in: db)
        }
        for row in changes.locked { try bumpVersion(row, in: db) }
        // New rows come entity by entity: the plan, and the highest new key of the entity's
        // hierarchy, are looked up when the entity changes, not per row. Rows are borrowed from
        // the buffer (iterating the array copied each, three reference counts).
        var highest: [Int64: Int64] = [:]
        try changes.inserted.withUnsafeBufferPointer { rows in
            var plan: SQLiteEntityPlan?
            var root: Int64 = 0, highestOfRun: Int64 = 0
            func endRun() { if plan != nil { highest[root] = max(highest[root] ?? 0, highestOfRun) } }
            for index in rows.indices {
                if plan?.entity !== rows[index].entity {
                    endRun()
                    plan = try entityPlan(rows[index])
                    root = Int64(schema.number(of: rows[index].entity.rootEntity))
                    highestOfRun = 0
                }
                try write(rows[index], insert: true, external: external, in: db, plan: plan)
                highestOfRun = max(highestOfRun, rows[index].key.primaryKey)
            }
            endRun()
        }
        try writeToManyRelationships(of: [changes.inserted, changes.updated], in: db)
        if let history = changes.history, tracksHistory { try recordHistory(changes, history, in: db) }
        for (root, key) in highest {
            try db.run("UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(IFNULL(Z_MAX, 0), ?) WHERE Z_ENT = ?", [.integer(key), .integer(root)])
        }
    }

    /// A locked object (`detectConflicts(for:)`): its version is checked and raised, its values
    /// stay.
    private func bumpVersion(_ row: StoreRow, in db: SQLiteConnection) throws {
        let table = try entityPlan(row).table.sqlName
        if try db.run("UPDATE \(table) SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                      [.integer(row.version), .integer(row.key.primaryKey), .integer(row.version - 1)]) == 0 {
            throw conflict(row, "was changed or deleted by another context or process")
        }
    }

    private func entityPlan(_ row: StoreRow) throws -> SQLiteEntityPlan {
        guard let plan = plan(for: row.entity) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The SQLite store at \(url?.path ?? "?") does not hold entity '\(row.entity.name ?? "?")'.")
        }
        return plan
    }

    private func conflict(_ row: StoreRow, _ what: String) -> NSError {
        CoreDataError.make(NSManagedObjectMergeError,
                           "Optimistic locking failure: '\(row.entity.name ?? "?")' \(row.objectID.uriRepresentation().absoluteString) \(what) since it was fetched. Nothing was saved. Refresh the object and save again, or set a merge policy.",
                           ["conflictList": [row.objectID]])
    }

    private func delete(_ row: StoreRow, external: SQLiteExternalDataSave, in db: SQLiteConnection) throws {
        let plan = try entityPlan(row)
        let table = plan.table.sqlName
        let oldColumns = try externalColumns(of: row, plan, in: db)
        if try db.run("DELETE FROM \(table) WHERE Z_PK = ? AND Z_OPT = ?", [.integer(row.key.primaryKey), .integer(row.version)]) == 0 {
            // Gone already (deleted elsewhere): nothing to do. Still there: someone changed it.
            if try !db.query("SELECT 1 FROM \(table) WHERE Z_PK = ?", [.integer(row.key.primaryKey)], { _ in true }).isEmpty {
                throw conflict(row, "was changed by another context or process")
            }
        } else {
            for old in oldColumns.values { external.release(old) }
        }
        for join in schema.joinTables {
            if plan.entity.isKindOf(entity: join.primary.entity) {
                try db.run("DELETE FROM \(join.sqlName) WHERE \(join.primaryOwnerSQL) = ?", [.integer(row.key.primaryKey)])
            }
            if plan.entity.isKindOf(entity: join.secondary.entity) {
                try db.run("DELETE FROM \(join.sqlName) WHERE \(join.secondaryOwnerSQL) = ?", [.integer(row.key.primaryKey)])
            }
        }
    }

    /// The current columns of a row's external-storage attributes, by slot (none for entities
    /// without such attributes, so other saves cost no extra query).
    private func externalColumns(of row: StoreRow, _ plan: SQLiteEntityPlan, in db: SQLiteConnection) throws -> [Int: Data] {
        guard !plan.externalDataSlots.isEmpty else { return [:] }
        let sql = "SELECT \(plan.externalDataSlots.map(\.column).joined(separator: ", ")) FROM \(plan.table.sqlName) WHERE Z_PK = ?"
        let rows = try db.query(sql, [.integer(row.key.primaryKey)]) { statement in
            plan.externalDataSlots.indices.map { statement.blob(at: Int32($0)) }
        }
        var columns: [Int: Data] = [:]
        for (i, entry) in plan.externalDataSlots.enumerated() { columns[entry.slot] = rows.first?[i] ?? nil }
        return columns
    }

    /// INSERT (`Z_OPT` = 1) or version-checked UPDATE of a row's attributes and to-one keys.
    ///
    /// An UPDATE given the values the record holds (`old`) writes only the columns that differ,
    /// as Apple's store does: an unchanged indexed column then costs no index update, so a
    /// change to an unindexed attribute writes the table's page and no index page.
    /// `plan`: the plan of the row's entity, when the caller has it already.
    func write(_ row: StoreRow, insert: Bool, replacing old: RowValues? = nil, external: SQLiteExternalDataSave, in db: SQLiteConnection,
               plan knownPlan: SQLiteEntityPlan? = nil) throws {
        let plan = try knownPlan ?? entityPlan(row)
        guard row.values.count == plan.slots.count else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Internal error: a row of '\(plan.entity.name ?? "?")' has \(row.values.count) values; the entity has \(plan.slots.count) properties.")
        }
        var sql = insert ? plan.insertSQL : plan.updateSQL
        var written = insert ? nil : old.flatMap { plan.changedWrites(from: $0, to: row.values) }
        if let mask = written {
            if let partial = plan.updateSQL(writing: mask) { sql = partial } else { written = nil }
        }
        let oldColumns = insert ? [:] : try externalColumns(of: row, plan, in: db)
        // Every parameter is bound below: Z_PK and Z_ENT of an insert, Z_OPT, each written
        // column (an update's SQL has only those), and an update's Z_PK and old Z_OPT.
        let statement = try db.statement(sql, bindingEveryParameter: true)
        var index: Int32 = 1
        if insert {
            statement.bind(row.key.primaryKey, at: 1)
            statement.bind(Int64(plan.entityNumber), at: 2)
            index = 3
        }
        statement.bind(row.version, at: index); index += 1
        for (w, write) in plan.writes.enumerated() {
            if let written, written & (1 << UInt64(w)) == 0 { continue }
            switch write {
            case let .scalar(slot):
                switch row.values[slot] {
                case .integer(let i): statement.bind(i, at: index)
                case .bool(let b): statement.bind(b ? 1 : 0, at: index)
                case .double(let d): statement.bind(.real(d), at: index)
                case .null: statement.bind(.null, at: index)
                default:
                    // A value of another type (validation rejects these; a store save without
                    // validation reports it as the general path does).
                    guard case let .attribute(_, attribute) = plan.slots[slot] else { statement.bind(.null, at: index); break }
                    statement.bind(try SQLiteValueCoding.columnValue(row.values[slot], for: attribute), at: index)
                }
            case let .attribute(slot, attribute) where attribute.storesExternally:
                statement.bind(try external.columnValue(row.values[slot], replacing: oldColumns[slot], for: attribute), at: index)
            case let .attribute(slot, attribute):
                statement.bind(try SQLiteValueCoding.columnValue(row.values[slot], for: attribute), at: index)
            case let .compositeLeaf(slot, columns, leaf):
                statement.bind(try columns.columnValue(of: row.values[slot], leaf: leaf), at: index)
            case let .foreignKey(slot):
                if let target = try savedRelatedID(row.values[slot], row) { statement.bind(target.primaryKey, at: index) } else { statement.bind(.null, at: index) }
            case let .foreignEntity(slot):
                if let target = try savedRelatedID(row.values[slot], row) { statement.bind(Int64(schema.number(of: target.entity)), at: index) } else { statement.bind(.null, at: index) }
            }
            index += 1
        }
        if !insert {
            statement.bind(row.key.primaryKey, at: index)
            statement.bind(row.version - 1, at: index + 1)
        }
        while try statement.step() {}
        if !insert && db.changes == 0 {
            let exists = try !db.query("SELECT 1 FROM \(plan.table.sqlName) WHERE Z_PK = ?", [.integer(row.key.primaryKey)], { _ in true }).isEmpty
            throw conflict(row, exists ? "was changed by another context or process" : "was deleted by another context or process")
        }
    }

    /// Records to-many memberships: join-table pairs of many-to-many relationships, and the
    /// `Z_FOK_` positions of ordered one-to-many members. (The foreign keys of one-to-many
    /// relationships were written with the to-one side's row.)
    private func writeToManyRelationships(of rowLists: [[StoreRow]], in db: SQLiteConnection) throws {
        // A model without to-many relationships has nothing here; walking 50,000 saved rows
        // twice to find that out copied each row (three retains) on memory gone cold.
        guard hasToManyRelationships else { return }
        try schema.forEachSavedToMany(in: rowLists.joined(), toManySlots: { try entityPlan($0).toManySlots }) { row, members, source in
            let owner = row.key.primaryKey
            switch source {
            case let .foreignKey(table, _, orderColumn):
                guard let orderColumn else { return }
                let sql = "UPDATE \(table.sqlName) SET \(table.columns[orderColumn].sqlName) = ? WHERE Z_PK = ?"
                for (position, member) in members.enumerated() {
                    try db.run(sql, [.integer(StoreSchema.orderKey(position)), .integer(member.primaryKey)])
                }
            case let .joinTable(join, ownerColumn, targetColumn, orderColumn, _):
                var targets: [(position: Int, key: Int64)] = []
                for (position, member) in members.enumerated() {
                    if let target = try savedRelatedID(.objectID(member), row) { targets.append((position, target.primaryKey)) }
                }
                // Only the pairs that left go, and a pair that stays is not replaced: it keeps
                // the order column its other side wrote (an ordered inverse whose owner this
                // save did not touch).
                let kept = Set(targets.map(\.key))
                let stored = try db.query("SELECT \(targetColumn) FROM \(join.sqlName) WHERE \(ownerColumn) = ?", [.integer(owner)]) { $0.int64(at: 0) }
                for target in stored where !kept.contains(target) {
                    try db.run("DELETE FROM \(join.sqlName) WHERE \(ownerColumn) = ? AND \(targetColumn) = ?", [.integer(owner), .integer(target)])
                }
                let columns = [ownerColumn, targetColumn] + (orderColumn.map { [$0] } ?? [])
                let sql = "INSERT INTO \(join.sqlName) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", "))) "
                    + join.onConflictClause(updating: orderColumn)
                for (position, target) in targets {
                    var values: [SQLiteValue] = [.integer(owner), .integer(target)]
                    if orderColumn != nil { values.append(.integer(StoreSchema.orderKey(position))) }
                    try db.run(sql, values)
                }
            }
        }
    }

    func saveError(_ error: SQLiteError) -> NSError {
        let path = url?.path ?? "?"
        let info: [String: Any] = ["NSSQLiteErrorDomain": Int(error.extendedCode), NSUnderlyingErrorKey: error as NSError, NSFilePathErrorKey: path]
        switch error.code {
        case 5, 6:  // SQLITE_BUSY, SQLITE_LOCKED
            return CoreDataError.make(NSPersistentStoreTimeoutError, "The SQLite store at \(path) stayed locked by another connection past the busy timeout; nothing was saved. Try again, or raise NSPersistentStoreTimeoutOption.", info)
        case 19:  // SQLITE_CONSTRAINT
            return CoreDataError.make(NSManagedObjectConstraintMergeError, "The save violates a uniqueness constraint of the store at \(path) (\(error.message)); nothing was saved. The context resolves the conflicts it can see before writing; this one it could not (for example two records swapping unique values in one save, or another process saving the same values meanwhile): change the values, or save again.", info)
        case 8:  // SQLITE_READONLY
            return CoreDataError.make(NSPersistentStoreSaveError, "The SQLite store at \(path) is read-only (file permissions or a read-only mount); nothing was saved.", info)
        case 13:  // SQLITE_FULL
            return CoreDataError.make(NSPersistentStoreSaveError, "The disk holding the SQLite store at \(path) is full; nothing was saved. Free space and save again.", info)
        default:
            return CoreDataError.make(NSPersistentStoreSaveError, "Saving to the SQLite store at \(path) failed: \(error). Nothing was saved.", info)
        }
    }
}
