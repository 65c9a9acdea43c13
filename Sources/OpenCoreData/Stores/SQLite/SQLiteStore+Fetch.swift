import Foundation
import CSQLite

// Reading rows: fetches and single-row loads (fault firing).
//
// A fetch reads the entity's rows from its root table (`WHERE Z_ENT IN (...)` for the entity
// and, with includesSubentities, its subentities), then fills each to-many relationship with one
// more query per relationship. SQLiteFetchQuery says whether SQL decides the whole fetch
// (predicate, order, limits): then the store answers it; otherwise the predicate only narrows
// the rows and the context evaluates predicate, sort and limits in memory.
extension SQLiteStore {
    /// The fetch of `plan`, translated into SQL once, when first asked (a dictionary fetch
    /// makes its own query and never needs this one).
    func prepareFetch(_ plan: FetchPlan) throws -> any PreparedStoreFetch { SQLitePreparedFetch(store: self, plan: plan) }

    /// The fetch's SQL, or nil when no table holds a non-abstract entity of the plan.
    func query(for plan: FetchPlan) -> SQLiteFetchQuery? {
        fetchTranslations += 1
        let included = schema.entities.filter { plan.includes($0) && !$0.isAbstract }
        guard !included.isEmpty, let tablePlan = self.plan(for: plan.entity) else { return nil }
        return SQLiteFetchQuery(plan, table: tablePlan.table, entityNumbers: included.map { schema.number(of: $0) }, schema: schema, storeToken: token)
    }

