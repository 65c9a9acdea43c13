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

extension StoreSchema {
    /// Calls `body` with every to-many value the saved `rows` carry (a relationship never read
    /// is unchanged and carries none) that is written apart from the rows
    /// (``StoreToManySource/isWrittenApart``), and the place the store keeps it: unordered sides first,
    /// so that when both sides of a pair are saved the ordered side's pass runs last and leaves
    /// its order column filled. `toManySlots` gives a row's to-many slots (the store's plan).
    func forEachSavedToMany<Rows: Sequence<StoreRow>>(
        in rows: Rows,
        toManySlots: (StoreRow) throws -> [(slot: Int, relationship: NSRelationshipDescription)],
        _ body: (_ row: StoreRow, _ members: [NSManagedObjectID], _ source: StoreToManySource) throws -> Void
    ) throws {
        for orderedPass in [false, true] {
            for row in rows {
                for (slot, relationship) in try toManySlots(row) where relationship.isOrdered == orderedPass {
                    guard case .objectIDs(let members) = row.values[slot], let source = toManySource(for: relationship), source.isWrittenApart else { continue }
                    try body(row, members, source)
                }
            }
        }
    }

    /// The order column's value of the member at `position` of an ordered to-many. Apple's
    /// stores number ordered members 2048, 3072, 4096, ... (seen in every ordered relationship
    /// of the BrowserServicesKit fixtures); the gaps leave room to insert.
    static func orderKey(_ position: Int) -> Int64 { Int64(position + 2) * 1024 }
}
