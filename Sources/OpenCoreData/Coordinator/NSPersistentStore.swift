import Foundation

/// The type names of the built-in stores (Apple's values).
public let NSInMemoryStoreType = "InMemory"
public let NSSQLiteStoreType = "SQLite"
public let NSBinaryStoreType = "Binary"
public let NSXMLStoreType = "XML"

/// Metadata keys.
public let NSStoreTypeKey = "NSStoreType"
public let NSStoreUUIDKey = "NSStoreUUID"
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"
/// The version checksum of the model the store was made with (``NSManagedObjectModel/versionChecksum``).
public let NSPersistentStoreModelVersionChecksumKey = "NSStoreModelVersionChecksumKey"

/// Option keys for `addPersistentStore(ofType:configurationName:at:options:)`.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
/// SQLite stores: gather the query planner's statistics (`ANALYZE`) when the store is added.
public let NSSQLiteAnalyzeOption = "NSSQLiteAnalyzeOption"
/// SQLite stores: rebuild the file (`VACUUM`), giving free pages back, when the store is added.
public let NSSQLiteManualVacuumOption = "NSSQLiteManualVacuumOption"
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
/// Apple platforms' data-protection class for the store's files (`FileProtectionType`). Linux
/// has no data protection: the key is accepted and has no effect (docs/DEVIATIONS.md).
public let NSPersistentStoreFileProtectionKey = "NSPersistentStoreFileProtectionKey"
/// The operating-system version whose store features to use (an `NSNumber`). Accepted; the
/// stores here write one format whatever the value.
public let NSPersistentStoreOSCompatibility = "NSPersistentStoreOSCompatibility"
/// The most connections a SQLite store opens at once. Accepted; a SQLite store here keeps one
/// connection, which every context of the coordinator shares under its lock.
public let NSPersistentStoreConnectionPoolMaxSizeKey = "NSPersistentStoreConnectionPoolMaxSizeKey"
/// XML stores: check the file against Apple's DTD when it opens. Accepted; the XML store here
/// always checks the structure of the file it reads, and refuses one that does not fit.
public let NSValidateXMLStoreOption = "NSValidateXMLStoreOption"
/// Binary stores: the classes values may be decoded as (a `Set` of classes). Accepted; the
/// binary store here writes a property list, not keyed archives, so it decodes no classes.
public let NSBinaryStoreSecureDecodingClasses = "NSBinaryStoreSecureDecodingClasses"
/// Binary stores: decode old files without secure coding. Accepted, for the reason above.
public let NSBinaryStoreInsecureDecodingCompatibilityOption = "NSBinaryStoreInsecureDecodingCompatibilityOption"
/// Lightweight migration: leave clean-up work for `finishDeferredLightweightMigration()`. A
/// migration here has none to leave (it writes the migrated store whole, then renames it), so
/// the store is complete when it is added and finishing has nothing to do.
public let NSPersistentStoreDeferredLightweightMigrationOptionKey = "NSPersistentStoreDeferredLightweightMigrationOptionKey"
/// Destroy the store's files even while another connection is writing to it (`destroyPersistentStore(at:ofType:options:)`).
public let NSPersistentStoreForceDestroyOption = "NSPersistentStoreForceDestroyOption"
/// Open the store without comparing its model version hashes with the coordinator's model.
public let NSIgnorePersistentStoreVersioningOption = "NSIgnorePersistentStoreVersioningOption"
/// An `NSStagedMigrationManager` whose stages migrate the store, in order, before it opens.
public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"

/// A place where records live: the base class of every store type.
///
/// Add stores through the coordinator: `coordinator.addPersistentStore(ofType:configurationName:at:options:)`.
open class NSPersistentStore: NSObject, @unchecked Sendable {
    // @unchecked Sendable: mutable properties are set while the store is added, under the
    // coordinator's lock; record data lives in subclasses, which lock it themselves.

    open var identifier: String!
    open var url: URL?
    open var options: [AnyHashable: Any]?
    open var isReadOnly: Bool = false
    public let configurationName: String
    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    /// The store's metadata: type, UUID, model version hashes, and what you set. A change is
    /// written to the store's file by the coordinator's next save, even one without object
    /// changes.
    open var metadata: [String: Any]! = [:] { didSet { metadataNeedsWrite = true } }
    /// Whether ``metadata`` changed since the store read or last wrote it.
    var metadataNeedsWrite = false

    /// A process-unique number for identity maps (object keys carry it instead of the store).
    /// Negative for stores that want to hear which of their objects contexts register
    /// (`NSIncrementalStore`), so the identity map tells them apart without a cast or a lookup.
    let token: Int32

