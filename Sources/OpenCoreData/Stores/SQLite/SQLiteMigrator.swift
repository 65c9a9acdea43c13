import CSQLite
import Foundation

/// The models a SQLite store may have been made with, for lightweight migration
/// (`[NSManagedObjectModel]`). Apple's framework finds the source model in the app bundle; this
/// one does not search bundles for earlier versions, so pass them here. The one whose
/// version hashes equal those in the store's metadata is the source. A single model is accepted
/// too (`description.setOption(modelV1, forKey: OCDMigrationSourceModelsOption)`). An
/// OpenCoreData addition.
///
/// ```swift
/// try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [
///     NSMigratePersistentStoresAutomaticallyOption: true,
///     NSInferMappingModelAutomaticallyOption: true,
///     OCDMigrationSourceModelsOption: [modelV1, modelV2],
/// ])
/// ```
public let OCDMigrationSourceModelsOption = "OCDMigrationSourceModelsOption"

/// Mapping models for automatic migration without inference (`[NSMappingModel]`, or `[URL]` of
/// `.cdm` files and `.xcmappingmodel` documents): with `NSMigratePersistentStoresAutomaticallyOption`
/// and without `NSInferMappingModelAutomaticallyOption`, the one that maps the store's model
/// (from `OCDMigrationSourceModelsOption`) to the coordinator's is run by `NSMigrationManager`.
/// Apple's framework finds mapping models in the app's bundles; the main bundle is searched
/// here too (`NSMappingModel(from:forSourceModel:destinationModel:)`). An OpenCoreData addition.
///
/// ```swift
/// try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [
///     NSMigratePersistentStoresAutomaticallyOption: true,
///     OCDMigrationSourceModelsOption: [modelV2],
///     OCDMappingModelsOption: [URL(fileURLWithPath: "Mappings/V2toV3.cdm")],
/// ])
/// ```
public let OCDMappingModelsOption = "OCDMappingModelsOption"

/// Lightweight migration of a SQLite store file to a new model version, all or nothing.
///
/// ```swift
/// // Called by SQLiteStore.loadMetadata when both migration options are true:
/// try SQLiteMigrator.migrateIfNeeded(storeAt: url, to: model, options: options)
/// ```
///
/// How: the rows are read through the source model (a second coordinator on the original
/// file) a batch at a time in primary-key order, rebuilt through the inferred
/// ``NSMappingModel`` and written into a new store file beside the original
/// (`<name>.migrating`) in one transaction, keeping primary keys, `Z_OPT`, `Z_MAX`, the store
/// UUID and the caller's metadata keys. Only one batch of rows is in memory at a time. Only when that file is complete, checkpointed and
/// synced does it replace the original by `rename(2)`, which is atomic. So a crash or error at
/// any point leaves either the untouched original or the complete migrated store; a stale
/// `.migrating` file from a crash is deleted by the next attempt.
///
/// The original's WAL is moved into it (journal mode DELETE, which removes `-wal`/`-shm`)
/// before the rename, so no WAL of the old file can be replayed into the new one. That needs
/// the only connection to the file: while another coordinator or process has the store open,
/// the migration fails (134110) with the original unchanged.
enum SQLiteMigrator {
    /// Environment variable for the crash tests: `after-schema` or `before-replace` makes the
    /// migration print `OCD_MIGRATION_PAUSED <point>` to standard error and sleep, so a test
    /// can kill the process at that point.
    static let testPauseVariable = "OCD_MIGRATION_TEST_PAUSE"

    /// Internal store option: match the store to the model by structure, not by version
    /// hashes, because the model was rebuilt from the store (``SQLiteSourceModelRecovery``).
    static let structuralMatchOption = "_OCDMigrationStructuralMatch"

    /// Whether `options` ask for lightweight migration (both of Apple's options true).
    static func isRequested(by options: [AnyHashable: Any]?) -> Bool {
        NSPersistentStore.isOptionOn(NSMigratePersistentStoresAutomaticallyOption, in: options)
            && NSPersistentStore.isOptionOn(NSInferMappingModelAutomaticallyOption, in: options)
    }

