import OpenCoreData

// The persistent-store remote-change option and the keys of the remote-change notification's
// userInfo. NSStoreUUIDKey and NSPersistentStoreURLKey are declared with the coordinator's store
// constants too: if that file also lists them, keep one block each.

/// api: NSPersistentStoreRemoteChangeNotificationPostOptionKey
func api_RemoteChange_NSPersistentStoreRemoteChangeNotificationPostOptionKey() {
    let _: String = NSPersistentStoreRemoteChangeNotificationPostOptionKey
}

/// api: NSNotification.Name.NSPersistentStoreRemoteChange
func api_RemoteChange_NSNotification_Name_NSPersistentStoreRemoteChange() {
    let _: NSNotification.Name = .NSPersistentStoreRemoteChange
}

/// api: NSPersistentHistoryTokenKey
func api_RemoteChange_NSPersistentHistoryTokenKey() {
    let _: String = NSPersistentHistoryTokenKey
}

/// api: NSPersistentStoreURLKey
func api_RemoteChange_NSPersistentStoreURLKey() {
    let _: String = NSPersistentStoreURLKey
}

/// api: NSStoreUUIDKey
func api_RemoteChange_NSStoreUUIDKey() {
    let _: String = NSStoreUUIDKey
}
