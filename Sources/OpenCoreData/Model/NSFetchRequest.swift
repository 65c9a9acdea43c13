import Foundation

/// What a fetch returns.
public struct NSFetchRequestResultType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let managedObjectResultType = NSFetchRequestResultType([])
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// The marker protocol of fetch results, kept for source compatibility. Unlike Apple's it does
/// not constrain `NSFetchRequest`'s type parameter (see docs/DEVIATIONS.md).
public protocol NSFetchRequestResult {}

/// A description of objects to fetch: an entity, a predicate, an order and limits.
///
/// ```swift
/// let request = NSFetchRequest<Employee>(entityName: "Employee")
/// request.predicate = NSPredicate(format: "salary > %d", 50_000)
/// request.sortDescriptors = [NSSortDescriptor(key: "lastName", ascending: true)]
/// let wellPaid = try context.fetch(request)
/// ```
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: a request is configured on one thread and then only read.

    open var entityName: String?
    /// The entity to fetch; resolved from ``entityName`` against the context's model when nil.
    open var entity: NSEntityDescription? {
        get { strongEntity ?? weakEntity }
        set {
            if holdsEntityWeakly { weakEntity = newValue } else { strongEntity = newValue }
            if entityName == nil { entityName = newValue?.name }
        }
    }
    private final var strongEntity: NSEntityDescription?
    private final weak var weakEntity: NSEntityDescription?
    /// Set for a request a model owns through an entity (a fetched property's): the entity owns
    /// the property that owns the request, so a strong reference back would keep the whole model
    /// alive forever. The model keeps the entity alive while the property can be reached.
    private final var holdsEntityWeakly = false

    /// Makes this request refer to its entity weakly from now on (see `holdsEntityWeakly`).
    func holdEntityWeakly() {
        holdsEntityWeakly = true
        if let strongEntity { weakEntity = strongEntity }
        strongEntity = nil
    }
    open var predicate: NSPredicate?
    open var sortDescriptors: [NSSortDescriptor]?
    /// At most this many results; 0 means no limit.
    open var fetchLimit: Int = 0
    open var fetchOffset: Int = 0
    open var fetchBatchSize: Int = 0
    open var resultType: NSFetchRequestResultType = .managedObjectResultType
    /// Whether objects inserted, changed or deleted in the context count, as the context sees them.
    open var includesPendingChanges: Bool = true
    open var includesSubentities: Bool = true
    open var includesPropertyValues: Bool = true
    open var returnsObjectsAsFaults: Bool = true
    open var returnsDistinctResults: Bool = false
    open var shouldRefreshRefetchedObjects: Bool = false
    open var relationshipKeyPathsForPrefetching: [String]?
    /// For dictionary results: property names or `NSPropertyDescription`s / expression descriptions.
    open var propertiesToFetch: [Any]?
    open var propertiesToGroupBy: [Any]?
    open var havingPredicate: NSPredicate?

    public override init() { super.init() }

    public convenience init(entityName: String) {
        self.init()
        self.entityName = entityName
    }

    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// A copy with every setting, so templates can be specialised without changing them.
    func copyRequest<T>(as _: T.Type = T.self) -> NSFetchRequest<T> {
        let c = NSFetchRequest<T>()
        c.entityName = entityName
        c.entity = entity
        c.predicate = predicate
        c.sortDescriptors = sortDescriptors
        c.fetchLimit = fetchLimit
        c.fetchOffset = fetchOffset
        c.fetchBatchSize = fetchBatchSize
        c.resultType = resultType
        c.includesPendingChanges = includesPendingChanges
        c.includesSubentities = includesSubentities
        c.includesPropertyValues = includesPropertyValues
        c.returnsObjectsAsFaults = returnsObjectsAsFaults
        c.returnsDistinctResults = returnsDistinctResults
        c.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        c.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        c.propertiesToFetch = propertiesToFetch
        c.propertiesToGroupBy = propertiesToGroupBy
        c.havingPredicate = havingPredicate
        c.affectedStores = affectedStores
        return c
    }

    func copyRequest() -> NSFetchRequest<ResultType> { copyRequest(as: ResultType.self) }

    /// A copy with every setting (NSCopying): change the copy without changing this request.
    open override func copy(with zone: NSZone? = nil) -> Any { copyRequest() }
}

/// The kinds of request a persistent store executes.
public enum NSPersistentStoreRequestType: UInt, Sendable {
    case fetchRequestType = 1
    case saveRequestType = 2
    case batchInsertRequestType = 5
    case batchUpdateRequestType = 6
    case batchDeleteRequestType = 7
}

/// The base of requests sent to persistent stores.
open class NSPersistentStoreRequest: NSObject, NSCopying, @unchecked Sendable {
    /// The stores to search; nil means every store of the coordinator.
    open var affectedStores: [NSPersistentStore]?
    open var requestType: NSPersistentStoreRequestType { .fetchRequestType }
    public override init() { super.init() }

    /// A copy of the request. Each kind of request overrides it to copy its own settings (and
    /// to be of its own class); a subclass with settings of its own overrides it too.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreRequest()
        copy.affectedStores = affectedStores
        return copy
    }
}

/// The base of the results stores return for requests (batch requests' results, later).
open class NSPersistentStoreResult: NSObject, @unchecked Sendable {
    public override init() { super.init() }
}

/// Copies a fetch request of any result type as `NSFetchRequest<NSFetchRequestResult>`.
protocol FetchRequestConvertible {
    func resultRequestCopy() -> NSFetchRequest<NSFetchRequestResult>
}

extension NSFetchRequest: FetchRequestConvertible {
    func resultRequestCopy() -> NSFetchRequest<NSFetchRequestResult> { copyRequest(as: NSFetchRequestResult.self) }
}
