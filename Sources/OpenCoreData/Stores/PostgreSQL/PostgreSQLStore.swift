import Foundation
import Synchronization

/// The PostgreSQL store (`OCDPostgreSQLStoreType`, in the product `OpenCoreDataPostgreSQL`):
/// Core Data's tables in a PostgreSQL database that several app servers share.
///
/// ```swift
/// import OpenCoreDataPostgreSQL
///
/// let url = URL(string: "postgresql://app@db.internal:5432/shop?schema=tenant1")!
/// try coordinator.addPersistentStore(ofType: OCDPostgreSQLStoreType, configurationName: nil, at: url)
/// ```
///
/// **Layout.** The tables of the SQLite store (``StoreSchema``: `Z<ENTITY>` with `Z_PK`,
/// `Z_ENT`, `Z_OPT`, join tables, `Z_PRIMARYKEY`, `Z_METADATA` with one store UUID) in
/// PostgreSQL's types (``PostgreSQLSchema``), created by the first coordinator that opens the
/// database while holding an advisory lock, so that servers starting together create it once.
///
/// **URL.** `postgresql://user[:password]@host[:port]/database`, completed from the `PG*`
/// environment variables by the driver. The store reads its own query items and leaves the
/// rest to the driver: `schema=<name>` keeps the tables in that PostgreSQL schema (made when
/// missing), `statement_timeout=<milliseconds>` bounds every statement.
///
/// **Reading.** A fetch reads the rows of its entities its predicate may match (comparisons of
/// numbers, dates, Booleans, string equality, relationships and their key paths narrow in
/// SQL: ``PostgreSQLCandidateFilter``); the context evaluates predicate, sort descriptors and
/// limits on them in memory unless the SQL decided the whole fetch (``PostgreSQLFetch``): the
/// in-memory evaluator's answers exactly. To-many relationships load when first read.
///
/// **Writing.** A save is one transaction: each `UPDATE` and `DELETE` checks `Z_OPT` in its
/// `WHERE`, so a record another server changed fails the save with `NSManagedObjectMergeError`
/// for the merge policy; uniqueness constraints are unique indexes, and a violation fails it
/// with `NSManagedObjectConstraintMergeError`. Primary keys are reserved in blocks from
/// `Z_PRIMARYKEY` (``newPrimaryKeys(for:count:)``).
final class PostgreSQLStore: NSPersistentStore, StoreBackend, @unchecked Sendable {
    // @unchecked Sendable: the connection, schema, plans and reserved keys are guarded by `lock`.

    /// The registered store type and driver (``registerPostgreSQLStore(storeType:driver:)``).
    static let registration = Mutex<(storeType: String, driver: any PostgreSQLDriver)?>(nil)

    let lock = NSLock()
    var connection: (any PostgreSQLDriverConnection)?
    /// The coordinator's listening connection, when the store posts remote changes.
    var remoteChangeListener: PostgreSQLRemoteChangeListener?
    var schema: StoreSchema!
    private var plans: [ObjectIdentifier: PostgreSQLEntityPlan] = [:]
    private var plansByNumber: [Int: PostgreSQLEntityPlan] = [:]
    /// ``PostgreSQLSchema/selectList(of:)`` of each table, built with the plans.
    private var selectLists: [ObjectIdentifier: String] = [:]
    /// Keys reserved in `Z_PRIMARYKEY` and not handed out yet, by root entity number: the next
    /// one and the last one.
    var reservedKeys: [Int: (next: Int64, last: Int64)] = [:]
    /// Whether a save's transaction is open on `connection` (between prepare and commit).
    var isInTransaction = false
    /// Names this store's saves in their notifications (``PostgreSQLChangeNotice``), so that
    /// its own listener leaves the cached rows of its own saves alone.
    let saverID = String(UUID().uuidString.prefix(8))
    /// Whether the history tables (`ATRANSACTION`, `ACHANGE`) are known to exist.
    var historyTablesExist = false
    /// The store's last history transaction number when it was opened (nil without history):
    /// the remote-change listener's first connection catches up on saves committed after it.
    var historyNumberAtOpen: Int64?
    /// Whether string equality is decided in SQL: the database can `normalize()` text (UTF-8
    /// encoding, PostgreSQL 13 or later), as the evaluator compares by canonical equivalence.
    var comparesStringsInSQL = false
    /// How many batch requests ran as one SQL statement (PostgreSQLStore+BatchRequests.swift),
    /// for tests.
    var batchRequestsInSQL = 0
    /// The URL's settings, read once (``urlSettings()``).
    private var parsedSettings: Settings?

