import Foundation

extension NSPersistentStore {
    /// The record a to-one slot of a saved row refers to: nil for no object, else its ID,
    /// which must be of this store and permanent (a store keeps keys only of its own records).
    func savedRelatedID(_ value: StoredValue, _ row: StoreRow) throws -> NSManagedObjectID? {
        guard case .objectID(let id) = value else { return nil }
        guard !id.isTemporaryID, id.persistentStore === self else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "'\(row.entity.name ?? "?")' \(row.objectID.uriRepresentation().absoluteString) refers to an object that is unsaved or in another store (\(id.uriRepresentation().absoluteString)). Relationships between stores are not supported.")
        }
        return id
    }
}