    /// Whether contexts report registering and unregistering this store's objects (see
    /// `StoreBackend.contextDidRegister(_:)`).
    class var observesObjectRegistration: Bool { false }

    open var type: String { NSStringFromClass(Swift.type(of: self)) }

    public required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?, at url: URL, options: [AnyHashable: Any]? = nil) {
        self.persistentStoreCoordinator = root
        self.configurationName = name ?? "PF_DEFAULT_CONFIGURATION_NAME"
        self.url = url
        self.options = options
        self.isReadOnly = (options?[NSReadOnlyPersistentStoreOption] as? Bool) ?? false
        self.token = Self.observesObjectRegistration ? -StoreTokens.next() : StoreTokens.next()
        super.init()
    }

    /// Reads (or creates) the store's metadata. Called when the store is added.
    open func loadMetadata() throws {
        if metadata[NSStoreUUIDKey] == nil {
            metadata = [NSStoreTypeKey: type, NSStoreUUIDKey: UUID().uuidString]
        }
        if identifier == nil { identifier = metadata[NSStoreUUIDKey] as? String }
    }

    /// Reads the metadata of the store file at `url` without adding it. Store types with files
    /// override this; the base class has no file to read.
    open class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "\(self) keeps no metadata in a file, so there is none to read at \(url.path).")
    }

    /// Writes `metadata` into the store file at `url` without adding it.
    open class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "\(self) keeps no metadata in a file, so none can be written at \(url.path).")
    }

    /// Removes the store's files at `url` (the store itself and any files it keeps beside it).
    /// The base class removes the file at `url` if there is one.
    open class func destroyPersistentStore(at url: URL) throws {
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    /// ``destroyPersistentStore(at:)`` with the coordinator's options: stores that can tell
    /// whether another connection is writing refuse then, unless `NSPersistentStoreForceDestroyOption`.
    class func destroyPersistentStore(at url: URL, options: [AnyHashable: Any]?) throws {
        try destroyPersistentStore(at: url)
    }

    /// Whether the boolean option `key` is true in `options` (a `Bool`, or an `NSNumber` as
    /// Objective-C code and `setOption(_:forKey:)` pass it); false when absent.
    static func isOptionOn(_ key: String, in options: [AnyHashable: Any]?) -> Bool {
        (options?[key] as? Bool) ?? (options?[key] as? NSNumber)?.boolValue ?? false
    }

    /// Copies the store at `source` over the one at `destination` (made when missing), all or
    /// nothing. The base class copies the file beside the destination and renames it over it.
    class func replaceStoreFiles(at destination: URL, withStoreAt source: URL) throws {
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).replacing-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: temporary)
            guard rename(temporary.path, destination.path) == 0 else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "Can't move the copy into place at \(destination.path): \(String(cString: strerror(errno))).")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            let nsError = error as NSError
            if nsError.domain == NSCocoaErrorDomain, nsError.code == NSPersistentStoreOperationError { throw error }
            throw CoreDataError.make(NSPersistentStoreOperationError, "Can't copy the store at \(source.path) to \(destination.path): \(nsError.localizedDescription). The destination was left unchanged.",
                                     [NSFilePathErrorKey: destination.path, NSUnderlyingErrorKey: nsError])
        }
    }

    /// The last path component of the URI of the object with primary key `key`: `p<key>`. A
    /// custom store whose object IDs stand for its own reference objects names them there.
    func uriComponent(forKey key: Int64, entity: NSEntityDescription) -> String { "p\(key)" }

    /// The primary key a URI's path after the entity name (`p42`, percent escapes kept) names;
    /// nil when it names none.
    func key(forURIComponent component: String, entity: NSEntityDescription) -> Int64? {
        component.first == "p" ? Int64(component.dropFirst()) : nil
    }

    /// Whether a save that has no changes for this store still reaches it (an incremental store
    /// receives an empty `NSSaveChangesRequest`, as Apple's does).
    var receivesEmptySaves: Bool { false }

    /// Called after the store was added to a coordinator.
    open func didAdd(to coordinator: NSPersistentStoreCoordinator) {}
    /// Called before the store is removed.
    open func willRemove(from coordinator: NSPersistentStoreCoordinator?) {}
}

enum StoreTokens {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var last: Int32 = 0  // guarded by `lock`
    static func next() -> Int32 {
        lock.lock(); defer { lock.unlock() }
        last += 1
        return last
    }
}
