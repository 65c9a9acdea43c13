import OpenCoreData

// NSPersistentStoreCoordinator: initializer, properties, methods, notification names and
// notification user-info keys, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nspersistentstorecoordinator and its per-symbol
// pages, including "Deprecated Symbols"), cross-checked against the docs' Apple-page mirrors and
// public Swift code that calls these members.
//
// The deprecated iCloud ubiquitous-content members (iOS 5-10 / macOS 10.7-10.12; not CloudKit) are
// listed at the end as not-on-linux: Apple still documents them under "Deprecated Symbols".
//
// Left out on purpose:
// - Spotlight external records (elementsDerived(fromExternalRecordAt:),
//   importStore(withIdentifier:fromExternalRecordsDirectoryAt:to:options:ofType:),
//   NSCoreDataCoreSpotlightExporter).
// - Members newer than the iOS 18 / macOS 15 SDK: cachedModelForPersistentStore(at:options:)
//   (iOS 26.4), RemoteChangeMessage, StoresDidChangeMessage, StoresDidChangeAsyncMessage.
// - NSNotification.Name.NSPersistentStoreRemoteChange and NSPersistentStoreURLKey: one block each
//   in RemoteChange.swift.

// MARK: - Creating a persistent store coordinator

/// api: NSPersistentStoreCoordinator.init(managedObjectModel:)
func api_NSPersistentStoreCoordinator_init_managedObjectModel(_ model: NSManagedObjectModel) {
    let _: NSPersistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
}

// MARK: - Managing configuration

/// api: NSPersistentStoreCoordinator.name
func api_NSPersistentStoreCoordinator_name(_ coordinator: NSPersistentStoreCoordinator) {
    let name: String? = coordinator.name
    coordinator.name = name
    coordinator.name = nil
}

/// api: NSPersistentStoreCoordinator.managedObjectModel
func api_NSPersistentStoreCoordinator_managedObjectModel(_ coordinator: NSPersistentStoreCoordinator) {
    let _: NSManagedObjectModel = coordinator.managedObjectModel
}

/// api: NSPersistentStoreCoordinator.persistentStores
func api_NSPersistentStoreCoordinator_persistentStores(_ coordinator: NSPersistentStoreCoordinator) {
    let _: [NSPersistentStore] = coordinator.persistentStores
}

// MARK: - Registering store types

/// api: NSPersistentStoreCoordinator.registerStoreClass(_:type:)
func api_NSPersistentStoreCoordinator_registerStoreClass_type(_ storeClass: AnyClass?) {
    NSPersistentStoreCoordinator.registerStoreClass(storeClass, type: NSPersistentStore.StoreType(rawValue: "APIStore"))
    NSPersistentStoreCoordinator.registerStoreClass(nil, type: .sqlite)
}

// Deprecated in the newest SDKs: use registerStoreClass(_:type:).
/// api: NSPersistentStoreCoordinator.registerStoreClass(_:forStoreType:)
func api_NSPersistentStoreCoordinator_registerStoreClass_forStoreType(_ storeClass: AnyClass?) {
    NSPersistentStoreCoordinator.registerStoreClass(storeClass, forStoreType: "APIStore")
    NSPersistentStoreCoordinator.registerStoreClass(nil, forStoreType: "APIStore")
}

/// api: NSPersistentStoreCoordinator.registeredStoreTypes
func api_NSPersistentStoreCoordinator_registeredStoreTypes() {
    let _: [String: NSValue] = NSPersistentStoreCoordinator.registeredStoreTypes
}

// MARK: - Adding or removing a store

/// api: NSPersistentStoreCoordinator.addPersistentStore(type:configuration:at:options:)
func api_NSPersistentStoreCoordinator_addPersistentStore_type(
    _ coordinator: NSPersistentStoreCoordinator, _ url: URL, _ options: [AnyHashable: Any]?
) throws {
    let _: NSPersistentStore = try coordinator.addPersistentStore(
        type: .sqlite, configuration: nil, at: url, options: options)
    let _: NSPersistentStore = try coordinator.addPersistentStore(type: NSPersistentStore.StoreType.inMemory, at: url)
}

