import Foundation

/// Sets attributes of every record that matches a predicate, in the store itself, without
/// loading the records into a context.
///
/// ```swift
/// let request = NSBatchUpdateRequest(entityName: "Employee")
/// request.predicate = NSPredicate(format: "department.name == %@", "Sales")
/// request.propertiesToUpdate = ["salary": NSExpression(format: "salary * 1.1"), "reviewed": true]
/// request.resultType = .updatedObjectIDsResultType
/// let result = try context.execute(request) as? NSBatchUpdateResult
/// let changed = result?.result as? [NSManagedObjectID] ?? []
/// NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: changed], into: [context])
/// ```
///
/// Keys of ``propertiesToUpdate`` are attribute names (or `NSAttributeDescription`s); values are
/// constants of the attribute's type, `NSNull` for nil, or `NSExpression`s evaluated for each
/// record against its values before the update. No validation runs; each updated record's
/// version goes up by one (optimistic locking sees the change). Contexts see the new values
/// after they merge the IDs, or refresh the objects.
open class NSBatchUpdateRequest: NSPersistentStoreRequest, @unchecked Sendable {
    /// The name of the entity whose records change.
    open private(set) var entityName: String
    private var resolvedEntity: NSEntityDescription?
    /// Which records change; nil for every record of the entity.
    open var predicate: NSPredicate?
    /// Whether records of sub-entities change too. Default true.
    open var includesSubentities = true
    /// What ``NSBatchUpdateResult/result`` holds. Default: a success flag.
    open var resultType: NSBatchUpdateRequestResultType = .statusOnlyResultType
    /// The new values, by attribute name or description.
    open var propertiesToUpdate: [AnyHashable: Any]?

    open override var requestType: NSPersistentStoreRequestType { .batchUpdateRequestType }

    /// A request for the records of the entity named `entityName` in the executing context's model.
    public init(entityName: String) {
        self.entityName = entityName
        super.init()
    }

    /// A request for the records of `entity`.
    public init(entity: NSEntityDescription) {
        entityName = entity.name ?? ""
        resolvedEntity = entity
        super.init()
    }

    /// The entity whose records change. For a request made with ``init(entityName:)``, the
    /// model's entity once the request has been executed; before that, a description that
    /// carries only the name (docs/DEVIATIONS.md).
    open var entity: NSEntityDescription {
        if let resolvedEntity { return resolvedEntity }
        let placeholder = NSEntityDescription()
        placeholder.name = entityName
        return placeholder
    }

    /// The entity, looked up in `model` if the request was made with a name.
    func entity(in model: NSManagedObjectModel) -> NSEntityDescription? {
        if let resolvedEntity { return resolvedEntity }
        resolvedEntity = model.entitiesByName[entityName]
        return resolvedEntity
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSBatchUpdateRequest(entityName: entityName)
        copy.resolvedEntity = resolvedEntity
        copy.predicate = predicate
        copy.includesSubentities = includesSubentities
        copy.resultType = resultType
        copy.propertiesToUpdate = propertiesToUpdate
        copy.affectedStores = affectedStores
        return copy
    }
}

/// What a batch update request returns in its ``NSBatchUpdateResult``.
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    /// `true`: the request ran (also when it matched no record, as in Apple's stores).
    case statusOnlyResultType = 0
    /// The updated records' object IDs, `[NSManagedObjectID]`.
    case updatedObjectIDsResultType = 1
    /// The number of updated records.
    case updatedObjectsCountResultType = 2
}

/// The result of an ``NSBatchUpdateRequest``.
open class NSBatchUpdateResult: NSPersistentStoreResult, @unchecked Sendable {
    /// A `Bool`, `[NSManagedObjectID]` or `Int`, by ``resultType``.
    open private(set) var result: Any?
    /// The request's result type.
    open private(set) var resultType: NSBatchUpdateRequestResultType

    init(resultType: NSBatchUpdateRequestResultType, outcome: BatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .statusOnlyResultType: result = true
        case .updatedObjectIDsResultType: result = outcome.objectIDs
        case .updatedObjectsCountResultType: result = outcome.count
        }
        super.init()
    }
}
