import Foundation

extension NSPersistentStore {
    /// A store type in the overlay's spelling (`.sqlite`, `.inMemory`, ...), over the same
    /// strings as `NSSQLiteStoreType` and the other constants; your own store types are
    /// `StoreType(rawValue: "MyStore")`.
    ///
    /// ```swift
    /// let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
    /// store.type == NSPersistentStore.StoreType.sqlite.rawValue   // true
    /// ```
    public struct StoreType: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        public static let binary = StoreType(rawValue: NSBinaryStoreType)
        public static let xml = StoreType(rawValue: NSXMLStoreType)
    }
}

/// The coordinator's store-type methods in the overlay's spelling; each is the `String` form.
extension NSPersistentStoreCoordinator {
    @discardableResult
    public func addPersistentStore(type: NSPersistentStore.StoreType, configuration: String? = nil, at storeURL: URL, options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    public func destroyPersistentStore(at url: URL, type: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, ofType: type.rawValue, options: options)
    }

    @discardableResult
    public func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil, type: NSPersistentStore.StoreType) throws -> NSPersistentStore {
        try migratePersistentStore(store, to: url, options: options, withType: type.rawValue)
    }

    public class func metadataForPersistentStore(type: NSPersistentStore.StoreType, at url: URL, options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: type.rawValue, at: url, options: options)
    }

    public class func setMetadata(_ metadata: [String: Any]?, type: NSPersistentStore.StoreType, at url: URL, options: [AnyHashable: Any]? = nil) throws {
        try setMetadata(metadata, forPersistentStoreOfType: type.rawValue, at: url, options: options)
    }

    public class func registerStoreClass(_ storeClass: AnyClass?, type: NSPersistentStore.StoreType) {
        registerStoreClass(storeClass, forStoreType: type.rawValue)
    }
}