    override var type: String { Self.registration.withLock { $0?.storeType } ?? "PostgreSQL" }
    var checksVersionsOnWrite: Bool { true }
    /// A save raises `Z_MAX` past inserted keys it did not reserve.
    var acceptsForeignPrimaryKeys: Bool { true }

    /// The store URL's own settings, read from its query items.
    struct Settings {
        /// The URL the driver connects to, without the store's query items.
        var serverURL: URL
        /// `schema=`: the PostgreSQL schema holding the tables; nil for the database's default.
        var schemaName: String?
        /// `statement_timeout=`: milliseconds.
        var statementTimeout: Int?

        init(url: URL) throws {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                throw CoreDataError.make(NSPersistentStoreOpenError, "The PostgreSQL store URL is not a URL. Use postgresql://user@host:port/database.")
            }
            var rest: [URLQueryItem] = []
            for item in components.queryItems ?? [] {
                switch item.name {
                case "schema":
                    guard let name = item.value, !name.isEmpty, name.utf8.count < 64 else {
                        throw CoreDataError.make(NSPersistentStoreOpenError, "The PostgreSQL store URL's schema is empty or longer than PostgreSQL's 63 bytes.")
                    }
                    schemaName = name
                case "statement_timeout":
                    guard let ms = item.value.flatMap(Int.init), ms >= 0 else {
                        throw CoreDataError.make(NSPersistentStoreOpenError, "The PostgreSQL store URL's statement_timeout must be a number of milliseconds.")
                    }
                    statementTimeout = ms
                default: rest.append(item)
                }
            }
            components.queryItems = rest.isEmpty ? nil : rest
            serverURL = components.url ?? url
        }
    }

    /// The store URL's settings, read the first time they are needed. Called under `lock`.
    func urlSettings() throws -> Settings {
        if let parsedSettings { return parsedSettings }
        let settings = try Settings(url: url ?? URL(fileURLWithPath: "/dev/null"))
        parsedSettings = settings
        return settings
    }

    /// The advisory-lock key under which stores create and check the schema: one number for
    /// every OpenCoreData store (the bytes of "OCDSCHEM"), so that servers starting at once
    /// take turns.
    static let schemaLockKey: Int64 = 0x4F43_4453_4348_454D

    // MARK: Connection

    /// The open connection, or a new one (after a connection was lost). Called under `lock`.
    func openConnection() throws -> any PostgreSQLDriverConnection {
        if let connection { return connection }
        guard let driver = Self.registration.withLock({ $0?.driver }) else {
            throw CoreDataError.make(NSPersistentStoreOpenError, "No PostgreSQL driver is registered. Import OpenCoreDataPostgreSQL and add the store with OCDPostgreSQLStoreType.")
        }
        let settings = try urlSettings()
        let connection = try driver.connect(to: settings.serverURL)
        do {
            // Named, so an operator (or a test) can tell the store's connections in pg_stat_activity.
            _ = try connection.query("SET application_name = 'OpenCoreData store'", [])
            // Saves rely on READ COMMITTED (PostgreSQLStore+Save.swift); a staged save asks for it
            // in its BEGIN, a save of one statement has the session's default.
            _ = try connection.query("SET default_transaction_isolation = 'read committed'", [])
            if let schema = settings.schemaName { _ = try connection.query("SET search_path TO \(StoreSchema.quoted(schema))", []) }
            if let ms = settings.statementTimeout { _ = try connection.query("SET statement_timeout = \(ms)", []) }
        } catch {
            connection.close()
            throw error
        }
        self.connection = connection
        return connection
    }

    /// Runs `sql` on the connection; a lost connection is dropped (`connection` is nil after
    /// the error), so the next call reconnects. Lost: closed, or the server said it ends the
    /// session (SQLSTATE class 08, connection exception, or 57P, `pg_terminate_backend` and
    /// shutdowns), which it may say before the connection reads as closed.
    @discardableResult
    func query(_ sql: String, _ values: [PostgreSQLValue] = []) throws -> [[PostgreSQLValue]] {
        let db = try openConnection()
        do {
            return try db.query(sql, values)
        } catch {
            let state = (error as NSError).userInfo[OCDPostgreSQLSQLStateKey] as? String ?? ""
            if db.isClosed || state.hasPrefix("08") || state.hasPrefix("57P") {
                db.close()
                connection = nil
                isInTransaction = false
            }
            throw error
        }
    }

    deinit {
        remoteChangeListener?.cancel()
        connection?.close()
    }

    // MARK: Opening

    override func loadMetadata() throws {
        lock.lock(); defer { lock.unlock() }
        guard let model = persistentStoreCoordinator?.managedObjectModel else {
            throw CoreDataError.make(NSPersistentStoreOpenError, "The PostgreSQL store has no coordinator with a model.")
        }
        let settings = try urlSettings()
        _ = try openConnection()
        var stored: [String: Any] = [:]
        try query("BEGIN")
        do {
            // The lock's one row also says whether the database can `normalize()` text.
            let normalizes = try query("SELECT current_setting('server_encoding') = 'UTF8' AND current_setting('server_version_num')::integer >= 130000 FROM pg_advisory_xact_lock($1)",
                                       [.integer(Self.schemaLockKey)]).first?.first
            if case .bool(let normalizes)? = normalizes { comparesStringsInSQL = normalizes }
            if let name = settings.schemaName { try query("CREATE SCHEMA IF NOT EXISTS \(StoreSchema.quoted(name))") }
            let tables = Set(try query("SELECT tablename::text FROM pg_catalog.pg_tables WHERE schemaname = current_schema()").compactMap { row -> String? in
                if case .text(let name) = row.first { return name }
                return nil
            })
            if tables.contains("Z_METADATA") {
                stored = try openExistingStore(tables: tables, model: model)
            } else {
                stored = try createStore(model: model)
            }
            if !tracksHistory, !isReadOnly, tables.contains("ATRANSACTION") {
                // As the SQLite store and Apple's: no save goes unrecorded in a history the
                // other servers catch up from. Read-only, with Apple's warning.
                isReadOnly = true
                FileHandle.standardError.write(Data("CoreData: fault: Store opened without NSPersistentHistoryTrackingKey but previously had been opened with NSPersistentHistoryTrackingKey - Forcing into Read Only mode store at '\(describedURL)'\n".utf8))
            }
            if tracksHistory && !isReadOnly { try createHistoryTablesIfNeeded(tables: tables) }
            historyTablesExist = tables.contains("ATRANSACTION") || (tracksHistory && !isReadOnly)
            historyNumberAtOpen = historyTablesExist ? try lastTransactionNumber() : nil
            try query("COMMIT")
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
        metadata = stored
        identifier = stored[NSStoreUUIDKey] as? String
    }

    /// Creates the tables, `Z_PRIMARYKEY` and `Z_METADATA` of a new store, inside the caller's
    /// transaction; returns the metadata.
    private func createStore(model: NSManagedObjectModel) throws -> [String: Any] {
        do {
            schema = try StoreSchema(model: model, entityNumbers: nil, existingTables: [])
            try buildPlans()
            for sql in try PostgreSQLSchema.createStatements(for: schema) { try query(sql) }
        } catch let error as StoreSchemaError {
            throw CoreDataError.make(NSPersistentStoreIncompatibleSchemaError, "Can't create a PostgreSQL store for this model: \(error.message).")
        }
        for e in schema.entities {
            try query("INSERT INTO \"Z_PRIMARYKEY\" (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") VALUES ($1, $2, $3, 0)",
                      [.integer(Int64(schema.number(of: e))), .text(e.name ?? ""), .integer(Int64(e.superentity.map { schema.number(of: $0) } ?? 0))])
        }
        try writeModelCache(model)
        let uuid = UUID().uuidString
        var plist = Self.metadata(for: model, type: type)
        try query("INSERT INTO \"Z_METADATA\" (\"Z_VERSION\", \"Z_UUID\", \"Z_PLIST\") VALUES (1, $1, $2)", [.text(uuid), .bytes(try Self.encode(plist))])
        plist[NSStoreUUIDKey] = uuid
        return plist
    }

    /// Reads an existing store's metadata and entity numbers and checks that this model made it.
    private func openExistingStore(tables: Set<String>, model: NSManagedObjectModel) throws -> [String: Any] {
        var (uuid, stored) = try Self.storedMetadata(at: describedURL) { try query($0, $1) }
        stored[NSStoreUUIDKey] = uuid
        metadata = stored
        var numbers: [String: Int] = [:]
        for row in try query("SELECT \"Z_ENT\", \"Z_NAME\" FROM \"Z_PRIMARYKEY\"") {
            if case .integer(let n) = row[0], case .text(let name) = row[1] { numbers[name] = Int(n) }
        }
        do {
            try StoreMetadataCheck.checkModel(of: self, against: model)
        } catch let refusal as NSError where refusal.code == NSPersistentStoreIncompatibleVersionHashError {
            let migrated = try migrateOrRefuse(stored: stored, model: model, numbers: numbers, tables: tables, refusal: refusal)
            metadata = migrated
            return migrated
        }
        do {
            schema = try StoreSchema(model: model, entityNumbers: numbers, existingTables: tables)
            try buildPlans()
        } catch let error as StoreSchemaError {
            throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError, "The PostgreSQL store at \(describedURL) was made with a different model than this coordinator's: \(error.message). Open it with the model it was made with.")
        }
        return stored
    }

    func buildPlans() throws {
        plans = [:]
        plansByNumber = [:]
        selectLists = [:]
        for e in schema.entities {
            let plan = try PostgreSQLEntityPlan(entity: e, schema: schema, store: self)
            plans[ObjectIdentifier(e)] = plan
            plansByNumber[plan.entityNumber] = plan
        }
        for table in schema.tables { selectLists[ObjectIdentifier(table)] = PostgreSQLSchema.selectList(of: table) }
    }

    /// The schema and the plans built for it, as one value: an in-place migration switches
    /// between the source's (to read a batch) and the destination's (to write it).
    struct PlannedSchema {
        fileprivate(set) var schema: StoreSchema
        fileprivate var plans: [ObjectIdentifier: PostgreSQLEntityPlan]
        fileprivate var plansByNumber: [Int: PostgreSQLEntityPlan]
        fileprivate var selectLists: [ObjectIdentifier: String]
    }

    /// The current schema with its plans. Called under `lock`.
    var plannedSchema: PlannedSchema {
        get { PlannedSchema(schema: schema, plans: plans, plansByNumber: plansByNumber, selectLists: selectLists) }
        set { (schema, plans, plansByNumber, selectLists) = (newValue.schema, newValue.plans, newValue.plansByNumber, newValue.selectLists) }
    }

    /// The SELECT list of `table` (``PostgreSQLSchema/selectList(of:)``), built once per schema.
    func selectList(of table: StoreEntityTable) -> String {
        selectLists[ObjectIdentifier(table)] ?? PostgreSQLSchema.selectList(of: table)
    }

    func plan(for entity: NSEntityDescription) -> PostgreSQLEntityPlan? { plans[ObjectIdentifier(entity)] }
    func planByNumber(_ number: Int) -> PostgreSQLEntityPlan? { plansByNumber[number] }

    /// The channel of the store's `NOTIFY` after each save: one per store UUID, so that stores
    /// of one database in different schemas do not hear each other.
    var notificationChannel: String { "OCD_" + (identifier ?? "") }

    /// The metadata of a new store made with `model`.
    static func metadata(for model: NSManagedObjectModel, type: String) -> [String: Any] {
        let hashes = model.entityVersionHashesByName
        var metadata: [String: Any] = [
            NSStoreTypeKey: type,
            NSStoreModelVersionHashesKey: hashes,
            NSStoreModelVersionIdentifiersKey: model.versionIdentifiers.map { "\($0)" }.sorted(),
            "NSStoreModelVersionHashesVersion": 3,
            "NSPersistenceFrameworkVersion": 1,
        ]
        if let apple = model.appleEntityVersionHashesByName, hashes.keys.allSatisfy({ apple[$0] != nil }) {
            metadata[appleVersionHashesKey] = hashes.keys.reduce(into: [String: Data]()) { $0[$1] = apple[$1] }
        }
        return metadata
    }

    static func encode(_ plist: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// The store URL without its password, for messages.
    var describedURL: String { url.map(Self.described) ?? "?" }

    /// `url` without its password, for messages.
    static func described(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "?" }
        if components.password != nil { components.percentEncodedPassword = "***" }
        return components.string ?? "?"
    }

    // MARK: Reading

    func row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try rows(for: [.id(objectID)]).first
    }

    /// The rows of several records, one query per table (and per 1,000 records).
    func rows(for identities: [ObjectIdentity]) throws -> [StoreRow] {
        lock.lock(); defer { lock.unlock() }
        var keysByTable: [ObjectIdentifier: (StoreEntityTable, [Int64])] = [:]
        for identity in identities {
            guard let table = schema.tableIfPresent(for: identity.entity) else { continue }
            keysByTable[ObjectIdentifier(table), default: (table, [])].1.append(identity.primaryKey)
        }
        var rows: [StoreRow] = []
        for (table, keys) in keysByTable.values {
            try forEachChunk(of: keys) { chunk, parameters in
                let sql = "SELECT \(selectList(of: table)) FROM \(table.sqlName) WHERE \"Z_PK\" IN (\(parameters))"
                rows += try query(sql, chunk.map { .integer($0) }).map { try decode($0, from: table) }
            }
        }
        return rows
    }

    /// A row of ``PostgreSQLSchema/selectList(of:)`` as a ``StoreRow``.
    func decode(_ columns: [PostgreSQLValue], from table: StoreEntityTable) throws -> StoreRow {
        guard columns.count == 3 + table.columns.count, case .integer(let pk) = columns[0], case .integer(let number) = columns[1], case .integer(let version) = columns[2],
              let plan = plansByNumber[Int(number)], plan.table === table else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The PostgreSQL store at \(describedURL) holds a row in \(table.name) that this model does not describe (Z_ENT \(columns.count > 1 ? "\(columns[1])" : "?")): the store was changed by another model version. Open it with the model the other servers run.")
        }
        let values = RowValues(count: plan.slots.count) { i -> StoredValue in
            switch plan.slots[i] {
            case let .attribute(column, attribute):
                return PostgreSQLValueCoding.storedValue(columns[column], for: attribute)
            case let .composite(composite):
                return composite.value { leaf in PostgreSQLValueCoding.storedValue(columns[composite.columns[leaf]], for: composite.leaves[leaf].attribute) }
            case let .toOne(foreignKey, companion, destination):
                guard case .integer(let target) = columns[foreignKey] else { return .null }
                var entity = destination
                if let companion, case .integer(let n) = columns[companion], let targetPlan = plansByNumber[Int(n)] { entity = targetPlan.entity }
                return .objectID((plans[ObjectIdentifier(entity)]?.origin ?? plan.origin).objectID(target))
            case .toMany:
                return UnloadedRelationship.value
            case .notStored(let value):
                return value
            }
        }
        return StoreRow(identity: .stored(plan.origin, primaryKey: pk), values: values, version: version)
    }

    /// The members of a to-many relationship, read when the relationship is first used.
    func relationshipValue(_ relationship: NSRelationshipDescription, for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoredValue {
        try relationshipValues(relationship, for: [objectID], in: context)[0]
    }

    /// The members of a to-many relationship of several objects, one query per 1,000 owners
    /// (relationship prefetching), each owner's in the relationship's order: the order column
    /// of an ordered relationship, then the key.
    func relationshipValues(_ relationship: NSRelationshipDescription, for objectIDs: [NSManagedObjectID], in context: (any RequestingContext)?) throws -> [StoredValue] {
        // To-ones come with their row.
        guard relationship.isToMany else { return try objectIDs.map { try relationshipValueFromRow(relationship, for: $0, in: context) } }
        lock.lock(); defer { lock.unlock() }
        guard let source = schema.toManySource(for: relationship) else { return objectIDs.map { _ in .objectIDs([]) } }
        // Owners share the relationship's entity, so their keys are of one root table.
        let members = try readMembers(of: source, owners: Array(Set(objectIDs.map(\.primaryKey))))
        return objectIDs.map { .objectIDs(members[$0.primaryKey] ?? []) }
    }

    /// The members of a to-many relationship of `owners` by owner key, each owner's in the
    /// relationship's order (order column, then key), one query per 1,000 owners.
    /// `tablePrefix` (`"schema".`) names where the tables are when not in the store's schema
    /// (a migration's source tables). Called under `lock`.
    func readMembers(of source: StoreToManySource, owners: [Int64], tablePrefix: String = "") throws -> [Int64: [NSManagedObjectID]] {
        var members: [Int64: [NSManagedObjectID]] = [:]
        try forEachChunk(of: owners) { chunk, parameters in
            for row in try query(PostgreSQLSchema.membersSQL(of: source, owners: parameters, tablePrefix: tablePrefix), chunk.map { .integer($0) }) {
                guard case .integer(let owner) = row[0], case .integer(let pk) = row[1], case .integer(let n) = row[2], let plan = plansByNumber[Int(n)] else { continue }
                members[owner, default: []].append(plan.origin.objectID(pk))
            }
        }
        return members
    }

    /// Calls `body` with each 1,000 of `keys` and their bind parameters (`$1, $2, …`): the
    /// statements of `IN` lists stay small, far below PostgreSQL's 65,535 parameters.
    func forEachChunk(of keys: [Int64], _ body: (ArraySlice<Int64>, String) throws -> Void) rethrows {
        for start in stride(from: 0, to: keys.count, by: 1000) {
            let chunk = keys[start..<min(start + 1000, keys.count)]
            try body(chunk, (1...chunk.count).map { "$\($0)" }.joined(separator: ", "))
        }
    }

    override func didAdd(to coordinator: NSPersistentStoreCoordinator) {
        startListening(for: coordinator)
    }

    override func willRemove(from coordinator: NSPersistentStoreCoordinator?) {
        stopListeningAndDisconnect()
    }

    // MARK: Files

    /// Drops the store's tables: the whole PostgreSQL schema when the URL names one
    /// (`schema=`), else every table of Core Data's naming (`Z` and upper-case letters, digits
    /// and underscores; the history's `ATRANSACTION` and `ACHANGE`) beside its `Z_METADATA`. A database without a store is left alone.
    override class func destroyPersistentStore(at url: URL) throws {
        try withConnection(to: url) { db, settings, _ in
            if let name = settings.schemaName {
                _ = try db.query("DROP SCHEMA IF EXISTS \(StoreSchema.quoted(name)) CASCADE", [])
                return
            }
            _ = try db.query("BEGIN", [])
            do {
                _ = try db.query("SELECT 1 FROM pg_advisory_xact_lock($1)", [.integer(schemaLockKey)])
                let names = try db.query("SELECT tablename::text FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename ~ '^(Z[A-Z0-9_]*|ATRANSACTION|ACHANGE)$'", [])
                    .compactMap { row -> String? in if case .text(let name) = row.first { return name } else { return nil } }
                if names.contains("Z_METADATA") {
                    for name in names { _ = try db.query("DROP TABLE IF EXISTS \(StoreSchema.quoted(name)) CASCADE", []) }
                }
                _ = try db.query("COMMIT", [])
            } catch {
                _ = try? db.query("ROLLBACK", [])
                throw error
            }
        }
    }

    /// The metadata of the store at `url` (its `Z_METADATA` row), read without adding the store:
    /// what `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:options:)`
    /// returns, for example to check a model before a deploy migrates the store.
    ///
    /// Throws `NSFileReadNoSuchFileError` (260) when the database (or the URL's schema) holds no
    /// store, and creates nothing.
    override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        var metadata = try PostgreSQLInspection.read(at: url) { try $0.metadata() }
        if metadata[NSStoreTypeKey] == nil { metadata[NSStoreTypeKey] = PostgreSQLInspection.storeType }
        return metadata
    }

    /// Replaces the application's metadata of the store at `url` in one transaction, without
    /// adding the store. The keys the store writes for itself (its type, UUID and the model's
    /// version hashes) are kept when `metadata` leaves them out. Servers that have the store
    /// open keep the metadata they read, and write it back with their next metadata change.
    override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try withConnection(to: url) { db, _, described in
            _ = try db.query("BEGIN", [])
            do {
                // Under the lock of opening and migrating, so a migration does not interleave.
                _ = try db.query("SELECT 1 FROM pg_advisory_xact_lock($1)", [.integer(schemaLockKey)])
                let (uuid, current) = try PostgreSQLInspection(db: db, described: described).storedMetadata()
                var plist = metadata ?? [:]
                plist[NSStoreUUIDKey] = nil
                for (key, value) in current where plist[key] == nil && isStoreKey(key) { plist[key] = value }
                try writeMetadata(plist, uuid: uuid, errorCode: NSPersistentStoreOperationError, at: described, query: db.query)
                _ = try db.query("COMMIT", [])
            } catch {
                _ = try? db.query("ROLLBACK", [])
                throw error
            }
        }
    }

    /// Runs one statement (the store's ``query(_:_:)`` or a connection's).
    typealias Query = (String, [PostgreSQLValue]) throws -> [[PostgreSQLValue]]

    /// Whether the connection's schema (`current_schema()`) has a table named `name`.
    static func hasTable(_ name: String, query: Query) throws -> Bool {
        try !query("SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = $1", [.text(name)]).isEmpty
    }

    /// The store UUID and property list of `Z_METADATA`, which must exist.
    static func storedMetadata(at described: String, query: Query) throws -> (uuid: String, plist: [String: Any]) {
        guard let row = try query("SELECT \"Z_UUID\", \"Z_PLIST\" FROM \"Z_METADATA\" ORDER BY \"Z_VERSION\" LIMIT 1", []).first,
              case .text(let uuid) = row[0], case .bytes(let data) = row[1],
              let plist = (try? UntrustedPropertyList.propertyList(from: data)) as? [String: Any] else {
            throw CoreDataError.make(NSPersistentStoreOpenError, "The PostgreSQL store at \(described) has no readable metadata (Z_METADATA is empty or its Z_PLIST is not a property list). It was left unchanged.")
        }
        return (uuid, plist)
    }

    /// Writes `plist` (without the UUID) and `uuid` to `Z_METADATA`; a value a property list
    /// cannot hold throws `errorCode` and writes nothing.
    static func writeMetadata(_ plist: [String: Any], uuid: String, errorCode: Int, at described: String, query: Query) throws {
        guard PropertyListSerialization.propertyList(plist, isValidFor: .binary) else {
            throw CoreDataError.make(errorCode, "The metadata of the PostgreSQL store at \(described) holds values a property list cannot (use strings, numbers, dates, data, arrays and dictionaries). Nothing was written.")
        }
        _ = try query("UPDATE \"Z_METADATA\" SET \"Z_UUID\" = $1, \"Z_PLIST\" = $2", [.text(uuid), .bytes(try encode(plist))])
    }

    /// Runs `body` on a new connection to `url`'s database, in its schema, with the URL's
    /// settings and the URL without its password for messages; closes the connection after.
    static func withConnection<T>(to url: URL, _ body: (any PostgreSQLDriverConnection, Settings, String) throws -> T) throws -> T {
        guard let driver = registration.withLock({ $0?.driver }) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "No PostgreSQL driver is registered. Import OpenCoreDataPostgreSQL and use OCDPostgreSQLStoreType.")
        }
        let settings = try Settings(url: url)
        let db = try driver.connect(to: settings.serverURL)
        defer { db.close() }
        if let schema = settings.schemaName { _ = try db.query("SET search_path TO \(StoreSchema.quoted(schema))", []) }
        return try body(db, settings, described(url))
    }

    /// A PostgreSQL store has no files: `replacePersistentStore` does not apply.
    override class func replaceStoreFiles(at destination: URL, withStoreAt source: URL) throws {
        throw CoreDataError.make(NSPersistentStoreOperationError, "A PostgreSQL store has no files to replace. Copy it with migratePersistentStore(_:to:options:type:).")
    }
}
