import Foundation

/// An optimistic-locking conflict found at save: the store's record changed since this context
/// last read it.
///
/// With the default `.error` policy, `save()` throws `NSManagedObjectMergeError` (133020) and the
/// conflicts are in `userInfo["conflictList"]`:
///
/// ```swift
/// catch let error as NSError where error.code == NSManagedObjectMergeError {
///     for case let conflict as NSMergeConflict in error.userInfo["conflictList"] as? [Any] ?? [] {
///         print(conflict.sourceObject.objectID, conflict.persistedSnapshot ?? [:])
///     }
/// }
/// ```
open class NSMergeConflict: NSObject {
    /// The object whose save conflicts.
    public let sourceObject: NSManagedObject
    /// The object's current (unsaved) values.
    public let objectSnapshot: [String: Any]?
    /// The values this context last read from the store.
    public let cachedSnapshot: [String: Any]?
    /// The values in the store now; nil when the record was deleted.
    public let persistedSnapshot: [String: Any]?
    /// The store's version of the record (0 when deleted).
    public let newVersionNumber: Int
    /// The version this context last read.
    public let oldVersionNumber: Int

    /// The store's row, for the built-in policies.
    let persistedRow: StoreRow?

    public init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int, cachedSnapshot cachesnap: [String: Any]?, persistedSnapshot persnap: [String: Any]?) {
        sourceObject = srcObject
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        cachedSnapshot = cachesnap
        persistedSnapshot = persnap
        objectSnapshot = srcObject.snapshotDictionary(of: srcObject.snapshot())
        persistedRow = nil
        super.init()
    }

    init(object: NSManagedObject, persistedRow row: StoreRow?) {
        sourceObject = object
        newVersionNumber = Int(row?.version ?? 0)
        oldVersionNumber = Int(object.version)
        objectSnapshot = object.snapshotDictionary(of: object.snapshot())
        cachedSnapshot = object.committed.map { object.snapshotDictionary(of: $0) }
        persistedSnapshot = row.map { object.snapshotDictionary(of: $0.values) }
        persistedRow = row
        super.init()
    }

    open override var description: String {
        "NSMergeConflict (\(sourceObject.objectID.uriRepresentation().absoluteString)) oldVersion \(oldVersionNumber), newVersion \(newVersionNumber), persisted \(persistedSnapshot.map { "\($0)" } ?? "deleted")"
    }
}

extension NSManagedObject {
    /// A snapshot as Apple presents it: attribute values and the IDs of to-one destinations,
    /// keyed by name (to-many relationships are not part of a snapshot).
    func snapshotDictionary(of values: RowValues) -> [String: Any] {
        var result: [String: Any] = [:]
        for i in layout.persistentIndexes where i < values.count {
            let property = layout.properties[i]
            switch (property, values[i]) {
            case (let a as NSAttributeDescription, let v): result[property.name] = v.publicValue(for: a) ?? NSNull()
            case (let r as NSRelationshipDescription, .objectID(let id)) where !r.isToMany: result[property.name] = id
            case (let r as NSRelationshipDescription, .null) where !r.isToMany: result[property.name] = NSNull()
            default: break
            }
        }
        return result
    }
}
