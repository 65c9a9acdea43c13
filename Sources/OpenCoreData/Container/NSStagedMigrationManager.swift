import Foundation

/// Migrates a store through a sequence of model versions, stage by stage, when it is added.
///
/// ```swift
/// let manager = NSStagedMigrationManager([
///     NSLightweightMigrationStage([v1.versionChecksum]),          // V1 → V2: add Pet
///     customStage,                                                // V2 → V3: petName becomes a Pet
/// ])
/// container.persistentStoreDescriptions.first?.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
/// container.loadPersistentStores { _, error in ... }
/// ```
///
/// The stages, in order, name a sequence of model versions: a lightweight stage its checksums,
/// a custom stage its current and next model; the coordinator's model ends the sequence. A
/// store at one of those versions is migrated from there to the end, one step at a time; each
/// step is a lightweight migration of the SQLite store (all or nothing, see `SQLiteMigrator`),
/// and a custom stage's handlers run before and after its step. A store already at the
/// coordinator's model, or at a version the stages do not name, is left to the ordinary open
/// (and its lightweight migration, when the options ask for one).
///
/// Staged migration runs on SQLite stores (`NSSQLiteStoreType`).
open class NSStagedMigrationManager: NSObject, StagedStoreMigration {
    /// The stages, in the order they run.
    public let stages: [NSMigrationStage]

    /// A container open on the migrating store while a custom stage's handler runs: at the
    /// stage's current model in `willMigrateHandler`, at its next model in `didMigrateHandler`;
    /// nil otherwise.
    open private(set) var container: NSPersistentContainer?

    public init(_ stages: [NSMigrationStage]) {
        self.stages = stages
        super.init()
    }

    // MARK: Running the stages

    /// One version of the sequence: its checksum, and the reference that finds its model when a
    /// stage gave one.
    private struct Version {
        let checksum: String
        var reference: NSManagedObjectModelReference?
    }

    func migrateStore(at url: URL, ofType storeType: String, to model: NSManagedObjectModel, options: [AnyHashable: Any]?) throws {
        guard storeType == NSSQLiteStoreType else {
            throw CoreDataError.make(NSMigrationError, "Staged migration runs on SQLite stores; the store at \(url.path) is of type \(storeType). Migrate it with NSMigrationManager, or open it without NSPersistentStoreStagedMigrationManagerOptionKey.", [NSFilePathErrorKey: url.path])
        }
        let (versions, customStages) = try sequence(endingAt: model)
        let catalog = ModelCatalog(versions: versions.compactMap(\.reference), destination: model, options: options)
        func resolve(_ index: Int) throws -> NSManagedObjectModel {
            if let reference = versions[index].reference { return try reference.resolve() }
            return try catalog.model(withChecksum: versions[index].checksum)
        }

        guard let start = try storePosition(of: url, in: versions, resolve: resolve) else { return }
        // Every model before the first step: a version that can't be found stops the migration
        // with the store unchanged.
        var models: [Int: NSManagedObjectModel] = [:]
        for index in start..<versions.count { models[index] = try resolve(index) }
        for position in start..<(versions.count - 1) {
            let source = models[position]!, destination = models[position + 1]!
            let stage = customStages[position]
            if let stage, let handler = stage.willMigrateHandler {
                try run(handler, of: stage, named: "willMigrateHandler", onStoreAt: url, with: source)
            }
            let metadata = try SQLiteStore.metadataForPersistentStore(with: url)
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
            try SQLiteMigrator.migrate(storeAt: url, metadata: metadata, from: source, to: destination, mapping: mapping)
            if let stage, let handler = stage.didMigrateHandler {
                try run(handler, of: stage, named: "didMigrateHandler", onStoreAt: url, with: destination)
            }
        }
        // The source models' coordinators registered their entities for the program's classes;
        // the coordinator's model is the one in use from now on.
        ModelRegistry.register(model)
    }

