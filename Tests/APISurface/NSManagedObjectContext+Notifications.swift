import OpenCoreData

// The notifications NSManagedObjectContext posts: the Swift names on NSManagedObjectContext
// (iOS 14 / macOS 11 overlay), the NSNotification.Name statics imported from
// NSManagedObjectContext.h, the global user-info keys, and NSManagedObjectContext.NotificationKey
// (enum NotificationKey : String; Equatable, Hashable, RawRepresentable).

// MARK: - Notification names on NSManagedObjectContext

/// api: NSManagedObjectContext.didChangeObjectsNotification
func api_NSManagedObjectContext_didChangeObjectsNotification() {
    let _: Notification.Name = NSManagedObjectContext.didChangeObjectsNotification
}

/// api: NSManagedObjectContext.didSaveObjectsNotification
func api_NSManagedObjectContext_didSaveObjectsNotification() {
    let _: Notification.Name = NSManagedObjectContext.didSaveObjectsNotification
}

/// api: NSManagedObjectContext.willSaveObjectsNotification
func api_NSManagedObjectContext_willSaveObjectsNotification() {
    let _: Notification.Name = NSManagedObjectContext.willSaveObjectsNotification
}

/// api: NSManagedObjectContext.didSaveObjectIDsNotification
func api_NSManagedObjectContext_didSaveObjectIDsNotification() {
    let _: Notification.Name = NSManagedObjectContext.didSaveObjectIDsNotification
}

/// api: NSManagedObjectContext.didMergeChangesObjectIDsNotification
func api_NSManagedObjectContext_didMergeChangesObjectIDsNotification() {
    let _: Notification.Name = NSManagedObjectContext.didMergeChangesObjectIDsNotification
}

// MARK: - NSNotification.Name statics

/// api: NSNotification.Name.NSManagedObjectContextObjectsDidChange
func api_NotificationName_NSManagedObjectContextObjectsDidChange() {
    let _: NSNotification.Name = .NSManagedObjectContextObjectsDidChange
    let _: Notification.Name = NSNotification.Name.NSManagedObjectContextObjectsDidChange
}

/// api: NSNotification.Name.NSManagedObjectContextDidSave
func api_NotificationName_NSManagedObjectContextDidSave() {
    let _: NSNotification.Name = .NSManagedObjectContextDidSave
    let _: Notification.Name = NSNotification.Name.NSManagedObjectContextDidSave
}

/// api: NSNotification.Name.NSManagedObjectContextWillSave
func api_NotificationName_NSManagedObjectContextWillSave() {
    let _: NSNotification.Name = .NSManagedObjectContextWillSave
    let _: Notification.Name = NSNotification.Name.NSManagedObjectContextWillSave
}

/// api: NSNotification.Name.NSManagedObjectContextDidSaveObjectIDs
func api_NotificationName_NSManagedObjectContextDidSaveObjectIDs() {
    let _: NSNotification.Name = .NSManagedObjectContextDidSaveObjectIDs
    let _: Notification.Name = NSNotification.Name.NSManagedObjectContextDidSaveObjectIDs
}

/// api: NSNotification.Name.NSManagedObjectContextDidMergeChangesObjectIDs
func api_NotificationName_NSManagedObjectContextDidMergeChangesObjectIDs() {
    let _: NSNotification.Name = .NSManagedObjectContextDidMergeChangesObjectIDs
    let _: Notification.Name = NSNotification.Name.NSManagedObjectContextDidMergeChangesObjectIDs
}

// MARK: - User-info keys (global constants)

/// api: NSInsertedObjectsKey
func api_Global_NSInsertedObjectsKey() {
    let _: String = NSInsertedObjectsKey
}

/// api: NSUpdatedObjectsKey
func api_Global_NSUpdatedObjectsKey() {
    let _: String = NSUpdatedObjectsKey
}

/// api: NSDeletedObjectsKey
func api_Global_NSDeletedObjectsKey() {
    let _: String = NSDeletedObjectsKey
}

/// api: NSRefreshedObjectsKey
func api_Global_NSRefreshedObjectsKey() {
    let _: String = NSRefreshedObjectsKey
}

/// api: NSInvalidatedObjectsKey
func api_Global_NSInvalidatedObjectsKey() {
    let _: String = NSInvalidatedObjectsKey
}

/// api: NSInvalidatedAllObjectsKey
func api_Global_NSInvalidatedAllObjectsKey() {
    let _: String = NSInvalidatedAllObjectsKey
}

/// api: NSInsertedObjectIDsKey
func api_Global_NSInsertedObjectIDsKey() {
    let _: String = NSInsertedObjectIDsKey
}

/// api: NSUpdatedObjectIDsKey
func api_Global_NSUpdatedObjectIDsKey() {
    let _: String = NSUpdatedObjectIDsKey
}

/// api: NSDeletedObjectIDsKey
func api_Global_NSDeletedObjectIDsKey() {
    let _: String = NSDeletedObjectIDsKey
}

/// api: NSRefreshedObjectIDsKey
func api_Global_NSRefreshedObjectIDsKey() {
    let _: String = NSRefreshedObjectIDsKey
}