    /// Whether `options` ask for migration through a mapping model: automatic migration
    /// without inference.
    static func isMappingModelMigrationRequested(by options: [AnyHashable: Any]?) -> Bool {
        NSPersistentStore.isOptionOn(NSMigratePersistentStoresAutomaticallyOption, in: options)
            && !NSPersistentStore.isOptionOn(NSInferMappingModelAutomaticallyOption, in: options)
    }

    /// Migrates the store at `url` to `destination` through a mapping model when its metadata
    /// says it was made with another model: the source model comes from
    /// `OCDMigrationSourceModelsOption`, the mapping from `OCDMappingModelsOption` or the main
    /// bundle. `NSMigrationManager` writes the migrated store beside the original
    /// (`<name>.migrating`), which then replaces it by `rename(2)`, as lightweight migration does.
    static func migrateWithMappingModelIfNeeded(storeAt url: URL, to destination: NSManagedObjectModel, options: [AnyHashable: Any]?) throws {
        let path = url.path
        guard let metadata = try? SQLiteStore.metadataForPersistentStore(with: url) else { return }
        let storedHashes = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        let ours = (metadata[SQLiteMetadata.hashSchemeKey] as? Int) == SQLiteMetadata.hashScheme
        func madeStore(_ model: NSManagedObjectModel) -> Bool {
            ours ? model.entityVersionHashesByName == storedHashes : model.appleEntityVersionHashesByName == storedHashes
        }
        if madeStore(destination) { return }
        let candidates = sourceModels(in: options, orTheOneAmongBundlesWhere: madeStore)
        guard let source = candidates.first(where: madeStore) else {
            // A store Apple wrote that no model matches by Apple's hashes: the open compares it structurally.
            if !ours { return }
            throw CoreDataError.make(NSMigrationMissingSourceModelError,
                "The store at \(path) was made with a different model version, and none of the models in OCDMigrationSourceModelsOption (\(candidates.count) given) nor any model version among the program's bundles, has its version hashes. Pass the model the store was made with there. The store was left unchanged.",
                [NSFilePathErrorKey: path, "metadata": metadata])
        }
        guard let mapping = mappingModels(in: options).first(where: { $0.isMapping(from: source, to: destination) })
                ?? NSMappingModel(from: nil, forSourceModel: source, destinationModel: destination) else {
            throw CoreDataError.make(NSMigrationMissingMappingModelError,
                "The store at \(path) needs migrating to this model, and no mapping model maps its model to this one. Pass the mapping model in OCDMappingModelsOption, or set NSInferMappingModelAutomaticallyOption to true for lightweight migration. The store was left unchanged.",
                [NSFilePathErrorKey: path])
        }
        try replaceWithMigratedCopy(of: url, failure: "through its mapping model", passing: [NSMigrationError]) { temporary, externalDirectory in
            try NSMigrationManager(sourceModel: source, destinationModel: destination)
                .migrateStore(from: url, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                              toDestinationURL: temporary, destinationType: NSSQLiteStoreType,
                              destinationOptions: [SQLiteExternalData.directoryOption: externalDirectory])
            try checkpointAndRemoveJournal(of: temporary.path)
            try sync(temporary.path)
        }
        ModelRegistry.register(destination)
    }

    /// The mapping models of `OCDMappingModelsOption`: models, or URLs of files to load.
    static func mappingModels(in options: [AnyHashable: Any]?) -> [NSMappingModel] {
        let items: [Any]
        switch options?[OCDMappingModelsOption] {
        case let list as [Any]: items = list
        case let array as NSArray: items = array.map { $0 }
        case let single?: items = [single]
        case nil: items = []
        }
        return items.compactMap { item in
            if let model = item as? NSMappingModel { return model }
            if let url = item as? URL { return try? NSMappingModel.load(contentsOf: url) }
            return nil
        }
    }

