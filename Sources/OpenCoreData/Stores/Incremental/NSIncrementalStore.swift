import Foundation

/// The base class of a store that loads and saves records on demand from a backing store of
/// your own (a web service, another database, files) — Apple's *Incremental Store Programming
/// Guide*, method for method.
///
/// ```swift
/// final class NotesStore: NSIncrementalStore {
///     override func loadMetadata() throws {
///         metadata = [NSStoreUUIDKey: backingStore.uuid, NSStoreTypeKey: "NotesStore"]
///     }
///
///     override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
///         switch request.requestType {
///         case .fetchRequestType:
///             let fetch = request as! NSFetchRequest<NSFetchRequestResult>
///             let keys = try backingStore.keys(matching: fetch.predicate, sortedBy: fetch.sortDescriptors)
///             let ids = keys.map { newObjectID(for: fetch.entity!, referenceObject: $0) }
///             return fetch.resultType == .managedObjectIDResultType ? ids : ids.map { context!.object(with: $0) }
///         case .saveRequestType:
///             try backingStore.apply(request as! NSSaveChangesRequest)
///             return [Any]()
///         default:
///             throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError)
///         }
///     }
///
///     override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode { ... }
///     override func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID, with context: NSManagedObjectContext?) throws -> Any { ... }
///     override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] { ... }
/// }
///
/// NSPersistentStoreCoordinator.registerStoreClass(NotesStore.self, forStoreType: "NotesStore")
/// try coordinator.addPersistentStore(ofType: "NotesStore", configurationName: nil, at: url)
/// ```
///
/// What the coordinator calls, and when:
/// - `loadMetadata()` when the store is added. Metadata you leave out is filled in: the type,
///   and a UUID from `identifierForNewStore(at:)`. If you store `NSStoreModelVersionHashesKey`
///   and it does not match the model, adding the store fails with 134100.
/// - `execute(_:with:)` with an `NSFetchRequest<NSFetchRequestResult>` for every fetch. Return
///   managed objects (`context.object(with:)`, faults) or object IDs; apply the predicate, sort
///   descriptors, offset and limit yourself (the coordinator trusts your answer). The request's
///   `resultType` is `.managedObjectIDResultType` when the caller asked for IDs and
///   `.managedObjectResultType` otherwise; the context makes dictionaries and counts itself.
/// - `newValuesForObject(with:with:)` only when a fault fires (and, at save, for each changed
///   object, to compare versions for optimistic locking).
/// - `newValue(forRelationship:forObjectWith:with:)` when a relationship the node left out is
///   first read (a relationship fault).
/// - At save: `obtainPermanentIDs(for:)` with all new objects, then `execute(_:with:)` with an
///   ``NSSaveChangesRequest``. An error thrown by either reaches the caller of `save()` unchanged,
///   and the context keeps its changes.
/// - `managedObjectContextDidRegisterObjects(with:)` / `...DidUnregister...` as contexts start and
///   stop using your objects — on the context's queue, possibly from inside your
///   `execute(_:with:)` (when you call `object(with:)`), and from several contexts at once: don't
///   hold a non-recursive lock across `object(with:)`.
///
/// Reference objects (your record identifiers) become object IDs through
/// ``newObjectID(for:referenceObject:)`` and come back through ``referenceObject(for:)``; see
/// `ReferenceObjectTable` for how they map to the IDs' 64-bit keys.
open class NSIncrementalStore: NSPersistentStore, @unchecked Sendable {
    // @unchecked Sendable: `references` is guarded by `referenceLock`; everything else is the
    // subclass's, which must guard its own data (its methods run under the coordinator's lock,
    // except the registration callbacks).
    private let referenceLock = NSLock()
    private var references = ReferenceObjectTable()

    override class var observesObjectRegistration: Bool { true }

