import Foundation

/// Translates a custom store's reference objects (its own record identifiers: strings, numbers)
/// to the 64-bit keys inside ``NSManagedObjectID`` and back — the store-side half of
/// `newObjectID(for:referenceObject:)` / `referenceObject(for:)`.
///
/// ```swift
/// let id = store.newObjectID(for: employee, referenceObject: "E-1042")
/// store.referenceObject(for: id) as? String   // "E-1042", exactly what went in
/// ```
///
/// How keys are chosen, per root entity (a reference is unique within its entity's inheritance
/// hierarchy, as Apple requires):
/// - A non-negative integer reference (`Int`, `Int64`, ..., an integral `NSNumber`) *is* the
///   key, so `x-coredata://<store>/<Entity>/p42` names reference 42 in every stack that opens
///   the store.
/// - Any other reference (a string, a negative number, any `Hashable` value) gets the next
///   negative key, -1, -2, ..., from a table kept for the store's lifetime. Such keys, and so
///   the URIs of those objects, are stable only while the store is open (docs/DEVIATIONS.md).
/// - The reverse table keeps the reference exactly as first given (an `NSNumber` stays an
///   `NSNumber`, a `String` a `String`), so `referenceObject(for:)` returns what went in. It
///   grows with every distinct reference the store hands out while it is open.
///
/// Not thread-safe by itself: the owning store guards it with its lock.
struct ReferenceObjectTable {
    private struct ForwardKey: Hashable {
        let rootEntity: Int32
        let reference: AnyHashable
    }
    private struct ReverseKey: Hashable {
        let rootEntity: Int32
        let key: Int64
    }

    private var keysByReference: [ForwardKey: Int64] = [:]
    private var referencesByKey: [ReverseKey: Any] = [:]
    private var lastAllocatedKey: Int64 = 0

    /// The key for `reference` among objects of `entity`'s hierarchy, allocated on first use.
    mutating func key(for reference: Any, entity: NSEntityDescription) -> Int64 {
        let root = entity.rootEntityNumber
        if let integer = Self.nonNegativeInteger(reference) {
            let reverse = ReverseKey(rootEntity: root, key: integer)
            if referencesByKey[reverse] == nil { referencesByKey[reverse] = reference }
            return integer
        }
        guard let hashable = reference as? AnyHashable else {
            preconditionFailure("newObjectID(for:referenceObject:): a reference object must be a String or a number (NSString or NSNumber on Apple platforms), or at least Hashable; got \(type(of: reference)).")
        }
        let forward = ForwardKey(rootEntity: root, reference: hashable)
        if let key = keysByReference[forward] { return key }
        lastAllocatedKey -= 1
        keysByReference[forward] = lastAllocatedKey
        referencesByKey[ReverseKey(rootEntity: root, key: lastAllocatedKey)] = reference
        return lastAllocatedKey
    }

    /// The reference object `key` was made from; for a key this table never saw, the integer
    /// reference it stands for (non-negative keys) or nil.
    func reference(for key: Int64, entity: NSEntityDescription) -> Any? {
        let root = entity.rootEntityNumber
        if let reference = referencesByKey[ReverseKey(rootEntity: root, key: key)] { return reference }
        // A non-negative key is an integer reference (an ID from a URI of an earlier session).
        return key >= 0 ? Int(key) : nil
    }

    private static func nonNegativeInteger(_ value: Any) -> Int64? {
        let integer: Int64?
        switch value {
        case let v as Int: integer = Int64(v)
        case let v as Int64: integer = v
        case let v as Int32: integer = Int64(v)
        case let v as Int16: integer = Int64(v)
        case let v as Int8: integer = Int64(v)
        case let v as UInt64: integer = Int64(exactly: v)
        case let v as UInt32: integer = Int64(v)
        case let v as UInt16: integer = Int64(v)
        case let v as UInt8: integer = Int64(v)
        case let v as UInt: integer = Int64(exactly: v)
        default: integer = nil
        }
        if let integer { return integer >= 0 ? integer : nil }
        // An NSNumber holding an integer (not a Bool or a fraction).
        if let number = value as? NSNumber, !(value is String), type(of: value) != Bool.self, type(of: value) != Double.self,
           let exact = Int64(exactly: number.doubleValue), NSNumber(value: exact) == number, exact >= 0 {
            return exact
        }
        return nil
    }
}
