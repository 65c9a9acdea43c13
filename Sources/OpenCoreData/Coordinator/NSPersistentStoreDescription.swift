import Foundation

/// How to add one persistent store: its type, location, configuration and options.
///
/// ```swift
/// let description = NSPersistentStoreDescription()
/// description.type = NSInMemoryStoreType
/// container.persistentStoreDescriptions = [description]
/// ```
open class NSPersistentStoreDescription: NSObject, @unchecked Sendable {
    open var type: String = NSSQLiteStoreType
    open var configuration: String?
    open var url: URL?
    open private(set) var options: [String: Any] = [:]
    open var isReadOnly: Bool {
        get { (options[NSReadOnlyPersistentStoreOption] as? Bool) ?? false }
        set { options[NSReadOnlyPersistentStoreOption] = newValue }
    }
    open var timeout: TimeInterval = 240
    open var sqlitePragmas: [String: Any] { (options[NSSQLitePragmasOption] as? [String: Any]) ?? [:] }
    open var shouldAddStoreAsynchronously = false
    open var shouldMigrateStoreAutomatically: Bool {
        get { (options[NSMigratePersistentStoresAutomaticallyOption] as? Bool) ?? true }
        set { options[NSMigratePersistentStoresAutomaticallyOption] = newValue }
    }
    open var shouldInferMappingModelAutomatically: Bool {
        get { (options[NSInferMappingModelAutomaticallyOption] as? Bool) ?? true }
        set { options[NSInferMappingModelAutomaticallyOption] = newValue }
    }

    public override init() {
        super.init()
        options[NSMigratePersistentStoresAutomaticallyOption] = true
        options[NSInferMappingModelAutomaticallyOption] = true
    }

    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    open func setOption(_ option: NSObject?, forKey key: String) { options[key] = option }
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value
        options[NSSQLitePragmasOption] = pragmas
    }
}
