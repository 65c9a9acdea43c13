import OpenCoreData

/// api: NSBatchUpdateRequestResultType.statusOnlyResultType
func api_NSBatchUpdateRequestResultType_statusOnlyResultType() {
    let _: NSBatchUpdateRequestResultType = .statusOnlyResultType
}

/// api: NSBatchUpdateRequestResultType.updatedObjectIDsResultType
func api_NSBatchUpdateRequestResultType_updatedObjectIDsResultType() {
    let _: NSBatchUpdateRequestResultType = .updatedObjectIDsResultType
}

/// api: NSBatchUpdateRequestResultType.updatedObjectsCountResultType
func api_NSBatchUpdateRequestResultType_updatedObjectsCountResultType() {
    let _: NSBatchUpdateRequestResultType = .updatedObjectsCountResultType
}

/// api: NSBatchUpdateRequestResultType.init(rawValue:)
func api_NSBatchUpdateRequestResultType_init_rawValue() {
    let type: NSBatchUpdateRequestResultType? = NSBatchUpdateRequestResultType(rawValue: 0 as UInt)
    let _: UInt? = type?.rawValue
}