// Deprecated in the newest SDKs: use addPersistentStore(type:configuration:at:options:).
/// api: NSPersistentStoreCoordinator.addPersistentStore(ofType:configurationName:at:options:)
func api_NSPersistentStoreCoordinator_addPersistentStore_ofType(
    _ coordinator: NSPersistentStoreCoordinator, _ url: URL?, _ options: [AnyHashable: Any]?
) throws {
    let _: NSPersistentStore = try coordinator.addPersistentStore(
        ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
    let _: NSPersistentStore = try coordinator.addPersistentStore(
        ofType: NSInMemoryStoreType, configurationName: "Default", at: nil)
}

/// api: NSPersistentStoreCoordinator.addPersistentStore(with:completionHandler:)
func api_NSPersistentStoreCoordinator_addPersistentStore_with_completionHandler(
    _ coordinator: NSPersistentStoreCoordinator, _ description: NSPersistentStoreDescription
) {
    coordinator.addPersistentStore(with: description) { (loaded: NSPersistentStoreDescription, error: (any Error)?) in
        _ = loaded
        _ = error
    }
}

/// api: NSPersistentStoreCoordinator.remove(_:)
func api_NSPersistentStoreCoordinator_remove(
    _ coordinator: NSPersistentStoreCoordinator, _ store: NSPersistentStore
) throws {
    try coordinator.remove(store)
}

// MARK: - Modifying a store

/// api: NSPersistentStoreCoordinator.destroyPersistentStore(at:type:options:)
func api_NSPersistentStoreCoordinator_destroyPersistentStore_at_type(
    _ coordinator: NSPersistentStoreCoordinator, _ url: URL, _ options: [AnyHashable: Any]?
) throws {
    try coordinator.destroyPersistentStore(at: url, type: .sqlite, options: options)
    try coordinator.destroyPersistentStore(at: url, type: .sqlite)
}

// Deprecated in the newest SDKs: use destroyPersistentStore(at:type:options:).
/// api: NSPersistentStoreCoordinator.destroyPersistentStore(at:ofType:options:)
func api_NSPersistentStoreCoordinator_destroyPersistentStore_at_ofType(
    _ coordinator: NSPersistentStoreCoordinator, _ url: URL, _ options: [AnyHashable: Any]?
) throws {
    try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType, options: options)
    try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType)
}

/// api: NSPersistentStoreCoordinator.migratePersistentStore(_:to:options:type:)
func api_NSPersistentStoreCoordinator_migratePersistentStore_type(
    _ coordinator: NSPersistentStoreCoordinator, _ store: NSPersistentStore, _ url: URL,
    _ options: [AnyHashable: Any]?
) throws {
    let _: NSPersistentStore = try coordinator.migratePersistentStore(store, to: url, options: options, type: .sqlite)
    let _: NSPersistentStore = try coordinator.migratePersistentStore(store, to: url, type: .binary)
}

// Deprecated in the newest SDKs: use migratePersistentStore(_:to:options:type:).
/// api: NSPersistentStoreCoordinator.migratePersistentStore(_:to:options:withType:)
func api_NSPersistentStoreCoordinator_migratePersistentStore_withType(
    _ coordinator: NSPersistentStoreCoordinator, _ store: NSPersistentStore, _ url: URL,
    _ options: [AnyHashable: Any]?
) throws {
    let _: NSPersistentStore = try coordinator.migratePersistentStore(
        store, to: url, options: options, withType: NSSQLiteStoreType)
    let _: NSPersistentStore = try coordinator.migratePersistentStore(store, to: url, withType: NSBinaryStoreType)
}

/// api: NSPersistentStoreCoordinator.replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)
func api_NSPersistentStoreCoordinator_replacePersistentStore_type(
    _ coordinator: NSPersistentStoreCoordinator, _ destination: URL, _ source: URL,
    _ options: [AnyHashable: Any]?
) throws {
    try coordinator.replacePersistentStore(
        at: destination, destinationOptions: options,
        withPersistentStoreFrom: source, sourceOptions: options, type: .sqlite)
    try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
}

// Deprecated in the newest SDKs: use
// replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:).
/// api: NSPersistentStoreCoordinator.replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)
func api_NSPersistentStoreCoordinator_replacePersistentStore_ofType(
    _ coordinator: NSPersistentStoreCoordinator, _ destination: URL, _ source: URL,
    _ options: [AnyHashable: Any]?
) throws {
    try coordinator.replacePersistentStore(
        at: destination, destinationOptions: options,
        withPersistentStoreFrom: source, sourceOptions: options, ofType: NSSQLiteStoreType)
    try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, ofType: NSSQLiteStoreType)
}