    /// Migrates the store at `url` to `destination` when its metadata says it was made with
    /// another model; returns the mapping used, or nil when nothing had to change.
    ///
    /// A store Apple's framework wrote carries Apple's hashes, which only models loaded with a
    /// `VersionInfo.plist` know; when neither the destination nor a source model can be matched
    /// that way, nothing is migrated here and opening compares the store structurally.
    @discardableResult
    static func migrateIfNeeded(storeAt url: URL, to destination: NSManagedObjectModel, options: [AnyHashable: Any]?) throws -> NSMappingModel? {
        let path = url.path
        // A file that is not a readable store is for the ordinary open to report.
        guard let metadata = try? SQLiteStore.metadataForPersistentStore(with: url) else { return nil }
        let storedHashes = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        let ours = (metadata[SQLiteMetadata.hashSchemeKey] as? Int) == SQLiteMetadata.hashScheme
        func madeStore(_ model: NSManagedObjectModel) -> Bool {
            ours ? model.entityVersionHashesByName == storedHashes : model.appleEntityVersionHashesByName == storedHashes
        }
        if madeStore(destination) { return nil }
        let candidates = sourceModels(in: options, orTheOneAmongBundlesWhere: madeStore)
        if !ours && !candidates.contains(where: madeStore) {
            return try migrateAppleStoreByStructure(at: url, metadata: metadata, to: destination, candidates: candidates)
        }
        // Without the model, a store of ours may still be read through the new model taken
        // back to what the file shows, when the file leaves no doubt (SQLiteSourceModelRecovery).
        let recovered = { (try? SQLiteSourceModelRecovery.sourceModel(forStoreAt: path, destination: destination)) ?? nil }
        guard let source = candidates.first(where: madeStore) ?? recovered() else {
            throw CoreDataError.make(NSMigrationMissingSourceModelError,
                "The store at \(path) was made with a different model version, none of the models in OCDMigrationSourceModelsOption (\(candidates.count) given) has its version hashes (entities \(storedHashes.keys.sorted().joined(separator: ", "))), and the changes are more than the store file can show (relationships or types changed). Pass the model the store was made with in OCDMigrationSourceModelsOption (or ship it among the program's resources) so it can be migrated. The store was left unchanged.",
                [NSFilePathErrorKey: path, "metadata": metadata])
        }
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        try migrate(storeAt: url, metadata: metadata, from: source, to: destination, mapping: mapping,
                    matchByStructure: !candidates.contains { $0 === source })
        // The source model's coordinator registered its entities for the program's classes;
        // the destination model is the one in use from now on.
        ModelRegistry.register(destination)
        return mapping
    }

    /// Migrates a store Apple's framework wrote when neither `destination` nor any candidate has
    /// Apple's version hashes for it (models loaded without their `VersionInfo.plist`): the
    /// model whose tables and columns are exactly the store's made it. Nothing to do when that
    /// is `destination`, or when no candidates were given (opening then compares the store with
    /// `destination` as before); a clear error when candidates were given but none fits.
    private static func migrateAppleStoreByStructure(at url: URL, metadata: [String: Any], to destination: NSManagedObjectModel, candidates: [NSManagedObjectModel]) throws -> NSMappingModel? {
        guard !candidates.isEmpty else { return nil }
        let path = url.path
        var differencesByCandidate: [[String]] = []
        let source: NSManagedObjectModel? = try {
            let db = try SQLiteConnection(path: path, readOnly: true)
            defer { db.close() }
            if try StoreSchema.differences(between: destination, and: db).isEmpty { return nil }
            for candidate in candidates {
                let differences = try StoreSchema.differences(between: candidate, and: db)
                if differences.isEmpty { return candidate }
                differencesByCandidate.append(differences)
            }
            throw CoreDataError.make(NSMigrationMissingSourceModelError,
                "The store at \(path) was written by Apple's framework, and none of the \(candidates.count) models in OCDMigrationSourceModelsOption has its tables and columns (\(differencesByCandidate.map { $0.prefix(4).joined(separator: ", ") }.joined(separator: "; "))). Pass the model version that made the store, or load the models with their compiled .momd (VersionInfo.plist) so that Apple's version hashes identify it. The store was left unchanged.",
                [NSFilePathErrorKey: path, "metadata": metadata])
        }()
        guard let source else { return nil }
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        try migrate(storeAt: url, metadata: metadata, from: source, to: destination, mapping: mapping, matchByStructure: true)
        ModelRegistry.register(destination)
        return mapping
    }

