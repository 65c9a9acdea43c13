import Foundation

/// Requests that return a result object instead of objects: asynchronous fetches.
///
/// ```swift
/// let running = try context.execute(NSAsynchronousFetchRequest(fetchRequest: request) { result in
///     print(result.finalResult?.count ?? 0)
/// })
/// ```
extension NSManagedObjectContext {
    /// Runs `request` and returns its result. An ``NSAsynchronousFetchRequest`` returns its
    /// ``NSAsynchronousFetchResult`` at once and fetches in a block enqueued on this context's
    /// queue.
    ///
    /// - Throws: `NSPersistentStoreUnsupportedRequestTypeError` for other requests: fetch with
    ///   `fetch(_:)`, save with `save()`; batch insert, update and delete requests are not
    ///   implemented yet.
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        assertOnQueue()
        if let asynchronous = request as? any AsynchronousFetchStarting {
            return asynchronous.start(in: self)
        }
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "execute(_:) runs asynchronous fetch requests; a \(type(of: request)) is not supported here. Use fetch(_:) for fetch requests and save() to save.")
    }
}
