import Foundation

/// A compact, thread-safe identifier for a managed object's record.
///
/// An object inserted in a context has a temporary ID until it is saved (or
/// `obtainPermanentIDs(for:)` is called); the permanent ID names the record in its store and can
/// be passed between contexts and threads:
///
/// ```swift
/// let id = employee.objectID                      // Sendable
/// background.perform { let e = background.object(with: id) }
/// ```
public final class NSManagedObjectID: NSObject, @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable after init (the store reference is
    // weak and only read).

    /// The entity of the identified object.
    public let entity: NSEntityDescription
    /// The identity key: store, root entity and primary key (temporary IDs use store token 0).
    let key: ObjectKey
    /// Weak: a store does not outlive its coordinator's IDs' usefulness. (Stored here rather than
    /// in a separate box object: one allocation per ID, not two; a `let`, so reads and the write
    /// in init need no exclusivity check.)
    public weak let persistentStore: NSPersistentStore?

    /// Whether this ID is temporary: the object has not been saved yet.
    public var isTemporaryID: Bool { key.storeToken == 0 }

    init(entity: NSEntityDescription, store: NSPersistentStore?, primaryKey: Int64) {
        self.entity = entity
        self.persistentStore = store
        self.key = ObjectKey(storeToken: store?.token ?? 0, rootEntity: entity.rootEntityNumber, primaryKey: primaryKey)
    }

    /// An ID with its key given (``ObjectIDOrigin`` knows it already).
    init(entity: NSEntityDescription, store: NSPersistentStore?, key: ObjectKey) {
        self.entity = entity
        self.persistentStore = store
        self.key = key
    }

    /// A new temporary ID, unique in this process.
    static func temporary(for entity: NSEntityDescription) -> NSManagedObjectID {
        NSManagedObjectID(entity: entity, store: nil, primaryKey: TemporaryIDCounter.next())
    }

    /// The record's primary key in its store (the `p<key>` of the URI).
    var primaryKey: Int64 { key.primaryKey }

    /// The ID as a URI: `x-coredata://<store UUID>/<Entity>/p<key>`, or for a temporary ID
    /// `x-coredata:///<Entity>/t<UUID>`.
    public func uriRepresentation() -> URL {
        let entityName = entity.name ?? "?"
        if isTemporaryID {
            return URL(string: "x-coredata:///\(entityName)/t\(TemporaryIDCounter.processUUID)\(key.primaryKey)")!
        }
        let store = persistentStore
        let storeID = store?.identifier ?? ""
        let component = store?.uriComponent(forKey: key.primaryKey, entity: entity) ?? "p\(key.primaryKey)"
        return URL(string: "x-coredata://\(storeID)/\(entityName)/\(component)")!
    }

    public override var hash: Int { key.hashValue }
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSManagedObjectID else { return false }
        return key == other.key
    }

    public override var description: String {
        "<NSManagedObjectID \(uriRepresentation().absoluteString)>"
    }
}

/// The small hashable key the identity maps use instead of the ID object.
struct ObjectKey: Hashable, Sendable {
    var storeToken: Int32
    var rootEntity: Int32
    var primaryKey: Int64

    /// One 64-bit word into the hasher instead of three fields (for hashing outside a
    /// `Dictionary` or `Set`, such as `NSManagedObjectID.hash`).
    func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
    }

    /// What `Dictionary` and `Set` call instead of `hash(into:)`: every registered object and
    /// cached row is found through this key, and SipHash was most of each lookup's cost.
    func _rawHashValue(seed: Int) -> Int { SplitMixHash.hash(folded, seed: seed) }

    /// The three fields in one word; keys that fold alike still compare unequal (`==` is per field).
    private var folded: UInt64 {
        let scope = UInt64(UInt32(bitPattern: storeToken)) << 48 ^ UInt64(UInt32(bitPattern: rootEntity)) << 32
        return UInt64(bitPattern: primaryKey) ^ scope
    }
}

/// Hands out temporary keys. Temporary IDs must be unique across all contexts of the process.
enum TemporaryIDCounter {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var last: Int64 = 0  // guarded by `lock`
    static let processUUID = UUID().uuidString

    static func next() -> Int64 {
        lock.lock(); defer { lock.unlock() }
        last += 1
        return last
    }
}

/// An object ID never changes once made, so a copy is the ID itself, as on Apple platforms.
extension NSManagedObjectID: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
