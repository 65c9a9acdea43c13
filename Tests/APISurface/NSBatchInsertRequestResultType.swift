import OpenCoreData

/// api: NSBatchInsertRequestResultType.statusOnly
/// later: #26
func api_NSBatchInsertRequestResultType_statusOnly() {
    let _: NSBatchInsertRequestResultType = .statusOnly
}

/// api: NSBatchInsertRequestResultType.objectIDs
/// later: #26
func api_NSBatchInsertRequestResultType_objectIDs() {
    let _: NSBatchInsertRequestResultType = .objectIDs
}

/// api: NSBatchInsertRequestResultType.count
/// later: #26
func api_NSBatchInsertRequestResultType_count() {
    let _: NSBatchInsertRequestResultType = .count
}

/// api: NSBatchInsertRequestResultType.init(rawValue:)
/// later: #26
func api_NSBatchInsertRequestResultType_init_rawValue() {
    let type: NSBatchInsertRequestResultType? = NSBatchInsertRequestResultType(rawValue: 0 as UInt)
    let _: UInt? = type?.rawValue
}
