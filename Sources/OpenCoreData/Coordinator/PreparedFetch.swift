import Foundation

/// What a store returns for a fetch the context needs in memory: the answer itself, or every
/// row that may match.
enum FetchForm {
    /// The plan's answer: predicate, sort descriptors, offset and limit applied, in order.
    /// Only a fetch whose ``PreparedStoreFetch/isExact`` is true gives it.
    case answer
    /// Every row of the plan's entities that may match the predicate, in primary-key order,
    /// with no offset or limit: the context evaluates what remains in memory (and corrects the
    /// rows with its unsaved changes). An exact fetch applies its predicate exactly; another
    /// may apply a part of it (to narrow the rows) or none.
    case candidates
}

/// One store's preparation of one fetch: the plan translated once (the SQLite store: its SQL),
/// then asked for the form the context needs. Made by ``StoreBackend/prepareFetch(_:)``.
///
/// ```swift
/// let fetch = try store.prepareFetch(plan)        // translates the predicate and sorts once
/// if fetch.isExact {
///     let n = try fetch.count()                   // SELECT COUNT(*) ...
///     let page = try fetch.rows(.answer)          // ... ORDER BY ... LIMIT ? OFFSET ?
/// } else {
///     let rows = try fetch.rows(.candidates)      // narrowed; the context evaluates the rest
/// }
/// ```
///
/// The coordinator calls these under its lock, from the fetching context's queue, and drops
/// the fetch when the context's fetch ends: an implementation may keep statements or cursors in
/// it, and needs no lock of its own against other calls of the same fetch.
protocol PreparedStoreFetch: AnyObject {
    /// Whether the store decides the whole plan exactly as the in-memory evaluator would:
    /// predicate (`NSPredicate.evaluate(with:)`), sort descriptors (`NSSortDescriptor`'s
    /// stable order, ties in primary-key order), offset and limit. Then the answer, its count
    /// and its keys come from the store alone.
    var isExact: Bool { get }
    /// The rows of `form`. Each row carries every value of its record (relationships as IDs);
    /// a store that loads values later returns fault rows (``StoreRow/isFault``).
    func rows(_ form: FetchForm) throws -> [StoreRow]
    /// The number of rows `rows(.answer)` returns, for an exact fetch. Default: counts them.
    func count() throws -> Int
    /// The records of `rows(.answer)` as compact keys, for an exact fetch whose store can list
    /// them without reading values (batch faulting); nil otherwise. Default: nil.
    func objectKeys() throws -> FetchedObjectKeys?
    /// The dictionaries of a `.dictionaryResultType` fetch of this plan, when the store
    /// computes exactly what the context's in-memory evaluation would; nil to leave it to the
    /// context. Default: nil.
    func dictionaries(_ request: DictionaryResultPlan) throws -> [[String: Any]]?
}

extension PreparedStoreFetch {
    func count() throws -> Int { try rows(.answer).count }
    func objectKeys() throws -> FetchedObjectKeys? { nil }
    func dictionaries(_ request: DictionaryResultPlan) throws -> [[String: Any]]? { nil }
}

/// A store that evaluates no part of a fetch: it lists the rows of the plan's entities, and the
/// context evaluates predicate, sort descriptors and limits on the objects (the in-memory store,
/// atomic stores). It gets ``StoreBackend/prepareFetch(_:)`` for free.
protocol RowListingStore: StoreBackend {
    /// Every row of `plan.entity` (and of its subentities when `plan.includesSubentities`), in
    /// primary-key order.
    func allRows(for plan: FetchPlan) throws -> [StoreRow]
}

extension RowListingStore {
    func prepareFetch(_ plan: FetchPlan) throws -> any PreparedStoreFetch { ListedRowsFetch(store: self, plan: plan) }
}