    /// The versions the stages name, in order, ending with `model`'s; and the custom stage that
    /// owns the step from each version to the next, by the index of its first version.
    private func sequence(endingAt model: NSManagedObjectModel) throws -> ([Version], [Int: NSCustomMigrationStage]) {
        var versions: [Version] = []
        var customStages: [Int: NSCustomMigrationStage] = [:]
        func append(_ checksum: String, _ reference: NSManagedObjectModelReference?) throws {
            if versions.last?.checksum == checksum {
                if versions[versions.count - 1].reference == nil { versions[versions.count - 1].reference = reference }
                return
            }
            if versions.contains(where: { $0.checksum == checksum }) {
                throw CoreDataError.make(NSMigrationError, "The staged migration names the model version \(checksum) twice, apart: the stages must list model versions in the order they follow each other, oldest first.")
            }
            versions.append(Version(checksum: checksum, reference: reference))
        }
        for stage in stages {
            switch stage {
            case let lightweight as NSLightweightMigrationStage:
                for checksum in lightweight.versionChecksums { try append(checksum, nil) }
            case let custom as NSCustomMigrationStage:
                try append(custom.currentModel.versionChecksum, custom.currentModel)
                let first = versions.count - 1
                try append(custom.nextModel.versionChecksum, custom.nextModel)
                if versions.count - 1 > first { customStages[first] = custom }
            default:
                throw CoreDataError.make(NSMigrationError, "The staged migration's stage \(stage.displayName) is an NSMigrationStage of no known kind. Use NSLightweightMigrationStage or NSCustomMigrationStage.")
            }
        }
        try append(model.versionChecksum, NSManagedObjectModelReference(model: model, versionChecksum: model.versionChecksum))
        return (versions, customStages)
    }

    /// The index of the store's version in `versions`, by the checksum its metadata records or
    /// else by its entity version hashes; nil when it is at none of them.
    private func storePosition(of url: URL, in versions: [Version], resolve: (Int) throws -> NSManagedObjectModel) throws -> Int? {
        let metadata = try SQLiteStore.metadataForPersistentStore(with: url)
        if let checksum = metadata[NSPersistentStoreModelVersionChecksumKey] as? String,
           let index = versions.firstIndex(where: { $0.checksum == checksum }) {
            return index
        }
        let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        let checksum = NSManagedObjectModel.versionChecksum(of: hashes)
        if let index = versions.firstIndex(where: { $0.checksum == checksum }) { return index }
        return versions.indices.first { index in
            (try? resolve(index))?.hasEntityVersionHashes(hashes) == true
        }
    }

    /// Runs a custom stage's handler with ``container`` open on the store at `model`.
    private func run(_ handler: (NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void, of stage: NSCustomMigrationStage,
                     named handlerName: String, onStoreAt url: URL, with model: NSManagedObjectModel) throws {
        let container = NSPersistentContainer(name: url.deletingPathExtension().lastPathComponent, managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.type = NSSQLiteStoreType
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        self.container = container
        // The store must have no connection of the container's left when the next step
        // replaces its file.
        defer {
            self.container = nil
            let coordinator = container.persistentStoreCoordinator
            for store in coordinator.persistentStores { try? coordinator.remove(store) }
        }
        do {
            try handler(self, stage)
        } catch {
            throw CoreDataError.make(NSMigrationError, "The \(handlerName) of the migration stage \(stage.displayName) failed: \((error as NSError).localizedDescription). The store at \(url.path) stays at the model version \(handlerName == "willMigrateHandler" ? stage.currentModel.versionChecksum : stage.nextModel.versionChecksum), which the stages before reached.",
                                     [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
        }
    }
}

/// The models a staged migration can find by checksum: the stages' references, the
/// coordinator's model, those of `OCDMigrationSourceModelsOption`, and (read only when
/// needed) every model version in the program's bundles.
private final class ModelCatalog {
    private let known: [() -> NSManagedObjectModel?]
    private lazy var bundleVersions: [ModelVersionFile] = ModelVersionFile.versions(in: ModelVersionFile.programBundles())

    init(versions: [NSManagedObjectModelReference], destination: NSManagedObjectModel, options: [AnyHashable: Any]?) {
        known = [{ destination }] + SQLiteMigrator.sourceModels(in: options).map { model in { model } }
            + versions.map { reference in { try? reference.resolve() } }
    }

    func model(withChecksum checksum: String) throws -> NSManagedObjectModel {
        for find in known {
            if let model = find(), model.versionChecksum == checksum { return model }
        }
        for version in bundleVersions {
            if let model = try? version.load(), model.versionChecksum == checksum { return model }
        }
        throw CoreDataError.make(NSMigrationMissingSourceModelError, "No model with version checksum \(checksum) was found for the staged migration: not a stage's model reference, not the coordinator's model, none of OCDMigrationSourceModelsOption, and no model version in the program's bundles. Pass that model version in OCDMigrationSourceModelsOption, or name it with an NSManagedObjectModelReference. The store was left unchanged.",
                                 ["versionChecksum": checksum])
    }
}
