import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsmanagedobjectmodel (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSManagedObjectModel.h and
// onestack.dev's iOS reference.

/// api: NSManagedObjectModel.init()
func api_NSManagedObjectModel_init() {
    let model: NSManagedObjectModel = NSManagedObjectModel()
    _ = model
}

/// api: NSManagedObjectModel.init(contentsOf:)
func api_NSManagedObjectModel_initContentsOf(_ url: URL) {
    let model: NSManagedObjectModel? = NSManagedObjectModel(contentsOf: url)
    _ = model
}

/// api: NSManagedObjectModel.mergedModel(from:)
func api_NSManagedObjectModel_mergedModel(_ bundles: [Bundle]?) {
    let merged: NSManagedObjectModel? = NSManagedObjectModel.mergedModel(from: bundles)
    let fromMain: NSManagedObjectModel? = NSManagedObjectModel.mergedModel(from: nil)
    _ = (merged, fromMain)
}

/// api: NSManagedObjectModel.mergedModel(from:forStoreMetadata:)
func api_NSManagedObjectModel_mergedModel_forStoreMetadata(_ bundles: [Bundle]?, _ metadata: [String: Any]) {
    let merged: NSManagedObjectModel? = NSManagedObjectModel.mergedModel(from: bundles, forStoreMetadata: metadata)
    _ = merged
}

/// api: NSManagedObjectModel.init(byMerging:)
func api_NSManagedObjectModel_initByMerging(_ models: [NSManagedObjectModel]?) {
    let merged: NSManagedObjectModel? = NSManagedObjectModel(byMerging: models)
    _ = merged
}

/// api: NSManagedObjectModel.init(byMerging:forStoreMetadata:)
func api_NSManagedObjectModel_initByMerging_forStoreMetadata(_ models: [NSManagedObjectModel], _ metadata: [String: Any]) {
    let merged: NSManagedObjectModel? = NSManagedObjectModel(byMerging: models, forStoreMetadata: metadata)
    _ = merged
}

// unconfirmed: Apple's Swift page for NSManagedObjectModel does not list it; only the Objective-C
// `+checksumsForVersionedModelAtURL:error:` (iOS 17 / macOS 14) is documented, and a third-party
// note says the header marks it NS_REFINED_FOR_SWIFT (Swift would then see `__checksumsForVersionedModel(at:)`).
// Spelled here as the ordinary import of that selector.
/// api: NSManagedObjectModel.checksumsForVersionedModel(at:)
func api_NSManagedObjectModel_checksumsForVersionedModel(_ modelURL: URL) throws {
    let checksums: [String: String] = try NSManagedObjectModel.checksumsForVersionedModel(at: modelURL)
    _ = checksums
}

/// api: NSManagedObjectModel.entities
func api_NSManagedObjectModel_entities(_ model: NSManagedObjectModel) {
    let entities: [NSEntityDescription] = model.entities
    model.entities = entities
}

/// api: NSManagedObjectModel.entitiesByName
func api_NSManagedObjectModel_entitiesByName(_ model: NSManagedObjectModel) {
    let byName: [String: NSEntityDescription] = model.entitiesByName
    _ = byName
}

/// api: NSManagedObjectModel.configurations
func api_NSManagedObjectModel_configurations(_ model: NSManagedObjectModel) {
    let configurations: [String] = model.configurations
    _ = configurations
}

/// api: NSManagedObjectModel.entities(forConfigurationName:)
func api_NSManagedObjectModel_entities_forConfigurationName(_ model: NSManagedObjectModel, _ name: String?) {
    let entities: [NSEntityDescription]? = model.entities(forConfigurationName: name)
    let defaults: [NSEntityDescription]? = model.entities(forConfigurationName: nil)
    _ = (entities, defaults)
}

/// api: NSManagedObjectModel.setEntities(_:forConfigurationName:)
func api_NSManagedObjectModel_setEntities(_ model: NSManagedObjectModel, _ entities: [NSEntityDescription], _ name: String) {
    model.setEntities(entities, forConfigurationName: name)
}

/// api: NSManagedObjectModel.fetchRequestTemplatesByName
func api_NSManagedObjectModel_fetchRequestTemplatesByName(_ model: NSManagedObjectModel) {
    let templates: [String: NSFetchRequest<any NSFetchRequestResult>] = model.fetchRequestTemplatesByName
    _ = templates
}

/// api: NSManagedObjectModel.fetchRequestTemplate(forName:)
func api_NSManagedObjectModel_fetchRequestTemplate(_ model: NSManagedObjectModel, _ name: String) {
    let template: NSFetchRequest<any NSFetchRequestResult>? = model.fetchRequestTemplate(forName: name)
    _ = template
}

/// api: NSManagedObjectModel.fetchRequestFromTemplate(withName:substitutionVariables:)
func api_NSManagedObjectModel_fetchRequestFromTemplate(_ model: NSManagedObjectModel, _ name: String, _ variables: [String: Any]) {
    let request: NSFetchRequest<any NSFetchRequestResult>? = model.fetchRequestFromTemplate(withName: name, substitutionVariables: variables)
    _ = request
}

/// api: NSManagedObjectModel.setFetchRequestTemplate(_:forName:)
func api_NSManagedObjectModel_setFetchRequestTemplate(_ model: NSManagedObjectModel, _ template: NSFetchRequest<any NSFetchRequestResult>?, _ name: String) {
    model.setFetchRequestTemplate(template, forName: name)
    model.setFetchRequestTemplate(nil, forName: name)
}

/// api: NSManagedObjectModel.localizationDictionary
func api_NSManagedObjectModel_localizationDictionary(_ model: NSManagedObjectModel) {
    let dictionary: [String: String]? = model.localizationDictionary
    model.localizationDictionary = dictionary
    model.localizationDictionary = nil
}

/// api: NSManagedObjectModel.versionChecksum
func api_NSManagedObjectModel_versionChecksum(_ model: NSManagedObjectModel) {
    let checksum: String = model.versionChecksum
    _ = checksum
}

/// api: NSManagedObjectModel.versionIdentifiers
func api_NSManagedObjectModel_versionIdentifiers(_ model: NSManagedObjectModel) {
    let identifiers: Set<AnyHashable> = model.versionIdentifiers
    model.versionIdentifiers = identifiers
}

/// api: NSManagedObjectModel.entityVersionHashesByName
func api_NSManagedObjectModel_entityVersionHashesByName(_ model: NSManagedObjectModel) {
    let hashes: [String: Data] = model.entityVersionHashesByName
    _ = hashes
}

/// api: NSManagedObjectModel.isConfiguration(withName:compatibleWithStoreMetadata:)
func api_NSManagedObjectModel_isConfiguration(_ model: NSManagedObjectModel, _ name: String?, _ metadata: [String: Any]) {
    let compatible: Bool = model.isConfiguration(withName: name, compatibleWithStoreMetadata: metadata)
    let defaultCompatible: Bool = model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
    _ = (compatible, defaultCompatible)
}

// not-on-linux: NSManagedObjectModel.makeManagedObjectModel(for:mergedWith:): SwiftData overlay (takes [any PersistentModel.Type] / Schema); SwiftData does not exist on Linux

// MARK: - NSCoding, NSCopying

// Conformances from Apple's declaration (`@interface NSManagedObjectModel : NSObject <NSCoding, NSCopying, NSFastEnumeration>`). Swift spells the
// requirements `init?(coder: NSCoder)`, `func encode(with coder: NSCoder)` and `func copy(with zone: NSZone? = nil) -> Any`.

/// api: NSManagedObjectModel.init(coder:)
func api_NSManagedObjectModel_init_coder(_ coder: NSCoder) {
    let decoded: NSManagedObjectModel? = NSManagedObjectModel(coder: coder)
    _ = decoded
}

/// api: NSManagedObjectModel.encode(with:)
func api_NSManagedObjectModel_encode_with(_ model: NSManagedObjectModel, _ coder: NSCoder) {
    func archivable<T: NSCoding>(_ value: T) -> T { value }
    archivable(model).encode(with: coder)
}

/// api: NSManagedObjectModel.copy(with:)
func api_NSManagedObjectModel_copy_with(_ model: NSManagedObjectModel) {
    func copyable<T: NSCopying>(_ value: T) -> T { value }
    let copied: Any = copyable(model).copy(with: nil)
    let _: NSManagedObjectModel? = copied as? NSManagedObjectModel
    let _: NSManagedObjectModel? = model.copy() as? NSManagedObjectModel
}

// not-on-linux: NSManagedObjectModel.countByEnumerating(with:objects:count:): NSFastEnumeration's requirement takes AutoreleasingUnsafeMutablePointer<AnyObject?>, which exists only with the Objective-C runtime (Linux Foundation has no NSFastEnumeration)
