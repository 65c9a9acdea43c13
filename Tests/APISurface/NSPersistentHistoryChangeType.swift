import OpenCoreData

/// api: NSPersistentHistoryChangeType.insert
func api_NSPersistentHistoryChangeType_insert() {
    let _: NSPersistentHistoryChangeType = .insert
}

/// api: NSPersistentHistoryChangeType.update
func api_NSPersistentHistoryChangeType_update() {
    let _: NSPersistentHistoryChangeType = .update
}

/// api: NSPersistentHistoryChangeType.delete
func api_NSPersistentHistoryChangeType_delete() {
    let _: NSPersistentHistoryChangeType = .delete
}

/// api: NSPersistentHistoryChangeType.init(rawValue:)
func api_NSPersistentHistoryChangeType_init_rawValue() {
    let type: NSPersistentHistoryChangeType? = NSPersistentHistoryChangeType(rawValue: 0 as Int)
    let _: Int? = type?.rawValue
}
