import Foundation

/// Removes duplicate values — scalars, objects, and collections of them — by predicate
/// equality (``ValueComparison/isEqual(_:_:options:)``), without trusting the values' own
/// `Hashable` conformances.
///
/// ```swift
/// DistinctValues.unique([1, 1.0, "a", NSOrderedSet(), NSOrderedSet()])  // [1, "a", NSOrderedSet()]
/// DistinctValues.canBeSetMember(NSOrderedSet())                          // false
/// ```
///
/// Why: a Swift `Set` traps ("Duplicate elements of type 'AnyHashable' were found in a Set")
/// when two members are equal but hash differently, and Linux Foundation has such values:
/// `NSOrderedSet` (and `NSArray`, `NSSet`) compare by contents but hash by object identity, so
/// the values of an ordered to-many on two objects with no members — two empty ordered sets —
/// are equal with different hashes. Here values are only bucketed by an `Int` hash that this
/// type computes from what they contain (never a collection's own `hash`), and compared with
/// predicate equality inside a bucket: a value whose own hash is wrong can at worst stay
/// duplicated, never trap.
enum DistinctValues {
    /// `values` in first-seen order, each value equal to an earlier one left out.
    static func unique(_ values: [Any]) -> [Any] {
        var result: [Any] = []
        result.reserveCapacity(values.count)
        var buckets: [Int: [Int]] = [:]
        for value in values {
            let h = hash(value)
            if let indices = buckets[h], indices.contains(where: { same(result[$0], value) }) { continue }
            buckets[h, default: []].append(result.count)
            result.append(value)
        }
        return result
    }

    /// Equality in both directions: ``ValueComparison`` compares a set with a collection of the
    /// same size by looking up one side's members in the other, which is one-sided when the
    /// other side repeats a member.
    private static func same(_ a: Any, _ b: Any) -> Bool {
        guard ValueComparison.isEqual(a, b, folding: .none) else { return false }
        return KVCValueKinds.collection(a) == nil || ValueComparison.isEqual(b, a, folding: .none)
    }

    /// A hash that values equal under ``same(_:_:)`` share. A collection hashes its size and the
    /// set of its members' hashes (order-free: a set can equal an array; duplicate-free: a
    /// member's repetitions don't change which members there are).
    private static func hash(_ value: Any) -> Int {
        if let (elements, _) = KVCValueKinds.collection(value) {
            var members = Set<Int>()
            for element in elements { members.insert(hash(element)) }
            var hasher = Hasher()
            hasher.combine(elements.count)
            hasher.combine(members)
            return hasher.finalize()
        }
        return ValueComparison.hashKey(value)?.hashValue ?? 0
    }

    /// Whether `value` may go into a `Set<AnyHashable>`: its hash agrees with its equality.
    /// True for Swift value types that are not collections (numbers, strings, dates, UUIDs, ...),
    /// Swift `Set`s and `Array`s of such members, objects read through ``KeyValueCoding``
    /// (managed objects: equal only to themselves), and Foundation's value classes that hash
    /// as the Swift value they bridge to. False for Foundation's collection classes and other
    /// classes, whose `hash` may not follow an overridden `isEqual`.
    static func canBeSetMember(_ value: Any) -> Bool {
        if KVCValueKinds.isCommonScalar(value) { return true }
        guard value is AnyHashable else { return false }
        if KVCValueKinds.isObject(value) {
            if value is any KeyValueCoding { return true }
            return value is NSString || value is NSNumber || value is NSNull || value is NSDate || value is NSData
                || value is NSUUID || value is NSURL
        }
        if let (elements, _) = KVCValueKinds.collection(value) { return elements.allSatisfy(canBeSetMember) }
        return !KVCValueKinds.isDictionary(value)
    }
}
