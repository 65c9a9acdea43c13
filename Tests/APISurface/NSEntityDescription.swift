import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsentitydescription (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSEntityDescription.h and
// onestack.dev's iOS reference.

/// api: NSEntityDescription.init()
func api_NSEntityDescription_init() {
    let entity: NSEntityDescription = NSEntityDescription()
    _ = entity
}

/// api: NSEntityDescription.entity(forEntityName:in:)
func api_NSEntityDescription_entity_forEntityName(_ name: String, _ context: NSManagedObjectContext) {
    let entity: NSEntityDescription? = NSEntityDescription.entity(forEntityName: name, in: context)
    _ = entity
}

/// api: NSEntityDescription.insertNewObject(forEntityName:into:)
func api_NSEntityDescription_insertNewObject(_ name: String, _ context: NSManagedObjectContext) {
    let object: NSManagedObject = NSEntityDescription.insertNewObject(forEntityName: name, into: context)
    _ = object
}

/// api: NSEntityDescription.name
func api_NSEntityDescription_name(_ entity: NSEntityDescription) {
    let name: String? = entity.name
    entity.name = name
    entity.name = "Entity"
}

/// api: NSEntityDescription.managedObjectModel
func api_NSEntityDescription_managedObjectModel(_ entity: NSEntityDescription) {
    let model: NSManagedObjectModel = entity.managedObjectModel
    _ = model
}

/// api: NSEntityDescription.managedObjectClassName
func api_NSEntityDescription_managedObjectClassName(_ entity: NSEntityDescription) {
    let className: String! = entity.managedObjectClassName
    entity.managedObjectClassName = className
    entity.managedObjectClassName = "NSManagedObject"
}

/// api: NSEntityDescription.renamingIdentifier
func api_NSEntityDescription_renamingIdentifier(_ entity: NSEntityDescription) {
    let identifier: String? = entity.renamingIdentifier
    entity.renamingIdentifier = identifier
}

/// api: NSEntityDescription.isAbstract
func api_NSEntityDescription_isAbstract(_ entity: NSEntityDescription) {
    let abstract: Bool = entity.isAbstract
    entity.isAbstract = abstract
}

/// api: NSEntityDescription.userInfo
func api_NSEntityDescription_userInfo(_ entity: NSEntityDescription) {
    let userInfo: [AnyHashable: Any]? = entity.userInfo
    entity.userInfo = userInfo
}

/// api: NSEntityDescription.subentitiesByName
func api_NSEntityDescription_subentitiesByName(_ entity: NSEntityDescription) {
    let byName: [String: NSEntityDescription] = entity.subentitiesByName
    _ = byName
}

/// api: NSEntityDescription.subentities
func api_NSEntityDescription_subentities(_ entity: NSEntityDescription) {
    let subentities: [NSEntityDescription] = entity.subentities
    entity.subentities = subentities
}

/// api: NSEntityDescription.superentity
func api_NSEntityDescription_superentity(_ entity: NSEntityDescription) {
    let superentity: NSEntityDescription? = entity.superentity
    _ = superentity
}

/// api: NSEntityDescription.isKindOf(entity:)
func api_NSEntityDescription_isKindOf(_ entity: NSEntityDescription, _ other: NSEntityDescription) {
    let isKind: Bool = entity.isKindOf(entity: other)
    _ = isKind
}

/// api: NSEntityDescription.propertiesByName
func api_NSEntityDescription_propertiesByName(_ entity: NSEntityDescription) {
    let byName: [String: NSPropertyDescription] = entity.propertiesByName
    _ = byName
}

/// api: NSEntityDescription.properties
func api_NSEntityDescription_properties(_ entity: NSEntityDescription) {
    let properties: [NSPropertyDescription] = entity.properties
    entity.properties = properties
}

/// api: NSEntityDescription.attributesByName
func api_NSEntityDescription_attributesByName(_ entity: NSEntityDescription) {
    let byName: [String: NSAttributeDescription] = entity.attributesByName
    _ = byName
}

/// api: NSEntityDescription.relationshipsByName
func api_NSEntityDescription_relationshipsByName(_ entity: NSEntityDescription) {
    let byName: [String: NSRelationshipDescription] = entity.relationshipsByName
    _ = byName
}

/// api: NSEntityDescription.relationships(forDestination:)
func api_NSEntityDescription_relationships_forDestination(_ entity: NSEntityDescription, _ destination: NSEntityDescription) {
    let relationships: [NSRelationshipDescription] = entity.relationships(forDestination: destination)
    _ = relationships
}

/// api: NSEntityDescription.indexes
func api_NSEntityDescription_indexes(_ entity: NSEntityDescription) {
    let indexes: [NSFetchIndexDescription] = entity.indexes
    entity.indexes = indexes
}

/// api: NSEntityDescription.uniquenessConstraints
func api_NSEntityDescription_uniquenessConstraints(_ entity: NSEntityDescription) {
    let constraints: [[Any]] = entity.uniquenessConstraints
    entity.uniquenessConstraints = constraints
    entity.uniquenessConstraints = [["name"]]
}

/// api: NSEntityDescription.compoundIndexes
func api_NSEntityDescription_compoundIndexes(_ entity: NSEntityDescription) {
    // Deprecated (iOS 11 / macOS 10.13): use `indexes`.
    let compoundIndexes: [[Any]] = entity.compoundIndexes
    entity.compoundIndexes = compoundIndexes
}

/// api: NSEntityDescription.versionHash
func api_NSEntityDescription_versionHash(_ entity: NSEntityDescription) {
    let hash: Data = entity.versionHash
    _ = hash
}

/// api: NSEntityDescription.versionHashModifier
func api_NSEntityDescription_versionHashModifier(_ entity: NSEntityDescription) {
    let modifier: String? = entity.versionHashModifier
    entity.versionHashModifier = modifier
}

// Left out as Spotlight-only: coreSpotlightDisplayNameExpression (`var coreSpotlightDisplayNameExpression: NSExpression`).

// MARK: - NSCoding, NSCopying

// Conformances from Apple's declaration (`@interface NSEntityDescription : NSObject <NSCoding, NSCopying, NSFastEnumeration>`). Swift spells the
// requirements `init?(coder: NSCoder)`, `func encode(with coder: NSCoder)` and `func copy(with zone: NSZone? = nil) -> Any`.

/// api: NSEntityDescription.init(coder:)
func api_NSEntityDescription_init_coder(_ coder: NSCoder) {
    let decoded: NSEntityDescription? = NSEntityDescription(coder: coder)
    _ = decoded
}

/// api: NSEntityDescription.encode(with:)
func api_NSEntityDescription_encode_with(_ entity: NSEntityDescription, _ coder: NSCoder) {
    func archivable<T: NSCoding>(_ value: T) -> T { value }
    archivable(entity).encode(with: coder)
}

/// api: NSEntityDescription.copy(with:)
func api_NSEntityDescription_copy_with(_ entity: NSEntityDescription) {
    func copyable<T: NSCopying>(_ value: T) -> T { value }
    let copied: Any = copyable(entity).copy(with: nil)
    let _: NSEntityDescription? = copied as? NSEntityDescription
    let _: NSEntityDescription? = entity.copy() as? NSEntityDescription
}

// not-on-linux: NSEntityDescription.countByEnumerating(with:objects:count:): NSFastEnumeration's requirement takes AutoreleasingUnsafeMutablePointer<AnyObject?>, which exists only with the Objective-C runtime (Linux Foundation has no NSFastEnumeration)
