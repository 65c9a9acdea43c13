import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nspersistentstoreasynchronousresult
// (`class NSPersistentStoreAsynchronousResult : NSPersistentStoreResult`, iOS 18 / macOS 15 SDK),
// cross-checked against a second copy of Apple's reference pages. The completion-block type alias
// is listed on this page (Data Types) and declared in NSFetchRequest.h.

/// api: NSPersistentStoreAsynchronousResult (inherits NSPersistentStoreResult)
func api_NSPersistentStoreAsynchronousResult_superclass(_ result: NSPersistentStoreAsynchronousResult) {
    let _: NSPersistentStoreResult = result
}

/// api: NSPersistentStoreAsynchronousResult.managedObjectContext
func api_NSPersistentStoreAsynchronousResult_managedObjectContext(_ result: NSPersistentStoreAsynchronousResult) {
    let _: NSManagedObjectContext = result.managedObjectContext
}

/// api: NSPersistentStoreAsynchronousResult.operationError
func api_NSPersistentStoreAsynchronousResult_operationError(_ result: NSPersistentStoreAsynchronousResult) {
    let _: (any Error)? = result.operationError
}

/// api: NSPersistentStoreAsynchronousResult.progress
func api_NSPersistentStoreAsynchronousResult_progress(_ result: NSPersistentStoreAsynchronousResult) {
    let _: Progress? = result.progress
}

/// api: NSPersistentStoreAsynchronousResult.cancel()
func api_NSPersistentStoreAsynchronousResult_cancel(_ result: NSPersistentStoreAsynchronousResult) {
    result.cancel()
}

/// api: NSPersistentStoreAsynchronousFetchResultCompletionBlock
func api_NSPersistentStoreAsynchronousResult_NSPersistentStoreAsynchronousFetchResultCompletionBlock() {
    let block: NSPersistentStoreAsynchronousFetchResultCompletionBlock = { (result: NSAsynchronousFetchResult<any NSFetchRequestResult>) in
        _ = result
    }
    let _: (NSAsynchronousFetchResult<any NSFetchRequestResult>) -> Void = block
}
