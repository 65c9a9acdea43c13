import OpenCoreData

/// api: NSPersistentHistoryChange.entityDescription(with:)
func api_NSPersistentHistoryChange_entityDescription_with(_ context: NSManagedObjectContext) {
    let _: NSEntityDescription? = NSPersistentHistoryChange.entityDescription(with: context)
}

/// api: NSPersistentHistoryChange.entityDescription
func api_NSPersistentHistoryChange_entityDescription() {
    let _: NSEntityDescription? = NSPersistentHistoryChange.entityDescription
}

/// api: NSPersistentHistoryChange.fetchRequest
func api_NSPersistentHistoryChange_fetchRequest() {
    let _: NSFetchRequest<any NSFetchRequestResult>? = NSPersistentHistoryChange.fetchRequest
}

/// api: NSPersistentHistoryChange.changeID
func api_NSPersistentHistoryChange_changeID(_ change: NSPersistentHistoryChange) {
    let _: Int64 = change.changeID
}

/// api: NSPersistentHistoryChange.changedObjectID
func api_NSPersistentHistoryChange_changedObjectID(_ change: NSPersistentHistoryChange) {
    let _: NSManagedObjectID = change.changedObjectID
}

/// api: NSPersistentHistoryChange.changeType
func api_NSPersistentHistoryChange_changeType(_ change: NSPersistentHistoryChange) {
    let _: NSPersistentHistoryChangeType = change.changeType
}

/// api: NSPersistentHistoryChange.tombstone
func api_NSPersistentHistoryChange_tombstone(_ change: NSPersistentHistoryChange) {
    let _: [AnyHashable: Any]? = change.tombstone
}

/// api: NSPersistentHistoryChange.transaction
func api_NSPersistentHistoryChange_transaction(_ change: NSPersistentHistoryChange) {
    let _: NSPersistentHistoryTransaction? = change.transaction
}

/// api: NSPersistentHistoryChange.updatedProperties
func api_NSPersistentHistoryChange_updatedProperties(_ change: NSPersistentHistoryChange) {
    let _: Set<NSPropertyDescription>? = change.updatedProperties
}
