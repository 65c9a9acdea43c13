import OpenCoreData

// NSPersistentStoreResult: Apple documents no members of its own, only the class (an abstract
// NSObject subclass; inherited by NSPersistentStoreAsynchronousResult, NSBatchDeleteResult,
// NSBatchInsertResult, NSBatchUpdateResult, NSPersistentHistoryResult and the CloudKit event
// result). The subclasses' members are in their own files.

/// api: NSPersistentStoreResult
func api_NSPersistentStoreResult_class(_ result: NSPersistentStoreResult) {
    let _: NSObject = result
    let _: NSPersistentStoreResult.Type = type(of: result)
}
