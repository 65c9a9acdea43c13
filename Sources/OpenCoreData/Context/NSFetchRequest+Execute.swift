import Foundation

extension NSFetchRequest {
    /// Fetches this request in the context whose `perform` or `performAndWait` block is running
    /// (the innermost, when blocks nest), as Apple's `execute()` does.
    ///
    /// ```swift
    /// try context.performAndWait {
    ///     let employees = try NSFetchRequest<Employee>(entityName: "Employee").execute()
    /// }
    /// ```
    ///
    /// Outside such a block there is no context to fetch in: Apple's framework raises an
    /// exception there; this throws `NSCoreDataError` (134060).
    public func execute() throws -> [ResultType] {
        guard let context = NSManagedObjectContext.performing.top else {
            throw CoreDataError.make(NSCoreDataError, "NSFetchRequest.execute() fetches in the context whose perform or performAndWait block is running, and none is. Call it inside context.performAndWait { }, or use context.fetch(request).")
        }
        return try context.fetch(self)
    }
}
