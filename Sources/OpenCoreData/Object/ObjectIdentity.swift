import Foundation

/// A record's identity as rows and managed objects hold it: an ID object, or what one is made
/// from when something asks for it.
///
/// ```swift
/// let identity = ObjectIdentity.stored(plan.origin, primaryKey: 42)  // no allocation
/// identity.key                                                       // for identity maps and the row cache
/// identity.objectID                                                  // an NSManagedObjectID, made now
/// ```
///
/// A store decoding a fetch of 200,000 rows used to make an `NSManagedObjectID` per row, which
/// the row, its object and the row cache then shared. Nothing on the way from the store to the
/// fetched object needs the ID object — identity maps and the row cache are keyed by
/// ``ObjectKey`` — so a decoded row carries its entity's ``ObjectIDOrigin`` and its primary key,
/// and the ID is made only if the app (or a path that hands IDs out) asks. Two IDs made for one
/// record are equal (`isEqual`, `hash`), as IDs from two contexts always were.
enum ObjectIdentity: @unchecked Sendable {
    // @unchecked Sendable: both payloads are Sendable classes (immutable after init).
    case id(NSManagedObjectID)
    /// A record of a store, by the origin its entity's rows share.
    case stored(ObjectIDOrigin, primaryKey: Int64)

    /// The identity-map key, without making an ID.
    @inline(__always) var key: ObjectKey {
        switch self {
        case .id(let id): return id.key
        case .stored(let origin, let primaryKey): return origin.key(primaryKey)
        }
    }

    /// The record's entity.
    var entity: NSEntityDescription {
        switch self {
        case .id(let id): return id.entity
        case .stored(let origin, _): return origin.entity
        }
    }

    /// The ID object: the one held, or a new one (equal to any other made for the record).
    var objectID: NSManagedObjectID {
        switch self {
        case .id(let id): return id
        case .stored(let origin, let primaryKey): return origin.objectID(primaryKey)
        }
    }

    /// The record's primary key in its store (a temporary ID's number for a new object).
    var primaryKey: Int64 { key.primaryKey }

    /// The store of the record: nil for a temporary ID, or once the store is gone.
    var persistentStore: NSPersistentStore? {
        switch self {
        case .id(let id): return id.persistentStore
        case .stored(let origin, _): return origin.store
        }
    }

    /// Whether both name the same record (by key: an ID and an origin's record can).
    func names(_ other: ObjectIdentity) -> Bool { key == other.key }
}

/// What every ID of one entity in one store shares: the entity, the store and the key's scope.
/// A store makes one per entity when it opens and puts it in the rows it decodes
/// (``ObjectIdentity/stored(_:primaryKey:)``).
final class ObjectIDOrigin: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable after init (the store reference
    // is weak and only read).
    let entity: NSEntityDescription
    weak let store: NSPersistentStore?
    /// The store's token and the entity's root number, as ``ObjectKey`` holds them.
    private let storeToken: Int32, rootEntity: Int32

    init(entity: NSEntityDescription, store: NSPersistentStore) {
        self.entity = entity
        self.store = store
        storeToken = store.token
        rootEntity = entity.rootEntityNumber
    }

    @inline(__always) func key(_ primaryKey: Int64) -> ObjectKey {
        ObjectKey(storeToken: storeToken, rootEntity: rootEntity, primaryKey: primaryKey)
    }

    /// A new ID for the record with `primaryKey`. Its key keeps the store's token even once the
    /// store is gone (a weak reference reads nil then), so it never turns into a temporary ID.
    func objectID(_ primaryKey: Int64) -> NSManagedObjectID {
        NSManagedObjectID(entity: entity, store: store, key: key(primaryKey))
    }
}
