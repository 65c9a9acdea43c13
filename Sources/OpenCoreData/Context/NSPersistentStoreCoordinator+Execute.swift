import Foundation

extension NSPersistentStoreCoordinator {
    /// Runs `request` against the coordinator's stores for `context`, as a context does to fetch.
    ///
    /// ```swift
    /// let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
    /// let saved = try coordinator.execute(request, with: context) as! [NSManagedObject]
    /// ```
    ///
    /// A fetch request answers what the stores hold, without the context's unsaved changes,
    /// as objects registered in `context` (or IDs, dictionaries, a count, by its `resultType`).
    /// A batch insert, update or delete request changes the store and returns its result
    /// (`NSBatchInsertResult`, ...), as ``NSManagedObjectContext/execute(_:)`` does. Both run on
    /// `context`'s queue. Other requests throw `NSPersistentStoreOperationError`: a context
    /// saves with `save()`.
    public func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext) throws -> Any {
        guard context.persistentStoreCoordinator === self else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "execute(_:with:): the context does not use this coordinator. Execute the request with the context's own coordinator.")
        }
        if let result = try context.performAndWait({ try context.executeBatchRequest(request) }) { return result }
        guard let fetch = request as? FetchRequestConvertible else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "execute(_:with:) runs fetch requests here; got a request of type \(request.requestType.rawValue) (\(type(of: request))). Save a context with save().")
        }
        let copy = fetch.resultRequestCopy()
        copy.includesPendingChanges = false
        return try context.performAndWait { try context.fetch(copy) }
    }
}
