import OpenCoreData

/// api: NSPersistentHistoryChangeRequest.fetchHistory(after:) (Date)
func api_NSPersistentHistoryChangeRequest_fetchHistory_after_date(_ date: Date) {
    let _: NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.fetchHistory(after: date)
}

/// api: NSPersistentHistoryChangeRequest.fetchHistory(after:) (NSPersistentHistoryToken?)
func api_NSPersistentHistoryChangeRequest_fetchHistory_after_token(_ token: NSPersistentHistoryToken?) {
    let _: NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
}

/// api: NSPersistentHistoryChangeRequest.fetchHistory(after:) (NSPersistentHistoryTransaction?)
func api_NSPersistentHistoryChangeRequest_fetchHistory_after_transaction(_ transaction: NSPersistentHistoryTransaction?) {
    let _: NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.fetchHistory(after: transaction)
}

/// api: NSPersistentHistoryChangeRequest.fetchHistory(withFetch:)
func api_NSPersistentHistoryChangeRequest_fetchHistory_withFetch(_ fetchRequest: NSFetchRequest<any NSFetchRequestResult>) {
    let _: NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetchRequest)
}

/// api: NSPersistentHistoryChangeRequest.deleteHistory(before:) (Date)
func api_NSPersistentHistoryChangeRequest_deleteHistory_before_date(_ date: Date) {
    let _: NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.deleteHistory(before: date)
}

/// api: NSPersistentHistoryChangeRequest.deleteHistory(before:) (NSPersistentHistoryToken?)
func api_NSPersistentHistoryChangeRequest_deleteHistory_before_token(_ token: NSPersistentHistoryToken?) {
    let _: NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.deleteHistory(before: token)
}

/// api: NSPersistentHistoryChangeRequest.deleteHistory(before:) (NSPersistentHistoryTransaction?)
func api_NSPersistentHistoryChangeRequest_deleteHistory_before_transaction(_ transaction: NSPersistentHistoryTransaction?) {
    let _: NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.deleteHistory(before: transaction)
}

/// api: NSPersistentHistoryChangeRequest.resultType
func api_NSPersistentHistoryChangeRequest_resultType(_ request: NSPersistentHistoryChangeRequest) {
    let type: NSPersistentHistoryResultType = request.resultType
    request.resultType = type
}

/// api: NSPersistentHistoryChangeRequest.token
func api_NSPersistentHistoryChangeRequest_token(_ request: NSPersistentHistoryChangeRequest) {
    let _: NSPersistentHistoryToken? = request.token
}

/// api: NSPersistentHistoryChangeRequest.fetchRequest
func api_NSPersistentHistoryChangeRequest_fetchRequest(_ request: NSPersistentHistoryChangeRequest) {
    let fetchRequest: NSFetchRequest<any NSFetchRequestResult>? = request.fetchRequest
    request.fetchRequest = fetchRequest
}
