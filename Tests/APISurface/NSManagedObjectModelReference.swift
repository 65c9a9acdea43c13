import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsmanagedobjectmodelreference (iOS 17+; iOS 18 /
// macOS 15 SDK), cross-checked against onestack.dev's iOS reference and the objc2-core-data header
// translation of CoreData/NSManagedObjectModelReference.h.

/// api: NSManagedObjectModelReference.init(model:versionChecksum:)
func api_NSManagedObjectModelReference_initModel(_ model: NSManagedObjectModel, _ checksum: String) {
    let reference: NSManagedObjectModelReference = NSManagedObjectModelReference(model: model, versionChecksum: checksum)
    _ = reference
}

/// api: NSManagedObjectModelReference.init(fileURL:versionChecksum:)
func api_NSManagedObjectModelReference_initFileURL(_ url: URL, _ checksum: String) {
    let reference: NSManagedObjectModelReference = NSManagedObjectModelReference(fileURL: url, versionChecksum: checksum)
    _ = reference
}

/// api: NSManagedObjectModelReference.init(name:in:versionChecksum:)
func api_NSManagedObjectModelReference_initName(_ name: String, _ bundle: Bundle?, _ checksum: String) {
    let reference: NSManagedObjectModelReference = NSManagedObjectModelReference(name: name, in: bundle, versionChecksum: checksum)
    let fromMain: NSManagedObjectModelReference = NSManagedObjectModelReference(name: name, in: nil, versionChecksum: checksum)
    _ = (reference, fromMain)
}

/// api: NSManagedObjectModelReference.init(entityVersionHashes:in:versionChecksum:)
func api_NSManagedObjectModelReference_initEntityVersionHashes(_ hashes: [AnyHashable: Any], _ bundle: Bundle?, _ checksum: String) {
    let reference: NSManagedObjectModelReference = NSManagedObjectModelReference(entityVersionHashes: hashes, in: bundle, versionChecksum: checksum)
    _ = reference
}

/// api: NSManagedObjectModelReference.resolvedModel
func api_NSManagedObjectModelReference_resolvedModel(_ reference: NSManagedObjectModelReference) {
    let model: NSManagedObjectModel = reference.resolvedModel
    _ = model
}

/// api: NSManagedObjectModelReference.versionChecksum
func api_NSManagedObjectModelReference_versionChecksum(_ reference: NSManagedObjectModelReference) {
    let checksum: String = reference.versionChecksum
    _ = checksum
}
