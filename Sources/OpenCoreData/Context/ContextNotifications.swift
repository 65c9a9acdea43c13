import Foundation

extension Notification.Name {
    /// Posted by a context at the end of each event (`processPendingChanges`) with the objects
    /// inserted, updated and deleted since the last one.
    public static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted at the start of `save()`, before validation.
    public static let NSManagedObjectContextWillSave = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted after a successful save, with the saved objects. Pass it to another context's
    /// `mergeChanges(fromContextDidSave:)`.
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagedObjectContextDidSaveNotification")
}

extension NSManagedObjectContext {
    public static let didSaveObjectsNotification = Notification.Name.NSManagedObjectContextDidSave
    public static let didChangeObjectsNotification = Notification.Name.NSManagedObjectContextObjectsDidChange
    public static let willSaveObjectsNotification = Notification.Name.NSManagedObjectContextWillSave
    /// Posted after a save with object IDs only — safe to read on any thread.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
}

/// userInfo keys of the context notifications (Apple's values).
public let NSInsertedObjectsKey = "inserted"
public let NSUpdatedObjectsKey = "updated"
public let NSDeletedObjectsKey = "deleted"
public let NSRefreshedObjectsKey = "refreshed"
public let NSInvalidatedObjectsKey = "invalidated"
public let NSInvalidatedAllObjectsKey = "invalidatedAll"
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
public let NSDeletedObjectIDsKey = "deleted_objectIDs"
public let NSRefreshedObjectIDsKey = "refreshed_objectIDs"
