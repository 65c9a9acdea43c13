import Foundation

/// Loads the values of a batched fetch's faults one batch at a time (`fetchBatchSize`).
///
/// ```swift
/// let request = NSFetchRequest<Item>(entityName: "Item")
/// request.fetchBatchSize = 500
/// let items = try context.fetch(request)   // object IDs only: one query, 1,000,000 faults
/// for item in items { total += item.price } // a query per 500 items, when the first fault fires
/// ```
///
/// Apple returns a proxy `NSArray` that realizes batches as they are indexed. `fetch(_:)` returns
/// a Swift `[T]`, which cannot be lazy on Linux (no bridging from `NSArray`), so the array holds
/// real objects — faults without values — and this loader, shared by the faults of one fetch,
/// fills them: when a fault of the fetch fires, the rows of its whole batch are read with one
/// `WHERE Z_PK IN (...)` query (`coordinator.rows(for:)`) and every fault of the batch that is
/// still alive is filled, holding its row in the coordinator's cache. So iterating a batched
/// result costs one query per batch, and objects (with their cached rows) go away when the
/// caller drops them.
///
/// `fetch(_:)`'s array keeps every object of the result alive, so iterating a long result would
/// keep every row's values too. Loading a batch therefore turns the unchanged objects of the
/// batch ``realizedBatches`` behind back into faults (their cached rows go with them); an object
/// read again later fires again, like any fault. Objects with unsaved changes stay as they are.
///
/// The loader keeps the result's keys (16 bytes per object) and the index of the next batch it
/// expects: sequential access finds each fault in that batch or the one it last loaded. A fault
/// of the fetch found in neither (random access, a second pass over the result) is looked up in
/// a key → position index built on the first such miss, and loads its batch; a fault of
/// another fetch loads alone, as any fault does. A batch turned back into faults counts as not
/// loaded again. The context keeps a few recent loaders (``maximumLoaders``) and drops a loader
/// once every batch is loaded.
final class FetchBatchLoader {
    /// How many batched fetches of one context keep batch loading at a time.
    static let maximumLoaders = 4
    /// How many to-many relationships' members keep loading together (an app reads a few
    /// relationships at a time: a list's rows, each with its members).
    static let maximumRelationshipLoaders = 16
    /// How many batches stay realized: loading a batch turns the unchanged objects of the batch
    /// this far behind back into faults.
    static let realizedBatches = 2

    private let keys: [ObjectKey]
    private let batchSize: Int
    /// The batch expected next: the one after the batch loaded last.
    private var cursor = 0
    private var lastLoaded: Int?
    private var loaded: [Bool]
    private var remaining: Int

    init(keys: [ObjectKey], batchSize: Int) {
        self.keys = keys
        self.batchSize = max(1, batchSize)
        let batches = (keys.count + self.batchSize - 1) / self.batchSize
        loaded = Array(repeating: false, count: batches)
        remaining = batches
    }

    /// Whether every batch has been loaded (the loader has nothing left to do).
    var isFinished: Bool { remaining == 0 }

    /// The not-yet-loaded batch holding `key`: first where sequential access leads, then —
    /// a fault met out of order, such as the first one of a second pass over the result —
    /// through a key → position index built on the first such miss (so a single sequential
    /// pass never pays for it).
    func batch(containing key: ObjectKey) -> Int? {
        for candidate in [cursor, (lastLoaded ?? -1) + 1, lastLoaded ?? -1] where candidate >= 0 && candidate < loaded.count && !loaded[candidate] {
            if keys[range(of: candidate)].contains(key) { return candidate }
        }
        // Every key of one fetch has the same store and root entity: anything else (a
        // relationship fault, say) is not ours, and must not make us build the index.
        guard let first = keys.first, first.storeToken == key.storeToken, first.rootEntity == key.rootEntity else { return nil }
        if positions == nil {
            var index: [ObjectKey: Int] = [:]
            index.reserveCapacity(keys.count)
            for (position, key) in keys.enumerated() where index[key] == nil { index[key] = position }
            positions = index
        }
        guard let position = positions?[key] else { return nil }
        let batch = position / batchSize
        return loaded[batch] ? nil : batch
    }
    private var positions: [ObjectKey: Int]?

    /// The keys of the batch that falls out of the window when `batch` loads
    /// (``realizedBatches`` behind it), if it was loaded. Its objects turn back into faults,
    /// so it counts as not loaded again: reading one later loads the batch, not one row.
    func expiring(whenLoading batch: Int) -> ArraySlice<ObjectKey>? {
        let old = batch - Self.realizedBatches
        guard old >= 0, old < loaded.count, loaded[old] else { return nil }
        loaded[old] = false
        remaining += 1
        return keys[range(of: old)]
    }