// MARK: - Managing a store's location

/// api: NSPersistentStoreCoordinator.setURL(_:for:)
func api_NSPersistentStoreCoordinator_setURL_for(
    _ coordinator: NSPersistentStoreCoordinator, _ url: URL, _ store: NSPersistentStore
) {
    let _: Bool = coordinator.setURL(url, for: store)
}

/// api: NSPersistentStoreCoordinator.persistentStore(for:)
func api_NSPersistentStoreCoordinator_persistentStore_for(_ coordinator: NSPersistentStoreCoordinator, _ url: URL) {
    let _: NSPersistentStore? = coordinator.persistentStore(for: url)
}

/// api: NSPersistentStoreCoordinator.url(for:)
func api_NSPersistentStoreCoordinator_url_for(
    _ coordinator: NSPersistentStoreCoordinator, _ store: NSPersistentStore
) {
    let _: URL = coordinator.url(for: store)
}

// MARK: - Managing a store's metadata

/// api: NSPersistentStoreCoordinator.setMetadata(_:type:at:options:)
func api_NSPersistentStoreCoordinator_setMetadata_type(
    _ metadata: [String: Any]?, _ url: URL, _ options: [AnyHashable: Any]?
) throws {
    try NSPersistentStoreCoordinator.setMetadata(metadata, type: .sqlite, at: url, options: options)
    try NSPersistentStoreCoordinator.setMetadata(nil, type: .sqlite, at: url)
}

/// api: NSPersistentStoreCoordinator.metadataForPersistentStore(type:at:options:)
func api_NSPersistentStoreCoordinator_metadataForPersistentStore_type(
    _ url: URL, _ options: [AnyHashable: Any]?
) throws {
    let _: [String: Any] = try NSPersistentStoreCoordinator.metadataForPersistentStore(
        type: .sqlite, at: url, options: options)
    let _: [String: Any] = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
}

// Deprecated in the newest SDKs: use setMetadata(_:type:at:options:).
/// api: NSPersistentStoreCoordinator.setMetadata(_:forPersistentStoreOfType:at:options:)
func api_NSPersistentStoreCoordinator_setMetadata_forPersistentStoreOfType_options(
    _ metadata: [String: Any]?, _ storeType: String, _ url: URL, _ options: [AnyHashable: Any]?
) throws {
    try NSPersistentStoreCoordinator.setMetadata(
        metadata, forPersistentStoreOfType: storeType, at: url, options: options)
}

// Deprecated in the newest SDKs: use metadataForPersistentStore(type:at:options:).
/// api: NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:options:)
func api_NSPersistentStoreCoordinator_metadataForPersistentStore_ofType_options(
    _ storeType: String, _ url: URL, _ options: [AnyHashable: Any]?
) throws {
    let _: [String: Any] = try NSPersistentStoreCoordinator.metadataForPersistentStore(
        ofType: storeType, at: url, options: options)
}

// Deprecated (iOS 9 / macOS 10.11): use setMetadata(_:forPersistentStoreOfType:at:options:).
// The store type is `String?` here (nil: Core Data inspects the file).
/// api: NSPersistentStoreCoordinator.setMetadata(_:forPersistentStoreOfType:at:)
func api_NSPersistentStoreCoordinator_setMetadata_forPersistentStoreOfType(
    _ metadata: [String: Any]?, _ storeType: String?, _ url: URL
) throws {
    try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: storeType, at: url)
}

// Deprecated (iOS 9 / macOS 10.11): use metadataForPersistentStore(ofType:at:options:).
// The store type is `String?` here (nil: Core Data inspects the file).
/// api: NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:)
func api_NSPersistentStoreCoordinator_metadataForPersistentStore_ofType(_ storeType: String?, _ url: URL) throws {
    let _: [String: Any] = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: storeType, at: url)
}

