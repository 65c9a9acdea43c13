import Foundation

/// Inserts many records of one entity in the store itself, from dictionaries or from objects a
/// handler fills, without a context.
///
/// ```swift
/// var remaining = quakes[...]
/// let request = NSBatchInsertRequest(entity: Quake.entity(), dictionaryHandler: { dictionary in
///     guard let quake = remaining.popFirst() else { return true }   // true: no more
///     dictionary["code"] = quake.code
///     dictionary["magnitude"] = quake.magnitude
///     return false
/// })
/// request.resultType = .objectIDs
/// let result = try context.execute(request) as? NSBatchInsertResult
/// ```
///
/// Attributes missing from a dictionary (or `NSNull`) take their default values; a required
/// attribute without one fails the request (`NSValidationMissingMandatoryPropertyError`).
/// Relationships can't be set. No other validation runs. When the entity has uniqueness
/// constraints, a new record with the constrained values of a stored one (or of an earlier new
/// one) is resolved as Apple's store does by the executing context's merge policy: under
/// `NSMergeByPropertyObjectTrumpMergePolicy` and `NSOverwriteMergePolicy` the stored record
/// takes the values the request gives (an "upsert": attributes the request leaves out, and
/// relationships, stay); under the other policies the stored record stays and the new one is
/// skipped.
open class NSBatchInsertRequest: NSPersistentStoreRequest, @unchecked Sendable {
    /// The name of the entity of the new records.
    open private(set) var entityName: String
    /// The entity of the new records; nil until a request made with a name is executed.
    open private(set) var entity: NSEntityDescription?
    /// The new records' values, attribute names to values.
    open var objectsToInsert: [[String: Any]]?
    /// Called again and again to fill one dictionary each time; returns true when there are no
    /// more records (that call's dictionary is not inserted).
    open var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    /// Called again and again to fill one new object each time (not in any context); returns
    /// true when there are no more records (that call's object is not inserted).
    open var managedObjectHandler: ((NSManagedObject) -> Bool)?
    /// What ``NSBatchInsertResult/result`` holds. Default: a success flag.
    open var resultType: NSBatchInsertRequestResultType = .statusOnly

    open override var requestType: NSPersistentStoreRequestType { .batchInsertRequestType }

    @available(*, deprecated, message: "Use init(entityName:objects:) or a handler initializer.")
    public override init() {
        entityName = ""
        super.init()
    }

    public init(entityName: String, objects dictionaries: [[String: Any]]) {
        self.entityName = entityName
        objectsToInsert = dictionaries
        super.init()
    }

    public init(entity: NSEntityDescription, objects dictionaries: [[String: Any]]) {
        entityName = entity.name ?? ""
        self.entity = entity
        objectsToInsert = dictionaries
        super.init()
    }

    public init(entity: NSEntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        entityName = entity.name ?? ""
        self.entity = entity
        dictionaryHandler = handler
        super.init()
    }

    public init(entity: NSEntityDescription, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        entityName = entity.name ?? ""
        self.entity = entity
        managedObjectHandler = handler
        super.init()
    }

    public init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.entityName = entityName
        dictionaryHandler = handler
        super.init()
    }

    public init(entityName: String, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.entityName = entityName
        managedObjectHandler = handler
        super.init()
    }

    /// The entity, looked up in `model` if the request was made with a name.
    func entity(in model: NSManagedObjectModel) -> NSEntityDescription? {
        if let entity { return entity }
        entity = model.entitiesByName[entityName]
        return entity
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSBatchInsertRequest(entityName: entityName, objects: objectsToInsert ?? [])
        copy.objectsToInsert = objectsToInsert
        copy.entity = entity
        copy.dictionaryHandler = dictionaryHandler
        copy.managedObjectHandler = managedObjectHandler
        copy.resultType = resultType
        copy.affectedStores = affectedStores
        return copy
    }
}

/// What a batch insert request returns in its ``NSBatchInsertResult``.
public enum NSBatchInsertRequestResultType: UInt, Sendable {
    /// `true`: the request ran.
    case statusOnly = 0
    /// The object IDs of the inserted records, and of stored records that took new values.
    case objectIDs = 1
    /// The number of records inserted or replaced.
    case count = 2
}

/// The result of an ``NSBatchInsertRequest``.
open class NSBatchInsertResult: NSPersistentStoreResult, @unchecked Sendable {
    /// A `Bool`, `[NSManagedObjectID]` or `Int`, by ``resultType``.
    open private(set) var result: Any?
    /// The request's result type.
    open private(set) var resultType: NSBatchInsertRequestResultType

    init(resultType: NSBatchInsertRequestResultType, outcome: BatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .statusOnly: result = true
        case .objectIDs: result = outcome.objectIDs
        case .count: result = outcome.count
        }
        super.init()
    }
}
