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
struct ObjectIdentity: @unchecked Sendable {
    // @unchecked Sendable: the reference is an NSManagedObjectID or an ObjectIDOrigin, both
    // immutable after init.
    //
    // A struct of one reference and a key rather than an enum with an ID case and an origin
    // case: a fetch copies each row's identity about a dozen times (into the row, the object,
    // the row cache, batches), and an enum's copy is an outlined switch before its retain. This
    // one is a retain.

    /// The ID when `storedPrimaryKey` is ``holdsObjectID``, else the origin of the record with
    /// primary key `storedPrimaryKey`.
    private let reference: NSObject
    private let storedPrimaryKey: Int64

    /// The `storedPrimaryKey` that says `reference` is an ID. A marker value rather than a flag
    /// keeps an identity at two words, and an object or row that holds one a word smaller
    /// (with a flag, an object crosses into the next `malloc` size class). A record whose
    /// primary key is this value gets an ID object at once instead (``stored(_:primaryKey:)``),
    /// so the marker never names a record.
    private static var holdsObjectID: Int64 { .min }

    /// The identity of an existing ID.
    static func id(_ id: NSManagedObjectID) -> ObjectIdentity {
        ObjectIdentity(reference: id, storedPrimaryKey: holdsObjectID)
    }

    /// A record of a store, by the origin its entity's rows share: no ID object yet.
    static func stored(_ origin: ObjectIDOrigin, primaryKey: Int64) -> ObjectIdentity {
        if primaryKey == holdsObjectID { return .id(origin.objectID(primaryKey)) }
        return ObjectIdentity(reference: origin, storedPrimaryKey: primaryKey)
    }

    /// The ID object this identity holds; nil when it holds an origin and a key.
    @inline(__always) var existingObjectID: NSManagedObjectID? {
        storedPrimaryKey == Self.holdsObjectID ? unsafeDowncast(reference, to: NSManagedObjectID.self) : nil
    }

    @inline(__always) private var origin: ObjectIDOrigin { unsafeDowncast(reference, to: ObjectIDOrigin.self) }

    /// The identity-map key, without making an ID.
    @inline(__always) var key: ObjectKey {
        if let id = existingObjectID { return id.key }
        return origin.key(storedPrimaryKey)
    }

    /// The record's entity.
    var entity: NSEntityDescription { existingObjectID?.entity ?? origin.entity }

    /// The ID object: the one held, or a new one (equal to any other made for the record).
    var objectID: NSManagedObjectID { existingObjectID ?? origin.objectID(storedPrimaryKey) }

    /// The record's primary key in its store (a temporary ID's number for a new object).
    var primaryKey: Int64 { key.primaryKey }

    /// Whether this is a new object's temporary identity (``NSManagedObjectID/isTemporaryID``).
    var isTemporary: Bool { key.storeToken == 0 }

    /// The store of the record: nil for a temporary ID, or once the store is gone.
    var persistentStore: NSPersistentStore? { existingObjectID?.persistentStore ?? origin.store }

    /// Whether both name the same record (by key: an ID and an origin's record can).
    func names(_ other: ObjectIdentity) -> Bool { key == other.key }
}

/// What every ID of one entity in one store shares: the entity, the store and the key's scope.
/// A store makes one per entity when it opens and puts it in the rows it decodes
/// (``ObjectIdentity/stored(_:primaryKey:)``); each frozen entity has one more, without a
/// store, for its new objects' temporary IDs (``NSEntityDescription/temporaryIDOrigin``).
final class ObjectIDOrigin: NSObject, @unchecked Sendable {
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
        super.init()
    }

    /// The origin of `entity`'s temporary IDs: store token 0, as ``NSManagedObjectID/isTemporaryID`` reads it.
    init(temporaryIDsOf entity: NSEntityDescription) {
        self.entity = entity
        self.store = nil
        storeToken = 0
        rootEntity = entity.rootEntityNumber
        super.init()
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
