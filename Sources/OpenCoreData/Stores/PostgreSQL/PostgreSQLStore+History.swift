import Foundation

// Persistent history (NSPersistentHistoryTrackingKey) in two tables named as Apple's:
//   ATRANSACTION: one row per save, numbered from Z_PRIMARYKEY's row 16002;
//   ACHANGE: one row per inserted (ZCHANGETYPE 0), updated (1) or deleted (2) record, with its
//     entity number and primary key, the updated properties as Apple's bitmap (HistoryColumns)
//     and a deletion's preserved values as a property list (ZTOMBSTONE).
// A save records its transaction inside its own database transaction, last: the UPDATE of
// row 16002 that numbers it holds that row's lock until COMMIT, so transactions of every
// server are numbered in the order they commit. A reader that has seen number n has seen
// everything numbered below n: no change is missed by catching up from a token.
extension PostgreSQLStore: HistoryKeepingStore {
    static let historyChangeEntity: Int64 = 16001
    static let historyTransactionEntity: Int64 = 16002

    var tracksHistory: Bool { asksForHistoryTracking }

    /// The history tables, made if missing (inside the opening transaction). Only then: even
    /// `CREATE INDEX IF NOT EXISTS` locks its table, and one server's opening would wait for
    /// another's save, which may wait for the opening's `Z_PRIMARYKEY` rows (a deadlock the
    /// four-server test met).
    func createHistoryTablesIfNeeded(tables: Set<String>) throws {
        guard !tables.contains("ATRANSACTION") || !tables.contains("ACHANGE") || !tables.contains("Z_PRIMARYKEY") else {
            // The tables exist; their counters must too (a store made where old history
            // tables were left behind would have none).
            if try query("SELECT count(*) FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" IN (16001, 16002)").first?.first == .integer(2) { return }
            try insertHistoryCounters()
            return
        }
        try query("CREATE TABLE IF NOT EXISTS \"ATRANSACTION\" (\"Z_PK\" bigint PRIMARY KEY, \"ZTIMESTAMP\" double precision NOT NULL, \"ZAUTHOR\" text, \"ZBUNDLEID\" text, \"ZCONTEXTNAME\" text, \"ZPROCESSID\" text)")
        try query("CREATE TABLE IF NOT EXISTS \"ACHANGE\" (\"Z_PK\" bigint PRIMARY KEY, \"ZCHANGETYPE\" integer NOT NULL, \"ZENTITY\" integer NOT NULL, \"ZENTITYPK\" bigint NOT NULL, \"ZTRANSACTIONID\" bigint NOT NULL, \"ZCOLUMNS\" bytea, \"ZTOMBSTONE\" bytea)")
        try query("CREATE INDEX IF NOT EXISTS \"ACHANGE_ZTRANSACTIONID_INDEX\" ON \"ACHANGE\" (\"ZTRANSACTIONID\")")
        try query("CREATE INDEX IF NOT EXISTS \"Z_TRANSACTION_TransactionTimestampIndex\" ON \"ATRANSACTION\" (\"ZTIMESTAMP\")")
        try insertHistoryCounters()
    }

    private func insertHistoryCounters() throws {
        for (number, name) in [(Self.historyChangeEntity, "CHANGE"), (Self.historyTransactionEntity, "TRANSACTION")] {
            try query("INSERT INTO \"Z_PRIMARYKEY\" (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") VALUES ($1, $2, 0, 0) ON CONFLICT DO NOTHING", [.integer(number), .text(name)])
        }
    }

    /// Raises `Z_MAX` of a history table's `Z_PRIMARYKEY` row by `count` (the row stays locked
    /// until the save commits) and returns the first new key.
    private func historyKeys(_ entity: Int64, count: Int) throws -> Int64 {
        guard case .integer(let max)? = try query("UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = \"Z_MAX\" + $1 WHERE \"Z_ENT\" = $2 RETURNING \"Z_MAX\"",
                                                   [.integer(Int64(count)), .integer(entity)]).first?.first else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The PostgreSQL store's Z_PRIMARYKEY has no history row \(entity); the store is damaged.")
        }
        return max - Int64(count) + 1
    }

