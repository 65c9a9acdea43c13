import Foundation
import OCDBenchKit
import OpenCoreData

/// R1: the cost of keeping an `NSFetchedResultsController` current, per change, against
/// fetching its request again.
///
/// `rows` objects in 100 sections (`a2 = i % 100`, sorted by `a2`, then `a0`). A background
/// context saves `changes` single-object changes (a new `a0`, so each object moves inside its
/// section); the controller's context merges each save. The same merges are timed twice — once
/// with the controller tracking (a delegate set) and once without — so the difference is the
/// controller's own work per change, which must not grow with `rows`. A re-fetch
/// (`performFetch()`) is what a controller without tracking would do instead.
struct ResultsControllerWorkload {
    let rows: Int
    let changes: Int

    struct Result {
        var perChangeTracking: Double
        var perChangeNotTracking: Double
        var refetch: Double
    }

    final class CountingDelegate: NSObject, NSFetchedResultsControllerDelegate {
        var moves = 0
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            if type == .move || type == .update { moves += 1 }
        }
    }

    /// Saves collected on the background context's queue, merged later on the controller's.
    final class Saves: @unchecked Sendable {
        // @unchecked Sendable: appended on the background queue inside performAndWait, read after it returned.
        var notes: [Notification] = []
    }

    func run(in directory: URL) throws -> Result {
        let context = try BenchModel.context(at: directory.appendingPathComponent("r1-\(rows).sqlite"))
        let ids: [NSManagedObjectID] = try context.performAndWait {
            let objects = (0..<rows).map { i -> BenchRow in
                let row = BenchRow(context: context)
                row.fill(i)
                row.a2 = Int64(i % 100)
                return row
            }
            try context.save()
            let ids = objects.map(\.objectID)
            context.reset()
            return ids
        }
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.persistentStoreCoordinator = context.persistentStoreCoordinator

        /// `changes` saves, each moving one object inside its section.
        func makeSaves(seed: Int) throws -> [Notification] {
            let saves = Saves()
            let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) { note in
                saves.notes.append(note)
            }
            defer { NotificationCenter.default.removeObserver(token) }
            try background.performAndWait {
                for k in 0..<changes {
                    let row = background.object(with: ids[(k * 7919 + seed) % rows]) as! BenchRow
                    // A new value no other row has (ties would let the order of equal keys
                    // differ from the store's): distinct for each k, as 104,729 is a prime that
                    // does not divide rows * 10, and never a multiple of 10 like the seeded ones.
                    row.a0 = Int64((k * 104_729 % (rows * 10)) * 10 + 5 + seed)
                    try background.save()
                }
                background.reset()
            }
            return saves.notes
        }

        let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
        request.sortDescriptors = [NSSortDescriptor(key: "a2", ascending: true), NSSortDescriptor(key: "a0", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "a2", cacheName: nil)
        let delegate = CountingDelegate()

        var result = Result(perChangeTracking: 0, perChangeNotTracking: 0, refetch: .infinity)
        try context.performAndWait {
            for _ in 0..<3 { result.refetch = min(result.refetch, try time { try controller.performFetch() }) }
        }
        precondition(controller.sections?.count == 100 && controller.fetchedObjects?.count == rows, "R1: unexpected results")

        // Without tracking: the merges alone.
        let untracked = try makeSaves(seed: 1)
        result.perChangeNotTracking = context.performAndWait {
            time { for note in untracked { context.mergeChanges(fromContextDidSave: note) } }
        } / Double(changes)

        // With tracking, from fresh results.
        try context.performAndWait { try controller.performFetch() }
        controller.delegate = delegate
        let tracked = try makeSaves(seed: 2)
        result.perChangeTracking = context.performAndWait {
            time { for note in tracked { context.mergeChanges(fromContextDidSave: note) } }
        } / Double(changes)
        precondition(delegate.moves == changes, "R1: \(delegate.moves) moves or updates reported for \(changes) changes")

        // The tracked results are what a new fetch returns.
        try context.performAndWait {
            let tracked = controller.fetchedObjects!.map(\.objectID)
            try controller.performFetch()
            precondition(controller.fetchedObjects!.map(\.objectID) == tracked, "R1: tracked results differ from a new fetch")
        }
        return result
    }
}
