import Foundation

/// What Xcode's generated to-many accessors do, written by `@ManagedProperty` on them:
///
/// ```swift
/// extension Playlist {
///     @ManagedProperty public func addToSongs(_ value: Song)
///     @ManagedProperty public func addToSongs(_ values: NSOrderedSet)
///     @ManagedProperty public func insertIntoSongs(_ value: Song, at idx: Int)
///     @ManagedProperty public func removeFromSongs(at indexes: NSIndexSet)
///     @ManagedProperty public func replaceSongs(at idx: Int, with value: Song)
/// }
/// // addToSongs(song) expands to: ManagedToManyAccessor.add(song, to: "songs", of: self)
/// ```
///
/// Each change goes through the relationship's live set (`mutableSetValue(forKey:)`, or
/// `mutableOrderedSetValue(forKey:)` for an ordered one), so the inverse, change tracking,
/// notifications and undo behave as with Apple's generated accessors. Values may be one object,
/// `NSSet`, `NSOrderedSet`, `Set` or `Array`; indexes an `Int`, `IndexSet` or `NSIndexSet`.
public enum ManagedToManyAccessor {
    /// `addToX(_:)`: adds the values (appended, for an ordered relationship).
    public static func add(_ values: Any, to key: String, of object: NSManagedObject) {
        let live = liveMembers(key, of: object)
        for o in members(values, key, of: object) { live.add(o) }
    }

    /// `removeFromX(_:)`: removes the values.
    public static func remove(_ values: Any, from key: String, of object: NSManagedObject) {
        let live = liveMembers(key, of: object)
        for o in members(values, key, of: object) { live.remove(o) }
    }

    /// Adding to and removing from the relationship's live set, ordered or not.
    private static func liveMembers(_ key: String, of object: NSManagedObject) -> (add: (Any) -> Void, remove: (Any) -> Void) {
        if isOrdered(key, of: object) {
            let set = object.mutableOrderedSetValue(forKey: key)
            return (set.add, set.remove)
        }
        let set = object.mutableSetValue(forKey: key)
        return (set.add, set.remove)
    }

    /// `insertIntoX(_:at:)`: inserts each value at its index (indexes in ascending order, as
    /// `NSMutableOrderedSet.insert(_:at:)` takes them).
    public static func insert(_ values: Any, at indexes: Any, into key: String, of object: NSManagedObject) {
        let set = orderedSet(key, of: object, for: "insertInto")
        for (index, o) in zip(self.indexes(indexes, key), members(values, key, of: object)) { set.insert(o, at: index) }
    }

    /// `removeFromX(at:)`: removes the members at the indexes.
    public static func remove(at indexes: Any, from key: String, of object: NSManagedObject) {
        let set = orderedSet(key, of: object, for: "removeFrom(at:)")
        for index in self.indexes(indexes, key).reversed() { set.removeObject(at: index) }
    }

    /// `replaceX(at:with:)`: replaces the members at the indexes with the values.
    public static func replace(at indexes: Any, with values: Any, in key: String, of object: NSManagedObject) {
        let set = orderedSet(key, of: object, for: "replace(at:with:)")
        for (index, o) in zip(self.indexes(indexes, key), members(values, key, of: object)) { set.replaceObject(at: index, with: o) }
    }

    private static func isOrdered(_ key: String, of object: NSManagedObject) -> Bool {
        (object.entity.relationshipsByName[key])?.isOrdered ?? false
    }

    private static func orderedSet(_ key: String, of object: NSManagedObject, for accessor: String) -> NSMutableOrderedSet {
        guard isOrdered(key, of: object) else {
            preconditionFailure("\(accessor): '\(object.entity.name ?? "?").\(key)' is not an ordered to-many relationship, so it has no indexes; use addTo/removeFrom.")
        }
        return object.mutableOrderedSetValue(forKey: key)
    }

    /// The managed objects `values` holds, read as a value set on the relationship through
    /// key-value coding is.
    private static func members(_ values: Any, _ key: String, of object: NSManagedObject) -> [NSManagedObject] {
        guard let relationship = object.entity.relationshipsByName[key] else {
            preconditionFailure("'\(object.entity.name ?? "?").\(key)' is not a relationship.")
        }
        return NSManagedObject.objects(in: values, for: relationship, of: object)
    }

    private static func indexes(_ indexes: Any, _ key: String) -> [Int] {
        switch indexes {
        case let index as Int: return [index]
        case let set as IndexSet: return Array(set)
        case let set as NSIndexSet: return Array(set as IndexSet)
        default: preconditionFailure("'\(key)': a to-many accessor takes an Int, IndexSet or NSIndexSet for indexes, not \(type(of: indexes)).")
        }
    }
}
