import Foundation

/// Classifies the dynamic values that key-value coding and predicates meet: optionals, nulls,
/// collections, strings and dictionaries.
///
/// ```swift
/// KVCValueKinds.collection(Set([1, 2]))   // (elements: [1, 2], kind: .set)
/// KVCValueKinds.collection("text")        // nil: strings are not collections
/// ```
///
/// Values reach the engine as `Any`, often wrapped in several layers of `Optional` (a
/// `[String: Any?]` lookup gives `Any??`). Every entry point unwraps first, so the rest of the
/// code only ever sees a non-optional payload or `nil`.
public enum KVCValueKinds {
    /// How a collection behaves when a key is mapped over it.
    public enum CollectionKind: Sendable {
        /// Arrays, `NSArray`: mapping keeps order and puts `NSNull` where a value is nil.
        case array
        /// Sets, `NSSet`: mapping gives a set and drops nil values (Apple's `-[NSSet valueForKey:]`).
        case set
        /// `NSOrderedSet`: mapped like an array.
        case orderedSet
    }

    /// `value` with every layer of `Optional` removed; `nil` when any layer is empty.
    @inlinable
    public static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        // The protocol-conformance cast below costs ~150 ns; the values predicates meet most
        // (objects, Int, String, Double, Bool, Date) are answered by cheap exact-type checks first.
        if isCommonScalar(value) || isObject(value) { return value }
        if let optional = value as? any _KVCOptionalBox {
            return optional._kvcUnwrapped
        }
        return value
    }

    /// Whether `value` is `nil` or `NSNull` (the two spellings of "no value" in Core Data).
    @inlinable
    public static func isNull(_ value: Any?) -> Bool {
        guard let value = unwrap(value) else { return true }
        return type(of: value) == NSNull.self
    }

    /// Whether `value` is a class instance. Casting a Swift value (`Int`, `String`) to a
    /// Foundation class (`value is NSNull`) makes Linux Foundation bridge it, allocating an
    /// `NSNumber`/`NSString` just to answer no; every such cast on a hot path is gated by this.
    @inlinable
    public static func isObject(_ value: Any) -> Bool {
        type(of: value) is AnyClass
    }

    /// Whether `value` is exactly `Int`, `Int64`, `String`, `Double`, `Bool` or `Date`: a
    /// metatype comparison, far cheaper than the dynamic casts (`value is Int`) it lets hot paths
    /// skip. (`Int64` is what `%lld` format arguments and Integer 64 attributes arrive as; the
    /// first protocol cast of a process scans every conformance record.)
    @inlinable
    public static func isCommonScalar(_ value: Any) -> Bool {
        let t = type(of: value)
        return t == Int.self || t == Int64.self || t == String.self || t == Double.self || t == Bool.self || t == Date.self
    }

    /// `value` as a Swift `String` when it is any kind of string.
    @inlinable
    public static func string(_ value: Any?) -> String? {
        guard let value else { return nil }
        let t = type(of: value)
        if t == String.self { return value as? String }
        if isCommonScalar(value) { return nil }  // the other common scalars: no string
        if isObject(value) { return (value as? NSString).map { $0 as String } }
        if let substring = value as? Substring { return String(substring) }
        if let character = value as? Character { return String(character) }
        return nil
    }

    /// The elements of `value` when it is a collection (array, set, ordered set, or any Swift
    /// `Sequence` that is not a string, `Data` or a dictionary), with how it maps keys.
    public static func collection(_ value: Any?) -> (elements: [Any], kind: CollectionKind)? {
        guard let value = unwrap(value) else { return nil }
        // Fast paths first: these are what managed objects and literals produce.
        if isCommonScalar(value) { return nil }
        if let array = value as? [Any] { return (array, .array) }
        if value is String || value is Substring || value is Data || isDictionary(value) { return nil }
        if isObject(value) {
            if value is NSString || value is NSData || value is NSNumber { return nil }
            if let ordered = value as? NSOrderedSet { return (ordered.array, .orderedSet) }
            if let set = value as? NSSet { return (set.allObjects, .set) }
            if let array = value as? NSArray { return (array.map { $0 }, .array) }
        } else if value is Int || value is Double || value is Bool || value is Date {
            return nil // the common scalars, answered without a protocol-conformance lookup
        }
        if let sequence = value as? any Sequence {
            let elements = elementsOf(sequence)
            return (elements, value is any SetAlgebra ? .set : .array)
        }
        return nil
    }

    /// Opens an existential `Sequence` to copy its elements out as `Any`.
    private static func elementsOf<S: Sequence>(_ sequence: S) -> [Any] {
        sequence.map { element -> Any in
            if let hashable = element as? AnyHashable { return hashable.base }
            return element
        }
    }

    /// Whether `value` is a dictionary keyed by strings (Swift or `NSDictionary`).
    @inlinable
    public static func isDictionary(_ value: Any) -> Bool {
        if isObject(value) { return value is NSDictionary }
        return value is [String: Any] || value is [AnyHashable: Any]
    }

    /// Builds the value a key mapped over a collection of `kind` produces: an array (nil
    /// becomes `NSNull`, like Apple's `NSArray`) or a set (nil and duplicates dropped, like
    /// `NSSet`).
    ///
    /// The set is a `Set<AnyHashable>` when every member hashes consistently with its equality
    /// (``DistinctValues/canBeSetMember(_:)``); otherwise — members that are Foundation
    /// collections, such as the `NSOrderedSet` each object of an ordered to-many gives — an
    /// array of the distinct members: a Swift `Set` holding two equal members with different
    /// hashes traps, and Linux's `NSOrderedSet` hashes by identity but compares by contents.
    static func makeCollection(_ values: [Any?], kind: CollectionKind) -> Any {
        switch kind {
        case .array, .orderedSet:
            return values.map { $0 ?? NSNull() } as [Any]
        case .set:
            var set = Set<AnyHashable>(minimumCapacity: values.count)
            for case let value? in values {
                guard DistinctValues.canBeSetMember(value), let member = value as? AnyHashable else {
                    return DistinctValues.unique(values.compactMap { $0 })
                }
                set.insert(member)
            }
            return set
        }
    }
}

/// Lets `KVCValueKinds.unwrap` see through `Optional` of any wrapped type.
public protocol _KVCOptionalBox {
    var _kvcUnwrapped: Any? { get }
}

extension Optional: _KVCOptionalBox {
    public var _kvcUnwrapped: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped): return KVCValueKinds.unwrap(wrapped)
        }
    }
}
