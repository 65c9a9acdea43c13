import Foundation
import OpenCoreData
import OpenCoreDataMacros

/// The benchmark entity: ten Integer 64 attributes, `a0` indexed, declared with `@ManagedProperty`
/// (the fastest accessors; `@Managed` costs more per access, see docs/PERFORMANCE.md).
public final class BenchRow: NSManagedObject {
    @ManagedProperty public var a0: Int64
    @ManagedProperty public var a1: Int64
    @ManagedProperty public var a2: Int64
    @ManagedProperty public var a3: Int64
    @ManagedProperty public var a4: Int64
    @ManagedProperty public var a5: Int64
    @ManagedProperty public var a6: Int64
    @ManagedProperty public var a7: Int64
    @ManagedProperty public var a8: Int64
    @ManagedProperty public var a9: Int64

    public var sum: Int64 { a0 &+ a1 &+ a2 &+ a3 &+ a4 &+ a5 &+ a6 &+ a7 &+ a8 &+ a9 }

    public func fill(_ i: Int) {
        let base = Int64(i * 10)
        a0 = base; a1 = base + 1; a2 = base + 2; a3 = base + 3; a4 = base + 4
        a5 = base + 5; a6 = base + 6; a7 = base + 7; a8 = base + 8; a9 = base + 9
    }
}

public enum BenchModel {
    public static let model: NSManagedObjectModel = {
        let attributes = (0..<10).map { i -> NSAttributeDescription in
            let a = NSAttributeDescription(name: "a\(i)", type: .integer64AttributeType, isOptional: false, defaultValue: 0)
            a.isIndexed = i == 0
            return a
        }
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "BenchRow", className: "OCDBenchKit.BenchRow", properties: attributes)]
        return model
    }()

    /// A coordinator of `model` (the benchmark entity's by default) on the SQLite file at
    /// `url`, with the benchmarks' `synchronous=NORMAL` (the raw runs use it too) and `options`
    /// added.
    ///
    /// ```swift
    /// let coordinator = try BenchModel.coordinator(at: url, options: [NSPersistentHistoryTrackingKey: true])
    /// ```
    public static func coordinator(at url: URL, options: [AnyHashable: Any] = [:], model: NSManagedObjectModel = model) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let all = options.merging([NSSQLitePragmasOption: ["synchronous": "NORMAL"]]) { mine, _ in mine }
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: all)
        return coordinator
    }

    /// A private-queue context on a new ``coordinator(at:options:)``.
    public static func context(at url: URL, options: [AnyHashable: Any] = [:], model: NSManagedObjectModel = model) throws -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try coordinator(at: url, options: options, model: model)
        return context
    }

    /// Inserts BenchRows `0 ..< count` with one save, then resets the context.
    public static func insertRows(_ count: Int, into context: NSManagedObjectContext) throws {
        try context.performAndWait {
            for i in 0..<count { BenchRow(context: context).fill(i) }
            try context.save()
            context.reset()
        }
    }

    /// W4 and P3: `times` saves of the row whose `a0` is 0, each changing `a1`.
    public static func saveOneRow(times: Int, in context: NSManagedObjectContext) throws {
        try context.performAndWait {
            let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
            request.predicate = NSPredicate(format: "a0 == 0")
            let row = try context.fetch(request)[0]
            for i in 0..<times {
                row.a1 = Int64(i)
                try context.save()
            }
        }
    }

    /// W5 and P4: the rows whose `a0` is below `limit`, as realized objects, every attribute
    /// read; their number and the sum of their attributes. Resets the context.
    public static func fetchRows(below limit: Int64, in context: NSManagedObjectContext) throws -> (count: Int, sum: Int64) {
        try context.performAndWait {
            let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
            request.predicate = NSPredicate(format: "a0 < %lld", limit)
            request.returnsObjectsAsFaults = false
            let rows = try context.fetch(request)
            let sum = rows.reduce(Int64(0)) { $0 &+ $1.sum }
            context.reset()
            return (rows.count, sum)
        }
    }
}