    /// `COUNT(*)` of an exact query's rows (offset and limit applied).
    fileprivate func countRows(_ query: SQLiteFetchQuery) throws -> Int {
        lock.lock(); defer { lock.unlock() }
        let db = try readConnection()
        do {
            let statement = try db.statement(query.count)
            for (i, value) in query.bindings.enumerated() { statement.bind(value, at: Int32(i + 1)) }
            guard try statement.step() else { return 0 }
            let count = Int(statement.int64(at: 0))
            while try statement.step() {}
            return count
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
    }

    /// The rows of `query` in `form`: its answer, or its candidates (the WHERE clause only, in
    /// key order).
    fileprivate func fetchRows(_ query: SQLiteFetchQuery, _ form: FetchForm) throws -> [StoreRow] {
        lock.lock(); defer { lock.unlock() }
        let db = try readConnection()
        var rows = DecodedRows(of: query.table, in: self)
        do {
            let columns = SQLiteEntityPlan.selectList(of: query.table)
            let statement = try db.statement(form == .answer ? query.select(columns) : query.selectCandidates(columns))
            let bindings = form == .answer ? query.bindings : query.conditionBindings
            for (i, value) in bindings.enumerated() { statement.bind(value, at: Int32(i + 1)) }
            try rows.appendRows(of: statement, from: self)
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
        return try completeToMany(rows, in: db)
    }

    /// The records of an exact query, in order, as compact keys (`SELECT Z_PK, Z_ENT`, or
    /// `SELECT Z_PK` from a table of one entity): 8 bytes a row and no ID objects, what a lazily
    /// batched fetch keeps of 1,000,000 rows. nil when the keys cannot be compacted.
    fileprivate func fetchObjectKeys(_ query: SQLiteFetchQuery) throws -> FetchedObjectKeys? {
        lock.lock(); defer { lock.unlock() }
        return try readObjectKeys(query, in: try readConnection())
    }

    /// The keys of `query`'s rows, read on `db` by a caller that holds the store's lock (a batch
    /// request inside its write transaction); nil when a row's key doesn't fit a key list.
    func readObjectKeys(_ query: SQLiteFetchQuery, in db: SQLiteConnection) throws -> FetchedObjectKeys? {
        var keys = FetchedObjectKeys(store: self)
        let soleOrigin = soleEntityPlan(of: query.table)?.origin
        do {
            let statement = try db.statement(query.select(soleOrigin == nil ? "Z_PK, Z_ENT" : "Z_PK"))
            for (i, value) in query.bindings.enumerated() { statement.bind(value, at: Int32(i + 1)) }
            while try statement.step() {
                let pk = statement.int64(at: 0)
                if let soleOrigin {
                    if keys.count > 0 { keys.appendOfLastEntity(primaryKey: pk); continue }
                    guard keys.append(primaryKey: pk, origin: soleOrigin) else { return nil }
                    continue
                }
                let number = Int(statement.int64(at: 1))
                guard let origin = self.plan(number: number)?.origin else {
                    throw CoreDataError.make(NSPersistentStoreIncompatibleSchemaError, "Row \(pk) of the store at \(url?.path ?? "?") has Z_ENT \(number), which names no entity of the model.")
                }
                guard keys.append(primaryKey: pk, origin: origin) else { return nil }
            }
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
        return keys
    }

    /// Up to this many rows are read per `WHERE Z_PK IN (...)` query of `rows(for:)`.
    static let rowBatchLimit = 512

    /// The rows of several records, one `WHERE Z_PK IN (...)` query per table and
    /// ``rowBatchLimit`` keys (a batch of a batched fetch), to-many members by owner key.
    func rows(for identities: [ObjectIdentity]) throws -> [StoreRow] {
        lock.lock(); defer { lock.unlock() }
        let db = try readConnection()
        let byTable = groupedByTable(identities)
        var result: [StoreRow] = []
        for (table, ids) in byTable {
            var start = 0
            while start < ids.count {
                // The chunk's IDs in key order: rows come back in key order (a range scan, or
                // SQLite's sorted IN list), so one cursor pairs each row with the ID asked for,
                // and the row reuses it instead of making a second ID object for the record.
                // (Already in key order, a batch of an unsorted fetch is taken as it is.)
                var requested = ids[start..<min(ids.count, start + Self.rowBatchLimit)]
                if !requested.indices.dropFirst().allSatisfy({ requested[$0 - 1].primaryKey < requested[$0].primaryKey }) {
                    requested = ArraySlice(requested.sorted { $0.primaryKey < $1.primaryKey })
                }
                let chunk = requested.map(\.primaryKey)
                start += chunk.count
                var decoded = DecodedRows(of: table, in: self)
                do {
                    let statement: SQLiteStatement
                    if Self.isAscendingRun(chunk) {
                        // A batch of consecutive keys (a batch of an unsorted fetch, typically): one
                        // range scan instead of a b-tree search per key, the same rows.
                        statement = try db.statement("SELECT \(SQLiteEntityPlan.selectList(of: table)) FROM \(table.sqlName) WHERE Z_PK BETWEEN ? AND ?")
                        statement.bind(chunk[0], at: 1)
                        statement.bind(chunk[chunk.count - 1], at: 2)
                    } else {
                        // Pad to a power of two (repeating the last key) so few statements are cached.
                        var size = 1
                        while size < chunk.count { size *= 2 }
                        let padded = chunk + Array(repeating: chunk[chunk.count - 1], count: size - chunk.count)
                        statement = try db.statement("SELECT \(SQLiteEntityPlan.selectList(of: table)) FROM \(table.sqlName) WHERE Z_PK IN (\(padded.map { _ in "?" }.joined(separator: ", ")))")
                        for (i, pk) in padded.enumerated() { statement.bind(pk, at: Int32(i + 1)) }
                    }
                    try decoded.appendRows(of: statement, from: self, reusing: requested)
                } catch let error as SQLiteError {
                    throw fetchError(error)
                }
                result.append(adopting: try completeToMany(decoded, in: db, byOwner: true))
            }
        }
        return result
    }

    /// `identities` grouped by table, in first-seen order. The entity is looked up only when it
    /// changes from one ID to the next, and a model has few tables.
    private func groupedByTable(_ identities: [ObjectIdentity]) -> [(table: StoreEntityTable, ids: [ObjectIdentity])] {
        // One entity (a batch of a batched fetch, usually): the list as it is, not copied one
        // identity at a time.
        if let first = identities.first, identities.allSatisfy({ $0.entity === first.entity }) {
            return plan(for: first.entity).map { [($0.table, identities)] } ?? []
        }
        var byTable: [(table: StoreEntityTable, ids: [ObjectIdentity])] = []
        var lastEntity: NSEntityDescription?
        var group = -1
        for id in identities {
            let entity = id.entity
            if entity !== lastEntity {
                lastEntity = entity
                guard let table = plan(for: entity)?.table else { group = -1; continue }
                if let existing = byTable.firstIndex(where: { $0.table === table }) {
                    group = existing
                } else {
                    byTable.append((table, []))
                    group = byTable.count - 1
                }
            }
            if group >= 0 { byTable[group].ids.append(id) }
        }
        return byTable
    }

    /// Whether `keys` are consecutive integers in ascending order (`k, k+1, ..., k+n-1`), so
    /// `BETWEEN first AND last` selects exactly them.
    static func isAscendingRun(_ keys: [Int64]) -> Bool {
        guard let first = keys.first else { return false }
        for (offset, key) in keys.enumerated() where key != first &+ Int64(offset) { return false }
        return true
    }

    /// Fills the to-many slots of decoded rows. `byOwner` reads members by the owners' keys
    /// whatever their number (a bounded batch). The relationships in `skipping` are left empty,
    /// unread (a migration that does not need them).
    func completeToMany(_ decoded: DecodedRows, in db: SQLiteConnection, byOwner: Bool = false,
                        skipping: Set<ObjectIdentifier> = []) throws -> [StoreRow] {
        guard !decoded.toManyOwners.isEmpty else { return decoded.rows }
        var rows = decoded.rows
        // Each to-many relationship of the fetched entities: one query for all owners — by
        // their keys when the fetch returned few rows, else over the whole relationship.
        var members: [ObjectIdentifier: [Int64: [NSManagedObjectID]]] = [:]
        let owners: [Int64]? = byOwner || decoded.toManyOwners.count <= Self.ownerListLimit
            ? decoded.toManyOwners.map { rows[$0.index].key.primaryKey } : nil
        do {
            for (i, plan) in decoded.toManyOwners {
                let pk = rows[i].objectID.primaryKey
                for (slot, relationship) in plan.toManySlots {
                    let key = ObjectIdentifier(relationship)
                    if skipping.contains(key) { continue }
                    if members[key] == nil {
                        members[key] = try toManyMembers(of: relationship, owners: owners, in: db)
                    }
                    rows[i].values[slot] = .objectIDs(members[key]?[pk] ?? [])
                }
            }
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
        return rows
    }

    func row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        lock.lock(); defer { lock.unlock() }
        let db = try readConnection()
        guard let entityPlan = plan(for: objectID.entity) else { return nil }
        let table = entityPlan.table
        do {
            let statement = try db.statement("SELECT \(SQLiteEntityPlan.selectList(of: table)) FROM \(table.sqlName) WHERE Z_PK = ?")
            statement.bind(objectID.primaryKey, at: 1)
            guard try statement.step() else { return nil }
            var decoded = DecodedRows(of: table, in: self)
            try decoded.append(statement, from: self, reusing: .id(objectID))
            while try statement.step() {}
            return try completeToMany(decoded, in: db, byOwner: true).first
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
    }

    /// The plan of every row of `table` when the table holds one entity: such rows are read
    /// without their `Z_ENT` (``SQLiteEntityPlan/selectList(of:)`` selects `0` for it, and no
    /// fetch tests it), as Apple's fetches read them.
    func soleEntityPlan(of table: StoreEntityTable) -> SQLiteEntityPlan? {
        table.holdsOneEntity ? plan(for: table.entities[0]) : nil
    }

    /// The entity plan of the statement's current row: `soleEntityPlan`, the plan of a table of
    /// one entity (whose `Z_ENT` is not read), or the plan its `Z_ENT` names.
    func plan(ofCurrentRow statement: SQLiteStatement, soleEntityPlan: SQLiteEntityPlan?) throws -> SQLiteEntityPlan {
        if let soleEntityPlan { return soleEntityPlan }
        let number = Int(statement.int64(at: 1))
        guard let numbered = self.plan(number: number) else {
            throw CoreDataError.make(NSPersistentStoreIncompatibleSchemaError, "Row \(statement.int64(at: 0)) of the store at \(url?.path ?? "?") has Z_ENT \(number), which names no entity of the model.")
        }
        return numbered
    }

    /// The slot values of the statement's current row, a row of `plan`'s entity. To-many
    /// slots are left empty for the caller to fill.
    ///
    /// Written in a loop of its own through a ``RowValuesWriter``: as a closure (the writer's
    /// other way in) it captured the plan and the statement, three reference counts taken and
    /// given back per row.
    func decodeValues(_ statement: SQLiteStatement, plan: SQLiteEntityPlan) -> RowValues {
        // Each value is written once, where it stays. A scalar column that holds something else
        // (SQLite keeps any type in any column) decodes through `slots`, as other values do.
        var writer = RowValuesWriter(count: plan.slots.count, placesForOtherValues: plan.placesForOtherValues)
        for i in plan.reads.indices {
            // The scalar cases decode exactly as `SQLiteValueCoding.storedValue` does.
            switch plan.reads[i] {
            case .integer(let column):
                if let n = statement.integerIfStored(at: column) { writer.setInteger(n, at: i); continue }
            case .double(let column):
                if let d = statement.numberIfStored(at: column) { writer.setDouble(d, at: i); continue }
            case .bool(let column):
                if let n = statement.integerIfStored(at: column) { writer.setBool(n != 0, at: i); continue }
            case .general:
                break
            }
            writer.set(generalValue(of: plan.slots[i], in: statement), at: i)
        }
        return writer.finish()
    }

    /// A value the scalar reads of ``decodeValues(_:plan:)`` don't cover: text, blobs,
    /// foreign keys, a value of another type than the column's attribute, null.
    private func generalValue(of slot: SQLiteEntityPlan.Slot, in statement: SQLiteStatement) -> StoredValue {
        switch slot {
        case let .externalData(column):
            return statement.blob(at: column).map { SQLiteExternalData.value(of: $0, in: externalDataDirectory) } ?? .null
        case let .attribute(column, attribute):
            return SQLiteValueCoding.storedValue(from: statement, at: column, for: attribute)
        case let .composite(columns):
            return columns.value(from: statement)
        case let .toOne(foreignKey, companion, destination):
            if statement.isNull(at: foreignKey) { return .null }
            var target = destination
            if let companion, !statement.isNull(at: companion), let actual = self.plan(number: Int(statement.int64(at: companion)))?.entity {
                target = actual
            }
            return .objectID(NSManagedObjectID(entity: target, store: self, primaryKey: statement.int64(at: foreignKey)))
        case .toMany:
            return .objectIDs([])
        case .notStored(let value):
            return value
        }
    }

    /// Up to this many fetched rows, to-many members are read by owner key (`IN (...)`).
    static let ownerListLimit = 256

    /// The members of `relationship` by owner key, in order (`Z_FOK_` for ordered ones, else
    /// by key): for the owners listed (at most ``ownerListLimit``), or for every owner when
    /// `owners` is nil.
    func toManyMembers(of relationship: NSRelationshipDescription, owners: [Int64]?, in db: SQLiteConnection) throws -> [Int64: [NSManagedObjectID]] {
        guard let source = schema.toManySource(for: relationship) else { return [:] }
        // Pad the key list to a power of two (repeating the last key), so a relationship needs
        // at most nine cached statements whatever the number of owners.
        var keys = owners ?? []
        if let last = keys.last {
            var size = 1
            while size < keys.count { size *= 2 }
            keys += Array(repeating: last, count: size - keys.count)
        }
        let placeholders = keys.map { _ in "?" }.joined(separator: ", ")
        let sql: String
        // Members in a table of one entity are of it: their Z_ENT is not read (as in DecodedRows).
        var soleEntity: NSEntityDescription?
        switch source {
        case let .foreignKey(table, column, orderColumn):
            let fk = table.columns[column].sqlName
            let order = orderColumn.map { table.columns[$0].sqlName } ?? "Z_PK"
            soleEntity = soleEntityPlan(of: table)?.entity
            sql = "SELECT \(fk), Z_PK, \(soleEntity == nil ? "Z_ENT" : "0") FROM \(table.sqlName) WHERE \(owners == nil ? "\(fk) IS NOT NULL" : "\(fk) IN (\(placeholders))") ORDER BY \(fk), \(order), Z_PK"
        case let .joinTable(join, ownerColumn, targetColumn, orderColumn, targetTable):
            let order = orderColumn.map { "j.\($0), " } ?? ""
            soleEntity = soleEntityPlan(of: targetTable)?.entity
            sql = "SELECT j.\(ownerColumn), j.\(targetColumn), \(soleEntity == nil ? "t.Z_ENT" : "0") FROM \(join.sqlName) j JOIN \(targetTable.sqlName) t ON t.Z_PK = j.\(targetColumn)"
                + (owners == nil ? "" : " WHERE j.\(ownerColumn) IN (\(placeholders))") + " ORDER BY j.\(ownerColumn), \(order)j.\(targetColumn)"
        }
        var result: [Int64: [NSManagedObjectID]] = [:]
        if owners?.isEmpty == true { return result }
        let statement = try db.statement(sql)
        for (i, key) in keys.enumerated() { statement.bind(key, at: Int32(i + 1)) }
        while try statement.step() {
            let ownerKey = statement.int64(at: 0)
            guard let entity = soleEntity ?? plan(number: Int(statement.int64(at: 2)))?.entity else { continue }
            result[ownerKey, default: []].append(NSManagedObjectID(entity: entity, store: self, primaryKey: statement.int64(at: 1)))
        }
        return result
    }

    func fetchError(_ error: SQLiteError) -> NSError {
        let busy = error.code == 5 || error.code == 6  // SQLITE_BUSY, SQLITE_LOCKED
        return CoreDataError.make(busy ? NSPersistentStoreTimeoutError : NSSQLiteError,
                                  busy ? "The SQLite store at \(url?.path ?? "?") stayed locked by another connection past the busy timeout (NSPersistentStoreTimeoutOption). Try again, or raise the timeout."
                                       : "Reading the SQLite store at \(url?.path ?? "?") failed: \(error).",
                                  ["NSSQLiteErrorDomain": Int(error.extendedCode), NSUnderlyingErrorKey: error as NSError])
    }
}

/// A fetch the SQLite store prepared: its ``SQLiteFetchQuery``, made on first use and kept for
/// every form asked after (exactness, answer, candidates, count, keys). No query, when no table
/// holds a non-abstract entity of the plan: an exact, empty answer.
private final class SQLitePreparedFetch: PreparedStoreFetch {
    let store: SQLiteStore
    let plan: FetchPlan
    /// Made on first use, once, nil included.
    private lazy var query: SQLiteFetchQuery? = store.query(for: plan)

    init(store: SQLiteStore, plan: FetchPlan) {
        self.store = store
        self.plan = plan
    }

    var isExact: Bool { query?.isExact ?? true }

    func rows(_ form: FetchForm) throws -> [StoreRow] {
        guard let query else { return [] }
        return try store.fetchRows(query, form)
    }

    func count() throws -> Int {
        guard let query else { return 0 }
        return try store.countRows(query)
    }

    func objectKeys() throws -> FetchedObjectKeys? {
        guard let query else { return FetchedObjectKeys(store: store) }
        guard query.isExact else { return nil }
        return try store.fetchObjectKeys(query)
    }

    func dictionaries(_ request: DictionaryResultPlan) throws -> [[String: Any]]? {
        try store.fetchDictionaries(plan, request)
    }
}
