import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsentitymapping and .../nsentitymappingtype
// (iOS 18 / macOS 15 SDK), cross-checked against the generated Swift interface of
// CoreData/NSEntityMapping.h and onestack.dev's iOS reference.

/// api: NSEntityMapping.init()
func api_NSEntityMapping_init() {
    let mapping: NSEntityMapping = NSEntityMapping()
    _ = mapping
}

/// api: NSEntityMapping.sourceEntityName
func api_NSEntityMapping_sourceEntityName(_ mapping: NSEntityMapping) {
    let name: String? = mapping.sourceEntityName
    mapping.sourceEntityName = name
}

/// api: NSEntityMapping.sourceEntityVersionHash
func api_NSEntityMapping_sourceEntityVersionHash(_ mapping: NSEntityMapping) {
    let hash: Data? = mapping.sourceEntityVersionHash
    mapping.sourceEntityVersionHash = hash
}

/// api: NSEntityMapping.sourceExpression
func api_NSEntityMapping_sourceExpression(_ mapping: NSEntityMapping) {
    let expression: NSExpression? = mapping.sourceExpression
    mapping.sourceExpression = expression
}

/// api: NSEntityMapping.destinationEntityName
func api_NSEntityMapping_destinationEntityName(_ mapping: NSEntityMapping) {
    let name: String? = mapping.destinationEntityName
    mapping.destinationEntityName = name
}

/// api: NSEntityMapping.destinationEntityVersionHash
func api_NSEntityMapping_destinationEntityVersionHash(_ mapping: NSEntityMapping) {
    let hash: Data? = mapping.destinationEntityVersionHash
    mapping.destinationEntityVersionHash = hash
}

/// api: NSEntityMapping.name
func api_NSEntityMapping_name(_ mapping: NSEntityMapping) {
    let name: String! = mapping.name
    mapping.name = name
    mapping.name = "EntityToEntity"
}

/// api: NSEntityMapping.mappingType
func api_NSEntityMapping_mappingType(_ mapping: NSEntityMapping) {
    let type: NSEntityMappingType = mapping.mappingType
    mapping.mappingType = type
    mapping.mappingType = .transformEntityMappingType
}

/// api: NSEntityMapping.entityMigrationPolicyClassName
func api_NSEntityMapping_entityMigrationPolicyClassName(_ mapping: NSEntityMapping) {
    let className: String? = mapping.entityMigrationPolicyClassName
    mapping.entityMigrationPolicyClassName = className
}

/// api: NSEntityMapping.attributeMappings
func api_NSEntityMapping_attributeMappings(_ mapping: NSEntityMapping) {
    let mappings: [NSPropertyMapping]? = mapping.attributeMappings
    mapping.attributeMappings = mappings
}

/// api: NSEntityMapping.relationshipMappings
func api_NSEntityMapping_relationshipMappings(_ mapping: NSEntityMapping) {
    let mappings: [NSPropertyMapping]? = mapping.relationshipMappings
    mapping.relationshipMappings = mappings
}

/// api: NSEntityMapping.userInfo
func api_NSEntityMapping_userInfo(_ mapping: NSEntityMapping) {
    let userInfo: [AnyHashable: Any]? = mapping.userInfo
    mapping.userInfo = userInfo
}

/// api: NSEntityMappingType.undefinedEntityMappingType
func api_NSEntityMappingType_undefinedEntityMappingType() {
    let type: NSEntityMappingType = .undefinedEntityMappingType
    let qualified: NSEntityMappingType = NSEntityMappingType.undefinedEntityMappingType
    _ = (type, qualified)
}

/// api: NSEntityMappingType.customEntityMappingType
func api_NSEntityMappingType_customEntityMappingType() {
    let type: NSEntityMappingType = .customEntityMappingType
    let qualified: NSEntityMappingType = NSEntityMappingType.customEntityMappingType
    _ = (type, qualified)
}

/// api: NSEntityMappingType.addEntityMappingType
func api_NSEntityMappingType_addEntityMappingType() {
    let type: NSEntityMappingType = .addEntityMappingType
    let qualified: NSEntityMappingType = NSEntityMappingType.addEntityMappingType
    _ = (type, qualified)
}

/// api: NSEntityMappingType.removeEntityMappingType
func api_NSEntityMappingType_removeEntityMappingType() {
    let type: NSEntityMappingType = .removeEntityMappingType
    let qualified: NSEntityMappingType = NSEntityMappingType.removeEntityMappingType
    _ = (type, qualified)
}

/// api: NSEntityMappingType.copyEntityMappingType
func api_NSEntityMappingType_copyEntityMappingType() {
    let type: NSEntityMappingType = .copyEntityMappingType
    let qualified: NSEntityMappingType = NSEntityMappingType.copyEntityMappingType
    _ = (type, qualified)
}

/// api: NSEntityMappingType.transformEntityMappingType
func api_NSEntityMappingType_transformEntityMappingType() {
    let type: NSEntityMappingType = .transformEntityMappingType
    let qualified: NSEntityMappingType = NSEntityMappingType.transformEntityMappingType
    _ = (type, qualified)
}

/// api: NSEntityMappingType.init(rawValue:)
func api_NSEntityMappingType_initRawValue(_ raw: UInt) {
    let type: NSEntityMappingType? = NSEntityMappingType(rawValue: raw)
    _ = type
}

/// api: NSEntityMappingType.rawValue
func api_NSEntityMappingType_rawValue(_ type: NSEntityMappingType) {
    let raw: UInt = type.rawValue
    _ = raw
}
