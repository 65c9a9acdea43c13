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
/// delete rules in the store: a *cascade* deletes the destination records too, a *nullify*
/// clears the destination's inverse, a *deny* with destination records refuses the whole
/// request (`NSValidationRelationshipDeniedDeleteError`), *no action* leaves the destinations
/// as they are.
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

    /// A request that deletes the records of `objects`, which must all be of one entity:
    /// executing it with IDs of several entities fails (`NSPersistentStoreInvalidTypeError`... see
    /// ``NSManagedObjectContext/execute(_:)``).
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
    /// `true` when the request deleted at least one record.
    case resultTypeStatusOnly = 0
    /// The deleted records' object IDs, `[NSManagedObjectID]`, cascaded deletes included.
    case resultTypeObjectIDs = 1
    /// The number of deleted records.
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
        case .resultTypeStatusOnly: result = outcome.count > 0
        case .resultTypeObjectIDs: result = outcome.deleted
        case .resultTypeCount: result = outcome.count
        }
        super.init()
    }
}
