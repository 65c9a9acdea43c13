import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchrequest
// (`class NSFetchRequest<ResultType> : NSPersistentStoreRequest where ResultType : NSFetchRequestResult`,
// iOS 18 / macOS 15 SDK), cross-checked against a second copy of Apple's reference pages and the
// NSFetchRequest.h header (`NSFetchRequest<__covariant ResultType:id<NSFetchRequestResult>> :
// NSPersistentStoreRequest <NSCoding, NSCopying>`). NSFetchRequestResultType is here too.

// MARK: - Creating a fetch request

/// api: NSFetchRequest.init()
func api_NSFetchRequest_init() {
    let _: NSFetchRequest<NSManagedObject> = NSFetchRequest<NSManagedObject>()
    let _: NSFetchRequest<any NSFetchRequestResult> = NSFetchRequest()
}

/// api: NSFetchRequest.init(entityName:)
func api_NSFetchRequest_init_entityName() {
    let _: NSFetchRequest<NSManagedObject> = NSFetchRequest<NSManagedObject>(entityName: "Employee")
    let _: NSFetchRequest<NSFetchRequestResult> = NSFetchRequest(entityName: "Employee")
    let _: NSFetchRequest<NSManagedObjectID> = NSFetchRequest<NSManagedObjectID>(entityName: "Employee")
    let _: NSFetchRequest<NSDictionary> = NSFetchRequest<NSDictionary>(entityName: "Employee")
    let _: NSFetchRequest<NSNumber> = NSFetchRequest<NSNumber>(entityName: "Employee")
}

/// api: NSFetchRequest (inherits NSPersistentStoreRequest)
func api_NSFetchRequest_superclass(_ request: NSFetchRequest<NSManagedObject>) {
    let _: NSPersistentStoreRequest = request
}

// MARK: - The entity

/// api: NSFetchRequest.entityName
func api_NSFetchRequest_entityName(_ request: NSFetchRequest<NSManagedObject>) {
    let _: String? = request.entityName
}

/// api: NSFetchRequest.entity
func api_NSFetchRequest_entity(_ request: NSFetchRequest<NSManagedObject>) {
    let entity: NSEntityDescription? = request.entity
    request.entity = entity
    request.entity = nil
}

/// api: NSFetchRequest.includesSubentities
func api_NSFetchRequest_includesSubentities(_ request: NSFetchRequest<NSManagedObject>) {
    let includes: Bool = request.includesSubentities
    request.includesSubentities = includes
}

// MARK: - Fetch constraints

/// api: NSFetchRequest.predicate
func api_NSFetchRequest_predicate(_ request: NSFetchRequest<NSManagedObject>) {
    let predicate: NSPredicate? = request.predicate
    request.predicate = predicate
    request.predicate = nil
}

/// api: NSFetchRequest.fetchLimit
func api_NSFetchRequest_fetchLimit(_ request: NSFetchRequest<NSManagedObject>) {
    let limit: Int = request.fetchLimit
    request.fetchLimit = limit
    request.fetchLimit = 10
}

/// api: NSFetchRequest.fetchOffset
func api_NSFetchRequest_fetchOffset(_ request: NSFetchRequest<NSManagedObject>) {
    let offset: Int = request.fetchOffset
    request.fetchOffset = offset
    request.fetchOffset = 20
}

/// api: NSFetchRequest.fetchBatchSize
func api_NSFetchRequest_fetchBatchSize(_ request: NSFetchRequest<NSManagedObject>) {
    let size: Int = request.fetchBatchSize
    request.fetchBatchSize = size
    request.fetchBatchSize = 50
}

/// api: NSFetchRequest.affectedStores
func api_NSFetchRequest_affectedStores(_ request: NSFetchRequest<NSManagedObject>) {
    let stores: [NSPersistentStore]? = request.affectedStores
    request.affectedStores = stores
    request.affectedStores = nil
}

// MARK: - Sorting and prefetching

/// api: NSFetchRequest.sortDescriptors
func api_NSFetchRequest_sortDescriptors(_ request: NSFetchRequest<NSManagedObject>) {
    let sortDescriptors: [NSSortDescriptor]? = request.sortDescriptors
    request.sortDescriptors = sortDescriptors
    request.sortDescriptors = nil
}

/// api: NSFetchRequest.relationshipKeyPathsForPrefetching
func api_NSFetchRequest_relationshipKeyPathsForPrefetching(_ request: NSFetchRequest<NSManagedObject>) {
    let keyPaths: [String]? = request.relationshipKeyPathsForPrefetching
    request.relationshipKeyPathsForPrefetching = keyPaths
    request.relationshipKeyPathsForPrefetching = ["department"]
}

// MARK: - How results are returned

/// api: NSFetchRequest.resultType
func api_NSFetchRequest_resultType(_ request: NSFetchRequest<NSManagedObject>) {
    let resultType: NSFetchRequestResultType = request.resultType
    request.resultType = resultType
}

/// api: NSFetchRequest.includesPendingChanges
func api_NSFetchRequest_includesPendingChanges(_ request: NSFetchRequest<NSManagedObject>) {
    let includes: Bool = request.includesPendingChanges
    request.includesPendingChanges = includes
}

