import Foundation

// Lightweight migration across deploys. The store keeps the model that made it (its compiled
// archive in Z_MODELCACHE) and the checksums of the models it was made with before. The first
// server of a new deploy that opens the store with NSMigratePersistentStoresAutomaticallyOption
// and NSInferMappingModelAutomaticallyOption migrates it in place, inside the transaction that
// holds the schema's advisory lock: PostgreSQL's DDL is transactional, so the migration
// commits whole or not at all, and servers opening the store meanwhile wait for the lock,
// then find the new model's hashes and open it. A server still running an older model (its
// checksum among the store's earlier ones) gets NSPersistentStoreIncompatibleVersionHashError
// and changes nothing.
extension PostgreSQLStore {
    /// Metadata key: the `versionChecksum`s of the models the store was made with before.
    static let earlierModelsKey = "OCDEarlierModelVersionChecksums"
    /// Metadata key: Apple's version hashes of the model the store was made with, when it came
    /// with them (a model compiled by Xcode, or recovered from a store Apple's framework
    /// wrote). The store compares its own hashes (`NSStoreModelVersionHashesKey`); these let a
    /// copy back to SQLite carry Apple's again (``PostgreSQLInspection/recoveredModel()``).
    static let appleVersionHashesKey = "OCDAppleVersionHashes"

    /// Keeps `model`'s archive in `Z_MODELCACHE` (inside the caller's transaction), so a later
    /// deploy can migrate from it. A model the archive can't express (say, a custom
    /// predicate) is left out: such a store can't be migrated automatically.
    func writeModelCache(_ model: NSManagedObjectModel) throws {
        try query("CREATE TABLE IF NOT EXISTS \"Z_MODELCACHE\" (\"Z_CONTENT\" bytea NOT NULL)")
        try query("DELETE FROM \"Z_MODELCACHE\"")
        var encoder = ArchivedModelEncoder(model)
        guard let archive = try? encoder.archive() else { return }
        try query("INSERT INTO \"Z_MODELCACHE\" (\"Z_CONTENT\") VALUES ($1)", [.bytes(archive)])
    }

    /// The model `Z_MODELCACHE` holds, frozen; nil when there is none or it does not decode.
    func readModelCache(tables: Set<String>) throws -> NSManagedObjectModel? {
        guard tables.contains("Z_MODELCACHE"), case .bytes(let archive)? = try query("SELECT \"Z_CONTENT\" FROM \"Z_MODELCACHE\" LIMIT 1").first?.first,
              var decoder = try? ArchivedModelDecoder(archive, moduleName: nil), let model = try? decoder.makeModel() else { return nil }
        model.freeze()
        return model
    }

