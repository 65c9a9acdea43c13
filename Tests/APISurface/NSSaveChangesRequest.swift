import OpenCoreData

// NSSaveChangesRequest, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nssavechangesrequest and its per-symbol pages).
// Left out on purpose: init(insertedObjects:updatedObjects:deletedObjects:lockedObjects:), the
// Swift 3 spelling Apple keeps only as an unavailable rename of init(inserted:updated:deleted:locked:).
// The members it inherits from NSPersistentStoreRequest are in that class's file.

// MARK: - Initializing a request

/// api: NSSaveChangesRequest.init(inserted:updated:deleted:locked:)
func api_NSSaveChangesRequest_init_inserted_updated_deleted_locked(_ objects: Set<NSManagedObject>?) {
    let _: NSSaveChangesRequest = NSSaveChangesRequest(
        inserted: objects, updated: objects, deleted: objects, locked: objects)
    let _: NSSaveChangesRequest = NSSaveChangesRequest(inserted: nil, updated: nil, deleted: nil, locked: nil)
}

// MARK: - Getting information about a request

/// api: NSSaveChangesRequest.insertedObjects
func api_NSSaveChangesRequest_insertedObjects(_ request: NSSaveChangesRequest) {
    let _: Set<NSManagedObject>? = request.insertedObjects
}

/// api: NSSaveChangesRequest.updatedObjects
func api_NSSaveChangesRequest_updatedObjects(_ request: NSSaveChangesRequest) {
    let _: Set<NSManagedObject>? = request.updatedObjects
}

/// api: NSSaveChangesRequest.deletedObjects
func api_NSSaveChangesRequest_deletedObjects(_ request: NSSaveChangesRequest) {
    let _: Set<NSManagedObject>? = request.deletedObjects
}

/// api: NSSaveChangesRequest.lockedObjects
func api_NSSaveChangesRequest_lockedObjects(_ request: NSSaveChangesRequest) {
    let _: Set<NSManagedObject>? = request.lockedObjects
}