/// api: NSFetchRequest.propertiesToFetch
func api_NSFetchRequest_propertiesToFetch(_ request: NSFetchRequest<NSDictionary>) {
    let properties: [Any]? = request.propertiesToFetch
    request.propertiesToFetch = properties
    request.propertiesToFetch = ["name", "salary"]
}

/// api: NSFetchRequest.returnsDistinctResults
func api_NSFetchRequest_returnsDistinctResults(_ request: NSFetchRequest<NSDictionary>) {
    let distinct: Bool = request.returnsDistinctResults
    request.returnsDistinctResults = distinct
}

/// api: NSFetchRequest.includesPropertyValues
func api_NSFetchRequest_includesPropertyValues(_ request: NSFetchRequest<NSManagedObject>) {
    let includes: Bool = request.includesPropertyValues
    request.includesPropertyValues = includes
}

/// api: NSFetchRequest.shouldRefreshRefetchedObjects
func api_NSFetchRequest_shouldRefreshRefetchedObjects(_ request: NSFetchRequest<NSManagedObject>) {
    let refresh: Bool = request.shouldRefreshRefetchedObjects
    request.shouldRefreshRefetchedObjects = refresh
}

/// api: NSFetchRequest.returnsObjectsAsFaults
func api_NSFetchRequest_returnsObjectsAsFaults(_ request: NSFetchRequest<NSManagedObject>) {
    let asFaults: Bool = request.returnsObjectsAsFaults
    request.returnsObjectsAsFaults = asFaults
}

// MARK: - Grouping and filtering dictionary results

/// api: NSFetchRequest.propertiesToGroupBy
func api_NSFetchRequest_propertiesToGroupBy(_ request: NSFetchRequest<NSDictionary>) {
    let properties: [Any]? = request.propertiesToGroupBy
    request.propertiesToGroupBy = properties
    request.propertiesToGroupBy = ["department"]
}

/// api: NSFetchRequest.havingPredicate
func api_NSFetchRequest_havingPredicate(_ request: NSFetchRequest<NSDictionary>) {
    let predicate: NSPredicate? = request.havingPredicate
    request.havingPredicate = predicate
    request.havingPredicate = nil
}

// MARK: - Executing

/// api: NSFetchRequest.execute()
func api_NSFetchRequest_execute(_ request: NSFetchRequest<NSManagedObject>, _ dictionaries: NSFetchRequest<NSDictionary>) throws {
    let _: [NSManagedObject] = try request.execute()
    let _: [NSDictionary] = try dictionaries.execute()
}

// MARK: - NSCopying, NSCoding

/// api: NSFetchRequest.copy(with:)
func api_NSFetchRequest_copy_with(_ request: NSFetchRequest<NSManagedObject>) {
    func requireCopying<T: NSCopying>(_ value: T) -> Any { value.copy(with: nil) }
    let _: Any = requireCopying(request)
    let _: NSFetchRequest<NSManagedObject>? = request.copy() as? NSFetchRequest<NSManagedObject>
}

/// api: NSFetchRequest.encode(with:)
func api_NSFetchRequest_encode_with(_ request: NSFetchRequest<NSManagedObject>, _ coder: NSCoder) {
    func requireCoding<T: NSCoding>(_ value: T) -> T { value }
    requireCoding(request).encode(with: coder)
}

/// api: NSFetchRequest.init(coder:)
func api_NSFetchRequest_init_coder(_ coder: NSCoder) {
    let _: NSFetchRequest<NSManagedObject>? = NSFetchRequest<NSManagedObject>(coder: coder)
}

// MARK: - NSFetchRequestResultType

/// api: NSFetchRequestResultType.init(rawValue:)
func api_NSFetchRequestResultType_init_rawValue() {
    let type: NSFetchRequestResultType = NSFetchRequestResultType(rawValue: 2)
    let _: UInt = type.rawValue
}

/// api: NSFetchRequestResultType.managedObjectResultType
func api_NSFetchRequestResultType_managedObjectResultType() {
    let _: NSFetchRequestResultType = .managedObjectResultType
    let _: NSFetchRequestResultType = NSFetchRequestResultType.managedObjectResultType
}

/// api: NSFetchRequestResultType.managedObjectIDResultType
func api_NSFetchRequestResultType_managedObjectIDResultType() {
    let _: NSFetchRequestResultType = .managedObjectIDResultType
    let _: NSFetchRequestResultType = NSFetchRequestResultType.managedObjectIDResultType
}

/// api: NSFetchRequestResultType.dictionaryResultType
func api_NSFetchRequestResultType_dictionaryResultType() {
    let _: NSFetchRequestResultType = .dictionaryResultType
    let _: NSFetchRequestResultType = NSFetchRequestResultType.dictionaryResultType
}

/// api: NSFetchRequestResultType.countResultType
func api_NSFetchRequestResultType_countResultType() {
    let _: NSFetchRequestResultType = .countResultType
    let _: NSFetchRequestResultType = NSFetchRequestResultType.countResultType
}

/// api: NSFetchRequestResultType.OptionSet
func api_NSFetchRequestResultType_OptionSet(_ type: NSFetchRequestResultType) {
    func requireOptionSet<T: OptionSet & Sendable>(_ value: T) -> T { value }
    let _: NSFetchRequestResultType = requireOptionSet(type)
    let _: Bool = type.contains(.dictionaryResultType)
    let _: Bool = type == .countResultType
}