    /// Records `changes` as one history transaction, inside the save's transaction; returns its
    /// number (nil when the save changed no record).
    func recordHistory(_ changes: StoreChanges, _ info: HistoryTransactionInfo) throws -> Int64? {
        let count = changes.inserted.count + changes.updated.count + changes.deleted.count
        guard count > 0 else { return nil }
        var key = try historyKeys(Self.historyChangeEntity, count: count)
        var values: [PostgreSQLValue] = []
        func add(_ row: StoreRow, _ type: NSPersistentHistoryChangeType, columns: Data?, tombstone: Data?) {
            values += [.integer(key), .integer(Int64(type.rawValue)), .integer(Int64(schema.number(of: row.entity))), .integer(row.key.primaryKey),
                       columns.map { .bytes($0) } ?? .null, tombstone.map { .bytes($0) } ?? .null]
            key += 1
        }
        for row in changes.inserted { add(row, .insert, columns: nil, tombstone: nil) }
        for (i, row) in changes.updated.enumerated() {
            add(row, .update, columns: i < changes.updatedSlots.count ? HistoryColumns.encode(changes.updatedSlots[i], of: row.entity) : nil, tombstone: nil)
        }
        for row in changes.deleted { add(row, .delete, columns: nil, tombstone: try tombstone(of: row)) }
        // Numbered last, so the lock that orders commits is held as briefly as possible.
        let number = try historyKeys(Self.historyTransactionEntity, count: 1)
        try query("INSERT INTO \"ATRANSACTION\" (\"Z_PK\", \"ZTIMESTAMP\", \"ZAUTHOR\", \"ZBUNDLEID\", \"ZCONTEXTNAME\", \"ZPROCESSID\") VALUES ($1, $2, $3, $4, $5, $6)",
                  [.integer(number), .double(info.timestamp.timeIntervalSinceReferenceDate), info.author.map { .text($0) } ?? .null,
                   .text(info.bundleID), info.contextName.map { .text($0) } ?? .null, .text(info.processID)])
        let rowsPerStatement = Self.insertParameterLimit / 7
        var start = 0
        while start < count {
            let end = min(start + rowsPerStatement, count)
            var chunk: [PostgreSQLValue] = []
            var tuples: [String] = []
            for r in start..<end {
                chunk += values[(r * 6)..<(r * 6 + 6)] + [.integer(number)]
                let base = (r - start) * 7
                tuples.append("($\(base + 1), $\(base + 2), $\(base + 3), $\(base + 4), $\(base + 5), $\(base + 6), $\(base + 7))")
            }
            try query("INSERT INTO \"ACHANGE\" (\"Z_PK\", \"ZCHANGETYPE\", \"ZENTITY\", \"ZENTITYPK\", \"ZCOLUMNS\", \"ZTOMBSTONE\", \"ZTRANSACTIONID\") VALUES \(tuples.joined(separator: ", "))", chunk)
            start = end
        }
        return number
    }

    /// A deleted row's preserved attribute values (`preservesValueInHistoryOnDeletion`) as a
    /// binary property list of their column values; nil when it keeps none.
    private func tombstone(of row: StoreRow) throws -> Data? {
        let attributes = HistoryColumns.tombstoneAttributes(of: row.entity)
        guard !attributes.isEmpty, !row.values.isEmpty, let layout = row.entity.layout else { return nil }
        var plist: [String: Any] = [:]
        // A composite's value is not kept (nor is it by the SQLite store, whose tombstone columns
        // hold one value each).
        for attribute in attributes where !(attribute is NSCompositeAttributeDescription) {
            guard let slot = layout.indexByName[attribute.name], slot < row.values.count else { continue }
            switch try PostgreSQLValueCoding.columnValue(row.values[slot], for: attribute) {
            case .null: break
            case .integer(let i): plist[attribute.name] = NSNumber(value: i)
            case .double(let d): plist[attribute.name] = NSNumber(value: d)
            case .bool(let b): plist[attribute.name] = NSNumber(value: b)
            case .text(let s): plist[attribute.name] = s
            case .bytes(let d): plist[attribute.name] = d
            }
        }
        return plist.isEmpty ? nil : try Self.encode(plist)
    }

