import Foundation

/// Deletes the records a fetch request matches, or the records of some object IDs, in the store
/// itself, without loading them into a context.
///
/// ```swift
/// let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
/// fetch.predicate = NSPredicate(format: "terminationDate < %@", cutoff as NSDate)
/// let request = NSBatchDeleteRequest(fetchRequest: fetch)
/// request.resultType = .resultTypeObjectIDs
/// let result = try context.execute(request) as? NSBatchDeleteResult
/// let deleted = result?.result as? [NSManagedObjectID] ?? []
/// NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: deleted], into: [context])
/// ```
///
/// Contexts do not see a batch delete until they merge its object IDs (above): objects they hold
/// stay as they were. No validation runs. The relationships of deleted records follow their
/// delete rules in the store, as in Apple's SQLite store: a *cascade* deletes the destination
/// records too (recursively), a *nullify* clears the destination's inverse (and fails the request,
/// `NSValidationMissingMandatoryPropertyError`, when that inverse is required), *no action*
/// leaves the destinations as they are. An entity with a *deny* rule, on itself, a sub-entity or
/// an entity a cascade reaches, can't be batch deleted (`NSCoreDataError`, 134060).
open class NSBatchDeleteRequest: NSPersistentStoreRequest, @unchecked Sendable {
    /// The request that selects the records to delete: its entity, predicate,
    /// `includesSubentities`, and sort descriptors, offset and limit together.
    open private(set) var fetchRequest: NSFetchRequest<any NSFetchRequestResult>
    /// What ``NSBatchDeleteResult/result`` holds: a success flag (default), the deleted object IDs,
    /// or their number.
    open var resultType: NSBatchDeleteRequestResultType = .resultTypeStatusOnly
    /// The IDs given to ``init(objectIDs:)``; nil for a request made from a fetch request.
    let objectIDs: [NSManagedObjectID]?

    open override var requestType: NSPersistentStoreRequestType { .batchDeleteRequestType }

    /// A request that deletes every record `fetch` matches.
    public init(fetchRequest fetch: NSFetchRequest<any NSFetchRequestResult>) {
        fetchRequest = fetch.copyRequest()
        objectIDs = nil
        super.init()
    }

    /// A request that deletes the records of `objects`, which must be saved records of one entity
    /// (or of one inheritance hierarchy). Apple raises an exception here for mixed or no IDs;
    /// executing such a request throws `NSPersistentStoreOperationError` (docs/DEVIATIONS.md).
    public convenience init(objectIDs objects: [NSManagedObjectID]) {
        let fetch = NSFetchRequest<any NSFetchRequestResult>()
        fetch.entity = objects.first?.entity
        self.init(fetchRequest: fetch, objectIDs: objects)
    }

    private init(fetchRequest fetch: NSFetchRequest<any NSFetchRequestResult>, objectIDs: [NSManagedObjectID]?) {
        fetchRequest = fetch
        self.objectIDs = objectIDs
        super.init()
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSBatchDeleteRequest(fetchRequest: fetchRequest.copyRequest(), objectIDs: objectIDs)
        copy.resultType = resultType
        copy.affectedStores = affectedStores
        return copy
    }
}

/// What a batch delete request returns in its ``NSBatchDeleteResult``.
public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    /// `true`: the request ran (also when it matched no record, as in Apple's stores).
    case resultTypeStatusOnly = 0
    /// The object IDs of the records the request selected, `[NSManagedObjectID]` (records a
    /// cascade rule deleted are not listed, as in Apple's stores).
    case resultTypeObjectIDs = 1
    /// The number of records the request selected and deleted (cascades not counted).
    case resultTypeCount = 2
}

/// The result of an ``NSBatchDeleteRequest``.
open class NSBatchDeleteResult: NSPersistentStoreResult, @unchecked Sendable {
    /// A `Bool`, `[NSManagedObjectID]` or `Int`, by ``resultType``.
    open private(set) var result: Any?
    /// The request's result type.
    open private(set) var resultType: NSBatchDeleteRequestResultType

    init(resultType: NSBatchDeleteRequestResultType, outcome: BatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .resultTypeStatusOnly: result = true
        case .resultTypeObjectIDs: result = outcome.objectIDs
        case .resultTypeCount: result = outcome.count
        }
        super.init()
    }
}