/// api: NSInvalidatedObjectIDsKey
func api_Global_NSInvalidatedObjectIDsKey() {
    let _: String = NSInvalidatedObjectIDsKey
}

/// api: NSManagedObjectContextQueryGenerationKey
func api_Global_NSManagedObjectContextQueryGenerationKey() {
    let _: String = NSManagedObjectContextQueryGenerationKey
}

// MARK: - NSManagedObjectContext.NotificationKey

/// api: NSManagedObjectContext.NotificationKey.insertedObjects
func api_NSManagedObjectContext_NotificationKey_insertedObjects() {
    let _: NSManagedObjectContext.NotificationKey = .insertedObjects
}

/// api: NSManagedObjectContext.NotificationKey.updatedObjects
func api_NSManagedObjectContext_NotificationKey_updatedObjects() {
    let _: NSManagedObjectContext.NotificationKey = .updatedObjects
}

/// api: NSManagedObjectContext.NotificationKey.deletedObjects
func api_NSManagedObjectContext_NotificationKey_deletedObjects() {
    let _: NSManagedObjectContext.NotificationKey = .deletedObjects
}

/// api: NSManagedObjectContext.NotificationKey.refreshedObjects
func api_NSManagedObjectContext_NotificationKey_refreshedObjects() {
    let _: NSManagedObjectContext.NotificationKey = .refreshedObjects
}

/// api: NSManagedObjectContext.NotificationKey.invalidatedObjects
func api_NSManagedObjectContext_NotificationKey_invalidatedObjects() {
    let _: NSManagedObjectContext.NotificationKey = .invalidatedObjects
}

/// api: NSManagedObjectContext.NotificationKey.invalidatedAllObjects
func api_NSManagedObjectContext_NotificationKey_invalidatedAllObjects() {
    let _: NSManagedObjectContext.NotificationKey = .invalidatedAllObjects
}

/// api: NSManagedObjectContext.NotificationKey.insertedObjectIDs
func api_NSManagedObjectContext_NotificationKey_insertedObjectIDs() {
    let _: NSManagedObjectContext.NotificationKey = .insertedObjectIDs
}

/// api: NSManagedObjectContext.NotificationKey.updatedObjectIDs
func api_NSManagedObjectContext_NotificationKey_updatedObjectIDs() {
    let _: NSManagedObjectContext.NotificationKey = .updatedObjectIDs
}

/// api: NSManagedObjectContext.NotificationKey.deletedObjectIDs
func api_NSManagedObjectContext_NotificationKey_deletedObjectIDs() {
    let _: NSManagedObjectContext.NotificationKey = .deletedObjectIDs
}

/// api: NSManagedObjectContext.NotificationKey.refreshedObjectIDs
func api_NSManagedObjectContext_NotificationKey_refreshedObjectIDs() {
    let _: NSManagedObjectContext.NotificationKey = .refreshedObjectIDs
}

/// api: NSManagedObjectContext.NotificationKey.invalidatedObjectIDs
func api_NSManagedObjectContext_NotificationKey_invalidatedObjectIDs() {
    let _: NSManagedObjectContext.NotificationKey = .invalidatedObjectIDs
}

/// api: NSManagedObjectContext.NotificationKey.queryGeneration
func api_NSManagedObjectContext_NotificationKey_queryGeneration() {
    let _: NSManagedObjectContext.NotificationKey = .queryGeneration
}

/// api: NSManagedObjectContext.NotificationKey.init(rawValue:)
func api_NSManagedObjectContext_NotificationKey_init_rawValue(_ raw: String) {
    let _: NSManagedObjectContext.NotificationKey? = NSManagedObjectContext.NotificationKey(rawValue: raw)
}

/// api: NSManagedObjectContext.NotificationKey.rawValue
func api_NSManagedObjectContext_NotificationKey_rawValue(
    _ key: NSManagedObjectContext.NotificationKey, _ notification: Notification
) {
    let raw: String = key.rawValue
    let _: Any? = notification.userInfo?[raw]
}

/// api: NSManagedObjectContext.NotificationKey.RawValue
func api_NSManagedObjectContext_NotificationKey_RawValue() {
    let _: NSManagedObjectContext.NotificationKey.RawValue.Type = String.self
}

/// api: NSManagedObjectContext.NotificationKey.hashValue
func api_NSManagedObjectContext_NotificationKey_hashValue(_ key: NSManagedObjectContext.NotificationKey) {
    let _: Int = key.hashValue
}

/// api: NSManagedObjectContext.NotificationKey.hash(into:)
func api_NSManagedObjectContext_NotificationKey_hash_into(_ key: NSManagedObjectContext.NotificationKey) {
    var hasher = Hasher()
    key.hash(into: &hasher)
}

/// api: NSManagedObjectContext.NotificationKey.!=(_:_:)
func api_NSManagedObjectContext_NotificationKey_notEqual(
    _ a: NSManagedObjectContext.NotificationKey, _ b: NSManagedObjectContext.NotificationKey
) {
    let _: Bool = a != b
    let _: Bool = a == b
}
