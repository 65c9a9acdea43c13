import OpenCoreData

// NSIncrementalStore, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nsincrementalstore and its per-symbol pages),
// cross-checked against NSIncrementalStore.h and public Swift subclasses. The members a subclass
// must or may override are checked as overrides in a small subclass each; the two Apple says not
// to override (newObjectID(for:referenceObject:), referenceObject(for:)) are checked as calls.

// MARK: - Manipulating managed objects

/// api: NSIncrementalStore.execute(_:with:)
final class API_NSIncrementalStore_Execute: NSIncrementalStore {
    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        let result: Any = try super.execute(request, with: context)
        return result
    }
}

/// api: NSIncrementalStore.newValuesForObject(with:with:)
final class API_NSIncrementalStore_NewValuesForObject: NSIncrementalStore {
    override func newValuesForObject(
        with objectID: NSManagedObjectID, with context: NSManagedObjectContext
    ) throws -> NSIncrementalStoreNode {
        let node: NSIncrementalStoreNode = try super.newValuesForObject(with: objectID, with: context)
        return node
    }
}

/// api: NSIncrementalStore.newValue(forRelationship:forObjectWith:with:)
final class API_NSIncrementalStore_NewValueForRelationship: NSIncrementalStore {
    override func newValue(
        forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
        with context: NSManagedObjectContext?
    ) throws -> Any {
        let value: Any = try super.newValue(forRelationship: relationship, forObjectWith: objectID, with: context)
        return value
    }
}

/// api: NSIncrementalStore.obtainPermanentIDs(for:)
final class API_NSIncrementalStore_ObtainPermanentIDs: NSIncrementalStore {
    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        let ids: [NSManagedObjectID] = try super.obtainPermanentIDs(for: array)
        return ids
    }
}

/// api: NSIncrementalStore.newObjectID(for:referenceObject:)
func api_NSIncrementalStore_newObjectID_for_referenceObject(
    _ store: NSIncrementalStore, _ entity: NSEntityDescription, _ reference: Any
) {
    let _: NSManagedObjectID = store.newObjectID(for: entity, referenceObject: reference)
    let _: NSManagedObjectID = store.newObjectID(for: entity, referenceObject: "row-1")
}

/// api: NSIncrementalStore.referenceObject(for:)
func api_NSIncrementalStore_referenceObject_for(_ store: NSIncrementalStore, _ objectID: NSManagedObjectID) {
    let _: Any = store.referenceObject(for: objectID)
}

// MARK: - Responding to context changes

/// api: NSIncrementalStore.managedObjectContextDidRegisterObjects(with:)
final class API_NSIncrementalStore_DidRegisterObjects: NSIncrementalStore {
    override func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {
        super.managedObjectContextDidRegisterObjects(with: objectIDs)
    }
}

/// api: NSIncrementalStore.managedObjectContextDidUnregisterObjects(with:)
final class API_NSIncrementalStore_DidUnregisterObjects: NSIncrementalStore {
    override func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {
        super.managedObjectContextDidUnregisterObjects(with: objectIDs)
    }
}

// MARK: - Accessing metadata

/// api: NSIncrementalStore.identifierForNewStore(at:)
final class API_NSIncrementalStore_IdentifierForNewStore: NSIncrementalStore {
    override class func identifierForNewStore(at storeURL: URL) -> Any {
        let identifier: Any = super.identifierForNewStore(at: storeURL)
        return identifier
    }
}

/// api: NSIncrementalStore.loadMetadata()
final class API_NSIncrementalStore_LoadMetadata: NSIncrementalStore {
    override func loadMetadata() throws {
        try super.loadMetadata()
    }
}
