import OpenCoreData

/// api: NSBatchDeleteResult.result
func api_NSBatchDeleteResult_result(_ result: NSBatchDeleteResult) {
    let _: Any? = result.result
}

/// api: NSBatchDeleteResult.resultType
func api_NSBatchDeleteResult_resultType(_ result: NSBatchDeleteResult) {
    let _: NSBatchDeleteRequestResultType = result.resultType
}
