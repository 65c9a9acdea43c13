import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsmigrationstage (iOS 17+; iOS 18 / macOS 15 SDK),
// cross-checked against onestack.dev's iOS reference (which also lists the inherited init()).

/// api: NSMigrationStage.init()
func api_NSMigrationStage_init() {
    let stage: NSMigrationStage = NSMigrationStage()
    _ = stage
}

/// api: NSMigrationStage.label
func api_NSMigrationStage_label(_ stage: NSMigrationStage) {
    let label: String! = stage.label
    stage.label = label
    stage.label = "V1 to V2"
}
