import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nslightweightmigrationstage (iOS 17+; iOS 18 /
// macOS 15 SDK), cross-checked against onestack.dev's iOS reference. init(_:) is the Swift 5.8 overlay
// of -initWithVersionChecksums:.

/// api: NSLightweightMigrationStage.init(_:)
func api_NSLightweightMigrationStage_init(_ checksums: [String]) {
    let stage: NSLightweightMigrationStage = NSLightweightMigrationStage(checksums)
    let asStage: NSMigrationStage = stage
    _ = asStage
}

/// api: NSLightweightMigrationStage.versionChecksums
func api_NSLightweightMigrationStage_versionChecksums(_ stage: NSLightweightMigrationStage) {
    let checksums: [String] = stage.versionChecksums
    _ = checksums
}
