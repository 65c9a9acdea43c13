@_spi(Testing) import OpenCoreData
import XCTest

// Stacks and requests that several test files open the same way. Each used to carry its own
// copy; one copy here keeps the fixtures of the batching, prefetching and SQLite tests in step.

/// A new private-queue context on `coordinator`.
public func newContext(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    return context
}

/// A coordinator on a store of `rows` "Item" objects — id = i, n = nil for every fifth row else
/// i % 7, s cycling through "b", "A", "a", "B" — saved, with the saving context reset. The
/// batch-faulting tests read it through ``itemRequest(batchSize:predicate:sorted:limit:offset:)``.
/// `className` binds the entity to a subclass.
///
/// ```swift
/// let coordinator = try makeItemStore(at: directory.appendingPathComponent("Items.sqlite"))
/// let items = try newContext(coordinator).fetch(itemRequest(batchSize: 10))
/// ```
public func makeItemStore(rows: Int = 72, storeType: String = NSSQLiteStoreType, at url: URL?, className: String? = nil) throws -> NSPersistentStoreCoordinator {
    let item = NSEntityDescription(name: "Item", className: className)
    item.properties = [
        NSAttributeDescription(name: "id", type: .integer64AttributeType, isOptional: false, defaultValue: 0),
        NSAttributeDescription(name: "n", type: .integer32AttributeType),
        NSAttributeDescription(name: "s", type: .stringAttributeType),
    ]
    let model = NSManagedObjectModel()
    model.entities = [item]
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url)
    let context = newContext(coordinator)
    try context.performAndWait {
        for i in 0..<rows {
            insertItem(id: i, n: i % 5 == 0 ? nil : i % 7, s: ["b", "A", "a", "B"][i % 4], into: context)
        }
        try context.save()
        context.reset()
    }
    return coordinator
}

/// Inserts an Item of ``makeItemStore(rows:storeType:at:)``'s model into `context` (call on its
/// queue): the stored rows, and the pending ones the tests add on top.
@discardableResult
public func insertItem(id: Int, n: Int?, s: String, into context: NSManagedObjectContext) -> NSManagedObject {
    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
    item.setValue(id, forKey: "id")
    item.setValue(n, forKey: "n")
    item.setValue(s, forKey: "s")
    return item
}

/// A request for the Items of ``makeItemStore(rows:storeType:at:)``: `predicate` (a format, or
/// nil for all), sorted by s descending then n ascending unless `sorted` is false.
public func itemRequest(batchSize: Int, predicate: String? = "n != nil", sorted: Bool = true, limit: Int = 0, offset: Int = 0) -> NSFetchRequest<NSManagedObject> {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
    request.predicate = predicate.map { NSPredicate(format: $0) }
    if sorted {
        request.sortDescriptors = [NSSortDescriptor(key: "s", ascending: false), NSSortDescriptor(key: "n", ascending: true)]
    }
    request.fetchBatchSize = batchSize
    request.fetchLimit = limit
    request.fetchOffset = offset
    return request
}

extension TestStack {
    /// A stack of ``CompanyModel`` on a new SQLite store at `url`, added with `options`.
    public init(sqliteAt url: URL, options: [AnyHashable: Any]? = nil) throws {
        let model = CompanyModel.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        self.init(model: model, coordinator: coordinator, context: OpenCoreDataTestSupport.newContext(coordinator))
    }

    /// Fetches `request` in ``context`` (call on its queue), checks that the fetch took
    /// `roundTrips` store reads (the coordinator's counter, through `@testable`) and that `read`
    /// over the results took none more — what prefetching promises — and returns what `read`
    /// returned.
    ///
    /// ```swift
    /// let names = try stack.fetch(request, roundTrips: 1, "one batched read") { $0.flatMap { $0.employees.compactMap(\.firstName) } }
    /// ```
    public func fetch<T, R>(_ request: NSFetchRequest<T>, roundTrips: Int, _ message: String = "",
                     thenReading read: ([T]) throws -> R, file: StaticString = #filePath, line: UInt = #line) throws -> R {
        let before = coordinator.storeRoundTrips
        let results = try context.fetch(request)
        XCTAssertEqual(coordinator.storeRoundTrips - before, roundTrips, message, file: file, line: line)
        let value = try read(results)
        XCTAssertEqual(coordinator.storeRoundTrips - before, roundTrips, "reading the results needed no further store access", file: file, line: line)
        return value
    }
}

/// Two stacks on `model`: a SQLite store in a new file of `directory`, and one at `/dev/null`
/// (SQLite in memory) — the stores batch requests run on (Apple's in-memory store refuses them).
public func sqliteFileAndMemoryStacks(_ model: NSManagedObjectModel, in directory: URL) throws -> [TestStack] {
    try [directory.appendingPathComponent("\(UUID().uuidString).sqlite"), URL(fileURLWithPath: "/dev/null")].map { url in
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        return TestStack(model: model, coordinator: coordinator, context: newContext(coordinator))
    }
}

extension TestStack {
    /// Saves the employee Ann and the manager Max (the sub-entity), on the context's queue.
    public func saveEmployeeAndManager() throws {
        try context.performAndWait {
            _ = employee("Ann")
            NSEntityDescription.insertNewObject(forEntityName: "Manager", into: context).setValue("Max", forKey: "firstName")
            try context.save()
        }
    }
}
