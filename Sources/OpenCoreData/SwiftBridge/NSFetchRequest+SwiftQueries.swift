import Foundation

extension NSFetchRequest where ResultType: NSManagedObject {
    /// A fetch request for `entityName` with a type-checked predicate and order.
    ///
    /// ```swift
    /// let request = try NSFetchRequest<Employee>(
    ///     entityName: "Employee",
    ///     predicate: #Predicate { $0.salary > 5000 && $0.department?.name == "Sales" },
    ///     sortBy: [SortDescriptor(\.lastName), SortDescriptor(\.salary, order: .reverse)])
    /// let wellPaid = try context.fetch(request)
    /// ```
    ///
    /// Throws the error of ``NSPredicate/init(translating:)`` or
    /// ``NSSortDescriptor/init(translating:)`` when part of the query cannot be translated, so a
    /// query never silently falls back to sorting in memory.
    public convenience init(entityName: String, predicate: Predicate<ResultType>?, sortBy: [SortDescriptor<ResultType>] = []) throws {
        self.init(entityName: entityName)
        if let predicate { self.predicate = try NSPredicate(translating: predicate) }
        if !sortBy.isEmpty { sortDescriptors = try sortBy.map { try NSSortDescriptor(translating: $0) } }
    }
}
