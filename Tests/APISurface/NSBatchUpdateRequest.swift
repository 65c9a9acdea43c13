import OpenCoreData

/// api: NSBatchUpdateRequest.init(entityName:)
func api_NSBatchUpdateRequest_init_entityName() {
    let _: NSBatchUpdateRequest = NSBatchUpdateRequest(entityName: "Item")
}

/// api: NSBatchUpdateRequest.init(entity:)
func api_NSBatchUpdateRequest_init_entity(_ entity: NSEntityDescription) {
    let _: NSBatchUpdateRequest = NSBatchUpdateRequest(entity: entity)
}

/// api: NSBatchUpdateRequest.entityName
func api_NSBatchUpdateRequest_entityName(_ request: NSBatchUpdateRequest) {
    let _: String = request.entityName
}

/// api: NSBatchUpdateRequest.entity
func api_NSBatchUpdateRequest_entity(_ request: NSBatchUpdateRequest) {
    let _: NSEntityDescription = request.entity
}

/// api: NSBatchUpdateRequest.predicate
func api_NSBatchUpdateRequest_predicate(_ request: NSBatchUpdateRequest) {
    let predicate: NSPredicate? = request.predicate
    request.predicate = predicate
}

/// api: NSBatchUpdateRequest.includesSubentities
func api_NSBatchUpdateRequest_includesSubentities(_ request: NSBatchUpdateRequest) {
    let includes: Bool = request.includesSubentities
    request.includesSubentities = includes
}

/// api: NSBatchUpdateRequest.resultType
func api_NSBatchUpdateRequest_resultType(_ request: NSBatchUpdateRequest) {
    let type: NSBatchUpdateRequestResultType = request.resultType
    request.resultType = type
}

/// api: NSBatchUpdateRequest.propertiesToUpdate
func api_NSBatchUpdateRequest_propertiesToUpdate(_ request: NSBatchUpdateRequest) {
    let properties: [AnyHashable: Any]? = request.propertiesToUpdate
    request.propertiesToUpdate = properties
}
