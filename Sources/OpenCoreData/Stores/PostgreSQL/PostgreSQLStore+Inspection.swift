import Foundation

/// Reads a PostgreSQL store with plain SQL, as an outside tool would: what `ocd inspect` and
/// `ocd copy` need of a `postgresql://` URL (the SQLite store's counterpart is
/// ``SQLiteInspector``). Package-internal: not Core Data API.
///
/// ```swift
/// let counts = try PostgreSQLInspection.read(at: url) { db in
///     try db.rows("SELECT count(*) FROM \"ZEMPLOYEE\"")
/// }
/// ```
///
/// Values come back as text, as ``SQLiteInspector``'s do: numbers in their usual text form,
/// `bytea` as lowercase hex prefixed with `\x`, NULL as nil. Needs the registered driver
/// (a program that names `OCDPostgreSQLStoreType`).
package struct PostgreSQLInspection {
    let db: any PostgreSQLDriverConnection
    let described: String

    /// Whether this process can reach PostgreSQL: the driver of `OpenCoreDataPostgreSQL` is
    /// registered. `ocd` is built without it and hands `postgresql://` URLs to `ocd-postgresql`.
    package static var isAvailable: Bool { PostgreSQLStore.registration.withLock { $0 != nil } }

    /// Whether `argument` names a PostgreSQL store (`postgresql://` or `postgres://`).
    package static func isStoreURL(_ argument: String) -> Bool {
        let lower = argument.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// Runs `body` on a new connection to the store's database and schema (`schema=`).
    package static func read<T>(at url: URL, _ body: (PostgreSQLInspection) throws -> T) throws -> T {
        try PostgreSQLStore.withConnection(to: url) { db, _, described in
            try body(PostgreSQLInspection(db: db, described: described))
        }
    }

    /// The rows of `sql`, with `$1`, `$2`, ... bound to `bindings` as text.
    package func rows(_ sql: String, _ bindings: [String] = []) throws -> [[String?]] {
        try db.query(sql, bindings.map { .text($0) }).map { $0.map(Self.text) }
    }

    /// The store's tables (its schema's), by name.
    package func tableNames() throws -> [String] {
        try rows("SELECT tablename::text FROM pg_catalog.pg_tables WHERE schemaname = current_schema() ORDER BY tablename").compactMap { $0[0] }
    }

    /// The columns of `table` with their PostgreSQL types, in table order.
    package func columns(of table: String) throws -> [(name: String, type: String)] {
        try rows("SELECT column_name::text, data_type::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position", [table])
            .map { ($0[0] ?? "?", $0[1] ?? "") }
    }

    /// `url` without its password, for messages and reports.
    package static func described(_ url: URL) -> String { PostgreSQLStore.described(url) }

    /// The registered store type (`OCDPostgreSQLStoreType`).
    package static var storeType: String { PostgreSQLStore.registration.withLock { $0?.storeType } ?? "PostgreSQL" }

    /// Whether the database (or the URL's schema) holds a store: a `Z_METADATA` table.
    package func holdsStore() throws -> Bool {
        try PostgreSQLStore.hasTable("Z_METADATA", query: db.query)
    }

    /// The store's metadata (`Z_METADATA`) with its UUID under `NSStoreUUIDKey`.
    ///
    /// Throws `NSFileReadNoSuchFileError` (260) when the database (or the URL's schema) holds no
    /// store.
    package func metadata() throws -> [String: Any] {
        var (uuid, metadata) = try storedMetadata()
        metadata[NSStoreUUIDKey] = uuid
        return metadata
    }

    /// The store's UUID and the rest of its metadata, apart; throws 260 as ``metadata()`` does.
    func storedMetadata() throws -> (uuid: String, plist: [String: Any]) {
        guard try holdsStore() else {
            throw CoreDataError.make(NSFileReadNoSuchFileError, "There is no store at \(described): no Z_METADATA table in its schema.")
        }
        return try PostgreSQLStore.storedMetadata(at: described, query: db.query)
    }

    /// The model the store keeps in `Z_MODELCACHE` (written when the store was made or
    /// migrated), with the store's version hashes, for reading a store without its model.
    ///
    /// Throws `NSPersistentStoreOpenError` (134080) when the schema holds no store or no model.
    package func recoveredModel() throws -> NSManagedObjectModel {
        guard try PostgreSQLStore.hasTable("Z_MODELCACHE", query: db.query),
              case .bytes(let archive)? = try db.query("SELECT \"Z_CONTENT\" FROM \"Z_MODELCACHE\" LIMIT 1", []).first?.first else {
            throw CoreDataError.make(NSPersistentStoreOpenError, "The PostgreSQL store at \(described) keeps no model (no Z_MODELCACHE): name the model it was made with.")
        }
        let model: NSManagedObjectModel
        do {
            var decoder = try ArchivedModelDecoder(archive, moduleName: nil)
            model = try decoder.makeModel()
        } catch {
            throw CoreDataError.make(NSPersistentStoreOpenError, "The model in the Z_MODELCACHE of the PostgreSQL store at \(described) cannot be read (\(error)): name the model it was made with.")
        }
        let (_, metadata) = try PostgreSQLStore.storedMetadata(at: described, query: db.query)
        // Apple's hashes only: the store's own would pass for Apple's in a SQLite copy.
        if let apple = metadata[PostgreSQLStore.appleVersionHashesKey] as? [String: Data], !apple.isEmpty { model.appleEntityVersionHashesByName = apple }
        if let identifiers = metadata[NSStoreModelVersionIdentifiersKey] as? [Any] {
            model.versionIdentifiers = Set(identifiers.compactMap { $0 as? AnyHashable })
        }
        model.isRecoveredFromStore = true
        return model
    }

    private static func text(_ value: PostgreSQLValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let n): String(n)
        case .double(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        case .text(let s): s
        case .bytes(let data): "\\x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }
}
