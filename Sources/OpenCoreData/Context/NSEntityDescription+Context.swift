import Foundation

/// The entity methods that take a context. They live with contexts, not with the model,
/// because the model layer sits below contexts (docs/ARCHITECTURE.md, "Layers").
///
/// ```swift
/// let employee = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
/// let entity = NSEntityDescription.entity(forEntityName: "Employee", in: context)
/// ```
extension NSEntityDescription {
    /// The entity named `entityName` in the model of `context`'s coordinator.
    public class func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        context.managedObjectModel?.entitiesByName[entityName]
    }

    /// Creates an object of the entity named `entityName`, inserted into `context`.
    ///
    /// An unknown entity name stops with a message naming the entity, as Apple's raises.
    public class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        guard let entity = entity(forEntityName: entityName, in: context) else {
            preconditionFailure("+insertNewObject: the model has no entity named '\(entityName)'. Known entities: \(context.managedObjectModel?.entitiesByName.keys.sorted() ?? []).")
        }
        let objectClass = entity.resolvedClass
        return objectClass.init(entity: entity, insertInto: context)
    }
}
