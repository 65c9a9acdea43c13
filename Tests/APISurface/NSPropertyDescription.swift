import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nspropertydescription (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSPropertyDescription.h.
// Left out as Spotlight-only: isStoredInExternalRecord (deprecated external-record Spotlight support).

/// api: NSPropertyDescription.entity
func api_NSPropertyDescription_entity(_ property: NSPropertyDescription) {
    let entity: NSEntityDescription = property.entity
    _ = entity
}

/// api: NSPropertyDescription.name
func api_NSPropertyDescription_name(_ property: NSPropertyDescription) {
    let name: String = property.name
    property.name = name
}

/// api: NSPropertyDescription.isOptional
func api_NSPropertyDescription_isOptional(_ property: NSPropertyDescription) {
    let optional: Bool = property.isOptional
    property.isOptional = optional
}

/// api: NSPropertyDescription.isTransient
func api_NSPropertyDescription_isTransient(_ property: NSPropertyDescription) {
    let transient: Bool = property.isTransient
    property.isTransient = transient
}

/// api: NSPropertyDescription.userInfo
func api_NSPropertyDescription_userInfo(_ property: NSPropertyDescription) {
    let userInfo: [AnyHashable: Any]? = property.userInfo
    property.userInfo = userInfo
}

/// api: NSPropertyDescription.isIndexed
func api_NSPropertyDescription_isIndexed(_ property: NSPropertyDescription) {
    // Deprecated (iOS 11 / macOS 10.13): use NSEntityDescription.indexes.
    let indexed: Bool = property.isIndexed
    property.isIndexed = indexed
}

/// api: NSPropertyDescription.validationPredicates
func api_NSPropertyDescription_validationPredicates(_ property: NSPropertyDescription) {
    let predicates: [NSPredicate] = property.validationPredicates
    _ = predicates
}

/// api: NSPropertyDescription.validationWarnings
func api_NSPropertyDescription_validationWarnings(_ property: NSPropertyDescription) {
    let warnings: [Any] = property.validationWarnings
    _ = warnings
}

/// api: NSPropertyDescription.setValidationPredicates(_:withValidationWarnings:)
func api_NSPropertyDescription_setValidationPredicates(_ property: NSPropertyDescription, _ predicates: [NSPredicate]?, _ warnings: [String]?) {
    property.setValidationPredicates(predicates, withValidationWarnings: warnings)
    property.setValidationPredicates(nil, withValidationWarnings: nil)
}

/// api: NSPropertyDescription.versionHash
func api_NSPropertyDescription_versionHash(_ property: NSPropertyDescription) {
    let hash: Data = property.versionHash
    _ = hash
}

/// api: NSPropertyDescription.versionHashModifier
func api_NSPropertyDescription_versionHashModifier(_ property: NSPropertyDescription) {
    let modifier: String? = property.versionHashModifier
    property.versionHashModifier = modifier
}

/// api: NSPropertyDescription.renamingIdentifier
func api_NSPropertyDescription_renamingIdentifier(_ property: NSPropertyDescription) {
    let identifier: String? = property.renamingIdentifier
    property.renamingIdentifier = identifier
}

/// api: NSPropertyDescription.isIndexedBySpotlight
func api_NSPropertyDescription_isIndexedBySpotlight(_ property: NSPropertyDescription) {
    let indexed: Bool = property.isIndexedBySpotlight
    property.isIndexedBySpotlight = indexed
}

// MARK: - NSCoding, NSCopying

// Conformances from Apple's declaration (`@interface NSPropertyDescription : NSObject <NSCoding, NSCopying>`, inherited by every property subclass). Swift spells the
// requirements `init?(coder: NSCoder)`, `func encode(with coder: NSCoder)` and `func copy(with zone: NSZone? = nil) -> Any`.

/// api: NSPropertyDescription.init(coder:)
func api_NSPropertyDescription_init_coder(_ coder: NSCoder) {
    let decoded: NSPropertyDescription? = NSPropertyDescription(coder: coder)
    _ = decoded
}

/// api: NSPropertyDescription.encode(with:)
func api_NSPropertyDescription_encode_with(_ property: NSPropertyDescription, _ coder: NSCoder) {
    func archivable<T: NSCoding>(_ value: T) -> T { value }
    archivable(property).encode(with: coder)
}

/// api: NSPropertyDescription.copy(with:)
func api_NSPropertyDescription_copy_with(_ property: NSPropertyDescription) {
    func copyable<T: NSCopying>(_ value: T) -> T { value }
    let copied: Any = copyable(property).copy(with: nil)
    let _: NSPropertyDescription? = copied as? NSPropertyDescription
    let _: NSPropertyDescription? = property.copy() as? NSPropertyDescription
}
