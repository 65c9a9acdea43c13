import OpenCoreData

/// api: NSPersistentHistoryTransaction.entityDescription(with:)
func api_NSPersistentHistoryTransaction_entityDescription_with(_ context: NSManagedObjectContext) {
    let _: NSEntityDescription? = NSPersistentHistoryTransaction.entityDescription(with: context)
}

/// api: NSPersistentHistoryTransaction.entityDescription
func api_NSPersistentHistoryTransaction_entityDescription() {
    let _: NSEntityDescription? = NSPersistentHistoryTransaction.entityDescription
}

/// api: NSPersistentHistoryTransaction.fetchRequest
func api_NSPersistentHistoryTransaction_fetchRequest() {
    let _: NSFetchRequest<any NSFetchRequestResult>? = NSPersistentHistoryTransaction.fetchRequest
}

/// api: NSPersistentHistoryTransaction.timestamp
func api_NSPersistentHistoryTransaction_timestamp(_ transaction: NSPersistentHistoryTransaction) {
    let _: Date = transaction.timestamp
}

/// api: NSPersistentHistoryTransaction.changes
func api_NSPersistentHistoryTransaction_changes(_ transaction: NSPersistentHistoryTransaction) {
    let _: [NSPersistentHistoryChange]? = transaction.changes
}

/// api: NSPersistentHistoryTransaction.transactionNumber
func api_NSPersistentHistoryTransaction_transactionNumber(_ transaction: NSPersistentHistoryTransaction) {
    let _: Int64 = transaction.transactionNumber
}

/// api: NSPersistentHistoryTransaction.storeID
func api_NSPersistentHistoryTransaction_storeID(_ transaction: NSPersistentHistoryTransaction) {
    let _: String = transaction.storeID
}

/// api: NSPersistentHistoryTransaction.bundleID
func api_NSPersistentHistoryTransaction_bundleID(_ transaction: NSPersistentHistoryTransaction) {
    let _: String = transaction.bundleID
}

/// api: NSPersistentHistoryTransaction.processID
func api_NSPersistentHistoryTransaction_processID(_ transaction: NSPersistentHistoryTransaction) {
    let _: String = transaction.processID
}

/// api: NSPersistentHistoryTransaction.contextName
func api_NSPersistentHistoryTransaction_contextName(_ transaction: NSPersistentHistoryTransaction) {
    let _: String? = transaction.contextName
}

/// api: NSPersistentHistoryTransaction.author
func api_NSPersistentHistoryTransaction_author(_ transaction: NSPersistentHistoryTransaction) {
    let _: String? = transaction.author
}

/// api: NSPersistentHistoryTransaction.token
func api_NSPersistentHistoryTransaction_token(_ transaction: NSPersistentHistoryTransaction) {
    let _: NSPersistentHistoryToken = transaction.token
}

/// api: NSPersistentHistoryTransaction.objectIDNotification()
func api_NSPersistentHistoryTransaction_objectIDNotification(_ transaction: NSPersistentHistoryTransaction) {
    let _: Notification = transaction.objectIDNotification()
}
