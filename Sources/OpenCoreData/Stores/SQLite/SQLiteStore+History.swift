import Foundation

// Persistent history in Apple's tables (seen in stores Apple's framework wrote):
//   ATRANSACTION (Z_ENT 16002): one row per save, its strings by reference (the *TS columns)
//     into ATRANSACTIONSTRING (Z_ENT 16003, one row per distinct string), ZTIMESTAMP in seconds
//     since 2001;
//   ACHANGE (Z_ENT 16001): one row per inserted (ZCHANGETYPE 0), updated (1) or deleted (2)
//     record: its entity number, primary key and transaction.
// Primary keys come from Z_PRIMARYKEY like every entity's. A save writes its history inside its
// own transaction, so a transaction is recorded exactly when its changes are.
extension SQLiteStore: HistoryKeepingStore {
    static let historyChangeEntity: Int64 = 16001
    static let historyTransactionEntity: Int64 = 16002
    static let historyStringEntity: Int64 = 16003

    /// Apple's history tables and indexes, as its stores have them.
    static let historyTableStatements = [
        "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
    ]

    /// Whether the store was added with `NSPersistentHistoryTrackingKey` on.
    var tracksHistory: Bool { asksForHistoryTracking }

    /// Creates the history tables and their `Z_PRIMARYKEY` rows in a store that lacks them,
    /// inside the caller's transaction.
    func createHistoryTablesIfNeeded(in db: SQLiteConnection, tables: Set<String>) throws {
        if !tables.contains("ATRANSACTION") {
            for sql in Self.historyTableStatements { try db.execute(sql) }
            for (number, name) in [(Self.historyChangeEntity, "CHANGE"), (Self.historyTransactionEntity, "TRANSACTION"), (Self.historyStringEntity, "TRANSACTIONSTRING")] {
                try db.run("INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)", [.integer(number), .text(name)])
            }
        }
        // One ZTOMBSTONE<n> column per preserved attribute of the entity that has most of them.
        let needed = schema.entities.map { HistoryColumns.tombstoneAttributes(of: $0).count }.max() ?? 0
        let present = Set(try db.columnNames(of: "ACHANGE"))
        for n in 0..<needed where !present.contains("ZTOMBSTONE\(n)") {
            try db.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(n) BLOB")
        }
    }

    // MARK: Writing