    /// ``tombstone(of:)``'s values back as the attributes' public values.
    private func tombstoneValues(_ data: Data, of entity: NSEntityDescription) -> [String: Any]? {
        guard let plist = (try? UntrustedPropertyList.propertyList(from: data)) as? [String: Any] else { return nil }
        var values: [String: Any] = [:]
        for attribute in HistoryColumns.tombstoneAttributes(of: entity) {
            let column: PostgreSQLValue
            switch (attribute.attributeType, plist[attribute.name]) {
            case (_, nil): continue
            case (.booleanAttributeType, let n as NSNumber): column = .bool(n.boolValue)
            case (.integer16AttributeType, let n as NSNumber), (.integer32AttributeType, let n as NSNumber), (.integer64AttributeType, let n as NSNumber):
                column = .integer(n.int64Value)
            case (_, let n as NSNumber): column = .double(n.doubleValue)
            case (_, let s as String): column = .text(s)
            case (_, let d as Data): column = .bytes(d)
            default: continue
            }
            values[attribute.name] = PostgreSQLValueCoding.storedValue(column, for: attribute).publicValue(for: attribute)
        }
        return values.isEmpty ? nil : values
    }

    // MARK: Reading

    private func whereClause(_ selection: HistorySelection) -> (String, [PostgreSQLValue]) {
        switch selection {
        case .after(let number): return ("\"Z_PK\" > $1", [.integer(number)])
        case .afterDate(let date): return ("\"ZTIMESTAMP\" > $1", [.double(date.timeIntervalSinceReferenceDate)])
        case .before(let number): return ("\"Z_PK\" < $1", [.integer(number)])
        case .beforeDate(let date): return ("\"ZTIMESTAMP\" < $1", [.double(date.timeIntervalSinceReferenceDate)])
        }
    }

    /// Whether the history tables exist: known from opening, else asked of the catalog (a
    /// server that tracks history may have made them since). Tables once made stay.
    private func hasHistoryTables() throws -> Bool {
        if !historyTablesExist {
            historyTablesExist = try Self.hasTable("ATRANSACTION", query: query)
        }
        return historyTablesExist
    }

