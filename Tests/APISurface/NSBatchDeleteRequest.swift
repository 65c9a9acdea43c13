import OpenCoreData

/// api: NSBatchDeleteRequest.init(fetchRequest:)
func api_NSBatchDeleteRequest_init_fetchRequest(_ fetch: NSFetchRequest<any NSFetchRequestResult>) {
    let _: NSBatchDeleteRequest = NSBatchDeleteRequest(fetchRequest: fetch)
}

/// api: NSBatchDeleteRequest.init(objectIDs:)
func api_NSBatchDeleteRequest_init_objectIDs(_ objects: [NSManagedObjectID]) {
    let _: NSBatchDeleteRequest = NSBatchDeleteRequest(objectIDs: objects)
}

/// api: NSBatchDeleteRequest.resultType
func api_NSBatchDeleteRequest_resultType(_ request: NSBatchDeleteRequest) {
    let type: NSBatchDeleteRequestResultType = request.resultType
    request.resultType = type
}

/// api: NSBatchDeleteRequest.fetchRequest
func api_NSBatchDeleteRequest_fetchRequest(_ request: NSBatchDeleteRequest) {
    let _: NSFetchRequest<any NSFetchRequestResult> = request.fetchRequest
}
