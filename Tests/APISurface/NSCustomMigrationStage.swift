import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nscustommigrationstage (iOS 17+; iOS 18 /
// macOS 15 SDK), cross-checked against onestack.dev's iOS reference. init(migratingFrom:to:) and the
// two handlers are the Swift 5.8 overlay; the Objective-C block properties they refine (BOOL-returning
// blocks with an NSError ** parameter) are not Swift API.

/// api: NSCustomMigrationStage.init(migratingFrom:to:)
func api_NSCustomMigrationStage_init(_ current: NSManagedObjectModelReference, _ next: NSManagedObjectModelReference) {
    let stage: NSCustomMigrationStage = NSCustomMigrationStage(migratingFrom: current, to: next)
    let asStage: NSMigrationStage = stage
    _ = asStage
}

/// api: NSCustomMigrationStage.currentModel
func api_NSCustomMigrationStage_currentModel(_ stage: NSCustomMigrationStage) {
    let reference: NSManagedObjectModelReference = stage.currentModel
    _ = reference
}

/// api: NSCustomMigrationStage.nextModel
func api_NSCustomMigrationStage_nextModel(_ stage: NSCustomMigrationStage) {
    let reference: NSManagedObjectModelReference = stage.nextModel
    _ = reference
}

/// api: NSCustomMigrationStage.willMigrateHandler
func api_NSCustomMigrationStage_willMigrateHandler(_ stage: NSCustomMigrationStage) {
    let handler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)? = stage.willMigrateHandler
    stage.willMigrateHandler = handler
    stage.willMigrateHandler = { migrationManager, currentStage in
        let manager: NSStagedMigrationManager = migrationManager
        let current: NSCustomMigrationStage = currentStage
        _ = (manager, current)
    }
    stage.willMigrateHandler = nil
}

/// api: NSCustomMigrationStage.didMigrateHandler
func api_NSCustomMigrationStage_didMigrateHandler(_ stage: NSCustomMigrationStage) {
    let handler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)? = stage.didMigrateHandler
    stage.didMigrateHandler = handler
    stage.didMigrateHandler = { migrationManager, currentStage in
        let manager: NSStagedMigrationManager = migrationManager
        let current: NSCustomMigrationStage = currentStage
        _ = (manager, current)
    }
    stage.didMigrateHandler = nil
}
