import Foundation

/// An unloaded relationship of an object (`UnloadedRelationship`, left out of its row by an
/// incremental store) is loaded through its context when first read: the object calls up to
/// its context, the one upward call Core Data's design has objects make.
extension NSManagedObjectContext {
    /// A relationship's IDs, from the parent for a child context, from the store for a root one.
    func loadRelationship(_ relationship: NSRelationshipDescription, of object: NSManagedObject) throws -> StoredValue {
        let objectID = object.objectID
        if let parent {
            let index = object.layout.indexByName[relationship.name]!
            return parent.performAndWait { parent.object(with: objectID).readStored(index) }
        }
        guard let coordinator = persistentStoreCoordinator else { return relationship.isToMany ? .objectIDs([]) : .null }
        return try readingQueryGeneration { try coordinator.relationshipValue(relationship, for: objectID, in: self) }
    }
}