    func historyTransactions(_ selection: HistorySelection, withChanges: Bool) throws -> [HistoryTransactionRecord] {
        lock.lock(); defer { lock.unlock() }
        guard try hasHistoryTables() else { return [] }
        if case .after(let number) = selection, number > 0 { try checkNotExpired(number) }
        let (condition, values) = whereClause(selection)
        func text(_ value: PostgreSQLValue) -> String? { if case .text(let s) = value { return s } else { return nil } }
        var records: [HistoryTransactionRecord] = try query("SELECT \"Z_PK\", \"ZTIMESTAMP\", \"ZAUTHOR\", \"ZBUNDLEID\", \"ZCONTEXTNAME\", \"ZPROCESSID\" FROM \"ATRANSACTION\" WHERE \(condition) ORDER BY \"Z_PK\"", values)
            .compactMap { row in
                guard case .integer(let number) = row[0], case .double(let seconds) = row[1] else { return nil }
                return HistoryTransactionRecord(number: number, timestamp: Date(timeIntervalSinceReferenceDate: seconds), author: text(row[2]),
                                                contextName: text(row[4]), bundleID: text(row[3]), processID: text(row[5]), changes: [])
            }
        guard withChanges, !records.isEmpty else { return records }
        var position: [Int64: Int] = [:]
        for (i, record) in records.enumerated() { position[record.number] = i }
        for row in try query("SELECT \"Z_PK\", \"ZTRANSACTIONID\", \"ZCHANGETYPE\", \"ZENTITY\", \"ZENTITYPK\", \"ZCOLUMNS\", \"ZTOMBSTONE\" FROM \"ACHANGE\" WHERE \"ZTRANSACTIONID\" IN (SELECT \"Z_PK\" FROM \"ATRANSACTION\" WHERE \(condition)) ORDER BY \"Z_PK\"", values) {
            guard case .integer(let id) = row[0], case .integer(let transaction) = row[1], case .integer(let rawType) = row[2],
                  case .integer(let entity) = row[3], case .integer(let pk) = row[4], let i = position[transaction],
                  let plan = planByNumber(Int(entity)), let type = NSPersistentHistoryChangeType(rawValue: Int(rawType)) else { continue }
            var updated: [NSPropertyDescription]?
            if type == .update, case .bytes(let bitmap) = row[5] { updated = HistoryColumns.decode(bitmap, of: plan.entity) }
            var tombstone: [String: Any]?
            if type == .delete, case .bytes(let data) = row[6] { tombstone = tombstoneValues(data, of: plan.entity) }
            records[i].changes.append(HistoryChangeRecord(id: id, type: type, objectID: plan.origin.objectID(pk), updatedProperties: updated, tombstone: tombstone))
        }
        return records
    }

    /// Throws 134301 when history after transaction `number` was deleted (the oldest left, or
    /// the next to be numbered, must follow it), so a caller never misses changes unknowingly.
    private func checkNotExpired(_ number: Int64) throws {
        var next: Int64 = 1
        if case .integer(let oldest)? = try query("SELECT MIN(\"Z_PK\") FROM \"ATRANSACTION\"").first?.first {
            next = oldest
        } else {
            next = try lastTransactionNumber() + 1
        }
        guard number + 1 >= next else {
            throw CoreDataError.make(NSPersistentHistoryTokenExpiredError,
                "Persistent History Token is expired: the history after transaction \(number) of the PostgreSQL store at \(describedURL) has been deleted. Fetch the objects again and continue from currentPersistentHistoryToken(fromStores:).")
        }
    }

    /// The number of the last transaction committed, deleted or not (`Z_PRIMARYKEY` keeps it).
    func lastTransactionNumber() throws -> Int64 {
        try Self.lastTransactionNumber(query: query) ?? 0
    }

    /// The last history transaction number of the store `query` reaches; nil when it keeps no
    /// history (no `Z_PRIMARYKEY` row for it).
    static func lastTransactionNumber(query: Query) throws -> Int64? {
        if case .integer(let max)? = try query("SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = $1", [.integer(historyTransactionEntity)]).first?.first {
            return max
        }
        return nil
    }

    func deleteHistory(_ selection: HistorySelection) throws -> Int {
        lock.lock(); defer { lock.unlock() }
        guard try hasHistoryTables() else { return 0 }
        guard !isReadOnly, !isInTransaction else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't delete history from the PostgreSQL store at \(describedURL): it was opened read-only, or a save is being committed.")
        }
        let (condition, values) = whereClause(selection)
        try query("BEGIN")
        do {
            try query("DELETE FROM \"ACHANGE\" WHERE \"ZTRANSACTIONID\" IN (SELECT \"Z_PK\" FROM \"ATRANSACTION\" WHERE \(condition))", values)
            let deleted = try query("DELETE FROM \"ATRANSACTION\" WHERE \(condition) RETURNING \"Z_PK\"", values).count
            try query("COMMIT")
            return deleted
        } catch {
            _ = try? query("ROLLBACK")
            throw saveError(error)
        }
    }

    func lastHistoryTransactionNumber() throws -> Int64 {
        lock.lock(); defer { lock.unlock() }
        return try lastTransactionNumber()
    }
}
