import Foundation

// The one internal interface every store sits behind — shaped like NSIncrementalStore: fetch
// rows, load one row, hand out primary keys, apply a save. The coordinator talks only to this.

/// One record as a store returns it: ID, values in slot order (relationships as IDs), version.
struct StoreRow: Sendable {
    /// The record: an ID, or (rows a store decodes) what one is made from (``ObjectIdentity``).
    let identity: ObjectIdentity
    /// Values in slot order. `var` only so a store can fill to-many slots after decoding.
    var values: RowValues
    /// Optimistic-locking version: 1 after insert, +1 per saved change.
    let version: Int64
    /// A row that names a record without its values: an `NSIncrementalStore` fetch answers with
    /// object IDs (or faults), and values load only when a fault fires (`row(for:in:)`). The
    /// context registers such a row as a fault.
    var isFault = false
    /// The object a save row was made from. `NSSaveChangesRequest` and `NSAtomicStore`'s
    /// cache-node callbacks hand stores managed objects, not rows; held weakly, so a store that
    /// keeps rows (the in-memory store) never keeps objects alive.
    var source: SourceObjectReference? = nil

    init(objectID: NSManagedObjectID, values: RowValues, version: Int64, isFault: Bool = false, source: SourceObjectReference? = nil) {
        self.init(identity: .id(objectID), values: values, version: version, isFault: isFault, source: source)
    }

    init(identity: ObjectIdentity, values: RowValues, version: Int64, isFault: Bool = false, source: SourceObjectReference? = nil) {
        self.identity = identity
        self.values = values
        self.version = version
        self.isFault = isFault
        self.source = source
    }

    /// A copy of the row that takes its values, leaving this row none (for a row about to be
    /// freed: the values change owner without a reference count).
    mutating func movingValues() -> StoreRow {
        var moved = StoreRow(identity: identity, values: RowValues(), version: version, isFault: isFault, source: source)
        swap(&moved.values, &values)
        return moved
    }

    /// The record's ID. A decoded row makes a new one on each call: where the key or the entity
    /// will do, use ``key`` or ``entity``.
    var objectID: NSManagedObjectID { identity.objectID }
    /// The identity-map and row-cache key.
    var key: ObjectKey { identity.key }
    var entity: NSEntityDescription { identity.entity }
}

/// A weak reference to the managed object a save row describes. Read only during the save, on
/// the saving context's queue (stores run under the coordinator's lock, called from there).
final class SourceObjectReference: @unchecked Sendable {
    private(set) weak var object: NSManagedObject?
    init(_ object: NSManagedObject) { self.object = object }
}

/// A fetch as the coordinator hands it to a store.
struct FetchPlan {
    let entity: NSEntityDescription
    let predicate: NSPredicate?
    let sortDescriptors: [NSSortDescriptor]
    let includesSubentities: Bool
    let fetchLimit: Int
    let fetchOffset: Int
    let affectedStores: [NSPersistentStore]?
    /// The fetching context and its request: an `NSIncrementalStore` receives both in
    /// `execute(_:with:)` (its fetch answers with `context.object(with:)` faults).
    var context: (any RequestingContext)? = nil
    var request: NSPersistentStoreRequest? = nil
    /// The rows must come in the store's key order (`inStoreOrder`): the context sorts them
    /// stably in memory, so that order decides ties. Otherwise an unsorted, unlimited fetch may
    /// come in any order (an index's, for the SQLite store).
    var inKeyOrder = false
    /// The context corrects the store's answer with its unsaved changes in memory
    /// (`includesPendingChanges` with changes). A store's SQL must then not decide anything
    /// through relationships: an unsaved change of a related object (a department renamed) can
    /// make a row match that is unchanged itself, and only in-memory evaluation sees it.
    var evaluatesPendingChanges = false

    /// The same fetch without sort descriptors, offset and limit, in key order: what
    /// ``FetchForm/candidates`` asks a store that evaluates plans by running them (an
    /// `NSIncrementalStore`, which still sees the request's own sort descriptors).
    var inStoreOrder: FetchPlan {
        FetchPlan(entity: entity, predicate: predicate, sortDescriptors: [], includesSubentities: includesSubentities,
                  fetchLimit: 0, fetchOffset: 0, affectedStores: affectedStores, context: context, request: request, inKeyOrder: true,
                  evaluatesPendingChanges: evaluatesPendingChanges)
    }

