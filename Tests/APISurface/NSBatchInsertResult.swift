import OpenCoreData

/// api: NSBatchInsertResult.result
/// later: #26
func api_NSBatchInsertResult_result(_ result: NSBatchInsertResult) {
    let _: Any? = result.result
}

/// api: NSBatchInsertResult.resultType
/// later: #26
func api_NSBatchInsertResult_resultType(_ result: NSBatchInsertResult) {
    let _: NSBatchInsertRequestResultType = result.resultType
}
