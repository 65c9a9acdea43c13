import Foundation

/// The in-memory store (`NSInMemoryStoreType`): records live in a dictionary for the store's
/// lifetime. Fast and handy for tests; nothing survives the process.
///
/// It returns every row of an entity and lets the context evaluate predicates and sort
/// descriptors on the objects, which is exactly the in-memory evaluator's semantics.
final class InMemoryStore: NSPersistentStore, RowListingStore, @unchecked Sendable {
    // @unchecked Sendable: `rows` and `lastPrimaryKey` are guarded by `dataLock`.
    private let dataLock = NSLock()
    private var rows: [ObjectKey: StoreRow] = [:]
    private var lastPrimaryKey: [Int32: Int64] = [:]

    override var type: String { NSInMemoryStoreType }

    /// Apple's in-memory store refuses batch requests ("Unknown command type"); so does this one
    /// (`NSPersistentStoreUnsupportedRequestTypeError`). A SQLite store at `/dev/null` runs them
    /// in memory.
    var runsBatchRequests: Bool { false }

    override class func replaceStoreFiles(at destination: URL, withStoreAt source: URL) throws {
        throw CoreDataError.make(NSPersistentStoreOperationError, "An in-memory store has no files to copy (replacePersistentStore at \(destination.path)). Copy it to a file with migratePersistentStore(_:to:options:withType:).")
    }

    func allRows(for plan: FetchPlan) throws -> [StoreRow] {
        dataLock.lock(); defer { dataLock.unlock() }
        return rows.values.filter { plan.includes($0.entity) }.sorted { $0.key.primaryKey < $1.key.primaryKey }
    }

    func row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        dataLock.lock(); defer { dataLock.unlock() }
        return rows[objectID.key]
    }

    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        dataLock.lock(); defer { dataLock.unlock() }
        let root = entity.rootEntityNumber
        let first = (lastPrimaryKey[root] ?? 0) + 1
        lastPrimaryKey[root] = first + Int64(count) - 1
        return (0..<Int64(count)).map { first + $0 }
    }

    func save(_ changes: StoreChanges) throws {
        try prepareSave(changes).commit()
    }

    func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave {
        dataLock.lock(); defer { dataLock.unlock() }
        try checkVersions(changes)
        return PreparedStoreSave(commit: { self.apply(changes) }, rollback: {})
    }

    /// Checks everything before anything changes, so a refused save leaves no trace.
    private func checkVersions(_ changes: StoreChanges) throws {
        for row in changes.updated + changes.locked + changes.deleted {
            if let current = rows[row.key], current.version != (changes.deleted.contains { $0.objectID == row.objectID } ? row.version : row.version - 1) {
                throw CoreDataError.make(NSManagedObjectMergeError, "Optimistic locking failure: '\(row.entity.name ?? "?")' \(row.objectID.uriRepresentation().absoluteString) was changed by another context since it was fetched (version \(current.version)). Refresh it and save again, or set a merge policy.")
            }
        }
    }

    private func apply(_ changes: StoreChanges) {
        dataLock.lock(); defer { dataLock.unlock() }
        for row in changes.inserted { rows[row.key] = row }
        for row in changes.updated + changes.locked where rows[row.key] != nil { rows[row.key] = row }
        for row in changes.deleted { rows[row.key] = nil }
    }
}
