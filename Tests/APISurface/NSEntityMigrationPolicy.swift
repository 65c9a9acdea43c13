import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsentitymigrationpolicy (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSEntityMigrationPolicy.h and
// onestack.dev's iOS reference. Each overridable member is checked by a subclass that overrides it;
// the userInfo keys of the same header (Apple lists them under this class) follow.

/// api: NSEntityMigrationPolicy.init()
func api_NSEntityMigrationPolicy_init() {
    let policy: NSEntityMigrationPolicy = NSEntityMigrationPolicy()
    _ = policy
}

/// api: NSEntityMigrationPolicy.begin(_:with:)
final class API_NSEntityMigrationPolicy_begin: NSEntityMigrationPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        try super.begin(mapping, with: manager)
    }
}

/// api: NSEntityMigrationPolicy.createDestinationInstances(forSource:in:manager:)
final class API_NSEntityMigrationPolicy_createDestinationInstances: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
}

/// api: NSEntityMigrationPolicy.endInstanceCreation(forMapping:manager:)
final class API_NSEntityMigrationPolicy_endInstanceCreation: NSEntityMigrationPolicy {
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.endInstanceCreation(forMapping: mapping, manager: manager)
    }
}

/// api: NSEntityMigrationPolicy.createRelationships(forDestination:in:manager:)
final class API_NSEntityMigrationPolicy_createRelationships: NSEntityMigrationPolicy {
    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
    }
}

/// api: NSEntityMigrationPolicy.endRelationshipCreation(forMapping:manager:)
final class API_NSEntityMigrationPolicy_endRelationshipCreation: NSEntityMigrationPolicy {
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.endRelationshipCreation(forMapping: mapping, manager: manager)
    }
}

/// api: NSEntityMigrationPolicy.performCustomValidation(forMapping:manager:)
final class API_NSEntityMigrationPolicy_performCustomValidation: NSEntityMigrationPolicy {
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.performCustomValidation(forMapping: mapping, manager: manager)
    }
}

/// api: NSEntityMigrationPolicy.end(_:manager:)
final class API_NSEntityMigrationPolicy_end: NSEntityMigrationPolicy {
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.end(mapping, manager: manager)
    }
}

/// api: NSMigrationManagerKey
func api_NSEntityMigrationPolicy_NSMigrationManagerKey() {
    let key: String = NSMigrationManagerKey
    _ = key
}

/// api: NSMigrationSourceObjectKey
func api_NSEntityMigrationPolicy_NSMigrationSourceObjectKey() {
    let key: String = NSMigrationSourceObjectKey
    _ = key
}

/// api: NSMigrationDestinationObjectKey
func api_NSEntityMigrationPolicy_NSMigrationDestinationObjectKey() {
    let key: String = NSMigrationDestinationObjectKey
    _ = key
}

/// api: NSMigrationEntityMappingKey
func api_NSEntityMigrationPolicy_NSMigrationEntityMappingKey() {
    let key: String = NSMigrationEntityMappingKey
    _ = key
}

/// api: NSMigrationPropertyMappingKey
func api_NSEntityMigrationPolicy_NSMigrationPropertyMappingKey() {
    let key: String = NSMigrationPropertyMappingKey
    _ = key
}

/// api: NSMigrationEntityPolicyKey
func api_NSEntityMigrationPolicy_NSMigrationEntityPolicyKey() {
    let key: String = NSMigrationEntityPolicyKey
    _ = key
}
