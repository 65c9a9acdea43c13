import Foundation

// The one internal interface every store sits behind — shaped like NSIncrementalStore: fetch
// rows, load one row, hand out primary keys, apply a save. The coordinator talks only to this.

/// One record as a store returns it: ID, values in slot order (relationships as IDs), version.
struct StoreRow: Sendable {
    let objectID: NSManagedObjectID
    let values: [StoredValue]
    /// Optimistic-locking version: 1 after insert, +1 per saved change.
    let version: Int64
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

    /// The same fetch without offset and limit (applied later, after pending changes).
    var withoutLimits: FetchPlan {
        FetchPlan(entity: entity, predicate: predicate, sortDescriptors: sortDescriptors, includesSubentities: includesSubentities,
                  fetchLimit: 0, fetchOffset: 0, affectedStores: affectedStores)
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

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && locked.isEmpty }
}

/// What the coordinator needs from a store.
protocol StoreBackend: AnyObject {
    /// Whether `fetchRows` applies predicates, sort descriptors and limits itself. Stores that
    /// don't return every row of the entity, and the context evaluates the rest in memory.
    var evaluatesFetchPlans: Bool { get }
    func fetchRows(_ plan: FetchPlan) throws -> [StoreRow]
    /// The current row for `objectID`, or nil if the store has no such record.
    func row(for objectID: NSManagedObjectID) throws -> StoreRow?
    /// `count` new primary keys for objects of `entity` (one key sequence per root entity).
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64]
    /// Applies a save atomically: all of it, or nothing and a thrown error.
    func save(_ changes: StoreChanges) throws
    /// The rows of several records in one round trip (missing records are left out).
    func rows(for objectIDs: [NSManagedObjectID]) throws -> [StoreRow]
    /// First phase of a save that spans several stores: check and stage `changes` so that
    /// `commit` can no longer fail for a reason the store could have known now.
    func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave
}

extension StoreBackend {
    func rows(for objectIDs: [NSManagedObjectID]) throws -> [StoreRow] {
        try objectIDs.compactMap { try row(for: $0) }
    }

    /// Stores that cannot stage a save do all of it at commit.
    func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave {
        PreparedStoreSave(commit: { try self.save(changes) }, rollback: {})
    }
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