// Deprecated (macOS 10.5): Apple declares it `class func metadataForPersistentStore(with url: URL)
// throws -> [AnyHashable : Any]` (not [String : Any] like NSPersistentStore's method of that name).
/// api: NSPersistentStoreCoordinator.metadataForPersistentStore(with:)
func api_NSPersistentStoreCoordinator_metadataForPersistentStore_with(_ url: URL) throws {
    let _: [AnyHashable: Any] = try NSPersistentStoreCoordinator.metadataForPersistentStore(with: url)
}

/// api: NSPersistentStoreCoordinator.metadata(for:)
func api_NSPersistentStoreCoordinator_metadata_for(
    _ coordinator: NSPersistentStoreCoordinator, _ store: NSPersistentStore
) {
    let _: [String: Any] = coordinator.metadata(for: store)
}

/// api: NSPersistentStoreCoordinator.setMetadata(_:for:)
func api_NSPersistentStoreCoordinator_setMetadata_for(
    _ coordinator: NSPersistentStoreCoordinator, _ metadata: [String: Any]?, _ store: NSPersistentStore
) {
    coordinator.setMetadata(metadata, for: store)
    coordinator.setMetadata(nil, for: store)
}

// MARK: - Deferring a store's migrations

/// api: NSPersistentStoreCoordinator.finishDeferredLightweightMigration()
func api_NSPersistentStoreCoordinator_finishDeferredLightweightMigration(
    _ coordinator: NSPersistentStoreCoordinator
) throws {
    try coordinator.finishDeferredLightweightMigration()
}

/// api: NSPersistentStoreCoordinator.finishDeferredLightweightMigrationTask()
func api_NSPersistentStoreCoordinator_finishDeferredLightweightMigrationTask(
    _ coordinator: NSPersistentStoreCoordinator
) throws {
    try coordinator.finishDeferredLightweightMigrationTask()
}

// MARK: - Performing tasks

// Apple: `@preconcurrency func perform<T>(_ block: @escaping @Sendable () throws -> T) async rethrows -> T`
/// api: NSPersistentStoreCoordinator.perform<T>(_:) async -> T
func api_NSPersistentStoreCoordinator_perform_async(_ coordinator: NSPersistentStoreCoordinator) async throws {
    let value: Int = await coordinator.perform { 42 }
    _ = value
    let thrown: String = try await coordinator.perform { () throws -> String in "done" }
    _ = thrown
}

// Apple: `@preconcurrency func performAndWait<T>(_ block: @Sendable () throws -> T) rethrows -> T`
/// api: NSPersistentStoreCoordinator.performAndWait<T>(_:) -> T
func api_NSPersistentStoreCoordinator_performAndWait_generic(_ coordinator: NSPersistentStoreCoordinator) throws {
    let value: Int = coordinator.performAndWait { 42 }
    _ = value
    let thrown: String = try coordinator.performAndWait { () throws -> String in "done" }
    _ = thrown
}

/// api: NSPersistentStoreCoordinator.perform(_:) -> Void
func api_NSPersistentStoreCoordinator_perform(_ coordinator: NSPersistentStoreCoordinator) {
    coordinator.perform {
    }
}

/// api: NSPersistentStoreCoordinator.performAndWait(_:) -> Void
func api_NSPersistentStoreCoordinator_performAndWait(_ coordinator: NSPersistentStoreCoordinator) {
    coordinator.performAndWait {
    }
}

/// api: NSPersistentStoreCoordinator.execute(_:with:)
func api_NSPersistentStoreCoordinator_execute_with(
    _ coordinator: NSPersistentStoreCoordinator, _ request: NSPersistentStoreRequest,
    _ context: NSManagedObjectContext
) throws {
    let _: Any = try coordinator.execute(request, with: context)
}

// MARK: - Maintaining a record of changes

/// api: NSPersistentStoreCoordinator.currentPersistentHistoryToken(fromStores:)
func api_NSPersistentStoreCoordinator_currentPersistentHistoryToken_fromStores(
    _ coordinator: NSPersistentStoreCoordinator, _ stores: [Any]?
) {
    let _: NSPersistentHistoryToken? = coordinator.currentPersistentHistoryToken(fromStores: stores)
    let _: NSPersistentHistoryToken? = coordinator.currentPersistentHistoryToken(fromStores: nil)
}

// MARK: - Getting individual object identifiers

