import CSQLite
import Foundation

/// How long (seconds, a number) a SQLite store waits for another connection's lock before a
/// fetch or save fails. Default: 10.
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"

/// The SQLite store (`NSSQLiteStoreType`): records in a SQLite file laid out exactly as Apple's
/// Core Data lays it out, so the same file opens on Linux and on Apple platforms.
///
/// ```swift
/// let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
/// try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
///                                    at: URL(fileURLWithPath: "/var/lib/app/Model.sqlite"),
///                                    options: [NSSQLitePragmasOption: ["synchronous": "NORMAL"]])
/// ```
///
/// - A new file gets Apple's schema (`StoreSchema`), in WAL journal mode with `auto_vacuum`
///   incremental, in one transaction. An existing file must be a Core Data store made with this
///   model: a file that is not a SQLite database throws `NSPersistentStoreOpenError` (134080)
///   and is left untouched; a store of another model throws
///   `NSPersistentStoreIncompatibleVersionHashError` (134100).
/// - Every save is one transaction (`BEGIN IMMEDIATE` ... `COMMIT`). Updates and deletes check
///   the row's `Z_OPT` in the same statement, so a row changed by another coordinator or
///   process since it was fetched fails the save with `NSManagedObjectMergeError` (133020) and
///   nothing is written.
/// - Options: `NSReadOnlyPersistentStoreOption`, `NSSQLitePragmasOption` (a dictionary of
///   pragma names and values, applied after the defaults), `NSPersistentStoreTimeoutOption`,
///   `NSSQLiteManualVacuumOption` and `NSSQLiteAnalyzeOption` (run when the store is added).
///
/// Fetches are answered in SQL — filtered, sorted, limited, counted — when the whole request
/// translates exactly (`prepareFetch`, ``SQLiteFetchQuery``); otherwise the rows are narrowed in
/// SQL and the context evaluates predicate, sorting and limits in memory.
final class SQLiteStore: NSPersistentStore, StoreBackend, @unchecked Sendable {
    // @unchecked Sendable: `connection` and everything derived from the file are guarded by
    // `lock`; `schema` and `plans` are set once in loadMetadata (under the lock) and then only read.
    let lock = NSLock()
    var connection: SQLiteConnection?
    private(set) var schema: StoreSchema!
    private(set) var plans: [ObjectIdentifier: SQLiteEntityPlan] = [:]
    /// Plans indexed by `Z_ENT`, which every fetched row names: an array index, not a hash. Entity
    /// numbers are small (1...n in `Z_PRIMARYKEY`); a store naming a huge one keeps it in the
    /// dictionary.
    @exclusivity(unchecked) private var plansByNumber: [SQLiteEntityPlan?] = []
    @exclusivity(unchecked) private var plansByLargeNumber: [Int: SQLiteEntityPlan] = [:]
    /// Whether any entity of the schema has a to-many relationship, so that a save has join
    /// tables or ordered memberships to write at all.
    @exclusivity(unchecked) private(set) var hasToManyRelationships = false

