import Foundation

/// What happened to an object or a section of a fetched results controller's results.
///
/// ```swift
/// func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
///                 at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
///     switch type {
///     case .insert: print("insert at", newIndexPath!)
///     case .delete: print("delete at", indexPath!)
///     case .move:   print("move", indexPath!, "to", newIndexPath!)
///     case .update: print("update at", indexPath!)
///     @unknown default: break
///     }
/// }
/// ```
public enum NSFetchedResultsChangeType: UInt, Sendable {
    /// The object (or section) entered the results: `newIndexPath` is its position.
    case insert = 1
    /// The object (or section) left the results: `indexPath` is where it was.
    case delete = 2
    /// The object changed so that its position among the others changed, or it changed section:
    /// from `indexPath` to `newIndexPath`.
    case move = 3
    /// The object changed and kept its position: `indexPath` before the changes of the event,
    /// `newIndexPath` after them.
    case update = 4
}