/// api: NSPersistentStoreCoordinator.managedObjectID(forURIRepresentation:)
func api_NSPersistentStoreCoordinator_managedObjectID_forURIRepresentation(
    _ coordinator: NSPersistentStoreCoordinator, _ url: URL
) {
    let _: NSManagedObjectID? = coordinator.managedObjectID(forURIRepresentation: url)
}

// iOS 18.0+ / macOS 15.0+; Apple documents the declaration only (no description).
/// api: NSPersistentStoreCoordinator.managedObjectID(for:)
func api_NSPersistentStoreCoordinator_managedObjectID_for(
    _ coordinator: NSPersistentStoreCoordinator, _ string: String
) {
    let _: NSManagedObjectID? = coordinator.managedObjectID(for: string)
}

// MARK: - Locking (NSLocking; deprecated, and not on tvOS or watchOS)

/// api: NSPersistentStoreCoordinator.lock()
func api_NSPersistentStoreCoordinator_lock(_ coordinator: NSPersistentStoreCoordinator) {
    coordinator.lock()
}

/// api: NSPersistentStoreCoordinator.tryLock()
func api_NSPersistentStoreCoordinator_tryLock(_ coordinator: NSPersistentStoreCoordinator) {
    let _: Bool = coordinator.tryLock()
}

/// api: NSPersistentStoreCoordinator.unlock()
func api_NSPersistentStoreCoordinator_unlock(_ coordinator: NSPersistentStoreCoordinator) {
    coordinator.unlock()
}

// MARK: - Responding to changes of the coordinator's registered stores

/// api: NSNotification.Name.NSPersistentStoreCoordinatorStoresWillChange
func api_NSPersistentStoreCoordinator_NSPersistentStoreCoordinatorStoresWillChange() {
    let _: NSNotification.Name = .NSPersistentStoreCoordinatorStoresWillChange
    let _: Notification.Name = Notification.Name.NSPersistentStoreCoordinatorStoresWillChange
}

/// api: NSNotification.Name.NSPersistentStoreCoordinatorStoresDidChange
func api_NSPersistentStoreCoordinator_NSPersistentStoreCoordinatorStoresDidChange() {
    let _: NSNotification.Name = .NSPersistentStoreCoordinatorStoresDidChange
    let _: Notification.Name = Notification.Name.NSPersistentStoreCoordinatorStoresDidChange
}

/// api: NSNotification.Name.NSPersistentStoreCoordinatorWillRemoveStore
func api_NSPersistentStoreCoordinator_NSPersistentStoreCoordinatorWillRemoveStore() {
    let _: NSNotification.Name = .NSPersistentStoreCoordinatorWillRemoveStore
    let _: Notification.Name = Notification.Name.NSPersistentStoreCoordinatorWillRemoveStore
}

// MARK: - Notification keys

/// api: NSAddedPersistentStoresKey
func api_NSPersistentStoreCoordinator_NSAddedPersistentStoresKey(_ notification: Notification) {
    let key: String = NSAddedPersistentStoresKey
    let _: Any? = notification.userInfo?[key]
}

/// api: NSRemovedPersistentStoresKey
func api_NSPersistentStoreCoordinator_NSRemovedPersistentStoresKey(_ notification: Notification) {
    let key: String = NSRemovedPersistentStoresKey
    let _: Any? = notification.userInfo?[key]
}

/// api: NSUUIDChangedPersistentStoresKey
func api_NSPersistentStoreCoordinator_NSUUIDChangedPersistentStoresKey(_ notification: Notification) {
    let key: String = NSUUIDChangedPersistentStoresKey
    let _: Any? = notification.userInfo?[key]
}

// MARK: - Deprecated: iCloud ubiquitous content
// Apple lists these under the coordinator's "Deprecated Symbols" (deprecated iOS 10 / macOS 10.12).
// not-on-linux: NSPersistentStoreCoordinator.removeUbiquitousContentAndPersistentStore(at:options:): iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSNotification.Name.NSPersistentStoreDidImportUbiquitousContentChanges: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousTransitionTypeKey: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousTransitionType.accountAdded: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousTransitionType.accountRemoved: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousTransitionType.contentRemoved: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousTransitionType.initialImportCompleted: iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
// not-on-linux: NSPersistentStoreUbiquitousTransitionType.init(rawValue:): iCloud ubiquitous-content sync (deprecated since iOS 10) needs iCloud's ubiquity containers, which Linux does not have
