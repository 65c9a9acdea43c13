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
    /// Posted after a successful save with the IDs of the saved objects only, which any thread
    /// may read.
    public static let NSManagedObjectContextDidSaveObjectIDs = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted by a context after `mergeChanges(fromContextDidSave:)` (also when it merges
    /// automatically), with the IDs of the objects the merged save inserted, updated and deleted.
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

extension NSManagedObjectContext {
    public static let didSaveObjectsNotification = Notification.Name.NSManagedObjectContextDidSave
    public static let didChangeObjectsNotification = Notification.Name.NSManagedObjectContextObjectsDidChange
    public static let willSaveObjectsNotification = Notification.Name.NSManagedObjectContextWillSave
    /// Posted after a save with object IDs only — safe to read on any thread.
    public static let didSaveObjectIDsNotification = Notification.Name.NSManagedObjectContextDidSaveObjectIDs
    /// Posted after a merge with object IDs only (see ``Foundation/NSNotification/Name/NSManagedObjectContextDidMergeChangesObjectIDs``).
    public static let didMergeChangesObjectIDsNotification = Notification.Name.NSManagedObjectContextDidMergeChangesObjectIDs

    /// The userInfo keys of the context notifications, as an enumeration (`NSInsertedObjectsKey`
    /// and the other constants have the same values).
    ///
    /// ```swift
    /// let inserted = note.userInfo?[NSManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<NSManagedObject>
    /// ```
    public enum NotificationKey: String, Sendable {
        case insertedObjects = "inserted"
        case updatedObjects = "updated"
        case deletedObjects = "deleted"
        case refreshedObjects = "refreshed"
        case invalidatedObjects = "invalidated"
        case invalidatedAllObjects = "invalidatedAll"
        case insertedObjectIDs = "inserted_objectIDs"
        case updatedObjectIDs = "updated_objectIDs"
        case deletedObjectIDs = "deleted_objectIDs"
        case refreshedObjectIDs = "refreshed_objectIDs"
        case invalidatedObjectIDs = "invalidated_objectIDs"
        /// The saving context's query generation after the save, when it is pinned to one.
        case queryGeneration = "managedObjectContextQueryGeneration"
    }
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
public let NSInvalidatedObjectIDsKey = "invalidated_objectIDs"
/// The saving context's query generation after the save (an `NSQueryGenerationToken`), in
/// `NSManagedObjectContextDidSave` when the context is pinned to one.
public let NSManagedObjectContextQueryGenerationKey = "managedObjectContextQueryGeneration"

/// The keys a context's own notifications use, boxed as `AnyHashable` once: every save and
/// every event builds a userInfo dictionary with them, and boxing a `String` key allocates.
/// (`nonisolated(unsafe)`: `AnyHashable` is not `Sendable`, but these box immutable strings.)
enum ContextNotificationKeys {
    nonisolated(unsafe) static let inserted = AnyHashable(NSInsertedObjectsKey)
    nonisolated(unsafe) static let updated = AnyHashable(NSUpdatedObjectsKey)
    nonisolated(unsafe) static let deleted = AnyHashable(NSDeletedObjectsKey)
    nonisolated(unsafe) static let insertedIDs = AnyHashable(NSInsertedObjectIDsKey)
    nonisolated(unsafe) static let updatedIDs = AnyHashable(NSUpdatedObjectIDsKey)
    nonisolated(unsafe) static let deletedIDs = AnyHashable(NSDeletedObjectIDsKey)
}

/// A userInfo dictionary with fixed keys, copied and filled for each notification.
///
/// Inserting an `AnyHashable` key hashes it through its box, and every save posts two
/// dictionaries of six and three keys. A copy of a dictionary keeps its indices, so writing
/// each value through an index the template found once hashes nothing. Filled only through the
/// labelled functions below, so that no value can land under another key.
///
/// ```swift
/// let info = UserInfoTemplate.didSave(insertedIDs: a, updatedIDs: b, deletedIDs: c,
///                                     inserted: d, updated: e, deleted: f)
/// ```
struct UserInfoTemplate {
    private let template: [AnyHashable: Any]
    private let indices: [Dictionary<AnyHashable, Any>.Index]

    private init(keys: [AnyHashable]) {
        // Sparse, so an observer's lookup rarely meets another key: comparing two AnyHashables
        // is a dynamic comparison that costs more than the rest of the lookup.
        var template = [AnyHashable: Any](minimumCapacity: keys.count * 4)
        for key in keys { template[key] = () }
        self.template = template
        indices = keys.map { template.index(forKey: $0)! }
    }

    /// The dictionary with `values` for the keys, in the order the keys were given.
    private func filled(_ values: [Any]) -> [AnyHashable: Any] {
        precondition(values.count == indices.count, "one value per key")
        var info = template
        for (index, value) in zip(indices, values) { info.values[index] = value }
        return info
    }

    private typealias Key = ContextNotificationKeys
    nonisolated(unsafe) private static let didSaveTemplate = UserInfoTemplate(keys: [Key.insertedIDs, Key.updatedIDs, Key.deletedIDs, Key.inserted, Key.updated, Key.deleted])
    nonisolated(unsafe) private static let didSaveObjectIDsTemplate = UserInfoTemplate(keys: [Key.insertedIDs, Key.updatedIDs, Key.deletedIDs])

    /// The userInfo of `NSManagedObjectContextDidSave`: IDs and objects, inserted, updated, deleted.
    static func didSave(insertedIDs: Set<NSManagedObjectID>, updatedIDs: Set<NSManagedObjectID>, deletedIDs: Set<NSManagedObjectID>,
                        inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>) -> [AnyHashable: Any] {
        didSaveTemplate.filled([insertedIDs, updatedIDs, deletedIDs, inserted, updated, deleted])
    }

    /// The userInfo of `NSManagedObjectContextDidSaveObjectIDs`: inserted, updated, deleted IDs.
    static func didSaveObjectIDs(inserted: Set<NSManagedObjectID>, updated: Set<NSManagedObjectID>, deleted: Set<NSManagedObjectID>) -> [AnyHashable: Any] {
        didSaveObjectIDsTemplate.filled([inserted, updated, deleted])
    }
}
