import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsasynchronousfetchrequest
// (`class NSAsynchronousFetchRequest<ResultType> : NSPersistentStoreRequest where ResultType :
// NSFetchRequestResult`, iOS 18 / macOS 15 SDK), cross-checked against a second copy of Apple's
// reference pages and the NSFetchRequest.h header, which declares it.

/// api: NSAsynchronousFetchRequest (inherits NSPersistentStoreRequest)
func api_NSAsynchronousFetchRequest_superclass(_ request: NSAsynchronousFetchRequest<NSManagedObject>) {
    let _: NSPersistentStoreRequest = request
}

/// api: NSAsynchronousFetchRequest.init(fetchRequest:completionBlock:)
func api_NSAsynchronousFetchRequest_init_fetchRequest_completionBlock(_ fetchRequest: NSFetchRequest<NSManagedObject>) {
    let _: NSAsynchronousFetchRequest<NSManagedObject> = NSAsynchronousFetchRequest(fetchRequest: fetchRequest) { (result: NSAsynchronousFetchResult<NSManagedObject>) in
        _ = result
    }
    let _: NSAsynchronousFetchRequest<NSManagedObject> = NSAsynchronousFetchRequest(fetchRequest: fetchRequest, completionBlock: nil)
    let _: NSAsynchronousFetchRequest<NSManagedObject> = NSAsynchronousFetchRequest(fetchRequest: fetchRequest)
}

/// api: NSAsynchronousFetchRequest.completionBlock
func api_NSAsynchronousFetchRequest_completionBlock(_ request: NSAsynchronousFetchRequest<NSManagedObject>) {
    let _: ((NSAsynchronousFetchResult<any NSFetchRequestResult>) -> Void)? = request.completionBlock
}

/// api: NSAsynchronousFetchRequest.estimatedResultCount
func api_NSAsynchronousFetchRequest_estimatedResultCount(_ request: NSAsynchronousFetchRequest<NSManagedObject>) {
    let count: Int = request.estimatedResultCount
    request.estimatedResultCount = count
    request.estimatedResultCount = 1000
}

/// api: NSAsynchronousFetchRequest.fetchRequest
func api_NSAsynchronousFetchRequest_fetchRequest(_ request: NSAsynchronousFetchRequest<NSManagedObject>) {
    let _: NSFetchRequest<NSManagedObject> = request.fetchRequest
}