/// The prepared fetch of a ``RowListingStore``: never exact, its candidates are every row.
private final class ListedRowsFetch<Store: RowListingStore>: PreparedStoreFetch {
    let store: Store
    let plan: FetchPlan
    init(store: Store, plan: FetchPlan) { self.store = store; self.plan = plan }
    var isExact: Bool { false }
    func rows(_ form: FetchForm) throws -> [StoreRow] {
        precondition(form == .candidates, "a store that lists rows has no exact answer")
        return try store.allRows(for: plan)
    }
}

/// A fetch prepared by every store that holds its entity: what a context asks the coordinator
/// for. Calls take the coordinator's lock; rows that come up pass through the row cache.
///
/// ```swift
/// let fetch = try coordinator.prepareFetch(plan)
/// let rows = try fetch.rows(fetch.isExact ? .answer : .candidates)
/// ```
final class PreparedFetch {
    private let coordinator: NSPersistentStoreCoordinator
    private let storeFetches: [any PreparedStoreFetch]
    /// Whether one store decides the whole plan (see ``PreparedStoreFetch/isExact``). No store
    /// at all (an entity in no store's configuration) is exact too: its answer is empty. Rows of
    /// several stores are merged and evaluated by the context.
    let isExact: Bool

    init(coordinator: NSPersistentStoreCoordinator, storeFetches: [any PreparedStoreFetch]) {
        self.coordinator = coordinator
        self.storeFetches = storeFetches
        isExact = storeFetches.count <= 1 && storeFetches.allSatisfy(\.isExact)
    }

    /// The rows of `form` from every store, registered in the row cache.
    func rows(_ form: FetchForm) throws -> [StoreRow] {
        precondition(form == .candidates || isExact, "only an exact fetch has an answer")
        return try coordinator.locked {
            coordinator.rowFetches += 1
            // One store (the common case) hands its array over as it is: joining arrays copies
            // every row, three reference counts each.
            let rows = storeFetches.count == 1 ? try storeFetches[0].rows(form) : try storeFetches.flatMap { try $0.rows(form) }
            if !QueryGenerationScope.isPinned { coordinator.rowCache.update(rows) }
            return rows
        }
    }

    /// The number of rows of the answer.
    func count() throws -> Int {
        precondition(isExact, "only an exact fetch has a count")
        return try coordinator.locked { try storeFetches.first?.count() ?? 0 }
    }

    /// The answer's records as keys, when its one store lists them without values.
    func objectKeys() throws -> FetchedObjectKeys? {
        guard isExact, let fetch = storeFetches.first else { return nil }
        return try coordinator.locked { try fetch.objectKeys() }
    }

    /// The answer's records as identities (no ID object each), when its store lists keys.
    func objectIdentities() throws -> [ObjectIdentity]? {
        guard let keys = try objectKeys() else { return nil }
        return (0..<keys.count).map(keys.identity(at:))
    }

    /// The answer's object IDs, when its store lists keys.
    func objectIDs() throws -> [NSManagedObjectID]? { try objectKeys()?.objectIDs }

    /// The dictionaries of a dictionary fetch, when the plan's one store answers it itself.
    func dictionaries(_ request: DictionaryResultPlan) throws -> [[String: Any]]? {
        guard storeFetches.count == 1 else { return nil }
        return try coordinator.locked {
            guard let rows = try storeFetches[0].dictionaries(request) else { return nil }
            coordinator.dictionaryFetchesAnsweredByStores += 1
            return rows
        }
    }
}

extension NSPersistentStoreCoordinator {
    /// Has each store holding `plan`'s entity prepare the fetch, once: whatever the context
    /// then asks (exactness, rows, a count, keys or dictionaries) uses that one translation.
    func prepareFetch(_ plan: FetchPlan) throws -> PreparedFetch {
        try locked {
            let fetches = try stores(for: plan.entity, among: plan.affectedStores).map { try backend(of: $0).prepareFetch(plan) }
            return PreparedFetch(coordinator: self, storeFetches: fetches)
        }
    }

    /// Whether the stores decide `plan` exactly (for tests and diagnostics).
    func storesEvaluate(_ plan: FetchPlan) -> Bool {
        (try? prepareFetch(plan).isExact) ?? false
    }
}