    /// The models of `OCDMigrationSourceModelsOption`; when none of them made the store, the
    /// model version among the program's bundles that did (compiled `.momd` versions, or Xcode
    /// sources), as Apple's framework finds a store's model in the app bundle.
    static func sourceModels(in options: [AnyHashable: Any]?, orTheOneAmongBundlesWhere madeStore: (NSManagedObjectModel) -> Bool) -> [NSManagedObjectModel] {
        let given = sourceModels(in: options)
        if given.contains(where: madeStore) { return given }
        let bundled = ModelVersionFile.versions(in: ModelVersionFile.programBundles()).lazy.compactMap { try? $0.load() }.first(where: madeStore)
        return given + [bundled].compactMap { $0 }
    }

    /// The models of `OCDMigrationSourceModelsOption`: an array, an `NSArray` (what
    /// `NSPersistentStoreDescription.setOption(_:forKey:)` takes) or a single model.
    static func sourceModels(in options: [AnyHashable: Any]?) -> [NSManagedObjectModel] {
        switch options?[OCDMigrationSourceModelsOption] {
        case let models as [NSManagedObjectModel]: return models
        case let model as NSManagedObjectModel: return [model]
        case let array as NSArray: return array.compactMap { $0 as? NSManagedObjectModel }
        default: return []
        }
    }

    /// Rewrites the store at `url` from `source` to `destination` through `mapping`.
    static func migrate(storeAt url: URL, metadata: [String: Any], from source: NSManagedObjectModel, to destination: NSManagedObjectModel, mapping: NSMappingModel, matchByStructure: Bool = false) throws {
        try replaceWithMigratedCopy(of: url, failure: "", passing: [NSMigrationError, NSInferredMappingModelError]) { temporary, externalDirectory in
            try writeMigratedStore(from: url, to: temporary, metadata: metadata, source: source, destination: destination, mapping: mapping,
                                   matchByStructure: matchByStructure, externalDirectory: externalDirectory)
        }
    }

    /// Has `write` make a migrated copy of the store at `url` beside it (`<name>.migrating`),
    /// then puts the copy in the store's place with `rename(2)`: all or nothing, whatever kills
    /// the process. External binary values: the copy writes its files into the original's
    /// directory under new names (`write` gets it), so they are in place the moment the rename
    /// makes the copy the store; the original's files go only after that, the copy's if
    /// anything fails. Errors of the codes in `passing` are rethrown as they are; others become
    /// `NSMigrationError` saying the original was left unchanged.
    private static func replaceWithMigratedCopy(of url: URL, failure: String, passing: [Int], write: (_ temporary: URL, _ externalDirectory: URL) throws -> Void) throws {
        let path = url.path
        let temporary = URL(fileURLWithPath: path + ".migrating")
        try? SQLiteStore.destroyPersistentStore(at: temporary)   // left over from a crash
        let externalDirectory = SQLiteExternalData.directory(forStoreAt: url)
        let filesBefore = SQLiteExternalData.fileNames(in: externalDirectory)
        // From the copy's first file to the removal of the original's old ones, the folder's
        // files may not match the store: a marker tells the next open to collect if this
        // process dies in between. A store without the folder has no external files to leave.
        let marker = filesBefore.isEmpty ? nil : try? SQLiteExternalData.writePendingMarker(in: externalDirectory)
        defer { if let marker { try? FileManager.default.removeItem(at: marker) } }
        do {
            try write(temporary, externalDirectory)
            pauseForTests(at: "before-replace")
            try checkpointAndRemoveJournal(of: path)
            try replace(path, with: temporary.path)
            let referenced = (try? SQLiteExternalData.referencedNames(inStoreAt: path)) ?? filesBefore
            for name in filesBefore.subtracting(referenced) { try? FileManager.default.removeItem(at: externalDirectory.appendingPathComponent(name)) }
        } catch {
            try? SQLiteStore.destroyPersistentStore(at: temporary)
            for name in SQLiteExternalData.fileNames(in: externalDirectory).subtracting(filesBefore) {
                try? FileManager.default.removeItem(at: externalDirectory.appendingPathComponent(name))
            }
            let nsError = error as NSError
            if nsError.domain == NSCocoaErrorDomain, passing.contains(nsError.code) { throw error }
            // The copy is ours, not the caller's: the message names the caller's file.
            let reason = nsError.localizedDescription.replacingOccurrences(of: temporary.path, with: "the migrated copy of \(path)")
            throw CoreDataError.make(NSMigrationError, "Migrating the store at \(path)\(failure.isEmpty ? "" : " " + failure) failed: \(reason) The original store was left unchanged.",
                                     [NSFilePathErrorKey: path, NSUnderlyingErrorKey: nsError])
        }
    }

