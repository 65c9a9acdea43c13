import OpenCoreData

/// api: NSBatchInsertRequestResultType.statusOnly
func api_NSBatchInsertRequestResultType_statusOnly() {
    let _: NSBatchInsertRequestResultType = .statusOnly
}

/// api: NSBatchInsertRequestResultType.objectIDs
func api_NSBatchInsertRequestResultType_objectIDs() {
    let _: NSBatchInsertRequestResultType = .objectIDs
}

/// api: NSBatchInsertRequestResultType.count
func api_NSBatchInsertRequestResultType_count() {
    let _: NSBatchInsertRequestResultType = .count
}

/// api: NSBatchInsertRequestResultType.init(rawValue:)
func api_NSBatchInsertRequestResultType_init_rawValue() {
    let type: NSBatchInsertRequestResultType? = NSBatchInsertRequestResultType(rawValue: 0 as UInt)
    let _: UInt? = type?.rawValue
}
