import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsmigrationmanager (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSMigrationManager.h and onestack.dev's
// iOS reference. migrateStore(from:type:options:mapping:to:type:options:) is the iOS 15 / macOS 12
// Swift overlay taking NSPersistentStore.StoreType.

/// api: NSMigrationManager.init(sourceModel:destinationModel:)
func api_NSMigrationManager_init(_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel) {
    let manager: NSMigrationManager = NSMigrationManager(sourceModel: source, destinationModel: destination)
    _ = manager
}

/// api: NSMigrationManager.destinationContext
func api_NSMigrationManager_destinationContext(_ manager: NSMigrationManager) {
    let context: NSManagedObjectContext = manager.destinationContext
    _ = context
}

/// api: NSMigrationManager.destinationModel
func api_NSMigrationManager_destinationModel(_ manager: NSMigrationManager) {
    let model: NSManagedObjectModel = manager.destinationModel
    _ = model
}

/// api: NSMigrationManager.mappingModel
func api_NSMigrationManager_mappingModel(_ manager: NSMigrationManager) {
    let mapping: NSMappingModel = manager.mappingModel
    _ = mapping
}

/// api: NSMigrationManager.sourceContext
func api_NSMigrationManager_sourceContext(_ manager: NSMigrationManager) {
    let context: NSManagedObjectContext = manager.sourceContext
    _ = context
}

/// api: NSMigrationManager.sourceModel
func api_NSMigrationManager_sourceModel(_ manager: NSMigrationManager) {
    let model: NSManagedObjectModel = manager.sourceModel
    _ = model
}

/// api: NSMigrationManager.destinationEntity(for:)
func api_NSMigrationManager_destinationEntity(_ manager: NSMigrationManager, _ mapping: NSEntityMapping) {
    let entity: NSEntityDescription? = manager.destinationEntity(for: mapping)
    _ = entity
}

/// api: NSMigrationManager.sourceEntity(for:)
func api_NSMigrationManager_sourceEntity(_ manager: NSMigrationManager, _ mapping: NSEntityMapping) {
    let entity: NSEntityDescription? = manager.sourceEntity(for: mapping)
    _ = entity
}

/// api: NSMigrationManager.userInfo
func api_NSMigrationManager_userInfo(_ manager: NSMigrationManager) {
    let userInfo: [AnyHashable: Any]? = manager.userInfo
    manager.userInfo = userInfo
}

/// api: NSMigrationManager.usesStoreSpecificMigrationManager
func api_NSMigrationManager_usesStoreSpecificMigrationManager(_ manager: NSMigrationManager) {
    let uses: Bool = manager.usesStoreSpecificMigrationManager
    manager.usesStoreSpecificMigrationManager = uses
}

/// api: NSMigrationManager.associate(sourceInstance:withDestinationInstance:for:)
func api_NSMigrationManager_associate(_ manager: NSMigrationManager, _ source: NSManagedObject, _ destination: NSManagedObject, _ mapping: NSEntityMapping) {
    manager.associate(sourceInstance: source, withDestinationInstance: destination, for: mapping)
}

/// api: NSMigrationManager.destinationInstances(forEntityMappingName:sourceInstances:)
func api_NSMigrationManager_destinationInstances(_ manager: NSMigrationManager, _ name: String, _ sources: [NSManagedObject]?) {
    let destinations: [NSManagedObject] = manager.destinationInstances(forEntityMappingName: name, sourceInstances: sources)
    let all: [NSManagedObject] = manager.destinationInstances(forEntityMappingName: name, sourceInstances: nil)
    _ = (destinations, all)
}

/// api: NSMigrationManager.sourceInstances(forEntityMappingName:destinationInstances:)
func api_NSMigrationManager_sourceInstances(_ manager: NSMigrationManager, _ name: String, _ destinations: [NSManagedObject]?) {
    let sources: [NSManagedObject] = manager.sourceInstances(forEntityMappingName: name, destinationInstances: destinations)
    let all: [NSManagedObject] = manager.sourceInstances(forEntityMappingName: name, destinationInstances: nil)
    _ = (sources, all)
}

/// api: NSMigrationManager.migrateStore(from:type:options:mapping:to:type:options:)
func api_NSMigrationManager_migrateStore_type(
    _ manager: NSMigrationManager,
    _ sourceURL: URL,
    _ sourceType: NSPersistentStore.StoreType,
    _ sourceOptions: [AnyHashable: Any]?,
    _ mapping: NSMappingModel,
    _ destinationURL: URL,
    _ destinationType: NSPersistentStore.StoreType,
    _ destinationOptions: [AnyHashable: Any]?
) throws {
    try manager.migrateStore(from: sourceURL, type: sourceType, options: sourceOptions, mapping: mapping,
                             to: destinationURL, type: destinationType, options: destinationOptions)
    // Both option dictionaries default to nil.
    try manager.migrateStore(from: sourceURL, type: sourceType, mapping: mapping, to: destinationURL, type: destinationType)
}

/// api: NSMigrationManager.migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)
func api_NSMigrationManager_migrateStore_sourceType(
    _ manager: NSMigrationManager,
    _ sourceURL: URL,
    _ sourceType: String,
    _ sourceOptions: [AnyHashable: Any]?,
    _ mapping: NSMappingModel?,
    _ destinationURL: URL,
    _ destinationType: String,
    _ destinationOptions: [AnyHashable: Any]?
) throws {
    // Deprecated in favor of migrateStore(from:type:options:mapping:to:type:options:).
    try manager.migrateStore(from: sourceURL, sourceType: sourceType, options: sourceOptions, with: mapping,
                             toDestinationURL: destinationURL, destinationType: destinationType,
                             destinationOptions: destinationOptions)
    // Both option dictionaries default to nil.
    try manager.migrateStore(from: sourceURL, sourceType: sourceType, with: mapping,
                             toDestinationURL: destinationURL, destinationType: destinationType)
}

/// api: NSMigrationManager.migrationProgress
func api_NSMigrationManager_migrationProgress(_ manager: NSMigrationManager) {
    let progress: Float = manager.migrationProgress
    _ = progress
}

/// api: NSMigrationManager.currentEntityMapping
func api_NSMigrationManager_currentEntityMapping(_ manager: NSMigrationManager) {
    let mapping: NSEntityMapping = manager.currentEntityMapping
    _ = mapping
}

/// api: NSMigrationManager.cancelMigrationWithError(_:)
func api_NSMigrationManager_cancelMigrationWithError(_ manager: NSMigrationManager, _ error: any Error) {
    manager.cancelMigrationWithError(error)
}

/// api: NSMigrationManager.reset()
func api_NSMigrationManager_reset(_ manager: NSMigrationManager) {
    manager.reset()
}
