import Foundation

/// Checks a store's metadata against the coordinator's model when the store is added.
enum StoreMetadataCheck {
    /// Throws `NSPersistentStoreIncompatibleVersionHashError` (134100) when the store's
    /// `NSStoreModelVersionHashesKey` names other entity versions than the model's (for the
    /// store's configuration). A store without version hashes is taken as compatible.
    /// With `NSIgnorePersistentStoreVersioningOption` true nothing is compared.
    static func checkModel(of store: NSPersistentStore, against model: NSManagedObjectModel) throws {
        if NSPersistentStore.isOptionOn(NSIgnorePersistentStoreVersioningOption, in: store.options) { return }
        guard let metadata = store.metadata, let stored = metadata[NSStoreModelVersionHashesKey] else { return }
        let hashes = (stored as? [String: Data]) ?? (stored as? [String: Any])?.compactMapValues { $0 as? Data } ?? [:]
        var normalized = metadata
        normalized[NSStoreModelVersionHashesKey] = hashes
        if !model.isConfiguration(withName: store.configurationName, compatibleWithStoreMetadata: normalized) {
            let expected = Set((model.entities(forConfigurationName: store.configurationName) ?? []).compactMap(\.name))
            let differing = expected.filter { hashes[$0] != model.entitiesByName[$0]?.versionHash }.sorted()
            throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError, "The model used to open the store is incompatible with the one used to create it: \(store.url?.path ?? "the store") was made with a model whose entities differ in \(differing.joined(separator: ", ")). Open it with the model version it was made with, or migrate it.", [NSStoreModelVersionHashesKey: hashes])
        }
    }

    /// Whether metadata `key` is one a store writes for itself (type, UUID, the model's version
    /// hashes and identifiers, framework keys, and the store's own `storeKeys`), not one of the
    /// application's: a migration writes these afresh and carries the others over.
    static func isStoreKey(_ key: String, storeKeys: Set<String>) -> Bool {
        key == NSStoreTypeKey || key == NSStoreUUIDKey || key.hasPrefix("NSStoreModelVersion") || key.hasPrefix("NSPersistence") || storeKeys.contains(key)
    }
}
