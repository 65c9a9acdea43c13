import OpenCoreData

/// api: NSPersistentHistoryResultType.statusOnly
func api_NSPersistentHistoryResultType_statusOnly() {
    let _: NSPersistentHistoryResultType = .statusOnly
}

/// api: NSPersistentHistoryResultType.objectIDs
func api_NSPersistentHistoryResultType_objectIDs() {
    let _: NSPersistentHistoryResultType = .objectIDs
}

/// api: NSPersistentHistoryResultType.count
func api_NSPersistentHistoryResultType_count() {
    let _: NSPersistentHistoryResultType = .count
}

/// api: NSPersistentHistoryResultType.transactionsOnly
func api_NSPersistentHistoryResultType_transactionsOnly() {
    let _: NSPersistentHistoryResultType = .transactionsOnly
}

/// api: NSPersistentHistoryResultType.changesOnly
func api_NSPersistentHistoryResultType_changesOnly() {
    let _: NSPersistentHistoryResultType = .changesOnly
}

/// api: NSPersistentHistoryResultType.transactionsAndChanges
func api_NSPersistentHistoryResultType_transactionsAndChanges() {
    let _: NSPersistentHistoryResultType = .transactionsAndChanges
}

/// api: NSPersistentHistoryResultType.init(rawValue:)
func api_NSPersistentHistoryResultType_init_rawValue() {
    let type: NSPersistentHistoryResultType? = NSPersistentHistoryResultType(rawValue: 0 as Int)
    let _: Int? = type?.rawValue
}
