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
    /// The store's translation of this plan, made once for `canEvaluate` and the fetch after it.
    let translation = FetchPlanTranslation()

    /// The same fetch without offset and limit (applied later, after pending changes).
    var withoutLimits: FetchPlan {
        FetchPlan(entity: entity, predicate: predicate, sortDescriptors: sortDescriptors, includesSubentities: includesSubentities,
                  fetchLimit: 0, fetchOffset: 0, affectedStores: affectedStores, context: context, request: request,
                  evaluatesPendingChanges: evaluatesPendingChanges)
    }

    /// The same fetch without sort descriptors, offset and limit: the rows a context re-sorts
    /// in memory after correcting them for pending changes. Its stable sort keeps the store's
    /// order for ties, so that order must not depend on stored values the context has changed
    /// (an `NSIncrementalStore` still sees the request's own sort descriptors).
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

    /// The committed values `updated[i]` replaces; nil when ``updatedFrom`` does not line up
    /// with `updated` (not given, or not known for every row).
    func valuesReplaced(byUpdate i: Int) -> RowValues? {
        updatedFrom.count == updated.count ? updatedFrom[i] : nil
    }

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && locked.isEmpty }
}

/// What the coordinator needs from a store.
protocol StoreBackend: AnyObject {
    /// Whether saves must hand this store the managed objects behind its rows
    /// (``StoreRow/source``): `NSAtomicStore` and `NSIncrementalStore` pass objects to their
    /// subclasses. Default false: the weak reference costs every saved object a side table.
    var needsSourceObjects: Bool { get }
    /// Whether `prepareSave` itself refuses a row whose stored version is not the one the save
    /// expects (an `UPDATE ... WHERE Z_OPT = ?`), failing with `NSManagedObjectMergeError`.
    /// Then a save under the error merge policy need not read every changed record first.
    var checksVersionsOnWrite: Bool { get }
    /// Whether `fetchRows` applies predicates, sort descriptors and limits itself. Stores that
    /// don't return every row of the entity, and the context evaluates the rest in memory.
    /// The default answer of ``canEvaluate(_:)``.
    var evaluatesFetchPlans: Bool { get }
    /// Whether `fetchRows(plan)` applies this plan's predicate, sort descriptors, offset and
    /// limit itself, giving exactly the in-memory evaluator's answer. A store that translates
    /// plans into a query language answers per plan (the SQLite store: when all of it
    /// translates exactly). Default: ``evaluatesFetchPlans``.
    func canEvaluate(_ plan: FetchPlan) -> Bool
    /// The number of rows `fetchRows(plan)` returns, for a plan the store can evaluate
    /// (`count(for:)` without pending changes). Default: counts `fetchRows`.
    func countRows(_ plan: FetchPlan) throws -> Int
    /// The IDs `fetchRows(plan)` would return, in order, without their values — for batched
    /// fetches (`fetchBatchSize`), whose values load a batch at a time through
    /// `rows(for:)`. nil when the store can't list IDs more cheaply than rows. Default: nil.
    func fetchObjectIDs(_ plan: FetchPlan) throws -> [NSManagedObjectID]?
    /// ``fetchObjectIDs(_:)`` as identities (a batched fetch's faults need no ID objects).
    /// Default: the IDs of `fetchObjectIDs`.
    func fetchObjectIdentities(_ plan: FetchPlan) throws -> [ObjectIdentity]?
    /// The same records as ``fetchObjectIDs(_:)``, as compact keys (no ID object per row): a
    /// lazily batched fetch (`NSBatchFaultingArray`) keeps only these. Default: the IDs of
    /// `fetchObjectIDs`, compacted.
    func fetchObjectKeys(_ plan: FetchPlan) throws -> FetchedObjectKeys?
    /// The dictionaries of a `.dictionaryResultType` fetch (columns, DISTINCT, GROUP BY,
    /// aggregates, HAVING, order, limits), when the store computes exactly what the context's
    /// in-memory evaluation would; nil to leave it to the context. Default: nil.
    func fetchDictionaries(_ plan: FetchPlan, _ request: DictionaryResultPlan) throws -> [[String: Any]]?
    func fetchRows(_ plan: FetchPlan) throws -> [StoreRow]
    /// The current row for `objectID`, or nil if the store has no such record.
    func row(for objectID: NSManagedObjectID) throws -> StoreRow?
    /// `count` new primary keys for objects of `entity` (one key sequence per root entity).
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64]
    /// Applies a save atomically: all of it, or nothing and a thrown error.
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
    /// Called by the coordinator right after `loadMetadata()`: fill in missing metadata, check
    /// the store against the model (134100 when it was made with another model).
    func didLoadMetadata(model: NSManagedObjectModel) throws
    /// A context registered objects of this store in its identity map, or let go of them
    /// (only for stores whose `observesObjectRegistration` is true). Called on that context's
    /// queue, so possibly from several threads at once.
    func contextDidRegister(_ objectIDs: [NSManagedObjectID])
    func contextDidUnregister(_ objectIDs: [NSManagedObjectID])
}

extension StoreBackend {
    var needsSourceObjects: Bool { false }
    var checksVersionsOnWrite: Bool { false }
    func canEvaluate(_ plan: FetchPlan) -> Bool { evaluatesFetchPlans }
    func countRows(_ plan: FetchPlan) throws -> Int { try fetchRows(plan).count }
    func fetchObjectIDs(_ plan: FetchPlan) throws -> [NSManagedObjectID]? { nil }
    func fetchObjectIdentities(_ plan: FetchPlan) throws -> [ObjectIdentity]? {
        try fetchObjectIDs(plan)?.map { .id($0) }
    }
    /// Only the SQLite store lists keys; every other store leaves lazy batching to `fetch(_:)`.
    func fetchObjectKeys(_ plan: FetchPlan) throws -> FetchedObjectKeys? { nil }
    func fetchDictionaries(_ plan: FetchPlan, _ request: DictionaryResultPlan) throws -> [[String: Any]]? { nil }

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
        // Stores that return complete rows never leave a relationship unloaded; read it from the row.
        let index = objectID.entity.layout?.indexByName[relationship.name]
        guard let index, let row = try row(for: objectID, in: context), index < row.values.count else { return relationship.isToMany ? .objectIDs([]) : .null }
        return row.values[index]
    }
    func didLoadMetadata(model: NSManagedObjectModel) throws {}
    func contextDidRegister(_ objectIDs: [NSManagedObjectID]) {}
    func contextDidUnregister(_ objectIDs: [NSManagedObjectID]) {}
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
