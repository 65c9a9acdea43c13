import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsmappingmodel (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSMappingModel.h and onestack.dev's
// iOS reference.

/// api: NSMappingModel.init(from:forSourceModel:destinationModel:)
func api_NSMappingModel_initFrom(_ bundles: [Bundle]?, _ source: NSManagedObjectModel?, _ destination: NSManagedObjectModel?) {
    let mapping: NSMappingModel? = NSMappingModel(from: bundles, forSourceModel: source, destinationModel: destination)
    let fromMain: NSMappingModel? = NSMappingModel(from: nil, forSourceModel: source, destinationModel: destination)
    _ = (mapping, fromMain)
}

/// api: NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)
func api_NSMappingModel_inferredMappingModel(_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel) throws {
    let mapping: NSMappingModel = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
    _ = mapping
}

/// api: NSMappingModel.init(contentsOf:)
func api_NSMappingModel_initContentsOf(_ url: URL?) {
    let mapping: NSMappingModel? = NSMappingModel(contentsOf: url)
    _ = mapping
}

/// api: NSMappingModel.entityMappings
func api_NSMappingModel_entityMappings(_ mapping: NSMappingModel) {
    let entityMappings: [NSEntityMapping]! = mapping.entityMappings
    mapping.entityMappings = entityMappings
    mapping.entityMappings = []
}

/// api: NSMappingModel.entityMappingsByName
func api_NSMappingModel_entityMappingsByName(_ mapping: NSMappingModel) {
    let byName: [String: NSEntityMapping] = mapping.entityMappingsByName
    _ = byName
}
