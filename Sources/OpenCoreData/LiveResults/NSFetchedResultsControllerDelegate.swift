import Foundation

/// What a fetched results controller tells about changes to its results. Every method is
/// optional: implement the ones you need.
///
/// ```swift
/// final class EmployeeList: NSObject, NSFetchedResultsControllerDelegate {
///     var changes: [String] = []
///     func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
///                     at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
///         changes.append("\(type) \(String(describing: indexPath)) → \(String(describing: newIndexPath))")
///     }
///     func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
///         print(changes); changes.removeAll()
///     }
/// }
/// ```
///
/// For one event (the context processing its pending changes, or merging a save) the
/// controller calls `controllerWillChangeContent(_:)`, then every section change, then every
/// object change, then `controllerDidChangeContent(_:)`. A delegate that implements
/// `controller(_:didChangeContentWith:)` of a controller without sections gets the event as one
/// `CollectionDifference` of object IDs instead, and no other change method.
///
/// The controller is passed as `NSFetchedResultsController<NSFetchRequestResult>`, as Apple's
/// Swift signatures require; compare it with `==`, which is true for the controller you made
/// (docs/DEVIATIONS.md). Swift protocols have no optional methods: the methods you do not
/// implement are this protocol's defaults, so implement them in the class that declares the
/// conformance (a subclass's implementation of a method its superclass left out is not called).
public protocol NSFetchedResultsControllerDelegate: NSObjectProtocol {
    /// An object was inserted, deleted, moved or updated (see ``NSFetchedResultsChangeType``).
    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted or deleted.
    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType)
    /// The controller is about to report the changes of one event.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>)
    /// The controller has reported every change of the event.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>)
    /// The section index entry of a section; by default the controller's
    /// `sectionIndexTitle(forSectionName:)` (the capitalized first letter).
    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String?
    /// The event as one difference between the object IDs before and after it (controllers
    /// without sections only). Objects that changed in place are not in a difference.
    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)
}

extension NSFetchedResultsControllerDelegate {
    public func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {}
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {}
    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {}

    public func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.results.defaultSectionIndexTitle(forSectionName: sectionName)
    }

    /// Not implemented by the delegate: the controller learns so here, and reports changes one
    /// by one from now on (Apple's controller asks whether the method exists).
    public func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        controller.results.delegateTakesDifferences = false
    }
}
