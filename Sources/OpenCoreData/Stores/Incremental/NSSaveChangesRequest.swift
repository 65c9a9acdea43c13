import Foundation

/// The save an ``NSIncrementalStore`` receives in `execute(_:with:)`: the objects a context is
/// saving, by kind of change.
///
/// ```swift
/// override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
///     if request.requestType == .saveRequestType {
///         let save = request as! NSSaveChangesRequest
///         for object in save.insertedObjects ?? [] { try backingStore.insert(object, version: 1) }
///         for object in save.updatedObjects ?? [] { try backingStore.update(object) }   // version + 1
///         for object in save.deletedObjects ?? [] { try backingStore.delete(object) }
///         return [Any]()                                    // an empty array means success
///     }
///     ...
/// }
/// ```
///
/// When the store receives it, new objects already have the permanent IDs the store handed out
/// in `obtainPermanentIDs(for:)`.
open class NSSaveChangesRequest: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: immutable after init; the objects are used on the saving context's
    // queue, which is the thread `execute(_:with:)` runs on.

    /// Objects new in this save.
    public let insertedObjects: Set<NSManagedObject>?
    /// Objects whose persistent values changed.
    public let updatedObjects: Set<NSManagedObject>?
    /// Objects deleted.
    public let deletedObjects: Set<NSManagedObject>?
    /// Unchanged objects whose version must still be checked and incremented (optimistic
    /// locking). OpenCoreData's contexts do not mark objects for this, so it is empty.
    public let lockedObjects: Set<NSManagedObject>?

    public init(inserted insertedObjects: Set<NSManagedObject>?, updated updatedObjects: Set<NSManagedObject>?,
                deleted deletedObjects: Set<NSManagedObject>?, locked lockedObjects: Set<NSManagedObject>?) {
        self.insertedObjects = insertedObjects
        self.updatedObjects = updatedObjects
        self.deletedObjects = deletedObjects
        self.lockedObjects = lockedObjects
        super.init()
    }

    open override var requestType: NSPersistentStoreRequestType { .saveRequestType }

    /// A request for the same objects and stores.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSSaveChangesRequest(inserted: insertedObjects, updated: updatedObjects, deleted: deletedObjects, locked: lockedObjects)
        copy.affectedStores = affectedStores
        return copy
    }
}
