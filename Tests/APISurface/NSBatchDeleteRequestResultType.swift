import OpenCoreData

/// api: NSBatchDeleteRequestResultType.resultTypeStatusOnly
func api_NSBatchDeleteRequestResultType_resultTypeStatusOnly() {
    let _: NSBatchDeleteRequestResultType = .resultTypeStatusOnly
}

/// api: NSBatchDeleteRequestResultType.resultTypeObjectIDs
func api_NSBatchDeleteRequestResultType_resultTypeObjectIDs() {
    let _: NSBatchDeleteRequestResultType = .resultTypeObjectIDs
}

/// api: NSBatchDeleteRequestResultType.resultTypeCount
func api_NSBatchDeleteRequestResultType_resultTypeCount() {
    let _: NSBatchDeleteRequestResultType = .resultTypeCount
}

/// api: NSBatchDeleteRequestResultType.init(rawValue:)
func api_NSBatchDeleteRequestResultType_init_rawValue() {
    let type: NSBatchDeleteRequestResultType? = NSBatchDeleteRequestResultType(rawValue: 0 as UInt)
    let _: UInt? = type?.rawValue
}