    /// How many fetch plans were translated to SQL (for tests that a fetch translates its
    /// predicate once). Changed under the coordinator's lock, like every fetch.
    var fetchTranslations = 0
    /// How many batch requests ran as one SQL statement (for tests that they did). Changed under
    /// the store's lock.
    var batchRequestsInSQL = 0
    /// Posts remote-change notifications when the store was added with
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` (SQLiteStore+RemoteChange).
    /// Guarded by `lock`.
    var remoteChangeObserver: SQLiteRemoteChangeObserver?

    override var type: String { NSSQLiteStoreType }

    /// Updates and deletes carry `WHERE Z_OPT = ?`; a mismatch fails the save with 133020.
    var checksVersionsOnWrite: Bool { true }
    /// A save raises `Z_MAX` past the keys it inserts (``SQLiteStore/save(_:)``).
    var acceptsForeignPrimaryKeys: Bool { true }
    /// The derived attributes Apple's `Z_DA_<TABLE>_<Entity>_<attribute>_...` triggers keep in
    /// this file (a store Apple's framework made); found when the store opens.
    private(set) var derivedAttributesMaintainedByStore: Set<String> = []

    func plan(for entity: NSEntityDescription) -> SQLiteEntityPlan? {
        // The model's number for an entity is usually its Z_ENT here (both count in Apple's
        // order): an array index and an identity check instead of hashing the entity, which
        // saving did a few times per row.
        if let plan = plan(number: entity.entityNumber), plan.entity === entity { return plan }
        return plans[ObjectIdentifier(entity)]
    }

    /// Whether the store is at `/dev/null`: Apple's spelling of an in-memory SQLite store. Its
    /// database is SQLite's `:memory:`, private to the store and gone when it is removed; the
    /// device is never opened, written or deleted, and large binary values stay in their rows.
    var isInMemory: Bool { Self.isDevNull(url) }

    static func isDevNull(_ url: URL?) -> Bool { url?.isFileURL == true && url?.standardizedFileURL.path == "/dev/null" }

    /// Where this store keeps the files of external binary values: `.<StoreName>_SUPPORT/_EXTERNAL_DATA`
    /// beside the file, unless a migration points the copy it writes at the original's.
    var externalDataDirectory: URL? {
        // Worked out once (the store's URL and options are set before it is used): decoding
        // reads it for every external-storage column of every row. An NSLock, not a Mutex:
        // Thread Sanitizer cannot see a Mutex's futex and would report a race.
        externalDataDirectoryLock.lock(); defer { externalDataDirectoryLock.unlock() }
        if let cached = cachedExternalDataDirectory { return cached }
        let directory = (options?[SQLiteExternalData.directoryOption] as? URL) ?? url.map(SQLiteExternalData.directory(forStoreAt:))
        cachedExternalDataDirectory = .some(directory)
        return directory
    }
    private let externalDataDirectoryLock = NSLock()
    private var cachedExternalDataDirectory: URL??  // guarded by externalDataDirectoryLock
    func plan(number: Int) -> SQLiteEntityPlan? {
        plansByNumber.indices.contains(number) ? plansByNumber[number] : plansByLargeNumber[number]
    }

    /// The open connection, or a clear error if the store was removed.
    func openConnection() throws -> SQLiteConnection {
        guard let connection else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The SQLite store at \(url?.path ?? "?") is closed: it was removed from its coordinator. Add it again to use it.")
        }
        return connection
    }

    // MARK: Opening

    override func loadMetadata() throws {
        lock.lock(); defer { lock.unlock() }
        guard let url, url.isFileURL else {
            throw CoreDataError.make(NSPersistentStoreOpenError, "A SQLite store needs a file URL (got \(url?.absoluteString ?? "nil")). Pass the store file's URL to addPersistentStore(ofType:configurationName:at:options:).")
        }
        guard let model = persistentStoreCoordinator?.managedObjectModel else {
            throw CoreDataError.make(NSPersistentStoreOpenError, "The SQLite store at \(url.path) has no coordinator; add it with NSPersistentStoreCoordinator.addPersistentStore.")
        }
        let path = url.path
        let fileManager = FileManager.default
        let inMemory = isInMemory
        if isReadOnly && !fileManager.fileExists(atPath: path) {
            throw openError(path, "There is no store file at \(path), and a read-only store (NSReadOnlyPersistentStoreOption) can't create one. Check the path, or open it without the read-only option once to create it.")
        }
        if !isReadOnly && !inMemory {
            try? fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        // A staged migration first, then lightweight migration rewrite the file before it is
        // opened here (SQLiteMigrator). A new in-memory database has nothing to migrate.
        let migratable = !isReadOnly && !inMemory && fileManager.fileExists(atPath: path)
        if migratable,
           let staged = options?[NSPersistentStoreStagedMigrationManagerOptionKey] as? StagedStoreMigration {
            try staged.migrateStore(at: url, ofType: NSSQLiteStoreType, to: model, options: options)
        }
        if migratable, SQLiteMigrator.isRequested(by: options) {
            try SQLiteMigrator.migrateIfNeeded(storeAt: url, to: model, options: options)
        } else if migratable, SQLiteMigrator.isMappingModelMigrationRequested(by: options) {
            try SQLiteMigrator.migrateWithMappingModelIfNeeded(storeAt: url, to: model, options: options)
        }

        let db: SQLiteConnection
        do {
            db = try SQLiteConnection(path: inMemory ? ":memory:" : path, readOnly: isReadOnly)
        } catch {
            throw openError(path, "SQLite can't open \(path): \(error). Check that the directory exists and is writable.", error)
        }
        var success = false
        defer { if !success { db.close() } }
        db.setBusyTimeout(Self.timeout(from: options))

        // The first read of the file: a file that is not a database fails here, before anything
        // could write to it.
        let tables: Set<String>
        do {
            tables = try db.tableNames()
        } catch {
            // A binary or XML store (a property list) opened as SQLite: the wrong type, as Apple reports it.
            if !inMemory, let head = FileHandle(forReadingAtPath: path).map({ handle in defer { try? handle.close() }; return handle.readData(ofLength: 8) }),
               head.starts(with: Array("bplist00".utf8)) || head.starts(with: Array("<?xml".utf8)) {
                let actual = head.starts(with: Array("bplist".utf8)) ? NSBinaryStoreType : NSXMLStoreType
                throw CoreDataError.make(NSPersistentStoreTypeMismatchError, "The file at \(path) is a property list (a \(actual) store's file), not a SQLite store. Add it with the store type that wrote it. It was left unchanged.",
                                         [NSFilePathErrorKey: path, NSStoreTypeKey: actual])
            }
            throw SQLiteFileSoundness.corruptFileError(path: path, message: "The file at \(path) is not a SQLite database, or it is corrupt: \(error). It was left unchanged. Move it away or restore it from a backup.",
                                                       sqliteCode: SQLiteFileSoundness.sqliteCode(of: error), underlying: error)
        }
        if !tables.isEmpty, let problem = try? SQLiteFileSoundness.truncationProblem(db, path: path) {
            throw SQLiteFileSoundness.corruptFileError(path: path, message: "The store at \(path) is damaged: \(problem). It was left unchanged. Restore it from a backup.", sqliteCode: SQLITE_CORRUPT)
        }

        do {
            try db.registerPredicateFunctions()
            try db.registerDerivedAttributeFunctions()
        } catch {
            throw openError(path, "Can't register the store's SQL functions: \(error).", error)
        }
        if tables.isEmpty {
            guard !isReadOnly else {
                throw openError(path, "The file at \(path) is an empty database, and a read-only store (NSReadOnlyPersistentStoreOption) can't create the schema. Open it without the read-only option once.")
            }
            try createStore(in: db, path: path, model: model)
        } else {
            try openExistingStore(db, tables: tables, path: path, model: model)
            derivedAttributesMaintainedByStore = try StoreSchema.derivedAttributesWithTriggers(in: db, model: model)
        }
        if !tracksHistory, !isReadOnly, tables.contains("ATRANSACTION") {
            // Apple's store does the same, so that no save goes unrecorded in a history other
            // processes rely on: it opens read-only, with this warning.
            isReadOnly = true
            FileHandle.standardError.write(Data("CoreData: fault: Store opened without NSPersistentHistoryTrackingKey but previously had been opened with NSPersistentHistoryTrackingKey - Forcing into Read Only mode store at '\(path)'\n".utf8))
        }
        if tracksHistory && !isReadOnly {
            do {
                try db.inTransaction { try createHistoryTablesIfNeeded(in: db, tables: try db.tableNames()) }
            } catch {
                throw openError(path, "Can't create the persistent history tables in \(path): \(error).", error)
            }
        }
        try applyPragmas(to: db, path: path)
        try runMaintenanceOptions(on: db, path: path)
        if !isReadOnly, !tables.isEmpty, let directory = externalDataDirectory, options?[SQLiteExternalData.directoryOption] == nil {
            // Best effort: a store whose lock is busy collects its orphans at a later open.
            _ = try? SQLiteExternalData.collectOrphans(of: path, in: directory, writeLockedBy: db)
        }
        connection = db
        identifier = metadata[NSStoreUUIDKey] as? String
        success = true
    }

    private static let largestIndexedEntityNumber = 1 << 16

    private func buildPlans() {
        plansByNumber = []
        plansByLargeNumber = [:]
        hasToManyRelationships = false
        for e in schema.entities {
            let plan = SQLiteEntityPlan(entity: e, schema: schema, store: self)
            plans[ObjectIdentifier(e)] = plan
            if !plan.toManySlots.isEmpty { hasToManyRelationships = true }
            let number = plan.entityNumber
            if (0..<Self.largestIndexedEntityNumber).contains(number) {
                if plansByNumber.count <= number { plansByNumber += Array(repeating: nil, count: number + 1 - plansByNumber.count) }
                plansByNumber[number] = plan
            } else {
                plansByLargeNumber[number] = plan
            }
        }
    }

    /// Writes the schema, `Z_PRIMARYKEY` and `Z_METADATA` of a new store, all or nothing.
    private func createStore(in db: SQLiteConnection, path: String, model: NSManagedObjectModel) throws {
        do {
            schema = try StoreSchema(model: model, entityNumbers: nil, existingTables: [])
        } catch let error as StoreSchemaError {
            throw CoreDataError.make(NSPersistentStoreIncompatibleSchemaError, "Can't create a SQLite store for this model: \(error.message).", [NSFilePathErrorKey: path])
        }
        buildPlans()
        let uuid = UUID().uuidString
        var plist = SQLiteMetadata.plist(for: model, entities: schema.entities)
        do {
            // auto_vacuum only takes effect before the first table exists; Apple's stores use 2.
            try db.execute("PRAGMA auto_vacuum = 2")
            try db.execute("PRAGMA journal_mode = WAL")
            try db.inTransaction {
                for sql in schema.createStatements { try db.execute(sql) }
                for e in schema.entities {
                    try db.run("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                               [.integer(Int64(schema.number(of: e))), .text(e.name ?? ""), .integer(Int64(e.superentity.map { schema.number(of: $0) } ?? 0))])
                }
                try db.run("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", [.text(uuid), .blob(try SQLiteMetadata.encode(plist))])
            }
        } catch {
            throw openError(path, "Can't create the store schema in \(path): \(error).", error)
        }
        plist[NSStoreUUIDKey] = uuid
        metadata = plist
    }

    /// Reads an existing store's metadata and checks that it was made with this model.
    private func openExistingStore(_ db: SQLiteConnection, tables: Set<String>, path: String, model: NSManagedObjectModel) throws {
        guard tables.contains("Z_METADATA"), tables.contains("Z_PRIMARYKEY") else {
            throw openError(path, "The file at \(path) is a SQLite database but not a Core Data store (it has no Z_METADATA or Z_PRIMARYKEY table). It was left unchanged.")
        }
        var stored: [String: Any]
        var entityNumbers: [String: Int] = [:]
        do {
            guard let row = try SQLiteMetadata.read(from: db), let uuid = row.uuid else {
                throw openError(path, "The store at \(path) has no readable metadata (Z_METADATA is empty or its Z_PLIST is not a property list). It was left unchanged.")
            }
            let plist = row.plist
            stored = plist
            stored[NSStoreUUIDKey] = uuid
            for (number, name) in try db.query("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY", [], { ($0.int64(at: 0), $0.text(at: 1) ?? "") }) {
                entityNumbers[name] = Int(number)
            }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw error
        } catch let error as SQLiteError where error.code == SQLITE_CORRUPT || error.code == SQLITE_NOTADB {
            throw SQLiteFileSoundness.corruptFileError(path: path, message: "The store at \(path) is damaged: reading its metadata failed with \(error). It was left unchanged. Restore it from a backup.", sqliteCode: error.code, underlying: error)
        } catch {
            throw openError(path, "Can't read the metadata of the store at \(path): \(error). It was left unchanged.", error)
        }
        if stored[NSStoreTypeKey] == nil { stored[NSStoreTypeKey] = NSSQLiteStoreType }
        metadata = stored

        // Our hashes are comparable only with our own; a store Apple's framework wrote is
        // matched by structure (entity names, tables, columns) — see SQLiteMetadata.
        let modelHashes = model.entityVersionHashesByName
        let incompatible = { (reason: String) in
            CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError,
                               "The store at \(path) was made with a different model than this coordinator's: \(reason). Open it with the model it was made with, or migrate it: set NSMigratePersistentStoresAutomaticallyOption and NSInferMappingModelAutomaticallyOption to true and pass the model it was made with in OCDMigrationSourceModelsOption (or ship its compiled .momd among the program's resources, where migration finds it).",
                               [NSFilePathErrorKey: path, "metadata": stored])
        }
        // A source model the migrator rebuilt from this file, or a model recovered from a store,
        // has no hashes of its own to match: such models are checked by structure.
        // NSIgnorePersistentStoreVersioningOption: no hashes are compared, but the tables and
        // columns must still be the model's (the structural test below), so a store of another
        // shape is refused rather than read wrongly.
        let ignoresVersioning = Self.isOptionOn(NSIgnorePersistentStoreVersioningOption, in: options)
        if !ignoresVersioning && ((stored[SQLiteMetadata.hashSchemeKey] as? Int) == SQLiteMetadata.hashScheme && options?[SQLiteMigrator.structuralMatchOption] == nil
            && !model.isRecoveredFromStore) {
            let storeHashes = stored[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
            if storeHashes != modelHashes {
                let differing = Set(storeHashes.keys).union(modelHashes.keys).filter { storeHashes[$0] != modelHashes[$0] }.sorted()
                throw incompatible("the version hashes of \(differing.joined(separator: ", ")) differ")
            }
        } else if !ignoresVersioning, (stored[SQLiteMetadata.hashSchemeKey] as? Int) == nil,
                  let apple = model.appleEntityVersionHashesByName, let storeHashes = stored[NSStoreModelVersionHashesKey] as? [String: Data], !storeHashes.isEmpty {
            // An Xcode model loaded with its VersionInfo.plist carries Apple's own hashes: the
            // exact test Apple's framework makes (a renamed entity, a changed attribute type or
            // a versionHashModifier all show), where the structural one below can only guess.
            if storeHashes != apple {
                let differing = Set(storeHashes.keys).union(apple.keys).filter { storeHashes[$0] != apple[$0] }.sorted()
                throw incompatible("Apple's version hashes (the model's VersionInfo.plist) of \(differing.joined(separator: ", ")) differ from the store's")
            }
        } else {
            // Apple's history-tracking entities (Z_ENT 16001...) are not part of the model. An
            // entity Apple's migration renamed keeps its old name in Z_PRIMARYKEY, which the
            // model records as the renaming identifier.
            let storeEntities = Set(entityNumbers.filter { $0.value < 16000 }.keys)
            let modelEntities = Set(model.entities.map { e -> String in
                let name = e.name ?? ""
                return entityNumbers[name] == nil ? (e.renamingIdentifier ?? name) : name
            })
            if storeEntities != modelEntities {
                throw incompatible("the store has entities \(storeEntities.sorted().joined(separator: ", ")); the model has \(modelHashes.keys.sorted().joined(separator: ", "))")
            }
        }
        do {
            schema = try StoreSchema(model: model, entityNumbers: entityNumbers, existingTables: tables)
            let missing = try schema.missingNames(in: db)
            if !missing.isEmpty { throw incompatible("the store lacks \(missing.joined(separator: ", "))") }
        } catch let error as StoreSchemaError {
            throw incompatible(error.message)
        } catch let error as SQLiteError {
            throw openError(path, "Can't read the schema of the store at \(path): \(error).", error)
        }
        buildPlans()
        if !isReadOnly {
            // Switching into WAL mode rewrites the header: the first write of an open. A store
            // not in WAL mode yet is checked page by page first, so that a damaged file is
            // refused as it is, not changed and then refused at the first fetch.
            let mode = (try? db.query("PRAGMA journal_mode") { $0.text(at: 0) ?? "" }.first) ?? nil
            if mode?.lowercased() != "wal" {
                let problem: String?
                do { problem = try SQLiteFileSoundness.quickCheckProblem(db) } catch {
                    problem = "SQLite could not check it: \(error)"
                }
                if let problem {
                    throw SQLiteFileSoundness.corruptFileError(path: path, message: "The store at \(path) is damaged: \(problem). It was left unchanged. Restore it from a backup.", sqliteCode: SQLITE_CORRUPT)
                }
            }
            do { try db.execute("PRAGMA journal_mode = WAL") } catch {
                throw openError(path, Self.journalSwitchFailure(path: path, error: error, fileIsReadOnly: db.isReadOnly), error)
            }
        }
    }

    /// Why switching the store at `path` into WAL mode failed, and what to do: a file SQLite can
    /// only read (its permissions, a read-only volume) wants `NSReadOnlyPersistentStoreOption`;
    /// anything else is most likely another process holding it in rollback-journal mode.
    static func journalSwitchFailure(path: String, error: Error, fileIsReadOnly: Bool) -> String {
        if fileIsReadOnly || (error as? SQLiteError)?.code == SQLITE_READONLY {
            return "The store at \(path) can only be read (the file's permissions or its volume), and opening it for writing switches it to WAL journal mode: \(error). Add it with NSReadOnlyPersistentStoreOption: true to read it, or make the file and its directory writable."
        }
        return "Can't switch the store at \(path) to WAL journal mode: \(error). Another process may hold it open in rollback-journal mode."
    }

    /// `NSSQLiteManualVacuumOption` and `NSSQLiteAnalyzeOption`, as Apple's store runs them when
    /// it is added: the file rebuilt, then the planner's statistics gathered. A read-only store
    /// changes nothing, so it skips both.
    private func runMaintenanceOptions(on db: SQLiteConnection, path: String) throws {
        guard !isReadOnly else { return }
        do {
            if Self.isOptionOn(NSSQLiteManualVacuumOption, in: options) { try db.execute("VACUUM") }
            if Self.isOptionOn(NSSQLiteAnalyzeOption, in: options) { try db.execute("ANALYZE") }
        } catch {
            throw openError(path, "The store at \(path) could not be vacuumed or analyzed (NSSQLiteManualVacuumOption, NSSQLiteAnalyzeOption): \(error). Its data is unchanged (another process may hold it open); add it without those options, or when it is free.", error)
        }
    }

    /// Applies `NSSQLitePragmasOption` after the defaults, so callers can override them.
    ///
    /// SQLite can't bind pragma names or values, so both are checked to be plain names or
    /// numbers before they become SQL text.
    private func applyPragmas(to db: SQLiteConnection, path: String) throws {
        guard let pragmas = options?[NSSQLitePragmasOption] else { return }
        guard let dictionary = pragmas as? [String: Any] else {
            throw openError(path, "NSSQLitePragmasOption must be a dictionary of pragma names and values, like [\"synchronous\": \"NORMAL\"].")
        }
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            guard name.range(of: "^[A-Za-z_]+$", options: .regularExpression) != nil else {
                throw openError(path, "NSSQLitePragmasOption: '\(name)' is not a pragma name.")
            }
            let literal: String
            switch value {
            case let b as Bool: literal = b ? "1" : "0"
            case let n as NSNumber: literal = n.stringValue
            case let i as Int: literal = String(i)
            case let s as String where s.range(of: "^[A-Za-z0-9_.+-]+$", options: .regularExpression) != nil: literal = "'\(s)'"
            default:
                throw openError(path, "NSSQLitePragmasOption: the value of '\(name)' must be a number or a plain word, like \"NORMAL\".")
            }
            do { try db.execute("PRAGMA \(name) = \(literal)") } catch {
                throw openError(path, "NSSQLitePragmasOption: PRAGMA \(name) = \(literal) failed: \(error).", error)
            }
        }
    }

    static func timeout(from options: [AnyHashable: Any]?) -> Double {
        if let n = options?[NSPersistentStoreTimeoutOption] as? NSNumber { return n.doubleValue }
        if let d = options?[NSPersistentStoreTimeoutOption] as? Double { return d }
        if let i = options?[NSPersistentStoreTimeoutOption] as? Int { return Double(i) }
        return 10
    }

    private func openError(_ path: String, _ message: String, _ underlying: Error? = nil) -> NSError {
        var info: [String: Any] = [NSFilePathErrorKey: path]
        if let sqlite = underlying as? SQLiteError { info["NSSQLiteErrorDomain"] = Int(sqlite.extendedCode) }
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return CoreDataError.make(NSPersistentStoreOpenError, message, info)
    }

    /// The metadata of the store at `url`, read without adding it (the file is opened read-only).
    override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try refuseDevNull(url, "has no metadata to read")
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CoreDataError.make(NSFileReadNoSuchFileError, "There is no store at \(path).", [NSFilePathErrorKey: path])
        }
        do {
            let db = try SQLiteConnection(path: path, readOnly: true)
            defer { db.close() }
            guard let row = try SQLiteMetadata.read(from: db), let uuid = row.uuid else {
                throw CoreDataError.make(NSPersistentStoreOpenError, "The store at \(path) has no readable metadata.", [NSFilePathErrorKey: path])
            }
            var plist = row.plist
            plist[NSStoreUUIDKey] = uuid
            if plist[NSStoreTypeKey] == nil { plist[NSStoreTypeKey] = NSSQLiteStoreType }
            return plist
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw error
        } catch {
            throw CoreDataError.make(NSPersistentStoreOpenError, "The file at \(path) is not a Core Data SQLite store: \(error).", [NSFilePathErrorKey: path, NSUnderlyingErrorKey: error])
        }
    }

    /// Replaces the application's metadata of the store at `url` (`Z_METADATA`), in one
    /// transaction, without adding the store. The keys the store writes for itself (its UUID and
    /// the model's version hashes) are kept when `metadata` leaves them out, so that a dictionary
    /// of the application's own keys cannot make the store unopenable; keys of the application
    /// that `metadata` leaves out are removed.
    override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try refuseDevNull(url, "has no metadata to write")
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CoreDataError.make(NSFileReadNoSuchFileError, "There is no store at \(path).", [NSFilePathErrorKey: path])
        }
        do {
            let db = try SQLiteConnection(path: path, readOnly: false)
            defer { db.close() }
            try db.inTransaction {
                guard let (uuid, current) = try SQLiteMetadata.read(from: db) else {
                    throw CoreDataError.make(NSPersistentStoreOperationError, "The store at \(path) has no readable metadata; it was left unchanged.", [NSFilePathErrorKey: path])
                }
                var plist = metadata ?? [:]
                for (key, value) in current where plist[key] == nil && SQLiteMetadata.isStoreKey(key) { plist[key] = value }
                try SQLiteMetadata.write(plist, fallbackUUID: uuid ?? UUID().uuidString, to: db) {
                    CoreDataError.make(NSPersistentStoreOperationError, "The metadata for \(path) holds values a property list cannot (use strings, numbers, dates, data, arrays and dictionaries); the store was left unchanged.", [NSFilePathErrorKey: path])
                }
            }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw error
        } catch {
            throw CoreDataError.make(NSPersistentStoreOperationError, "Could not write the metadata of the store at \(path): \(error).", [NSFilePathErrorKey: path, NSUnderlyingErrorKey: error])
        }
    }

    /// Removes the store file with its `-wal`, `-shm` and `-journal` companions: a stale WAL
    /// beside a new file of the same name would be replayed into it.
    override class func destroyPersistentStore(at url: URL) throws {
        // An in-memory store has no files: never delete the device.
        if isDevNull(url) { return }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let file = URL(fileURLWithPath: url.path + suffix)
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
        }
        // The external binary values go with the store.
        let support = SQLiteExternalData.supportDirectory(forStoreAt: url)
        if FileManager.default.fileExists(atPath: support.path) { try FileManager.default.removeItem(at: support) }
    }

    /// Throws for `/dev/null`, which names in-memory stores, not a file: `what` says why.
    static func refuseDevNull(_ url: URL, _ what: String) throws {
        guard isDevNull(url) else { return }
        throw CoreDataError.make(NSFileReadNoSuchFileError, "/dev/null names an in-memory SQLite store, which \(what): each store at /dev/null has its own database in memory. Use the coordinator's metadata(for:) of the added store.", [NSFilePathErrorKey: url.path])
    }

    override class func destroyPersistentStore(at url: URL, options: [AnyHashable: Any]?) throws {
        try destroyUnlessBeingWritten(at: url, options: options)
    }

    override class func replaceStoreFiles(at destination: URL, withStoreAt source: URL) throws {
        try backUp(source, into: destination)
    }

    override func didAdd(to coordinator: NSPersistentStoreCoordinator) {
        startRemoteChangeObserver(for: coordinator)
    }

    override func willRemove(from coordinator: NSPersistentStoreCoordinator?) {
        stopRemoteChangeObserver()
        lock.lock(); defer { lock.unlock() }
        connection?.close()
        connection = nil
    }
}