    /// Whether a row of `entity` belongs in the result.
    func includes(_ rowEntity: NSEntityDescription) -> Bool {
        rowEntity === entity || (includesSubentities && rowEntity.isKindOf(entity: entity))
    }
}

/// The rows a save writes, deletes, and checks.
struct StoreChanges: Sendable {
    var inserted: [StoreRow]
    var updated: [StoreRow]
    var deleted: [StoreRow]
    /// Unchanged records under optimistic locking (`detectConflicts(for:)`): their versions are
    /// checked like updates and bumped, their values stay.
    var locked: [StoreRow] = []
    /// The committed values each of `updated` replaces, in the same order; empty when not known.
    /// A store may then write only the columns that changed (Apple's UPDATE names only those),
    /// so an unchanged indexed column costs no index write. Given only under the error merge
    /// policy: its version check makes the stored record equal to these values, or fails.
    var updatedFrom: [RowValues] = []
    /// For a store that keeps persistent history: what to record about this transaction, and
    /// the slots each of `updated` changed (in the same order; empty when not known).
    var history: HistoryTransactionInfo? = nil
    var updatedSlots: [[Int]] = []

    /// The committed values `updated[i]` replaces; nil when ``updatedFrom`` does not line up
    /// with `updated` (not given, or not known for every row).
    func valuesReplaced(byUpdate i: Int) -> RowValues? {
        updatedFrom.count == updated.count ? updatedFrom[i] : nil
    }

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && locked.isEmpty }
}