    public required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?, at url: URL, options: [AnyHashable: Any]? = nil) {
        super.init(persistentStoreCoordinator: root, configurationName: name, at: url, options: options)
    }

    /// The store type: the metadata's `NSStoreTypeKey`, or the name the class was registered under.
    open override var type: String {
        if let type = metadata?[NSStoreTypeKey] as? String { return type }
        return registeredTypeName ?? super.type
    }

    /// The store's identifier: the metadata's `NSStoreUUIDKey` unless set explicitly. It is the
    /// host of the store's object-ID URIs.
    open override var identifier: String! {
        get { super.identifier ?? metadata?[NSStoreUUIDKey] as? String }
        set { super.identifier = newValue }
    }

    /// An object whose reference object is a string names it in its URI as Apple's does:
    /// `p` + the string escaped with URL path rules (`key with/slash` → `pkey%20with/slash`).
    override func uriComponent(forKey key: Int64, entity: NSEntityDescription) -> String {
        guard key < 0, let reference = referenceLock.withLock({ references.reference(for: key, entity: entity) }) as? String else {
            return super.uriComponent(forKey: key, entity: entity)
        }
        return "p" + (reference.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? reference)
    }

    /// A URI's `p<integer>` names an integer reference (its key); anything else after the `p`
    /// is a string reference, handed over raw, without decoding its escapes, as Apple's
    /// coordinator hands it to the store (lossy for escaped characters, as there).
    override func key(forURIComponent component: String, entity: NSEntityDescription) -> Int64? {
        guard component.first == "p", component.count > 1 else { return nil }
        let rest = String(component.dropFirst())
        if let integer = Int64(rest), integer >= 0 { return integer }
        return referenceLock.withLock { references.key(for: rest, entity: entity) }
    }

    override var receivesEmptySaves: Bool { true }

    var registeredTypeName: String? {
        NSPersistentStoreCoordinator.registeredStoreTypes.first { $0.value == Swift.type(of: self) }?.key
    }

    // MARK: Methods to override

    /// Validates the store's URL and sets ``NSPersistentStore/metadata`` (at least
    /// `NSStoreUUIDKey` and `NSStoreTypeKey`). Throw if the store can't be opened.
    open override func loadMetadata() throws {
        try super.loadMetadata()
    }

    /// Answers a request: for a fetch, `[NSManagedObject]` or `[NSManagedObjectID]`; for a save,
    /// an empty array. Throw to fail the fetch or save; the error reaches the caller unchanged.
    open func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "\(Swift.type(of: self)) does not override execute(_:with:), so it can't answer a \(request.requestType) request. An NSIncrementalStore subclass must override execute(_:with:), newValuesForObject(with:with:), newValue(forRelationship:forObjectWith:with:) and obtainPermanentIDs(for:).")
    }

    /// The values and version of the record `objectID` names, when its fault fires. Throw if
    /// the record does not exist.
    open func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        throw CoreDataError.make(NSPersistentStoreOperationError, "\(Swift.type(of: self)) does not override newValuesForObject(with:with:), so the fault for \(objectID.uriRepresentation().absoluteString) can't be fulfilled. Return an NSIncrementalStoreNode with the record's values and version.")
    }

    /// The value of `relationship` for the record `objectID` names: an `NSManagedObjectID` (or
    /// `NSNull`) for a to-one, an array of `NSManagedObjectID` for a to-many.
    open func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID, with context: NSManagedObjectContext?) throws -> Any {
        throw CoreDataError.make(NSPersistentStoreOperationError, "\(Swift.type(of: self)) does not override newValue(forRelationship:forObjectWith:with:), and its node for \(objectID.uriRepresentation().absoluteString) has no value for '\(relationship.name)'. Override the method, or put the relationship's IDs in the node.")
    }

    /// Permanent IDs for new objects, one per object and in order: ask the backing store for
    /// keys and turn them into IDs with ``newObjectID(for:referenceObject:)``.
    open func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        throw CoreDataError.make(NSPersistentStoreSaveError, "\(Swift.type(of: self)) does not override obtainPermanentIDs(for:), so new objects can't be saved. Return newObjectID(for: object.entity, referenceObject: <new key>) for each object.")
    }

    /// Objects with these IDs are now in use in a context (optional).
    open func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {}

    /// Objects with these IDs are no longer in use in a context (optional).
    open func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {}

    /// The identifier (UUID) for a new store at `storeURL`; used when `loadMetadata()` leaves
    /// `NSStoreUUIDKey` out. Returns a new UUID string.
    open class func identifierForNewStore(at storeURL: URL) -> Any {
        UUID().uuidString
    }

    // MARK: Methods not to override

    /// An object ID for the record of `entity` your backing store knows as `data` (a `String`
    /// or a number). The same reference gives an equal ID every time.
    public func newObjectID(for entity: NSEntityDescription, referenceObject data: Any) -> NSManagedObjectID {
        let key = referenceLock.withLock { references.key(for: data, entity: entity) }
        return NSManagedObjectID(entity: entity, store: self, primaryKey: key)
    }

    /// The reference object `objectID` was made from (exactly the value passed to
    /// ``newObjectID(for:referenceObject:)``). Stops if the ID is not one of this store's.
    public func referenceObject(for objectID: NSManagedObjectID) -> Any {
        precondition(objectID.persistentStore === self && !objectID.isTemporaryID, "referenceObject(for:): \(objectID.uriRepresentation().absoluteString) was not made by this store (\(type)). Pass IDs this store created with newObjectID(for:referenceObject:).")
        guard let reference = referenceLock.withLock({ references.reference(for: objectID.primaryKey, entity: objectID.entity) }) else {
            preconditionFailure("referenceObject(for:): this store never created \(objectID.uriRepresentation().absoluteString) with newObjectID(for:referenceObject:) since it was opened.")
        }
        return reference
    }
}