    /// `count` keys of a history table from its `Z_PRIMARYKEY` row (inside the save's transaction).
    private func historyKeys(_ entity: Int64, count: Int, in db: SQLiteConnection) throws -> Int64 {
        try db.run("UPDATE Z_PRIMARYKEY SET Z_MAX = IFNULL(Z_MAX, 0) + ? WHERE Z_ENT = ?", [.integer(Int64(count)), .integer(entity)])
        let last = try db.query("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(entity)]) { $0.int64(at: 0) }.first ?? Int64(count)
        return last - Int64(count) + 1
    }

    /// The `ATRANSACTIONSTRING` key of `string`, added if new.
    private func historyString(_ string: String?, in db: SQLiteConnection) throws -> SQLiteValue {
        guard let string else { return .null }
        if let key = try db.query("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.text(string)], { $0.int64(at: 0) }).first {
            return .integer(key)
        }
        let key = try historyKeys(Self.historyStringEntity, count: 1, in: db)
        try db.run("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)", [.integer(key), .integer(Self.historyStringEntity), .text(string)])
        return .integer(key)
    }

    /// Records `changes` as one history transaction, inside the save's transaction.
    func recordHistory(_ changes: StoreChanges, _ info: HistoryTransactionInfo, in db: SQLiteConnection) throws {
        let count = changes.inserted.count + changes.updated.count + changes.deleted.count
        guard count > 0 else { return }
        let number = try historyKeys(Self.historyTransactionEntity, count: 1, in: db)
        try db.run("""
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (?, ?, 1, ?, ?, ?, ?, ?)
            """, [.integer(number), .integer(Self.historyTransactionEntity), try historyString(info.author, in: db), try historyString(info.bundleID, in: db),
                  try historyString(info.contextName, in: db), try historyString(info.processID, in: db), .real(info.timestamp.timeIntervalSinceReferenceDate)])
        var key = try historyKeys(Self.historyChangeEntity, count: count, in: db)
        let insert = try db.statement("INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) VALUES (?, ?, 1, ?, ?, ?, ?, ?)")
        func add(_ row: StoreRow, _ type: NSPersistentHistoryChangeType, columns: Data?) throws {
            insert.reset()
            insert.bind(.integer(key), at: 1)
            insert.bind(.integer(Self.historyChangeEntity), at: 2)
            insert.bind(.integer(Int64(type.rawValue)), at: 3)
            insert.bind(.integer(Int64(schema.number(of: row.entity))), at: 4)
            insert.bind(.integer(row.key.primaryKey), at: 5)
            insert.bind(.integer(number), at: 6)
            insert.bind(columns.map { .blob($0) } ?? .null, at: 7)
            _ = try insert.step()
            key += 1
        }
        for row in changes.inserted { try add(row, .insert, columns: nil) }
        for (i, row) in changes.updated.enumerated() {
            try add(row, .update, columns: i < changes.updatedSlots.count ? HistoryColumns.encode(changes.updatedSlots[i], of: row.entity) : nil)
        }
        for row in changes.deleted {
            try add(row, .delete, columns: nil)
            try recordTombstone(of: row, change: key - 1, in: db)
        }
    }

    /// The preserved attribute values of a deleted row, into its change's `ZTOMBSTONE<n>`
    /// columns (a row without values, from a batch delete in SQL, has none to keep).
    private func recordTombstone(of row: StoreRow, change: Int64, in db: SQLiteConnection) throws {
        let attributes = HistoryColumns.tombstoneAttributes(of: row.entity)
        guard !attributes.isEmpty, !row.values.isEmpty, let layout = row.entity.layout else { return }
        var assignments: [String] = [], bindings: [SQLiteValue] = []
        for (n, attribute) in attributes.enumerated() {
            guard let slot = layout.indexByName[attribute.name], slot < row.values.count else { continue }
            assignments.append("ZTOMBSTONE\(n) = ?")
            bindings.append((try? SQLiteValueCoding.columnValue(row.values[slot], for: attribute)) ?? .null)
        }
        guard !assignments.isEmpty else { return }
        try db.run("UPDATE ACHANGE SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?", bindings + [.integer(change)])
    }

    // MARK: Reading

    private func whereClause(_ selection: HistorySelection) -> (String, [SQLiteValue]) {
        switch selection {
        case .after(let number): return ("Z_PK > ?", [.integer(number)])
        case .afterDate(let date): return ("ZTIMESTAMP > ?", [.real(date.timeIntervalSinceReferenceDate)])
        case .before(let number): return ("Z_PK < ?", [.integer(number)])
        case .beforeDate(let date): return ("ZTIMESTAMP < ?", [.real(date.timeIntervalSinceReferenceDate)])
        }
    }

    func historyTransactions(_ selection: HistorySelection, withChanges: Bool) throws -> [HistoryTransactionRecord] {
        lock.lock(); defer { lock.unlock() }
        let db = try openConnection()
        guard try db.tableNames().contains("ATRANSACTION") else { return [] }
        do {
            let strings = Dictionary(try db.query("SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING", []) { ($0.int64(at: 0), $0.text(at: 1)) }, uniquingKeysWith: { a, _ in a })
            func string(_ statement: SQLiteStatement, reference: Int32, text: Int32) -> String? {
                statement.isNull(at: reference) ? statement.text(at: text) : strings[statement.int64(at: reference)] ?? nil
            }
            if case .after(let number) = selection, number > 0 {
                try checkNotExpired(number, in: db)
            }
            let (condition, bindings) = whereClause(selection)
            var records = try db.query("""
                SELECT Z_PK, ZTIMESTAMP, ZAUTHORTS, ZAUTHOR, ZBUNDLEIDTS, ZBUNDLEID, ZCONTEXTNAMETS, ZCONTEXTNAME, ZPROCESSIDTS, ZPROCESSID
                FROM ATRANSACTION WHERE \(condition) ORDER BY Z_PK
                """, bindings) { row in
                HistoryTransactionRecord(number: row.int64(at: 0), timestamp: Date(timeIntervalSinceReferenceDate: row.double(at: 1)),
                                         author: string(row, reference: 2, text: 3), contextName: string(row, reference: 6, text: 7),
                                         bundleID: string(row, reference: 4, text: 5), processID: string(row, reference: 8, text: 9), changes: [])
            }
            guard withChanges, !records.isEmpty else { return records }
            var position: [Int64: Int] = [:]
            for (i, record) in records.enumerated() { position[record.number] = i }
            let tombstoneColumns = try db.columnNames(of: "ACHANGE").filter { $0.hasPrefix("ZTOMBSTONE") }.count
            let tombstoneList = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
            _ = try db.query("""
                SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS\(tombstoneList) FROM ACHANGE
                WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE \(condition)) ORDER BY Z_PK
                """, bindings) { row in
                guard let i = position[row.int64(at: 1)], let plan = self.plan(number: Int(row.int64(at: 3))),
                      let type = NSPersistentHistoryChangeType(rawValue: Int(row.int64(at: 2))) else { return }
                let updated = type == .update ? row.blob(at: 5).map { HistoryColumns.decode($0, of: plan.entity) } : nil
                var tombstone: [String: Any]?
                if type == .delete {
                    for (n, attribute) in HistoryColumns.tombstoneAttributes(of: plan.entity).enumerated() where n < tombstoneColumns && !row.isNull(at: Int32(6 + n)) {
                        let value = SQLiteValueCoding.storedValue(from: row, at: Int32(6 + n), for: attribute)
                        tombstone = tombstone ?? [:]
                        tombstone?[attribute.name] = value.publicValue(for: attribute)
                    }
                }
                records[i].changes.append(HistoryChangeRecord(id: row.int64(at: 0), type: type, objectID: plan.origin.objectID(row.int64(at: 4)),
                                                              updatedProperties: updated, tombstone: tombstone))
            }
            return records
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
    }

    /// Throws 134301 when history after transaction `number` has been deleted: the oldest
    /// transaction left (or, with none left, the next to be numbered) must follow it directly,
    /// or the caller would miss changes without knowing.
    private func checkNotExpired(_ number: Int64, in db: SQLiteConnection) throws {
        let oldest = try db.query("SELECT MIN(Z_PK) FROM ATRANSACTION", []) { $0.isNull(at: 0) ? nil : $0.int64(at: 0) }.first ?? nil
        let next = try oldest ?? (lastCommittedTransactionNumber(in: db) + 1)
        guard number + 1 >= next else {
            throw CoreDataError.make(NSPersistentHistoryTokenExpiredError,
                "Persistent History Token is expired: the history after transaction \(number) of the store at \(url?.path ?? "?") has been deleted. Fetch the objects again and continue from currentPersistentHistoryToken(fromStores:).")
        }
    }

    /// The number of the last transaction recorded, deleted or not (`Z_PRIMARYKEY` keeps it).
    private func lastCommittedTransactionNumber(in db: SQLiteConnection) throws -> Int64 {
        try db.query("SELECT IFNULL(Z_MAX, 0) FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Self.historyTransactionEntity)]) { $0.int64(at: 0) }.first ?? 0
    }

    func deleteHistory(_ selection: HistorySelection) throws -> Int {
        lock.lock(); defer { lock.unlock() }
        let db = try openConnection()
        guard try db.tableNames().contains("ATRANSACTION") else { return 0 }
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't delete history from the SQLite store at \(url?.path ?? "?"): it was opened read-only.")
        }
        let (condition, bindings) = whereClause(selection)
        do {
            return try db.inTransaction {
                try db.run("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE \(condition))", bindings)
                return try db.run("DELETE FROM ATRANSACTION WHERE \(condition)", bindings)
            }
        } catch let error as SQLiteError {
            throw saveError(error)
        }
    }

    func lastHistoryTransactionNumber() throws -> Int64 {
        lock.lock(); defer { lock.unlock() }
        let db = try openConnection()
        guard try db.tableNames().contains("ATRANSACTION") else { return 0 }
        return try lastCommittedTransactionNumber(in: db)
    }
}

/// A store's history tables as rows, for a migration to carry over: Apple's lightweight
/// migration keeps history, and apps that merge through it would otherwise lose their place.
struct SQLiteHistoryCopy {
    private static let columns = [
        "ATRANSACTIONSTRING": ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME"],
        "ATRANSACTION": ["Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS", "ZTIMESTAMP", "ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZQUERYGEN"],
        "ACHANGE": ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"],
    ]
    private var rows: [String: [[SQLiteValue]]] = [:]

    /// The history of the store `db` holds; nil when it has none.
    init?(from db: SQLiteConnection) throws {
        guard try db.tableNames().contains("ATRANSACTION") else { return nil }
        for (table, names) in Self.columns {
            rows[table] = try db.query("SELECT \(names.joined(separator: ", ")) FROM \(table)", []) { row in
                (0..<Int32(names.count)).map { row.sqliteValue(at: $0) }
            }
        }
    }

    /// Writes the history into the migrated store `db` (inside the caller's transaction):
    /// `entityNumber` maps a source entity number to the destination's (changes of entities the
    /// migration dropped go), `columns` re-encodes an update's changed properties for it.
    func write(into db: SQLiteConnection, entityNumber: (Int64) -> Int64?, columns: (Int64, Data) -> Data?) throws {
        for sql in SQLiteStore.historyTableStatements { try db.execute(sql) }
        for (table, names) in Self.columns {
            let insert = try db.statement("INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))")
            for var row in rows[table] ?? [] {
                if table == "ACHANGE" {
                    guard case .integer(let source) = row[4], let destination = entityNumber(source) else { continue }
                    row[4] = .integer(destination)
                    if case .blob(let data) = row[7] { row[7] = columns(source, data).map { .blob($0) } ?? .null }
                }
                insert.reset()
                for (i, value) in row.enumerated() { insert.bind(value, at: Int32(i + 1)) }
                _ = try insert.step()
            }
        }
        for (number, name, table) in [(SQLiteStore.historyChangeEntity, "CHANGE", "ACHANGE"), (SQLiteStore.historyTransactionEntity, "TRANSACTION", "ATRANSACTION"),
                                      (SQLiteStore.historyStringEntity, "TRANSACTIONSTRING", "ATRANSACTIONSTRING")] {
            let max = rows[table]?.compactMap { row -> Int64? in if case .integer(let key) = row[0] { return key } else { return nil } }.max() ?? 0
            try db.run("INSERT OR REPLACE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, ?)", [.integer(number), .text(name), .integer(max)])
        }
    }
}