/// The store contract: what the coordinator needs from a store, and what a store must
/// guarantee. The SQLite store, the in-memory store and the adapters of `NSIncrementalStore` and
/// `NSAtomicStore` implement it; a new store (PostgreSQL) implements the same requirements.
///
/// ```swift
/// final class MyStore: NSPersistentStore, StoreBackend {
///     func prepareFetch(_ plan: FetchPlan) throws -> any PreparedStoreFetch { ... }
///     func row(for objectID: NSManagedObjectID) throws -> StoreRow? { ... }
///     func rows(for identities: [ObjectIdentity]) throws -> [StoreRow] { ... }   // optional
///     func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] { ... }
///     func save(_ changes: StoreChanges) throws { ... }
///     func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave { ... }  // optional
/// }
/// ```
///
/// **Reading.** A fetch goes down once: ``prepareFetch(_:)`` translates the plan, and the
/// context asks the returned ``PreparedStoreFetch`` whether the store decides it exactly and
/// for the rows, count, keys or dictionaries it needs. Exact means the in-memory evaluator's
/// answer, to the row and the order (ties in primary-key order); a store that cannot promise
/// that for a plan answers `isExact == false` and returns candidates, and the context does
/// the rest. A fault fires through ``row(for:)`` (or ``rows(for:)`` for a batch). Rows carry
/// every value in slot order (`EntityLayout`), relationships as object IDs, and the record's
/// version.
///
/// **Versions.** Every record has a version: 1 when inserted, one more per saved change
/// (Core Data's `Z_OPT`). A save carries, for each updated, deleted or locked row, the version
/// it will have (`version`): the store must refuse the save, writing nothing, with
/// `NSManagedObjectMergeError` (133020) when a record's stored version is not `version - 1`
/// (updates, locked rows) or `version` (deletes), checked inside its write transaction, so that
/// a change another process committed after the context's own check is still found. Such a
/// failure goes back to the context's merge policy, which resolves it and saves again.
///
/// **Uniqueness.** A store that keeps uniqueness constraints (the SQLite store: a unique index)
/// must refuse a save that would store a second record with the same values, writing nothing,
/// with `NSManagedObjectConstraintMergeError` (133021). The context resolves the conflicts it
/// can see before saving; this catches the values another process inserted meanwhile, and the
/// merge policy resolves them on the next attempt.
///
/// **Atomicity.** ``save(_:)`` and the `commit` of ``prepareSave(_:)`` apply all of a save or,
/// throwing, none of it, and a process killed at any point leaves the store with all or none of
/// it. Primary keys from ``newPrimaryKeys(for:count:)`` are never handed out twice, also across
/// processes and after a crash.
///
/// **Threads.** The coordinator calls a store only under its own lock, so calls of one
/// coordinator never overlap; several coordinators (or processes) may use the same store file or
/// database at once, and the store's transactions keep them apart. A call may come from any
/// thread (the calling context's queue).
protocol StoreBackend: AnyObject {
    /// Whether saves must hand this store the managed objects behind its rows
    /// (``StoreRow/source``): `NSAtomicStore` and `NSIncrementalStore` pass objects to their
    /// subclasses. Default false: the weak reference costs every saved object a side table.
    var needsSourceObjects: Bool { get }
    /// Whether `prepareSave` itself refuses a row whose stored version is not the one the save
    /// expects (an `UPDATE ... WHERE Z_OPT = ?`), failing with `NSManagedObjectMergeError`.
    /// Then a save under the error merge policy need not read every changed record first.
    var checksVersionsOnWrite: Bool { get }
    /// Prepares `plan` once: the one way a fetch goes down to the store. The context then asks
    /// the prepared fetch whether the store decides the plan exactly, and for the rows, count,
    /// keys or dictionaries it needs (``PreparedStoreFetch``). A store that evaluates nothing
    /// conforms to ``RowListingStore`` instead and gets this for free.
    func prepareFetch(_ plan: FetchPlan) throws -> any PreparedStoreFetch
    /// The current row for `objectID`, or nil if the store has no such record.
    func row(for objectID: NSManagedObjectID) throws -> StoreRow?
    /// `count` new primary keys for objects of `entity` (one key sequence per root entity).
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64]
    /// Applies a save atomically: all of it, or nothing and a thrown error. The coordinator
    /// calls this when a save reaches this store alone, and ``prepareSave(_:)`` when it spans
    /// several stores.
    func save(_ changes: StoreChanges) throws
    /// The rows of several records in one round trip (missing records are left out).
    func rows(for identities: [ObjectIdentity]) throws -> [StoreRow]
    /// First phase of a save that spans several stores: check and stage `changes` so that
    /// `commit` can no longer fail for a reason the store could have known now.
    func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave

    // Optional (defaults below): what custom stores (NSIncrementalStore, NSAtomicStore) need.

    /// Permanent IDs for new objects chosen by the store itself (`obtainPermanentIDs(for:)`,
    /// `newReferenceObject(for:)`), in the order of `objects`; nil to let the coordinator make
    /// them from `newPrimaryKeys(for:count:)`.
    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID]?
    /// `row(for:)` on behalf of `context` (an incremental store passes it to
    /// `newValuesForObject(with:with:)`).
    func row(for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoreRow?
    /// The IDs of a relationship a row left unloaded (`UnloadedRelationship`): `.objectID`,
    /// `.null` or `.objectIDs` (`newValue(forRelationship:forObjectWith:with:)`).
    func relationshipValue(_ relationship: NSRelationshipDescription, for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoredValue
    /// ``relationshipValue(_:for:in:)`` of several objects of this store, in their order: one
    /// read where the store can make it one (relationship prefetching).
    func relationshipValues(_ relationship: NSRelationshipDescription, for objectIDs: [NSManagedObjectID], in context: (any RequestingContext)?) throws -> [StoredValue]
    /// Called by the coordinator right after `loadMetadata()`: fill in missing metadata, check
    /// the store against the model (134100 when it was made with another model).
    func didLoadMetadata(model: NSManagedObjectModel) throws
    /// The derived attributes this store computes itself ("Entity.attribute"): those of a
    /// SQLite store Apple's framework made, whose triggers keep them. A save leaves them to the
    /// store instead of computing them (the two would count a change twice).
    var derivedAttributesMaintainedByStore: Set<String> { get }
    /// A context registered objects of this store in its identity map, or let go of them
    /// (only for stores whose `observesObjectRegistration` is true). Called on that context's
    /// queue, so possibly from several threads at once.
    func contextDidRegister(_ objectIDs: [NSManagedObjectID])
    func contextDidUnregister(_ objectIDs: [NSManagedObjectID])

    /// Whether a save may insert rows with primary keys this store did not hand out (a copy
    /// from another store keeping its keys): the store then raises its key counter past them,
    /// so ``newPrimaryKeys(for:count:)`` never hands them out again. Default false.
    var acceptsForeignPrimaryKeys: Bool { get }

    /// Whether the store runs batch requests (``executeBatch(_:)``). Default: stores that do
    /// not need managed objects to save (the atomic stores' cache nodes are made from objects,
    /// which a batch request does not have).
    var runsBatchRequests: Bool { get }
    /// Runs a batch insert, update or delete in one transaction, bypassing contexts: all of it,
    /// or nothing and a thrown error, with the guarantees of a save (versions of updated
    /// records up by one, uniqueness, atomicity). Default: ``RowBatchExecution``, the
    /// contract's reads and one save.
    func executeBatch(_ operation: BatchOperation) throws -> BatchOutcome
}

extension StoreBackend {
    var needsSourceObjects: Bool { false }
    var derivedAttributesMaintainedByStore: Set<String> { [] }
    var checksVersionsOnWrite: Bool { false }

    func rows(for identities: [ObjectIdentity]) throws -> [StoreRow] {
        try identities.compactMap { try row(for: $0.objectID) }
    }

    /// Stores that cannot stage a save do all of it at commit.
    func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave {
        PreparedStoreSave(commit: { try self.save(changes) }, rollback: {})
    }

    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID]? { nil }
    func row(for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoreRow? { try row(for: objectID) }
    func relationshipValue(_ relationship: NSRelationshipDescription, for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoredValue {
        // Stores that return complete rows never leave a relationship unloaded.
        try relationshipValueFromRow(relationship, for: objectID, in: context)
    }

    func relationshipValues(_ relationship: NSRelationshipDescription, for objectIDs: [NSManagedObjectID], in context: (any RequestingContext)?) throws -> [StoredValue] {
        try objectIDs.map { try relationshipValue(relationship, for: $0, in: context) }
    }

    /// The relationship's value in the object's row: nothing (no object, no members) when the
    /// record is gone.
    func relationshipValueFromRow(_ relationship: NSRelationshipDescription, for objectID: NSManagedObjectID, in context: (any RequestingContext)?) throws -> StoredValue {
        let index = objectID.entity.layout?.indexByName[relationship.name]
        guard let index, let row = try row(for: objectID, in: context), index < row.values.count else { return relationship.isToMany ? .objectIDs([]) : .null }
        return row.values[index]
    }
    func didLoadMetadata(model: NSManagedObjectModel) throws {}
    func contextDidRegister(_ objectIDs: [NSManagedObjectID]) {}
    func contextDidUnregister(_ objectIDs: [NSManagedObjectID]) {}
    var runsBatchRequests: Bool { !needsSourceObjects }
    var acceptsForeignPrimaryKeys: Bool { false }
    func executeBatch(_ operation: BatchOperation) throws -> BatchOutcome { try RowBatchExecution(store: self).run(operation) }
}

/// A store that answers requests the way Apple's `NSIncrementalStore` does: it gets Apple's
/// request object itself (`execute(_:with:)`), batch requests included, and returns the result.
protocol RequestForwardingStore: AnyObject {
    func forward(_ request: NSPersistentStoreRequest, from context: (any RequestingContext)?) throws -> Any
}

/// A staged save: `commit` makes it durable, `rollback` drops it.
///
/// Atomicity across stores: the coordinator prepares every store first and rolls all of them
/// back if any refuses, so conflicts, constraint and I/O errors found while preparing leave every
/// store as it was. Only a failure inside a later store's `commit` (after an earlier one committed)
/// could leave a partial save; stores keep that window small by doing all their work in prepare.
struct PreparedStoreSave {
    let commit: () throws -> Void
    let rollback: () -> Void
}

/// The context on whose behalf the coordinator fetches or fires a fault, as the layers below
/// contexts see it: a reference they pass on to the store and never call.
///
/// `NSManagedObjectContext` is the only conformer (in `Context/`). A store, which sits above
/// contexts, casts it back where Core Data's API hands a store the context
/// (`NSIncrementalStore.execute(_:with:)`, `newValuesForObject(with:with:)`), or compares it
/// by identity with an object's context (the SQLite store's `SELF == %@`).
protocol RequestingContext: AnyObject {}
