import Foundation

/// What happens to related objects when an object is deleted.
public enum NSDeleteRule: UInt, Sendable {
    /// Leave the related objects alone; they keep pointing at the deleted object.
    case noActionDeleteRule = 0
    /// Remove the deleted object from the related objects' inverse relationship.
    case nullifyDeleteRule = 1
    /// Delete the related objects too.
    case cascadeDeleteRule = 2
    /// Refuse to delete while any related object exists: the save fails with
    /// `NSValidationRelationshipDeniedDeleteError` (1600).
    case denyDeleteRule = 3
}

/// A relationship from one entity to another: to-one, to-many, or ordered to-many.
///
/// ```swift
/// let department = NSRelationshipDescription()
/// department.name = "department"
/// department.destinationEntity = departmentEntity
/// department.maxCount = 1                 // to-one
/// department.deleteRule = .nullifyDeleteRule
/// department.inverseRelationship = employees
/// ```
open class NSRelationshipDescription: NSPropertyDescription, @unchecked Sendable {
    open weak var destinationEntity: NSEntityDescription? { willSet { checkMutable() } }
    /// The relationship on the destination that points back. Core Data keeps both sides in step.
    open weak var inverseRelationship: NSRelationshipDescription? { willSet { checkMutable() } }
    /// The least number of related objects allowed at save (0: none required).
    open var minCount: Int = 0 { willSet { checkMutable() } }
    /// The most related objects allowed: 1 makes a to-one; 0 means no limit.
    open var maxCount: Int = 1 { willSet { checkMutable() } }
    open var deleteRule: NSDeleteRule = .nullifyDeleteRule { willSet { checkMutable() } }
    open var isOrdered: Bool = false { willSet { checkMutable() } }

    /// Whether this relationship holds a set of objects (`maxCount` other than 1).
    open var isToMany: Bool { maxCount != 1 }

    /// Name of the destination entity, kept when a model is built before all entities exist
    /// (the Xcode model loader resolves it when the model is complete).
    @exclusivity(unchecked) var destinationEntityName: String?
    @exclusivity(unchecked) var inverseName: String?

    override func copyDescription() -> NSPropertyDescription {
        let copy = NSRelationshipDescription()
        copyCommonFields(to: copy)
        copy.minCount = minCount
        copy.maxCount = maxCount
        copy.deleteRule = deleteRule
        copy.isOrdered = isOrdered
        copy.destinationEntityName = destinationEntity?.name ?? destinationEntityName
        copy.inverseName = inverseRelationship?.name ?? inverseName
        return copy
    }

    public required init() { super.init() }
}

/// A fetched property: a weak, one-way relationship defined by a fetch request, evaluated lazily.
///
/// The predicate may use `$FETCH_SOURCE` (the object that owns the property) and
/// `$FETCHED_PROPERTY` (this description).
open class NSFetchedPropertyDescription: NSPropertyDescription, @unchecked Sendable {
    /// The request run for each source object. It refers to its entity weakly: the entity is
    /// kept alive by the model, and a strong reference would make a cycle (entity → property →
    /// request → entity) that no model could ever be freed from.
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        willSet { checkMutable() }
        didSet { fetchRequest?.holdEntityWeakly() }
    }

    override func copyDescription() -> NSPropertyDescription {
        let copy = NSFetchedPropertyDescription()
        copyCommonFields(to: copy)
        copy.fetchRequest = fetchRequest
        return copy
    }

    public required init() { super.init() }
}
