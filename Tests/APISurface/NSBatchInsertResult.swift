import OpenCoreData

/// api: NSBatchInsertResult.result
func api_NSBatchInsertResult_result(_ result: NSBatchInsertResult) {
    let _: Any? = result.result
}

/// api: NSBatchInsertResult.resultType
func api_NSBatchInsertResult_resultType(_ result: NSBatchInsertResult) {
    let _: NSBatchInsertRequestResultType = result.resultType
}
