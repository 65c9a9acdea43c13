import Foundation

/// One record as an ``NSIncrementalStore`` hands it to Core Data: its values and version.
///
/// ```swift
/// override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
///     let record = try backingStore.record(referenceObject(for: objectID) as! String)
///     return NSIncrementalStoreNode(objectID: objectID, withValues: [
///         "name": record.name,                                   // attributes: plain values
///         "department": newObjectID(for: department, referenceObject: record.departmentKey),
///         // to-many keys left out are loaded through newValue(forRelationship:forObjectWith:with:)
///     ], version: record.version)
/// }
/// ```
///
/// Values are keyed by property name, as Apple's: attributes as values (`NSNull` or a missing
/// key for nil); to-one relationships as the related object's `NSManagedObjectID` (`NSNull` for
/// none); to-many relationships as an array or set of IDs (empty, not missing, for none). A
/// missing relationship key is asked of the store through `newValue(forRelationship:...)`.
/// Keys that name no property of the entity are dropped.
///
/// The version is the record's optimistic-locking version: 1 when inserted, +1 on every save of
/// the record. The coordinator compares it with the version the object was fetched at.
open class NSIncrementalStoreNode: NSObject, @unchecked Sendable {
    // @unchecked Sendable: `values` and `storedVersion` are guarded by `lock` (a store may keep
    // nodes in a cache and update them from any thread).
    private let lock = NSLock()
    private var values: [String: Any]
    private var storedVersion: UInt64

    /// The ID of the record.
    public let objectID: NSManagedObjectID

    /// Creates a node for `objectID` holding `values` (keyed by property name) at `version`.
    public init(objectID: NSManagedObjectID, withValues values: [String: Any], version: UInt64) {
        self.objectID = objectID
        self.values = Self.modeled(values, of: objectID.entity)
        self.storedVersion = version
        super.init()
    }

    /// Replaces the values and version, after the record was saved or loaded again.
    open func update(withValues values: [String: Any], version: UInt64) {
        let modeled = Self.modeled(values, of: objectID.entity)
        lock.lock(); defer { lock.unlock() }
        self.values = modeled
        self.storedVersion = version
    }

    /// The record's version (optimistic locking).
    open var version: UInt64 {
        lock.lock(); defer { lock.unlock() }
        return storedVersion
    }

    /// The value of `prop`, or nil when the node has none (or `NSNull`).
    open func value(for prop: NSPropertyDescription) -> Any? {
        lock.lock(); defer { lock.unlock() }
        guard let value = values[prop.name], !(value is NSNull) else { return nil }
        return value
    }

    /// Whether the node has an entry for `name` (an `NSNull` counts): a relationship without
    /// one is loaded lazily through the store.
    func hasEntry(for name: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return values[name] != nil
    }

    private static func modeled(_ values: [String: Any], of entity: NSEntityDescription) -> [String: Any] {
        let names = entity.propertiesByName
        return values.filter { names[$0.key] != nil }
    }
}
