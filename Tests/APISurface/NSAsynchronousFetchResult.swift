import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsasynchronousfetchresult
// (`class NSAsynchronousFetchResult<ResultType> : NSPersistentStoreAsynchronousResult where
// ResultType : NSFetchRequestResult`, iOS 18 / macOS 15 SDK), cross-checked against a second copy of
// Apple's reference pages.

/// api: NSAsynchronousFetchResult (inherits NSPersistentStoreAsynchronousResult)
func api_NSAsynchronousFetchResult_superclass(_ result: NSAsynchronousFetchResult<NSManagedObject>) {
    let _: NSPersistentStoreAsynchronousResult = result
}

/// api: NSAsynchronousFetchResult.fetchRequest
func api_NSAsynchronousFetchResult_fetchRequest(_ result: NSAsynchronousFetchResult<NSManagedObject>) {
    let _: NSAsynchronousFetchRequest<NSManagedObject> = result.fetchRequest
}

/// api: NSAsynchronousFetchResult.finalResult
func api_NSAsynchronousFetchResult_finalResult(_ result: NSAsynchronousFetchResult<NSManagedObject>) {
    let _: [NSManagedObject]? = result.finalResult
}
