import OpenCoreData

/// api: NSBatchDeleteRequest.init(fetchRequest:)
/// later: #26
func api_NSBatchDeleteRequest_init_fetchRequest(_ fetch: NSFetchRequest<any NSFetchRequestResult>) {
    let _: NSBatchDeleteRequest = NSBatchDeleteRequest(fetchRequest: fetch)
}

/// api: NSBatchDeleteRequest.init(objectIDs:)
/// later: #26
func api_NSBatchDeleteRequest_init_objectIDs(_ objects: [NSManagedObjectID]) {
    let _: NSBatchDeleteRequest = NSBatchDeleteRequest(objectIDs: objects)
}

/// api: NSBatchDeleteRequest.resultType
/// later: #26
func api_NSBatchDeleteRequest_resultType(_ request: NSBatchDeleteRequest) {
    let type: NSBatchDeleteRequestResultType = request.resultType
    request.resultType = type
}

/// api: NSBatchDeleteRequest.fetchRequest
/// later: #26
func api_NSBatchDeleteRequest_fetchRequest(_ request: NSBatchDeleteRequest) {
    let _: NSFetchRequest<any NSFetchRequestResult> = request.fetchRequest
}
