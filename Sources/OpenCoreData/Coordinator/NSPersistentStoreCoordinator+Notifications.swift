import Foundation

// A coordinator tells when its stores change:
//
//     NotificationCenter.default.addObserver(forName: .NSPersistentStoreCoordinatorStoresDidChange, object: coordinator, queue: nil) { note in
//         let added = note.userInfo?[NSAddedPersistentStoresKey] as? [NSPersistentStore] ?? []
//     }

extension Notification.Name {
    /// Posted by a coordinator as its stores change, just before the did-change notification
    /// (before the store goes, for a removal), with the coordinator's lock free (object: the
    /// coordinator).
    public static let NSPersistentStoreCoordinatorStoresWillChange = Notification.Name("NSPersistentStoreCoordinatorStoresWillChangeNotification")
    /// Posted by a coordinator after it added or removed stores (object: the coordinator), with
    /// the stores under ``NSAddedPersistentStoresKey`` and ``NSRemovedPersistentStoresKey``; a
    /// `migratePersistentStore` posts one, with both and ``NSUUIDChangedPersistentStoresKey``.
    public static let NSPersistentStoreCoordinatorStoresDidChange = Notification.Name("NSPersistentStoreCoordinatorStoresDidChangeNotification")
    /// Posted before a store is removed from its coordinator (object: the store).
    public static let NSPersistentStoreCoordinatorWillRemoveStore = Notification.Name("NSPersistentStoreCoordinatorWillRemoveStoreNotification")
}

/// The stores a coordinator added, in a stores-did-change notification.
public let NSAddedPersistentStoresKey = "added"
/// The stores a coordinator removed, in a stores-did-change notification.
public let NSRemovedPersistentStoresKey = "removed"
/// `[old store, new store]` after `migratePersistentStore`, in a stores-did-change notification.
public let NSUUIDChangedPersistentStoresKey = "changedUUID"
