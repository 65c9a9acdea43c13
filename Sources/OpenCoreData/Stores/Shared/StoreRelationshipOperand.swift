import Foundation

/// The right-hand side of a to-one relationship `==`/`!=` a constant, as a store's SQL
/// decides it: what the foreign key is compared with.
///
///     switch StoreRelationshipOperand(constant, destination: destination, storeToken: token, context: context) {
///     case .null?: "ZDEPARTMENT IS NULL"
///     case .key(let key)?: "ZDEPARTMENT = \(key)"
///     case .noRow?: "FALSE"   // equals nothing
///     case nil: // left to memory
///     }
///
/// The evaluator compares an `NSManagedObjectID` with a related object's ID (store, root
/// entity, key), so a permanent ID of this store and of the destination's root entity is that
/// key, and any other ID equals nothing. An object of the fetching context stands for its ID;
/// an object of another context is left to memory, where it equals nothing of this one
/// (Apple's store would compare keys).
enum StoreRelationshipOperand: Equatable {
    /// nil or `NSNull`: the foreign key is NULL.
    case null
    /// The primary key of the related row the constant names.
    case key(Int64)
    /// An ID no row of this store's destination table has: equal to no row.
    case noRow

    /// nil when the constant is no object ID, no object of `context`, or names an ID while the
    /// store's token is unknown (`storeToken` nil: the answer is not the store's alone).
    init?(_ constant: Any?, destination: NSEntityDescription, storeToken: Int32?, context: (any RequestingContext)?) {
        let id: NSManagedObjectID
        switch constant {
        case nil, is NSNull:
            self = .null
            return
        case let objectID as NSManagedObjectID:
            id = objectID
        case let object as NSManagedObject:
            guard let context, object.managedObjectContext === context else { return nil }
            id = object.objectID
        default:
            return nil
        }
        guard let storeToken else { return nil }
        guard !id.isTemporaryID, id.key.storeToken == storeToken, id.key.rootEntity == destination.rootEntityNumber else {
            self = .noRow
            return
        }
        self = .key(id.key.primaryKey)
    }
}
