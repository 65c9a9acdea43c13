import Foundation

/// What a store runs before it opens when its options hold a staged migration manager
/// (`NSPersistentStoreStagedMigrationManagerOptionKey`).
///
/// ```swift
/// if let staged = options?[NSPersistentStoreStagedMigrationManagerOptionKey] as? StagedStoreMigration {
///     try staged.migrateStore(at: url, ofType: NSSQLiteStoreType, to: model, options: options)
/// }
/// ```
///
/// `NSStagedMigrationManager` (with the container its handlers use) sits above the stores, so
/// the stores see it through this protocol.
protocol StagedStoreMigration: AnyObject {
    /// Brings the store at `url` to `model` through the stages that lead there; does nothing
    /// when the store is already at `model`'s version or at none of the stages' versions.
    func migrateStore(at url: URL, ofType storeType: String, to model: NSManagedObjectModel, options: [AnyHashable: Any]?) throws
}
