import OpenCoreData

/// api: NSBatchUpdateResult.result
func api_NSBatchUpdateResult_result(_ result: NSBatchUpdateResult) {
    let _: Any? = result.result
}

/// api: NSBatchUpdateResult.resultType
func api_NSBatchUpdateResult_resultType(_ result: NSBatchUpdateResult) {
    let _: NSBatchUpdateRequestResultType = result.resultType
}