    // MARK: Writing the migrated copy

    /// Rows read and written per batch: the most a lightweight migration holds in memory
    /// (with the batch's to-many members), whatever the size of the store. At most
    /// `SQLiteStore.rowBatchLimit`, which bounds the batch's `IN (...)` lists.
    static let batchSize = SQLiteStore.rowBatchLimit

    private static func writeMigratedStore(from url: URL, to temporary: URL, metadata: [String: Any], source: NSManagedObjectModel, destination: NSManagedObjectModel, mapping: NSMappingModel, matchByStructure: Bool, externalDirectory: URL) throws {
        // The records are read through the source model, read-only: a connection that may
        // write would checkpoint the original's WAL into its main file when it closes, changing
        // the original's bytes even when the migration then fails.
        let sourceCoordinator = NSPersistentStoreCoordinator(managedObjectModel: source)
        var sourceOptions: [AnyHashable: Any] = [NSReadOnlyPersistentStoreOption: true]
        if matchByStructure { sourceOptions[structuralMatchOption] = true }
        let sourceStore = try sourceCoordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: sourceOptions)
        // Closed on every path: the original must have no connection of ours when it is replaced.
        defer { if sourceStore.persistentStoreCoordinator != nil { try? sourceCoordinator.remove(sourceStore) } }
        guard let reader = sourceStore as? SQLiteStore else { throw migrationError(url.path, "the source store is not a SQLite store") }
        let highWaterMarks = try reader.openConnection().query("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY", []) { ($0.text(at: 0) ?? "", $0.int64(at: 1)) }
        let history = try SQLiteHistoryCopy(from: reader.openConnection())
        guard let sourceEntities = reader.schema else { throw migrationError(url.path, "the source store has no schema") }

