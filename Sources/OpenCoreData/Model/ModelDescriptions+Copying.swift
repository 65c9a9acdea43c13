import Foundation

/// `NSCopying` for the model's descriptions, as Apple's model classes conform to it.
///
/// ```swift
/// let draft = model.copy() as! NSManagedObjectModel        // mutable, even of a model in use
/// let renamed = employee.copy() as! NSEntityDescription    // not in any model yet
/// renamed.name = "Staff"
/// ```
///
/// A copy is deep and belongs to no model: a model's copy has copies of its entities, an
/// entity's copy copies of its properties and indexes. A copied relationship still names the
/// original's destination and inverse; placed in a model, it resolves them by name there.

extension NSManagedObjectModel: NSCopying {
    /// A deep, unfrozen copy (see ``copy()``).
    public func copy(with zone: NSZone? = nil) -> Any { copyModel() }
}

extension NSEntityDescription: NSCopying {
    /// A copy of the entity, its properties and indexes, in no model.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = copyEntity()
        for (original, copied) in zip(properties, copy.properties) {
            (copied as? NSRelationshipDescription)?.keepReferences(of: original as? NSRelationshipDescription)
        }
        return copy
    }
}

extension NSPropertyDescription: NSCopying {
    /// A copy of the property (of its own class), in no entity.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = copyDescription()
        (copy as? NSRelationshipDescription)?.keepReferences(of: self as? NSRelationshipDescription)
        return copy
    }
}

extension NSRelationshipDescription {
    /// Points a copy at `original`'s destination and inverse, as Apple's copies do.
    fileprivate func keepReferences(of original: NSRelationshipDescription?) {
        guard let original else { return }
        destinationEntity = original.destinationEntity
        inverseRelationship = original.inverseRelationship
    }
}

extension NSFetchIndexDescription: NSCopying {
    /// A copy of the index and its elements, in no entity.
    public func copy(with zone: NSZone? = nil) -> Any { copyIndex() }
}

extension NSFetchIndexElementDescription: NSCopying {
    /// A copy of the element, in no index.
    public func copy(with zone: NSZone? = nil) -> Any { copyElement() }
}
