import OpenCoreData

/// api: NSBatchUpdateResult.result
/// later: #26
func api_NSBatchUpdateResult_result(_ result: NSBatchUpdateResult) {
    let _: Any? = result.result
}

/// api: NSBatchUpdateResult.resultType
/// later: #26
func api_NSBatchUpdateResult_resultType(_ result: NSBatchUpdateResult) {
    let _: NSBatchUpdateRequestResultType = result.resultType
}