    /// The keys of `batch`, marking it loaded.
    func take(_ batch: Int) -> ArraySlice<ObjectKey> {
        loaded[batch] = true
        remaining -= 1
        lastLoaded = batch
        cursor = batch + 1
        return keys[range(of: batch)]
    }

    private func range(of batch: Int) -> Range<Int> {
        batch * batchSize ..< min(keys.count, (batch + 1) * batchSize)
    }
}

extension NSManagedObjectContext {
    /// A batched fetch (`fetchBatchSize > 0`) the store evaluates: object IDs only, faults for
    /// them, values loaded batch by batch through a ``FetchBatchLoader``. nil when the store
    /// can't list IDs (then the fetch reads rows as usual).
    func batchedObjects(_ fetch: PreparedFetch, batchSize: Int) throws -> [NSManagedObject]? {
        guard let ids = try fetch.objectIdentities() else { return nil }
        registry.reserveCapacity(forKeys: ids.lazy.map(\.key))
        // Made in place: `map` appends one at a time, checking capacity and uniqueness each.
        let objects = [NSManagedObject](unsafeUninitializedCapacity: ids.count) { buffer, initialized in
            for (i, id) in ids.enumerated() { (buffer.baseAddress! + i).initialize(to: object(identifiedBy: id)) }
            initialized = ids.count
        }
        let keys = objects.compactMap { $0.isFault ? $0.assignedObjectKey : nil }
        if !keys.isEmpty {
            state.batchLoaders.append(FetchBatchLoader(keys: keys, batchSize: batchSize))
            if state.batchLoaders.count > FetchBatchLoader.maximumLoaders { state.batchLoaders.removeFirst() }
        }
        return objects
    }

    /// Makes the faults among `objects` — the members of a to-many relationship that just
    /// loaded — fill together: the first one to fire loads the rows of all of them with one
    /// query, instead of one query each. (A relationship's members are read together as a
    /// rule: a list of a department's employees, a sum over an order's lines.)
    func loadFaultsTogether(_ objects: [NSManagedObject]) {
        guard parent == nil, objects.count > 1 else { return }
        let keys = objects.compactMap { $0.isFault ? $0.assignedObjectKey : nil }
        guard keys.count > 1 else { return }
        state.relationshipLoaders.append(FetchBatchLoader(keys: keys, batchSize: keys.count))
        if state.relationshipLoaders.count > FetchBatchLoader.maximumRelationshipLoaders { state.relationshipLoaders.removeFirst() }
    }

    /// Fills `fault` together with the other faults of its batch, if a batched fetch returned
    /// it; false when no loader knows it (the caller loads it alone).
    func fulfillFaultFromBatch(_ fault: NSManagedObject) -> Bool {
        guard parent == nil, !state.batchLoaders.isEmpty || !state.relationshipLoaders.isEmpty else { return false }
        let key = fault.assignedObjectKey
        return fulfillFault(fault, key: key, from: \.batchLoaders) || fulfillFault(fault, key: key, from: \.relationshipLoaders)
    }

    /// ``fulfillFaultFromBatch(_:)`` with the loaders of one list (a finished loader leaves it).
    private func fulfillFault(_ fault: NSManagedObject, key: ObjectKey, from list: WritableKeyPath<ContextState, [FetchBatchLoader]>) -> Bool {
        guard let coordinator = persistentStoreCoordinator else { return false }
        for (index, loader) in state[keyPath: list].enumerated().reversed() {
            guard let batch = loader.batch(containing: key) else { continue }
            // Keep memory bounded while a long result is iterated: the result array holds
            // every object, so the values of batches left behind are dropped (unchanged objects
            // only, as refresh(_:mergeChanges: false) does); reading one again refires it.
            batchingSnapshotReleases {
                for key in loader.expiring(whenLoading: batch) ?? [] {
                    guard let object = registry.object(for: key), !object.isFault, !object.hasChanges else { continue }
                    refresh(object, mergeChanges: false, fromStore: false)  // memory, not a refresh to report
                }
            }
            let ids = loader.take(batch).compactMap { key -> ObjectIdentity? in
                guard let object = registry.object(for: key), object.isFault else { return nil }
                return object.identity
            }
            if loader.isFinished { state[keyPath: list].remove(at: index) }
            guard let rows = try? coordinator.rows(for: ids) else { return false }
            _ = materialize(consume rows, asFaults: false)  // one locked call for the batch's snapshots
            return !fault.isFault
        }
        return false
    }
}
