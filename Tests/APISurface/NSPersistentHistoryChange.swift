import OpenCoreData

/// api: NSPersistentHistoryChange.entityDescription(with:)
/// later: #26
func api_NSPersistentHistoryChange_entityDescription_with(_ context: NSManagedObjectContext) {
    let _: NSEntityDescription? = NSPersistentHistoryChange.entityDescription(with: context)
}

/// api: NSPersistentHistoryChange.entityDescription
/// later: #26
func api_NSPersistentHistoryChange_entityDescription() {
    let _: NSEntityDescription? = NSPersistentHistoryChange.entityDescription
}

/// api: NSPersistentHistoryChange.fetchRequest
/// later: #26
func api_NSPersistentHistoryChange_fetchRequest() {
    let _: NSFetchRequest<any NSFetchRequestResult>? = NSPersistentHistoryChange.fetchRequest
}

/// api: NSPersistentHistoryChange.changeID
/// later: #26
func api_NSPersistentHistoryChange_changeID(_ change: NSPersistentHistoryChange) {
    let _: Int64 = change.changeID
}

/// api: NSPersistentHistoryChange.changedObjectID
/// later: #26
func api_NSPersistentHistoryChange_changedObjectID(_ change: NSPersistentHistoryChange) {
    let _: NSManagedObjectID = change.changedObjectID
}

/// api: NSPersistentHistoryChange.changeType
/// later: #26
func api_NSPersistentHistoryChange_changeType(_ change: NSPersistentHistoryChange) {
    let _: NSPersistentHistoryChangeType = change.changeType
}

/// api: NSPersistentHistoryChange.tombstone
/// later: #26
func api_NSPersistentHistoryChange_tombstone(_ change: NSPersistentHistoryChange) {
    let _: [AnyHashable: Any]? = change.tombstone
}

/// api: NSPersistentHistoryChange.transaction
/// later: #26
func api_NSPersistentHistoryChange_transaction(_ change: NSPersistentHistoryChange) {
    let _: NSPersistentHistoryTransaction? = change.transaction
}

/// api: NSPersistentHistoryChange.updatedProperties
/// later: #26
func api_NSPersistentHistoryChange_updatedProperties(_ change: NSPersistentHistoryChange) {
    let _: Set<NSPropertyDescription>? = change.updatedProperties
}