        // ...into a new store file with the destination's schema, open at the same time: rows
        // stream from one to the other a batch at a time (SQLiteBulkInsert), in one transaction
        // of the copy, so memory stays at one batch however large the store is.
        let destinationCoordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
        let destinationStore = try destinationCoordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: temporary,
                                                                             options: [SQLiteExternalData.directoryOption: externalDirectory])
        defer { if destinationStore.persistentStoreCoordinator != nil { try? destinationCoordinator.remove(destinationStore) } }
        guard let writer = destinationStore as? SQLiteStore else { throw migrationError(url.path, "the new store is not a SQLite store") }
        pauseForTests(at: "after-schema")

        // Primary keys stay as they are (as in Apple's lightweight migration, which keeps
        // Z_PK): inheritance can't change in a lightweight migration, so each hierarchy keeps
        // its own table and its keys stay unique, and every to-one key and join-table pair of
        // the source is already right in the copy. No map from old keys to new ones is needed.
        let converter = RowConverter(mapping: mapping, destination: destination, store: destinationStore, path: url.path)
        let roots = source.entities.filter { $0.superentity == nil }
        let skipping = try unneededToMany(source: source, destination: destination, mapping: mapping, reader: reader, writer: writer)
        // Each batch of the source's rows in key order, table by table, converted.
        func forEachBatch(_ body: ([StoreRow]) throws -> Void) throws {
            for root in roots {
                var last = Int64.min
                while true {
                    let batch = try reader.rows(of: root, afterKey: last, limit: batchSize, skippingToMany: skipping)
                    guard let end = batch.last else { break }
                    last = end.key.primaryKey
                    try body(try batch.compactMap { try converter.convert($0) })
                    if batch.count < batchSize { break }
                }
            }
        }
        let insert = try SQLiteBulkInsert(into: writer)
        do {
            try forEachBatch { try insert.insert($0) }
            // Ordered one-to-many positions live in the members' rows, which may have come in
            // a later batch than their owner: set them once every row is in.
            if insert.needsOrderPass { try forEachBatch { try insert.order($0) } }
            try insert.commit()
        } catch {
            insert.rollback()
            throw error
        }
        try sourceCoordinator.remove(sourceStore)
        let newMetadata = destinationStore.metadata ?? [:]
        try destinationCoordinator.remove(destinationStore)

        // Same store UUID (object URIs stay valid), the caller's own metadata keys, Z_MAX as high as before.
        let db = try SQLiteConnection(path: temporary.path, readOnly: false)
        defer { db.close() }
        var plist = newMetadata
        for (key, value) in metadata where plist[key] == nil && !SQLiteMetadata.isStoreKey(key) { plist[key] = value }
        plist[NSStoreUUIDKey] = nil
        try db.inTransaction {
            try db.run("UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ?", [.text(metadata[NSStoreUUIDKey] as? String ?? UUID().uuidString), .blob(try SQLiteMetadata.encode(plist))])
            // The history comes along, its changes renumbered to the destination's entities.
            if let history {
                let destinationNumbers = Dictionary(try db.query("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY", []) { ($0.text(at: 0) ?? "", $0.int64(at: 1)) }, uniquingKeysWith: { a, _ in a })
                func destinationEntity(_ number: Int64) -> NSEntityDescription? {
                    guard let name = sourceEntities.entity(number: Int(number))?.name,
                          let mapped = mapping.mapping(forSourceEntityName: name)?.destinationEntityName else { return nil }
                    return destination.entitiesByName[mapped]
                }
                try history.write(into: db, entityNumber: { number in destinationEntity(number)?.name.flatMap { destinationNumbers[$0] } }, columns: { number, data in
                    guard let source = sourceEntities.entity(number: Int(number)), let target = destinationEntity(number) else { return nil }
                    let names = HistoryColumns.decode(data, of: source).map(\.name)
                    return HistoryColumns.encode(names.compactMap { target.layout?.indexByName[$0] }, of: target)
                })
            }
            for (sourceName, max) in highWaterMarks {
                guard let entityMapping = mapping.mapping(forSourceEntityName: sourceName), let name = entityMapping.destinationEntityName else { continue }
                try db.run("UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(IFNULL(Z_MAX, 0), ?) WHERE Z_NAME = ?", [.integer(max), .text(name)])
            }
        }
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary.path + suffix) }
        try sync(temporary.path)
    }

    /// The source's to-many relationships whose members the copy does not need, so batches
    /// don't read them. Which side of a relationship is read matters: a batch of 512 groups
    /// would hold the IDs of all their items, a batch of 512 items only one group each.
    /// - Mapped to nothing, or to an unordered to-many kept by foreign key: the members' own
    ///   to-one column holds the link, and it comes with their rows.
    /// - Mapped to an unordered side of a many-to-many whose other side is read: the join
    ///   table gets the same pairs from there. Of two unordered sides, the one whose table has
    ///   fewer rows is skipped (its owners have more members each, on average).
    /// Only what is read changes, never what is written: both sides describe the same links.
    private static func unneededToMany(source: NSManagedObjectModel, destination: NSManagedObjectModel, mapping: NSMappingModel, reader: SQLiteStore, writer: SQLiteStore) throws -> Set<ObjectIdentifier> {
        // Each source relationship's destination relationship, and back.
        var target: [ObjectIdentifier: NSRelationshipDescription] = [:]
        var sourceOf: [ObjectIdentifier: NSRelationshipDescription] = [:]
        var toMany: [NSRelationshipDescription] = []
        for entity in source.entities {
            let entityMapping = mapping.mapping(forSourceEntityName: entity.name ?? "")
            let destinationEntity = entityMapping?.destinationEntityName.flatMap { destination.entitiesByName[$0] }
            for case let relationship as NSRelationshipDescription in entity.properties where !relationship.isTransient {
                if relationship.isToMany { toMany.append(relationship) }
                guard let name = entityMapping?.relationshipMappings?.first(where: { $0.sourceName == relationship.name })?.name,
                      let mapped = destinationEntity?.relationshipsByName[name] else { continue }
                target[ObjectIdentifier(relationship)] = mapped
                sourceOf[ObjectIdentifier(mapped)] = relationship
            }
        }
        var rowCounts: [String: Int64] = [:]
        func rowCount(_ entity: NSEntityDescription) throws -> Int64 {
            guard let table = reader.plan(for: entity)?.table.sqlName else { return 0 }
            if let known = rowCounts[table] { return known }
            let count = try reader.openConnection().query("SELECT COUNT(*) FROM \(table)", []) { $0.int64(at: 0) }.first ?? 0
            rowCounts[table] = count
            return count
        }
        func sortKey(_ r: NSRelationshipDescription) -> String { "\(r.entity?.name ?? "").\(r.name)" }
        var skipping: Set<ObjectIdentifier> = []
        for relationship in toMany {
            guard let mapped = target[ObjectIdentifier(relationship)], mapped.isToMany else {
                if target[ObjectIdentifier(relationship)] == nil { skipping.insert(ObjectIdentifier(relationship)) }
                continue
            }
            guard !mapped.isOrdered else { continue }
            switch writer.schema.toManySource(for: mapped) {
            case .foreignKey?, nil:
                skipping.insert(ObjectIdentifier(relationship))
            case .joinTable?:
                guard let inverse = mapped.inverseRelationship, inverse !== mapped, inverse.isToMany,
                      let other = sourceOf[ObjectIdentifier(inverse)], other !== relationship else { continue }
                let skip: Bool
                if inverse.isOrdered || !other.isToMany {
                    skip = true   // the other side is read anyway (ordered, or a to-one column)
                } else {
                    let mine = try rowCount(relationship.entity), theirs = try rowCount(other.entity)
                    skip = mine < theirs || (mine == theirs && sortKey(relationship) > sortKey(other))
                }
                if skip { skipping.insert(ObjectIdentifier(relationship)) }
            }
        }
        return skipping
    }

    // MARK: Replacing the original

    /// Moves the original's WAL into the file and removes `-wal` and `-shm`, so the file alone
    /// holds the store and no old WAL can be replayed into its replacement.
    ///
    /// Switching the journal mode to DELETE does both, and SQLite allows it only to the one
    /// connection of the file: while another coordinator or process has the store open it
    /// fails, and deleting the WAL under that connection would corrupt what it sees. The
    /// original is then unchanged (its next open switches it back to WAL).
    private static func checkpointAndRemoveJournal(of path: String) throws {
        let db = try SQLiteConnection(path: path, readOnly: false)
        defer { db.close() }
        db.setBusyTimeout(1)
        let mode = try? db.query("PRAGMA journal_mode = DELETE") { $0.text(at: 0) ?? "" }.first
        guard mode == "delete" else {
            throw migrationError(path, "another connection holds the store open, so its write-ahead log can't be moved into the file safely. Close every other coordinator and process using the store, then open it again")
        }
        db.close()
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// `rename(2)` replaces the original in one step; the directory is synced so the rename
    /// survives a power loss.
    private static func replace(_ path: String, with temporary: String) throws {
        guard rename(temporary, path) == 0 else {
            throw migrationError(path, "can't move the migrated store into place: \(String(cString: strerror(errno)))")
        }
        try sync((path as NSString).deletingLastPathComponent)
    }

    private static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw migrationError(path, "can't open \(path) to sync it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        _ = fsync(fd)
    }

    private static func pauseForTests(at point: String) {
        guard ProcessInfo.processInfo.environment[testPauseVariable] == point else { return }
        FileHandle.standardError.write(Data("OCD_MIGRATION_PAUSED \(point)\n".utf8))
        sleep(600)
    }

    static func migrationError(_ path: String, _ reason: String) -> NSError {
        RowConverter.migrationError(path, reason)
    }
}