    /// Opens a store made with another model than `model`: migrates it in place when the
    /// options ask for lightweight migration and the store's model is earlier; returns the
    /// new metadata. Called inside the opening transaction, under the advisory lock.
    func migrateOrRefuse(stored: [String: Any], model: NSManagedObjectModel, numbers: [String: Int], tables: Set<String>, refusal: NSError) throws -> [String: Any] {
        let earlier = stored[Self.earlierModelsKey] as? [String] ?? []
        if earlier.contains(model.versionChecksum) {
            throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError, "The PostgreSQL store at \(describedURL) was migrated to a later model than this server's: it runs an earlier version of the app. Deploy the version the other servers run; the store was left unchanged.",
                                     [NSStoreModelVersionHashesKey: stored[NSStoreModelVersionHashesKey] as Any])
        }
        guard NSPersistentStore.isOptionOn(NSMigratePersistentStoresAutomaticallyOption, in: options),
              NSPersistentStore.isOptionOn(NSInferMappingModelAutomaticallyOption, in: options), !isReadOnly else { throw refusal }
        guard let source = try readModelCache(tables: tables) else {
            throw RowConverter.migrationError(describedURL, "the store keeps no readable model to migrate from (Z_MODELCACHE)")
        }
        let mapping: NSMappingModel
        do {
            mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: model)
        } catch {
            throw RowConverter.migrationError(describedURL, "no lightweight migration leads from the store's model to this one (\((error as NSError).localizedDescription))")
        }
        do {
            return try migrate(stored: stored, from: source, to: model, mapping: mapping, numbers: numbers, tables: tables)
        } catch let error as NSError where error.code != NSMigrationError {
            // A statement that failed (a new uniqueness constraint the rows break, a lost
            // connection) fails the migration, as Apple's does; the caller rolls it back.
            throw CoreDataError.make(NSMigrationError, "Migrating the PostgreSQL store at \(describedURL) failed: \(error.localizedDescription). The store was left unchanged.",
                                     [NSFilePathErrorKey: describedURL, NSUnderlyingErrorKey: error])
        }
    }

    private func migrate(stored: [String: Any], from source: NSManagedObjectModel, to destination: NSManagedObjectModel, mapping: NSMappingModel,
                         numbers: [String: Int], tables: Set<String>) throws -> [String: Any] {
        // The source tables move aside to a holding schema, with their indexes, and are read
        // from there batch by batch through the source model's layout.
        let sourceSchema: StoreSchema
        do {
            sourceSchema = try StoreSchema(model: source, entityNumbers: numbers, existingTables: tables)
            schema = sourceSchema
            try buildPlans()
        } catch let error as StoreSchemaError {
            throw RowConverter.migrationError(describedURL, "the store does not match its own model (\(error.message))")
        }
        let sourcePlans = plannedSchema
        var highWaterMark: Int64 = 0
        for row in try query("SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" < 16000") {
            if case .integer(let max) = row[0] { highWaterMark = Swift.max(highWaterMark, max) }
        }
        // Unique to this migration; the transaction holds the schema lock, so no other
        // migration runs, but a holding schema left by hand must not be written into.
        let holding = StoreSchema.quoted("ocd_migration_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())
        try refuseObjectsDepending(on: sourceSchema.tables.map(\.name) + sourceSchema.joinTables.map(\.name))
        try query("CREATE SCHEMA \(holding)")
        let movedTables = sourceSchema.tables.map(\.sqlName) + sourceSchema.joinTables.map(\.sqlName)
        for name in movedTables {
            try query("ALTER TABLE \(name) SET SCHEMA \(holding)")
        }
        try query("DELETE FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" < 16000")
        // Entities that stay keep their numbers (Z_ENT of rows, keys of IDs servers still hold);
        // new ones are numbered after the highest.
        let converter = RowConverter(mapping: mapping, destination: destination, store: self, path: describedURL)
        var destinationNumbers: [String: Int] = [:]
        for e in sourceSchema.entities {
            if let d = converter.entities[e.name ?? ""], let name = d.name { destinationNumbers[name] = sourceSchema.number(of: e) }
        }
        var next = (sourceSchema.entities.map { sourceSchema.number(of: $0) }.max() ?? 0) + 1
        for e in destination.entities.sorted(by: { $0.entityNumber < $1.entityNumber }) where destinationNumbers[e.name ?? ""] == nil {
            destinationNumbers[e.name ?? ""] = next
            next += 1
        }
        do {
            schema = try StoreSchema(model: destination, entityNumbers: destinationNumbers, existingTables: [])
            try buildPlans()
            for sql in try PostgreSQLSchema.createStatements(for: schema, bookkeeping: false) { try query(sql) }
        } catch let error as StoreSchemaError {
            throw RowConverter.migrationError(describedURL, "this model has no PostgreSQL layout (\(error.message))")
        }
        // Keys stay (inheritance can't change in a lightweight migration, so each hierarchy
        // keeps its keys unique); every root's counter starts above the highest key of any.
        for e in schema.entities {
            try query("INSERT INTO \"Z_PRIMARYKEY\" (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") VALUES ($1, $2, $3, $4)",
                      [.integer(Int64(schema.number(of: e))), .text(e.name ?? ""), .integer(Int64(e.superentity.map { schema.number(of: $0) } ?? 0)), .integer(highWaterMark)])
        }
        reservedKeys = [:]
        try copyRows(from: sourcePlans, in: holding, converter: converter)
        // Without CASCADE: an object of the user's that depends on an old table (a view)
        // fails the migration rather than going with it.
        for name in movedTables {
            try query("DROP TABLE \(holding).\(name)")
        }
        try query("DROP SCHEMA \(holding)")

        if tables.contains("ACHANGE") { try renumberHistory(from: sourceSchema, converter: converter) }

        var plist = Self.metadata(for: destination, type: type)
        for (key, value) in stored where plist[key] == nil && !Self.isStoreKey(key) { plist[key] = value }
        let uuid = stored[NSStoreUUIDKey] as? String ?? UUID().uuidString
        plist[Self.earlierModelsKey] = Array(Set((stored[Self.earlierModelsKey] as? [String] ?? []) + [source.versionChecksum])).sorted()
        try query("UPDATE \"Z_METADATA\" SET \"Z_UUID\" = $1, \"Z_PLIST\" = $2", [.text(uuid), .bytes(try Self.encode(plist))])
        try writeModelCache(destination)
        plist[NSStoreUUIDKey] = uuid
        return plist
    }

    /// Points the history's changes at the destination's entity numbers and property bitmaps
    /// (changes of entities the migration removed go), as the SQLite store's migration does.
    private func renumberHistory(from sourceSchema: StoreSchema, converter: RowConverter) throws {
        var numbers: [Int64: (source: NSEntityDescription, destination: NSEntityDescription)] = [:]
        for e in sourceSchema.entities {
            if let d = converter.entities[e.name ?? ""] { numbers[Int64(sourceSchema.number(of: e))] = (e, d) }
        }
        var after = Int64.min
        while true {
            let batch = try query("SELECT \"Z_PK\", \"ZENTITY\", \"ZCOLUMNS\" FROM \"ACHANGE\" WHERE \"Z_PK\" > $1 ORDER BY \"Z_PK\" LIMIT \(Self.migrationBatchSize)", [.integer(after)])
            guard case .integer(let last)? = batch.last?.first else { break }
            after = last
            // One statement per distinct (entity, columns) of the batch, not one per change:
            // a batch of changes shares few of them.
            var removed: [Int64] = []
            var renumbered: [RenumberedChange: [Int64]] = [:]
            for row in batch {
                guard case .integer(let id) = row[0], case .integer(let old) = row[1] else { continue }
                guard let (source, destination) = numbers[old], let layout = destination.layout else {
                    removed.append(id)
                    continue
                }
                var columns: Data?
                if case .bytes(let bitmap) = row[2] {
                    let renamed = converter.sourceNames[destination.name ?? ""] ?? [:]
                    let names = Set(HistoryColumns.decode(bitmap, of: source).map(\.name))
                    let slots = layout.properties.indices.filter { names.contains(renamed[layout.properties[$0].name] ?? layout.properties[$0].name) }
                    columns = HistoryColumns.encode(slots, of: destination)
                }
                renumbered[RenumberedChange(entity: Int64(schema.number(of: destination)), columns: columns), default: []].append(id)
            }
            if !removed.isEmpty {
                try query("DELETE FROM \"ACHANGE\" WHERE \"Z_PK\" = ANY($1::bigint[])", [Self.bigintArray(removed)])
            }
            for (change, ids) in renumbered {
                try query("UPDATE \"ACHANGE\" SET \"ZENTITY\" = $1, \"ZCOLUMNS\" = $2 WHERE \"Z_PK\" = ANY($3::bigint[])",
                          [.integer(change.entity), change.columns.map { .bytes($0) } ?? .null, Self.bigintArray(ids)])
            }
        }
    }

    /// Fails the migration before it copies anything when an object of the user's depends on
    /// one of the old `tables` (unquoted names in the store's schema): a view, or a foreign
    /// key of another table. The migration drops the old tables without CASCADE, so such an
    /// object would fail it only at the end, after the copy, with PostgreSQL's generic
    /// message; this names it and says what to do. Objects that go with a table on their own
    /// (its indexes, constraints, triggers) depend on it automatically; some of them (a CHECK
    /// naming its own table's columns) depend normally too, and are not counted. The schema
    /// is compared by name: `current_schema()::regnamespace` would read it as SQL (folded to
    /// lower case, digits as an OID).
    private func refuseObjectsDepending(on tables: [String]) throws {
        let dependents = try query("""
            SELECT DISTINCT CASE WHEN d.classid = 'pg_rewrite'::regclass
                                 THEN 'view ' || (SELECT r.ev_class::regclass::text FROM pg_rewrite r WHERE r.oid = d.objid)
                                 ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END,
                   t.relname::text
            FROM pg_depend d JOIN pg_class t ON t.oid = d.refobjid JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE d.refclassid = 'pg_class'::regclass AND d.deptype = 'n'
              AND n.nspname = current_schema() AND t.relname = ANY($1::text[])
              AND NOT EXISTS (SELECT 1 FROM pg_depend own
                              WHERE own.classid = d.classid AND own.objid = d.objid AND own.refclassid = 'pg_class'::regclass
                                AND own.refobjid = d.refobjid AND own.deptype IN ('a', 'i'))
            ORDER BY 1, 2
            """, [Self.textArray(tables)])
        guard !dependents.isEmpty else { return }
        let named = dependents.map { row -> String in
            guard case .text(let object) = row[0], case .text(let table) = row[1] else { return "\(row)" }
            return "\(object) (on \(table))"
        }
        throw RowConverter.migrationError(describedURL, "the new model replaces the store's tables, and objects of the database depend on the old ones: \(named.joined(separator: ", ")). Drop them, migrate, and create them again on the new tables")
    }

    /// A history change's new entity number and changed-columns bitmap.
    private struct RenumberedChange: Hashable {
        let entity: Int64
        let columns: Data?
    }

    /// How many source rows a migration holds at once.
    static let migrationBatchSize = 1000

    /// Copies the rows of the source tables (moved to the schema `holding`, read through
    /// `sourcePlans`) into the destination's tables (the current plans), converted, in batches
    /// of ``migrationBatchSize`` in key order: every row first, then the to-many relationships
    /// whose writing needs their members' rows in (join rows, an ordered one-to-many's order).
    /// Memory holds one batch of rows with their to-many members, not the store.
    private func copyRows(from sourcePlans: PlannedSchema, in holding: String, converter: RowConverter) throws {
        let destinationPlans = plannedSchema
        let destinationSchema = schema!
        // The tables that take the second pass: the destination entities of their rows have
        // a to-many relationship written apart from the rows.
        func writesToMany(_ table: StoreEntityTable) -> Bool {
            table.entities.contains { e in
                converter.entities[e.name ?? ""]?.relationshipsByName.values.contains { r in
                    destinationSchema.toManySource(for: r)?.isWrittenApart ?? false
                } ?? false
            }
        }
        for relationships in [false, true] {
            for table in sourcePlans.schema.tables where !relationships || writesToMany(table) {
                var after = Int64.min
                while true {
                    plannedSchema = sourcePlans
                    var rows = try query("SELECT \(selectList(of: table)) FROM \(holding).\(table.sqlName) WHERE \"Z_PK\" > $1 ORDER BY \"Z_PK\" LIMIT \(Self.migrationBatchSize)",
                                         [.integer(after)]).map { try decode($0, from: table) }
                    guard let last = rows.last else { break }
                    after = last.key.primaryKey
                    if relationships { try loadToManyMembers(into: &rows, in: holding) }
                    plannedSchema = destinationPlans
                    // Grouped by entity: the insert writes one statement per run of an entity.
                    let converted = try rows.compactMap { try converter.convert($0) }.sorted { ($0.entity.name ?? "") < ($1.entity.name ?? "") }
                    if relationships { try writeMigratedRelationships(of: converted) } else { try insertMigrated(converted) }
                }
            }
        }
        plannedSchema = destinationPlans
    }

    /// Fills the to-many slots of many-to-many and ordered one-to-many relationships in `rows`
    /// (a batch of one source table, read through the source plans) from the tables in
    /// `holding`. An unordered one-to-many is left out: its members' rows carry it.
    private func loadToManyMembers(into rows: inout [StoreRow], in holding: String) throws {
        let owners = rows.map(\.key.primaryKey)
        var members: [ObjectIdentifier: [Int64: [NSManagedObjectID]]] = [:]  // by relationship: owner key → members
        for i in rows.indices {
            guard let layout = rows[i].entity.layout else { continue }
            var values = Array(rows[i].values)
            var changed = false
            for (slot, property) in layout.properties.enumerated() {
                guard let relationship = property as? NSRelationshipDescription, relationship.isToMany,
                      let source = schema.toManySource(for: relationship), source.isWrittenApart else { continue }
                let id = ObjectIdentifier(relationship)
                if members[id] == nil { members[id] = try readMembers(of: source, owners: owners, tablePrefix: holding + ".") }
                values[slot] = .objectIDs(members[id]?[rows[i].key.primaryKey] ?? [])
                changed = true
            }
            if changed { rows[i].values = RowValues(values) }
        }
    }

    /// Whether `key` is one the store writes for itself, not one of the application's.
    static func isStoreKey(_ key: String) -> Bool {
        StoreMetadataCheck.isStoreKey(key, storeKeys: [earlierModelsKey, appleVersionHashesKey])
    }
}
