import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchedresultscontrollerdelegate
// (`protocol NSFetchedResultsControllerDelegate : NSObjectProtocol`, every method optional,
// iOS 18 / macOS 15 SDK), cross-checked against a second copy of Apple's reference pages. Each
// block is a class that implements one method with Apple's exact signature.

// not-on-linux: NSFetchedResultsControllerDelegate.controller(_:didChangeContentWith:) (snapshot: NSDiffableDataSourceSnapshotReference): the diffable data source snapshot type comes from UIKit/AppKit, which do not exist on Linux

/// api: NSFetchedResultsControllerDelegate.controller(_:didChangeContentWith:) (CollectionDifference<NSManagedObjectID>)
final class API_NSFetchedResultsControllerDelegate_DidChangeContentWithDifference: NSObject, NSFetchedResultsControllerDelegate {
    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        _ = (controller, diff)
    }
}

/// api: NSFetchedResultsControllerDelegate.controllerWillChangeContent(_:)
final class API_NSFetchedResultsControllerDelegate_WillChangeContent: NSObject, NSFetchedResultsControllerDelegate {
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        _ = controller
    }
}

/// api: NSFetchedResultsControllerDelegate.controller(_:didChange:at:for:newIndexPath:)
final class API_NSFetchedResultsControllerDelegate_DidChangeObject: NSObject, NSFetchedResultsControllerDelegate {
    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        _ = (controller, anObject, indexPath, type, newIndexPath)
    }
}

/// api: NSFetchedResultsControllerDelegate.controller(_:didChange:atSectionIndex:for:)
final class API_NSFetchedResultsControllerDelegate_DidChangeSection: NSObject, NSFetchedResultsControllerDelegate {
    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        _ = (controller, sectionInfo, sectionIndex, type)
    }
}

/// api: NSFetchedResultsControllerDelegate.controllerDidChangeContent(_:)
final class API_NSFetchedResultsControllerDelegate_DidChangeContent: NSObject, NSFetchedResultsControllerDelegate {
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        _ = controller
    }
}

/// api: NSFetchedResultsControllerDelegate.controller(_:sectionIndexTitleForSectionName:)
final class API_NSFetchedResultsControllerDelegate_SectionIndexTitle: NSObject, NSFetchedResultsControllerDelegate {
    func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String? {
        _ = controller
        return sectionName.first.map { String($0) }
    }
}

/// api: NSFetchedResultsControllerDelegate (inherits NSObjectProtocol; every method optional)
func api_NSFetchedResultsControllerDelegate_conformance() {
    final class Delegate: NSObject, NSFetchedResultsControllerDelegate {}
    let delegate: any NSFetchedResultsControllerDelegate = Delegate()
    let _: any NSObjectProtocol = delegate
}
