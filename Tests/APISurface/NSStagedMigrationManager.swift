import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsstagedmigrationmanager (iOS 17+; iOS 18 /
// macOS 15 SDK), cross-checked against onestack.dev's iOS reference. init(_:) is the Swift 5.8
// overlay of -initWithMigrationStages:.

/// api: NSStagedMigrationManager.init(_:)
func api_NSStagedMigrationManager_init(_ stages: [NSMigrationStage]) {
    let manager: NSStagedMigrationManager = NSStagedMigrationManager(stages)
    _ = manager
}

/// api: NSStagedMigrationManager.container
func api_NSStagedMigrationManager_container(_ manager: NSStagedMigrationManager) {
    let container: NSPersistentContainer? = manager.container
    _ = container
}

/// api: NSStagedMigrationManager.stages
func api_NSStagedMigrationManager_stages(_ manager: NSStagedMigrationManager) {
    let stages: [NSMigrationStage] = manager.stages
    _ = stages
}
