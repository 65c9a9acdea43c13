import Foundation

/// One step of a live query: the results when it starts, then each change to them.
///
/// ```swift
/// for await change in context.resultChanges(for: request, sectionNameKeyPath: "department.name") {
///     if let sections = change.sections {          // the first element: everything
///         send(sections)
///     } else {                                    // then: what one event changed
///         send(change.sectionChanges, change.objectChanges)
///     }
/// }
/// ```
///
/// Index paths are those of ``NSFetchedResultsController``: a deletion's and a move's
/// `indexPath` is in the results before the change, an insertion's and a move's `newIndexPath`
/// after it; section changes come first. Apply deletions in descending order, then
/// insertions in ascending order (as a table view applies a batch), and you have the new results.
public struct FetchedResultsChange: Sendable {
    /// A section: its name and its objects' IDs in order.
    public struct Section: Sendable, Hashable {
        public let name: String
        public let objectIDs: [NSManagedObjectID]
        public init(name: String, objectIDs: [NSManagedObjectID]) { self.name = name; self.objectIDs = objectIDs }
    }

    /// A section inserted or deleted.
    public struct SectionChange: Sendable, Hashable {
        public let name: String
        public let index: Int
        public let type: NSFetchedResultsChangeType
        public init(name: String, index: Int, type: NSFetchedResultsChangeType) { self.name = name; self.index = index; self.type = type }
    }

    /// An object inserted, deleted, moved or updated.
    public struct ObjectChange: Sendable, Hashable {
        public let objectID: NSManagedObjectID
        public let type: NSFetchedResultsChangeType
        public let indexPath: IndexPath?
        public let newIndexPath: IndexPath?
        public init(objectID: NSManagedObjectID, type: NSFetchedResultsChangeType, indexPath: IndexPath?, newIndexPath: IndexPath?) {
            self.objectID = objectID; self.type = type; self.indexPath = indexPath; self.newIndexPath = newIndexPath
        }
    }

    /// Every section with its objects, in the first element only; nil in the others.
    public let sections: [Section]?
    public let sectionChanges: [SectionChange]
    public let objectChanges: [ObjectChange]
}

extension NSManagedObjectContext {
    /// The results of `request` in this context, kept current: an `AsyncStream` whose first
    /// element holds the results (``FetchedResultsChange/sections``) and whose next ones each
    /// hold the changes of one event of this context — its pending changes processed, a save of
    /// another context merged — as an ``NSFetchedResultsController`` reports them, without a
    /// delegate. The query stops when the iterating task is cancelled or the stream is dropped.
    ///
    /// The request needs sort descriptors (with `sectionNameKeyPath`, the first one on the section
    /// key). A request that cannot run ends the stream at once, with no element.
    ///
    /// Object IDs of objects not yet saved are temporary: a save in this context gives them
    /// permanent IDs, and later elements use those.
    public func resultChanges<ResultType: NSManagedObject>(for request: NSFetchRequest<ResultType>, sectionNameKeyPath: String? = nil) -> AsyncStream<FetchedResultsChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: FetchedResultsChange.self, bufferingPolicy: .unbounded)
        let query = LiveQuery(continuation: continuation)
        let box = UncheckedSendableBox((query, request))
        // The controller is made and used on this context's queue only.
        perform { [self] in
            let (query, request) = box.value
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: self, sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
            query.controller = controller
            controller.delegate = query
            do {
                try controller.performFetch()
            } catch {
                continuation.finish()
                return
            }
            let sections = (controller.sections ?? []).map { s in
                FetchedResultsChange.Section(name: s.name, objectIDs: (s.objects ?? []).map { ($0 as! NSManagedObject).objectID })
            }
            continuation.yield(FetchedResultsChange(sections: sections, sectionChanges: [], objectChanges: []))
        }
        continuation.onTermination = { [weak self] _ in
            // Stop tracking on the context's queue; the query then goes away with its controller.
            self?.perform { box.value.0.stop() }
        }
        return stream
    }
}

/// The delegate behind ``NSManagedObjectContext/resultChanges(for:sectionNameKeyPath:)``: it
/// collects one event's changes and yields them as one element. Used on the context's queue only.
final class LiveQuery: NSObject, NSFetchedResultsControllerDelegate {
    private let continuation: AsyncStream<FetchedResultsChange>.Continuation
    /// Held here, so the controller lives as long as the query is running.
    var controller: AnyObject?
    private var sectionChanges: [FetchedResultsChange.SectionChange] = []
    private var objectChanges: [FetchedResultsChange.ObjectChange] = []

    init(continuation: AsyncStream<FetchedResultsChange>.Continuation) {
        self.continuation = continuation
    }

    func stop() {
        controller = nil
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        sectionChanges = []
        objectChanges = []
    }

    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        sectionChanges.append(.init(name: sectionInfo.name, index: sectionIndex, type: type))
    }

    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let object = anObject as? NSManagedObject else { return }
        objectChanges.append(.init(objectID: object.objectID, type: type, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        continuation.yield(FetchedResultsChange(sections: nil, sectionChanges: sectionChanges, objectChanges: objectChanges))
    }
}
