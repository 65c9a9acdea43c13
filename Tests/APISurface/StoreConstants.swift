import OpenCoreData

// The store-type strings and the option and metadata keys of persistent stores, spelled as in
// Apple's Swift documentation: "Persistent Store Types", "Store options", "Migration options",
// "Store versions" and the per-constant pages under developer.apple.com/documentation/coredata,
// cross-checked against the generated Swift interface of NSPersistentStoreCoordinator.h. All are
// `let <name>: String`.
//
// Left out on purpose:
// - NSStoreUUIDKey and NSPersistentStoreRemoteChangeNotificationPostOptionKey: one block each in
//   RemoteChange.swift.
// - Spotlight (NSCoreDataCoreSpotlightExporter, NSExternalRecordsDirectoryOption,
//   NSExternalRecordExtensionOption, NSExternalRecordsFileFormatOption, NSXMLExternalRecordType,
//   NSBinaryExternalRecordType).
// - CloudKit (NSPersistentStoreMirroringDelegateOptionKey).

// MARK: - Store types

/// api: NSSQLiteStoreType
func api_StoreConstants_NSSQLiteStoreType() {
    let _: String = NSSQLiteStoreType
}

/// api: NSBinaryStoreType
func api_StoreConstants_NSBinaryStoreType() {
    let _: String = NSBinaryStoreType
}

/// api: NSInMemoryStoreType
func api_StoreConstants_NSInMemoryStoreType() {
    let _: String = NSInMemoryStoreType
}

// Apple: macOS 10.4+ only (the XML store does not exist on iOS, tvOS, watchOS or visionOS).
/// api: NSXMLStoreType
func api_StoreConstants_NSXMLStoreType() {
    let _: String = NSXMLStoreType
}

// MARK: - Store options

/// api: NSReadOnlyPersistentStoreOption
func api_StoreConstants_NSReadOnlyPersistentStoreOption() {
    let _: String = NSReadOnlyPersistentStoreOption
}

// Apple: macOS 10.4+ only (an XML-store option).
/// api: NSValidateXMLStoreOption
func api_StoreConstants_NSValidateXMLStoreOption() {
    let _: String = NSValidateXMLStoreOption
}

/// api: NSPersistentStoreTimeoutOption
func api_StoreConstants_NSPersistentStoreTimeoutOption() {
    let _: String = NSPersistentStoreTimeoutOption
}

/// api: NSSQLitePragmasOption
func api_StoreConstants_NSSQLitePragmasOption() {
    let _: String = NSSQLitePragmasOption
}

/// api: NSSQLiteAnalyzeOption
func api_StoreConstants_NSSQLiteAnalyzeOption() {
    let _: String = NSSQLiteAnalyzeOption
}

/// api: NSSQLiteManualVacuumOption
func api_StoreConstants_NSSQLiteManualVacuumOption() {
    let _: String = NSSQLiteManualVacuumOption
}

// Apple: iOS 5.0+, iPadOS, Mac Catalyst 13.1+, tvOS, watchOS 2.0+, visionOS 1.0+; not macOS. Its
// values are FileProtectionType data-protection classes, which only Apple platforms enforce; the
// key itself is a plain string.
/// api: NSPersistentStoreFileProtectionKey
func api_StoreConstants_NSPersistentStoreFileProtectionKey() {
    let _: String = NSPersistentStoreFileProtectionKey
}

/// api: NSPersistentStoreForceDestroyOption
func api_StoreConstants_NSPersistentStoreForceDestroyOption() {
    let _: String = NSPersistentStoreForceDestroyOption
}

/// api: NSPersistentStoreConnectionPoolMaxSizeKey
func api_StoreConstants_NSPersistentStoreConnectionPoolMaxSizeKey() {
    let _: String = NSPersistentStoreConnectionPoolMaxSizeKey
}

/// api: NSBinaryStoreSecureDecodingClasses
func api_StoreConstants_NSBinaryStoreSecureDecodingClasses() {
    let _: String = NSBinaryStoreSecureDecodingClasses
}

/// api: NSBinaryStoreInsecureDecodingCompatibilityOption
func api_StoreConstants_NSBinaryStoreInsecureDecodingCompatibilityOption() {
    let _: String = NSBinaryStoreInsecureDecodingCompatibilityOption
}

/// api: NSPersistentHistoryTrackingKey
func api_StoreConstants_NSPersistentHistoryTrackingKey() {
    let _: String = NSPersistentHistoryTrackingKey
}

// MARK: - Migration options

/// api: NSIgnorePersistentStoreVersioningOption
func api_StoreConstants_NSIgnorePersistentStoreVersioningOption() {
    let _: String = NSIgnorePersistentStoreVersioningOption
}

/// api: NSMigratePersistentStoresAutomaticallyOption
func api_StoreConstants_NSMigratePersistentStoresAutomaticallyOption() {
    let _: String = NSMigratePersistentStoresAutomaticallyOption
}

/// api: NSInferMappingModelAutomaticallyOption
func api_StoreConstants_NSInferMappingModelAutomaticallyOption() {
    let _: String = NSInferMappingModelAutomaticallyOption
}

// iOS 14.0+ / macOS 11.0+
/// api: NSPersistentStoreDeferredLightweightMigrationOptionKey
func api_StoreConstants_NSPersistentStoreDeferredLightweightMigrationOptionKey() {
    let _: String = NSPersistentStoreDeferredLightweightMigrationOptionKey
}

// iOS 17.0+ / macOS 14.0+
/// api: NSPersistentStoreStagedMigrationManagerOptionKey
func api_StoreConstants_NSPersistentStoreStagedMigrationManagerOptionKey() {
    let _: String = NSPersistentStoreStagedMigrationManagerOptionKey
}

// MARK: - Store versions and metadata keys

/// api: NSStoreModelVersionHashesKey
func api_StoreConstants_NSStoreModelVersionHashesKey() {
    let _: String = NSStoreModelVersionHashesKey
}

/// api: NSStoreModelVersionIdentifiersKey
func api_StoreConstants_NSStoreModelVersionIdentifiersKey() {
    let _: String = NSStoreModelVersionIdentifiersKey
}

/// api: NSPersistentStoreOSCompatibility
func api_StoreConstants_NSPersistentStoreOSCompatibility() {
    let _: String = NSPersistentStoreOSCompatibility
}

/// api: NSStoreTypeKey
func api_StoreConstants_NSStoreTypeKey(_ metadata: [String: Any]) {
    let key: String = NSStoreTypeKey
    let _: Any? = metadata[key]
}

// iOS 18.0+ / macOS 15.0+; Apple lists it with the persistent store metadata keys
// (`let NSPersistentStoreModelVersionChecksumKey: String`, no description).
/// api: NSPersistentStoreModelVersionChecksumKey
func api_StoreConstants_NSPersistentStoreModelVersionChecksumKey(_ metadata: [String: Any]) {
    let key: String = NSPersistentStoreModelVersionChecksumKey
    let _: Any? = metadata[key]
}

// MARK: - Deprecated: iCloud ubiquitous content options
// Listed under "Deprecated" on Apple's "Store options" page (deprecated iOS 10 / macOS 10.12).
// not-on-linux: NSPersistentStoreUbiquitousContentNameKey: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousContentURLKey: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousPeerTokenOption: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreRemoveUbiquitousMetadataOption: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousContainerIdentifierKey: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreRebuildFromUbiquitousContentOption: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
