import Foundation

/// One stage of a staged migration: use ``NSLightweightMigrationStage`` or
/// ``NSCustomMigrationStage``.
///
/// ```swift
/// let stage = NSLightweightMigrationStage([v1.versionChecksum])
/// stage.label = "V1 to V2: add Pet"
/// ```
open class NSMigrationStage: NSObject {
    /// What the stage is for, in the words of its author; errors of the stage quote it.
    open var label: String!

    public override init() {
        super.init()
    }

    /// How errors name the stage.
    var displayName: String {
        if let label { return "'\(label)'" }
        return "\(type(of: self))"
    }
}

/// Model versions that follow one another by lightweight migration, oldest first.
///
/// ```swift
/// let stage = NSLightweightMigrationStage([v1Checksum, v2Checksum])
/// ```
///
/// A store at one of these versions is migrated to the next version of the staged migration's
/// sequence (the following checksum here, or the first model of the following stage, or at the
/// end the coordinator's model), one lightweight migration at a time. A checksum names a model
/// among the models the migration knows: those of the stages' model references, the
/// coordinator's, those of `OCDMigrationSourceModelsOption`, and every model version in the
/// program's bundles (``NSManagedObjectModel/checksumsForVersionedModel(at:)``).
open class NSLightweightMigrationStage: NSMigrationStage {
    /// The version checksums of the stage's models, oldest first.
    public let versionChecksums: [String]

    public init(_ checksums: [String]) {
        versionChecksums = checksums
        super.init()
    }
}

/// Two model versions a lightweight migration joins, with your code before and after it.
///
/// ```swift
/// let stage = NSCustomMigrationStage(migratingFrom: v2, to: v3)
/// stage.willMigrateHandler = { manager, _ in
///     let context = manager.container!.newBackgroundContext()
///     try context.performAndWait {
///         // Move the values v3 drops into the entities v2 added, with the v2 model.
///         try context.save()
///     }
/// }
/// ```
///
/// The stage runs `willMigrateHandler` with the manager's ``NSStagedMigrationManager/container``
/// open on the store at the current model, migrates the store to the next model, then runs
/// `didMigrateHandler` with the container open at the next model. An error a handler throws
/// stops the migration: the store stays at the version it had reached, and adding it fails
/// with `NSMigrationError` whose underlying error is the handler's.
open class NSCustomMigrationStage: NSMigrationStage {
    /// The model version the stage migrates from.
    public let currentModel: NSManagedObjectModelReference
    /// The model version the stage migrates to.
    public let nextModel: NSManagedObjectModelReference
    /// Runs before the stage's migration, with the store at ``currentModel``.
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    /// Runs after the stage's migration, with the store at ``nextModel``.
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
        super.init()
    }
}
