import OpenCoreData

/// api: NSBatchInsertRequest.init(entityName:objects:)
func api_NSBatchInsertRequest_init_entityName_objects(_ dictionaries: [[String: Any]]) {
    let _: NSBatchInsertRequest = NSBatchInsertRequest(entityName: "Item", objects: dictionaries)
}

/// api: NSBatchInsertRequest.init(entity:objects:)
func api_NSBatchInsertRequest_init_entity_objects(_ entity: NSEntityDescription, _ dictionaries: [[String: Any]]) {
    let _: NSBatchInsertRequest = NSBatchInsertRequest(entity: entity, objects: dictionaries)
}

/// api: NSBatchInsertRequest.init(entity:dictionaryHandler:)
func api_NSBatchInsertRequest_init_entity_dictionaryHandler(_ entity: NSEntityDescription) {
    let _: NSBatchInsertRequest = NSBatchInsertRequest(entity: entity, dictionaryHandler: { (dictionary: NSMutableDictionary) -> Bool in
        true
    })
}

/// api: NSBatchInsertRequest.init(entity:managedObjectHandler:)
func api_NSBatchInsertRequest_init_entity_managedObjectHandler(_ entity: NSEntityDescription) {
    let _: NSBatchInsertRequest = NSBatchInsertRequest(entity: entity, managedObjectHandler: { (object: NSManagedObject) -> Bool in
        true
    })
}

/// api: NSBatchInsertRequest.init(entityName:dictionaryHandler:)
func api_NSBatchInsertRequest_init_entityName_dictionaryHandler() {
    let _: NSBatchInsertRequest = NSBatchInsertRequest(entityName: "Item", dictionaryHandler: { (dictionary: NSMutableDictionary) -> Bool in
        true
    })
}

/// api: NSBatchInsertRequest.init(entityName:managedObjectHandler:)
func api_NSBatchInsertRequest_init_entityName_managedObjectHandler() {
    let _: NSBatchInsertRequest = NSBatchInsertRequest(entityName: "Item", managedObjectHandler: { (object: NSManagedObject) -> Bool in
        true
    })
}

/// api: NSBatchInsertRequest.init()
func api_NSBatchInsertRequest_init() {
    // Deprecated by Apple (iOS 14 / macOS 11), still present.
    let _: NSBatchInsertRequest = NSBatchInsertRequest()
}

/// api: NSBatchInsertRequest.entityName
func api_NSBatchInsertRequest_entityName(_ request: NSBatchInsertRequest) {
    let _: String = request.entityName
}

/// api: NSBatchInsertRequest.entity
func api_NSBatchInsertRequest_entity(_ request: NSBatchInsertRequest) {
    let _: NSEntityDescription? = request.entity
}

/// api: NSBatchInsertRequest.objectsToInsert
func api_NSBatchInsertRequest_objectsToInsert(_ request: NSBatchInsertRequest) {
    let objects: [[String: Any]]? = request.objectsToInsert
    request.objectsToInsert = objects
}

/// api: NSBatchInsertRequest.dictionaryHandler
func api_NSBatchInsertRequest_dictionaryHandler(_ request: NSBatchInsertRequest) {
    let handler: ((NSMutableDictionary) -> Bool)? = request.dictionaryHandler
    request.dictionaryHandler = handler
}

/// api: NSBatchInsertRequest.managedObjectHandler
func api_NSBatchInsertRequest_managedObjectHandler(_ request: NSBatchInsertRequest) {
    let handler: ((NSManagedObject) -> Bool)? = request.managedObjectHandler
    request.managedObjectHandler = handler
}

/// api: NSBatchInsertRequest.resultType
func api_NSBatchInsertRequest_resultType(_ request: NSBatchInsertRequest) {
    let type: NSBatchInsertRequestResultType = request.resultType
    request.resultType = type
}
