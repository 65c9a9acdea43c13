import OpenCoreData

/// api: NSPersistentHistoryResult.result
func api_NSPersistentHistoryResult_result(_ result: NSPersistentHistoryResult) {
    let _: Any? = result.result
}

/// api: NSPersistentHistoryResult.resultType
func api_NSPersistentHistoryResult_resultType(_ result: NSPersistentHistoryResult) {
    let _: NSPersistentHistoryResultType = result.resultType
}
