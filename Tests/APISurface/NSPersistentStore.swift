import OpenCoreData

// NSPersistentStore and NSPersistentStore.StoreType, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nspersistentstore and nspersistentstore/storetype),
// cross-checked against the per-symbol pages, NSPersistentStore.h and public Swift code.
//
// Left out on purpose: coreSpotlightExporter (Spotlight), and
// init(persistentStoreCoordinator:configurationName:URL:options:), the Swift 3 spelling Apple keeps
// only as an unavailable rename of init(persistentStoreCoordinator:configurationName:at:options:).
//
// Apple: "You should not subclass NSPersistentStore directly"; its overridable members are
// exercised as calls here and as overrides in NSAtomicStore.swift and NSIncrementalStore.swift.

// MARK: - Creating a persistent store

/// api: NSPersistentStore.init(persistentStoreCoordinator:configurationName:at:options:)
func api_NSPersistentStore_init_persistentStoreCoordinator_configurationName_at_options(
    _ coordinator: NSPersistentStoreCoordinator?, _ url: URL, _ options: [AnyHashable: Any]?
) {
    let _: NSPersistentStore = NSPersistentStore(
        persistentStoreCoordinator: coordinator, configurationName: nil, at: url, options: options)
    let _: NSPersistentStore = NSPersistentStore(
        persistentStoreCoordinator: nil, configurationName: "Default", at: url)
}

// MARK: - Getting store configuration

/// api: NSPersistentStore.configurationName
func api_NSPersistentStore_configurationName(_ store: NSPersistentStore) {
    let _: String = store.configurationName
}

/// api: NSPersistentStore.options
func api_NSPersistentStore_options(_ store: NSPersistentStore) {
    let _: [AnyHashable: Any]? = store.options
}

// Apple: `weak var persistentStoreCoordinator: NSPersistentStoreCoordinator? { get }`
/// api: NSPersistentStore.persistentStoreCoordinator
func api_NSPersistentStore_persistentStoreCoordinator(_ store: NSPersistentStore) {
    let _: NSPersistentStoreCoordinator? = store.persistentStoreCoordinator
}

/// api: NSPersistentStore.type
func api_NSPersistentStore_type(_ store: NSPersistentStore) {
    let _: String = store.type
}

// MARK: - Managing store attributes

// Apple: `var identifier: String! { get set }` (null_resettable).
/// api: NSPersistentStore.identifier
func api_NSPersistentStore_identifier(_ store: NSPersistentStore) {
    let identifier: String! = store.identifier
    store.identifier = identifier
    store.identifier = nil
}

/// api: NSPersistentStore.isReadOnly
func api_NSPersistentStore_isReadOnly(_ store: NSPersistentStore) {
    let readOnly: Bool = store.isReadOnly
    store.isReadOnly = readOnly
}

/// api: NSPersistentStore.url
func api_NSPersistentStore_url(_ store: NSPersistentStore) {
    let url: URL? = store.url
    store.url = url
    store.url = nil
}

// MARK: - Managing store metadata

/// api: NSPersistentStore.metadataForPersistentStore(with:)
func api_NSPersistentStore_metadataForPersistentStore_with(_ url: URL) throws {
    let _: [String: Any] = try NSPersistentStore.metadataForPersistentStore(with: url)
}

/// api: NSPersistentStore.setMetadata(_:forPersistentStoreAt:)
func api_NSPersistentStore_setMetadata_forPersistentStoreAt(_ metadata: [String: Any]?, _ url: URL) throws {
    try NSPersistentStore.setMetadata(metadata, forPersistentStoreAt: url)
    try NSPersistentStore.setMetadata(nil, forPersistentStoreAt: url)
}

/// api: NSPersistentStore.loadMetadata()
func api_NSPersistentStore_loadMetadata(_ store: NSPersistentStore) throws {
    try store.loadMetadata()
}

// Apple: `var metadata: [String : Any]! { get set }` (null_resettable).
/// api: NSPersistentStore.metadata
func api_NSPersistentStore_metadata(_ store: NSPersistentStore) {
    let metadata: [String: Any]! = store.metadata
    store.metadata = metadata
    store.metadata = nil
}

// MARK: - Responding to the store life cycle

/// api: NSPersistentStore.didAdd(to:)
func api_NSPersistentStore_didAdd_to(_ store: NSPersistentStore, _ coordinator: NSPersistentStoreCoordinator) {
    store.didAdd(to: coordinator)
}

/// api: NSPersistentStore.willRemove(from:)
func api_NSPersistentStore_willRemove_from(_ store: NSPersistentStore, _ coordinator: NSPersistentStoreCoordinator?) {
    store.willRemove(from: coordinator)
    store.willRemove(from: nil)
}

// MARK: - Providing a migration manager

/// api: NSPersistentStore.migrationManagerClass()
func api_NSPersistentStore_migrationManagerClass() {
    let _: AnyClass = NSPersistentStore.migrationManagerClass()
}

// MARK: - NSPersistentStore.StoreType (iOS 15.0+ / macOS 12.0+)

/// api: NSPersistentStore.StoreType.sqlite
func api_NSPersistentStore_StoreType_sqlite() {
    let _: NSPersistentStore.StoreType = .sqlite
}

/// api: NSPersistentStore.StoreType.inMemory
func api_NSPersistentStore_StoreType_inMemory() {
    let _: NSPersistentStore.StoreType = .inMemory
}

/// api: NSPersistentStore.StoreType.binary
func api_NSPersistentStore_StoreType_binary() {
    let _: NSPersistentStore.StoreType = .binary
}

// Apple: available on macOS 12.0+ only (not iOS, iPadOS, Mac Catalyst, tvOS, watchOS, visionOS).
/// api: NSPersistentStore.StoreType.xml
func api_NSPersistentStore_StoreType_xml() {
    let _: NSPersistentStore.StoreType = .xml
}

// Through the documented RawRepresentable conformance; public code passes
// `NSPersistentStore.StoreType(rawValue: NSSQLiteStoreType)` where a non-optional StoreType is
// expected, so the initializer is not failable.
/// api: NSPersistentStore.StoreType.init(rawValue:)
func api_NSPersistentStore_StoreType_init_rawValue(_ raw: String) {
    let _: NSPersistentStore.StoreType = NSPersistentStore.StoreType(rawValue: raw)
    let _: NSPersistentStore.StoreType = NSPersistentStore.StoreType(rawValue: NSSQLiteStoreType)
}

// Through the documented RawRepresentable conformance; public code compares
// `store.type == NSPersistentStore.StoreType.sqlite.rawValue`.
/// api: NSPersistentStore.StoreType.rawValue
func api_NSPersistentStore_StoreType_rawValue(_ type: NSPersistentStore.StoreType, _ store: NSPersistentStore) {
    let raw: String = type.rawValue
    let _: Bool = store.type == raw
}

// Through the documented Equatable conformance.
/// api: NSPersistentStore.StoreType.==(_:_:)
func api_NSPersistentStore_StoreType_equal(_ a: NSPersistentStore.StoreType, _ b: NSPersistentStore.StoreType) {
    let _: Bool = a == b
    let _: Bool = a != .sqlite
}

// Through the documented Hashable conformance.
/// api: NSPersistentStore.StoreType.hash(into:)
func api_NSPersistentStore_StoreType_hash_into(_ type: NSPersistentStore.StoreType) {
    var hasher = Hasher()
    type.hash(into: &hasher)
    let _: Set<NSPersistentStore.StoreType> = [type, .sqlite]
}
