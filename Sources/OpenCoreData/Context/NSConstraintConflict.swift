import Foundation

/// A uniqueness-constraint conflict found at save: several objects being saved share the values
/// of one of their entity's `uniquenessConstraints`, or an object being saved uses values a
/// record in the store already has.
///
/// With the default `.error` policy, `save()` throws `NSManagedObjectConstraintMergeError`
/// (133021) and nothing is written; the conflicts are in `userInfo["conflictList"]`:
///
/// ```swift
/// do {
///     try context.save()
/// } catch let error as NSError where error.code == NSManagedObjectConstraintMergeError {
///     for case let conflict as NSConstraintConflict in error.userInfo["conflictList"] as? [Any] ?? [] {
///         print(conflict.constraint, conflict.constraintValues, conflict.databaseObject?.objectID as Any)
///     }
/// }
/// ```
///
/// Set `context.mergePolicy` to `NSMergeByPropertyObjectTrumpMergePolicy` (or another
/// policy) to have the save merge the duplicates instead, or subclass `NSMergePolicy` and
/// override `resolve(constraintConflicts:)`.
open class NSConstraintConflict: NSObject {
    /// The names of the constrained properties.
    public let constraint: [String]
    /// The constrained values the conflicting objects had when the conflict was found.
    public let constraintValues: [String: Any]
    /// The object of the store's record that already uses the values; nil when the conflict is
    /// only among the objects being saved.
    public let databaseObject: NSManagedObject?
    /// The values of that record in the store; nil when there is no such record.
    public let databaseSnapshot: [String: Any]?
    /// The objects being saved that use the values.
    public let conflictingObjects: [NSManagedObject]
    /// The last saved values of each conflicting object (empty for a new object), in the
    /// order of `conflictingObjects`.
    public let conflictingSnapshots: [[AnyHashable: Any]]

    /// A conflict as a save reports it; a custom store or test can make its own. The
    /// `constraintValues` are read from the first conflicting object now.
    public init(constraint contraint: [String], database databaseObject: NSManagedObject?, databaseSnapshot: [AnyHashable: Any]?,
                conflicting conflictingObjects: [NSManagedObject], conflictingSnapshots: [Any]) {
        constraint = contraint
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot.map { snapshot in
            Dictionary(snapshot.compactMap { key, value in (key.base as? String).map { ($0, value) } }, uniquingKeysWith: { a, _ in a })
        }
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots.map { $0 as? [AnyHashable: Any] ?? [:] }
        var values: [String: Any] = [:]
        if let first = conflictingObjects.first {
            for name in contraint where first.entity.propertiesByName[name] != nil { values[name] = first.value(forKey: name) ?? NSNull() }
        }
        constraintValues = values
        super.init()
    }

    open override var description: String {
        let values = constraint.map { "\($0)=\(constraintValues[$0].map { "\($0)" } ?? "nil")" }.joined(separator: ", ")
        let entity = conflictingObjects.first?.entity.name ?? "?"
        let database = databaseObject.map { " database object \($0.objectID.uriRepresentation().absoluteString)" } ?? ""
        return "NSConstraintConflict (\(entity): \(values)) \(conflictingObjects.count) conflicting object(s)\(database)"
    }
}
