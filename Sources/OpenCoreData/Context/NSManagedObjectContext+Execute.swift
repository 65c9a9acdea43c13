import Foundation

/// Requests that return a result object instead of objects: asynchronous fetches and batch
/// requests.
///
/// ```swift
/// let running = try context.execute(NSAsynchronousFetchRequest(fetchRequest: request) { result in
///     print(result.finalResult?.count ?? 0)
/// })
/// ```
extension NSManagedObjectContext {
    /// Runs `request` and returns its result. An ``NSAsynchronousFetchRequest`` returns its
    /// ``NSAsynchronousFetchResult`` at once and fetches in a block enqueued on this context's
    /// queue. ``NSBatchInsertRequest``, ``NSBatchUpdateRequest`` and ``NSBatchDeleteRequest``
    /// change the store directly and return their result (`NSBatchInsertResult`, ...); this
    /// context's objects stay as they were until it merges the changed IDs
    /// (``mergeChanges(fromRemoteContextSave:into:)``).
    ///
    /// - Throws: `NSPersistentStoreUnsupportedRequestTypeError` for other requests (fetch with
    ///   `fetch(_:)`, save with `save()`) and for batch requests a store can't run; a batch
    ///   request's own errors.
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        assertOnQueue()
        if let asynchronous = request as? any AsynchronousFetchStarting {
            return asynchronous.start(in: self)
        }
        if let result = try executeBatchRequest(request) { return result }
        if let history = request as? NSPersistentHistoryChangeRequest { return try executeHistoryRequest(history) }
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "execute(_:) runs asynchronous fetch requests; a \(type(of: request)) is not supported here. Use fetch(_:) for fetch requests and save() to save.")
    }
}
