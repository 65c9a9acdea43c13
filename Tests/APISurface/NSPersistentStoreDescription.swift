import OpenCoreData

// NSPersistentStoreDescription, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nspersistentstoredescription and its per-symbol
// pages), cross-checked against a second reference listing of the iOS SDK and public Swift code.
//
// Left out on purpose: cloudKitContainerOptions (CloudKit), and init(URL:) / convenience
// init(URL:), the Swift 3 spellings Apple keeps only as unavailable renames of init(url:).

// MARK: - Creating a persistent store description

/// api: NSPersistentStoreDescription.init(url:)
func api_NSPersistentStoreDescription_init_url(_ url: URL) {
    let _: NSPersistentStoreDescription = NSPersistentStoreDescription(url: url)
}

// Not in Apple's topic list: the header's plain `init` (NSObject's initializer). Public Swift code
// uses it widely, e.g. `let description = NSPersistentStoreDescription(); description.type = ...`.
/// api: NSPersistentStoreDescription.init()
func api_NSPersistentStoreDescription_init() {
    let _: NSPersistentStoreDescription = NSPersistentStoreDescription()
}

// MARK: - Configuring a persistent store description

/// api: NSPersistentStoreDescription.url
func api_NSPersistentStoreDescription_url(_ description: NSPersistentStoreDescription) {
    let url: URL? = description.url
    description.url = url
    description.url = nil
}

/// api: NSPersistentStoreDescription.configuration
func api_NSPersistentStoreDescription_configuration(_ description: NSPersistentStoreDescription) {
    let configuration: String? = description.configuration
    description.configuration = configuration
    description.configuration = nil
}

/// api: NSPersistentStoreDescription.timeout
func api_NSPersistentStoreDescription_timeout(_ description: NSPersistentStoreDescription) {
    let timeout: TimeInterval = description.timeout
    description.timeout = timeout
}

/// api: NSPersistentStoreDescription.type
func api_NSPersistentStoreDescription_type(_ description: NSPersistentStoreDescription) {
    let type: String = description.type
    description.type = type
    description.type = NSInMemoryStoreType
}

/// api: NSPersistentStoreDescription.isReadOnly
func api_NSPersistentStoreDescription_isReadOnly(_ description: NSPersistentStoreDescription) {
    let readOnly: Bool = description.isReadOnly
    description.isReadOnly = readOnly
}

/// api: NSPersistentStoreDescription.shouldAddStoreAsynchronously
func api_NSPersistentStoreDescription_shouldAddStoreAsynchronously(_ description: NSPersistentStoreDescription) {
    let flag: Bool = description.shouldAddStoreAsynchronously
    description.shouldAddStoreAsynchronously = flag
}

/// api: NSPersistentStoreDescription.shouldInferMappingModelAutomatically
func api_NSPersistentStoreDescription_shouldInferMappingModelAutomatically(
    _ description: NSPersistentStoreDescription
) {
    let flag: Bool = description.shouldInferMappingModelAutomatically
    description.shouldInferMappingModelAutomatically = flag
}

/// api: NSPersistentStoreDescription.shouldMigrateStoreAutomatically
func api_NSPersistentStoreDescription_shouldMigrateStoreAutomatically(_ description: NSPersistentStoreDescription) {
    let flag: Bool = description.shouldMigrateStoreAutomatically
    description.shouldMigrateStoreAutomatically = flag
}

/// api: NSPersistentStoreDescription.setOption(_:forKey:)
func api_NSPersistentStoreDescription_setOption_forKey(
    _ description: NSPersistentStoreDescription, _ option: NSObject?
) {
    description.setOption(option, forKey: NSReadOnlyPersistentStoreOption)
    description.setOption(nil, forKey: NSPersistentStoreTimeoutOption)
}

/// api: NSPersistentStoreDescription.setValue(_:forPragmaNamed:)
func api_NSPersistentStoreDescription_setValue_forPragmaNamed(
    _ description: NSPersistentStoreDescription, _ value: NSObject?
) {
    description.setValue(value, forPragmaNamed: "journal_mode")
    description.setValue(nil, forPragmaNamed: "synchronous")
}

// MARK: - Accessing the configuration options

/// api: NSPersistentStoreDescription.options
func api_NSPersistentStoreDescription_options(_ description: NSPersistentStoreDescription) {
    let _: [String: NSObject] = description.options
}

/// api: NSPersistentStoreDescription.sqlitePragmas
func api_NSPersistentStoreDescription_sqlitePragmas(_ description: NSPersistentStoreDescription) {
    let _: [String: NSObject] = description.sqlitePragmas
}
