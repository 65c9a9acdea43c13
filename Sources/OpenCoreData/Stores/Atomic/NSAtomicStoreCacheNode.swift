import Foundation

/// One record in an ``NSAtomicStore``'s memory: its object ID and property values.
///
/// ```swift
/// // In load(): one node per record in the file.
/// let id = objectID(for: employeeEntity, withReferenceObject: record.key)
/// let node = NSAtomicStoreCacheNode(objectID: id)
/// node.setValue(record.name, forKey: "name")
/// node.setValue(departmentNode, forKey: "department")          // to-one: another node
/// node.setValue(Set(projectNodes), forKey: "projects")          // to-many: a set of nodes
/// addCacheNodes([node])
/// ```
///
/// Values are keyed by property name, as Apple's: attributes as values (`String`, `NSNumber`,
/// `Date`, `Data`, ...); a to-one relationship as the related node; a to-many relationship as a
/// collection of related nodes (a `Set`, or an array for an ordered relationship). They live in
/// ``propertyCache``.
open class NSAtomicStoreCacheNode: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a node is read and written only by its store, while the store's
    // coordinator lock is held (load, fetch, fault and save all run under it).

    /// The ID of the record.
    public let objectID: NSManagedObjectID

    /// The values, keyed by property name; nil until a value is set.
    open var propertyCache: NSMutableDictionary?

    public init(objectID moid: NSManagedObjectID) {
        self.objectID = moid
        super.init()
    }

    /// The value of the property `key`: an attribute value, the related node (to-one) or the
    /// collection of related nodes (to-many).
    ///
    /// A key that names no property of the node's entity stops with a message (Apple falls back
    /// to key-value coding on the node, which Linux has no runtime for).
    open func value(forKey key: String) -> Any? {
        checkProperty(key)
        guard let value = propertyCache?[key], !(value is NSNull) else { return nil }
        return value
    }

    /// Sets the value of the property `key` (nil removes it).
    open func setValue(_ value: Any?, forKey key: String) {
        checkProperty(key)
        guard let value, !(value is NSNull) else {
            propertyCache?.removeObject(forKey: key)
            return
        }
        if propertyCache == nil { propertyCache = NSMutableDictionary() }
        propertyCache![key] = value
    }

    private func checkProperty(_ key: String) {
        guard let layout = objectID.entity.layout, layout.indexByName[key] == nil else { return }
        preconditionFailure("NSAtomicStoreCacheNode: entity '\(objectID.entity.name ?? "?")' has no property '\(key)'. Its properties are: \(layout.properties.map(\.name).sorted().joined(separator: ", ")).")
    }

    open override var description: String {
        "<NSAtomicStoreCacheNode \(objectID.uriRepresentation().absoluteString)>"
    }
}
