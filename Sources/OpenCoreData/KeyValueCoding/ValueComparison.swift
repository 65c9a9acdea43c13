import Foundation

/// How predicates and sort descriptors decide that two values are equal or ordered.
///
/// Key-value coding's collection operators use the same rules, so they live in this layer; the
/// public spellings taking `NSComparisonPredicate.Options` are declared with predicates
/// (`Predicate/ValueComparison+Options.swift`).
///
/// ```swift
/// ValueComparison.isEqual(Int16(3), 3.0, options: [])                       // true
/// ValueComparison.isEqual("Éclair", "eclair", options: [.caseInsensitive, .diacriticInsensitive]) // true
/// ValueComparison.compare("a", "b", options: [])                            // .orderedAscending
/// ValueComparison.compare(nil, 1, options: [])                              // nil: not ordered
/// ```
///
/// Rules (Apple's, as observed through `NSPredicate`):
/// - `nil` and `NSNull` are equal to each other and to nothing else, and never ordered.
/// - Numbers of any type (including `Bool` and `NSNumber`) compare by value.
/// - Strings compare by Unicode canonical equivalence, after ``PredicateStringFolding`` when
///   the options ask for it; ordering is the literal (non-localized) order.
/// - Dates compare by time; collections compare element-wise (arrays) or as sets.
/// - Other values compare with `==` when `Hashable`, else by object identity.
public enum ValueComparison {
    /// Whether `a` equals `b`, strings folded as `folding` asks.
    static func isEqual(_ a: Any?, _ b: Any?, folding: StringFolding) -> Bool {
        let a = KVCValueKinds.unwrap(a), b = KVCValueKinds.unwrap(b)
        let aNull = KVCValueKinds.isNull(a), bNull = KVCValueKinds.isNull(b)
        if aNull || bNull { return aNull && bNull }
        guard let a, let b else { return false }
        if let sa = KVCValueKinds.string(a) {
            guard let sb = KVCValueKinds.string(b) else { return false }
            if !folding.isNone {
                return PredicateStringFolding.fold(sa, folding) == PredicateStringFolding.fold(sb, folding)
            }
            return sa == sb
        }
        if let na = NumericValue(a) {
            guard let nb = NumericValue(b) else { return false }
            return na.compare(nb) == .orderedSame
        }
        if let da = a as? Date {
            guard let db = b as? Date else { return false }
            return da == db
        }
        if let (ea, ka) = KVCValueKinds.collection(a) {
            guard let (eb, kb) = KVCValueKinds.collection(b), ea.count == eb.count else { return false }
            if ka == .set || kb == .set {
                return ea.allSatisfy { x in eb.contains { isEqual(x, $0, folding: folding) } }
            }
            return zip(ea, eb).allSatisfy { isEqual($0, $1, folding: folding) }
        }
        if KVCValueKinds.isObject(a) || KVCValueKinds.isObject(b) {
            if let pa = a as? any PredicateEquatable, let answer = pa.isPredicateEqual(to: b) { return answer }
            if let pb = b as? any PredicateEquatable, let answer = pb.isPredicateEqual(to: a) { return answer }
        }
        if let ha = a as? AnyHashable, let hb = b as? AnyHashable { return ha == hb }
        if KVCValueKinds.isObject(a), KVCValueKinds.isObject(b) { return (a as AnyObject) === (b as AnyObject) }
        return false
    }

    /// The order of `a` and `b`, or nil when they cannot be ordered (nil, mixed kinds, unorderable
    /// types); strings folded as `folding` asks.
    static func compare(_ a: Any?, _ b: Any?, folding: StringFolding) -> ComparisonResult? {
        guard let a = KVCValueKinds.unwrap(a), let b = KVCValueKinds.unwrap(b) else { return nil }
        if let na = NumericValue(a) {
            guard let nb = NumericValue(b) else { return nil }
            return na.compare(nb)
        }
        if let sa = KVCValueKinds.string(a) {
            guard let sb = KVCValueKinds.string(b) else { return nil }
            return compareStrings(sa, sb, folding: folding)
        }
        if let da = a as? Date {
            guard let db = b as? Date else { return nil }
            return da < db ? .orderedAscending : (da > db ? .orderedDescending : .orderedSame)
        }
        if let ua = a as? UUID, let ub = b as? UUID {
            return compareStrings(ua.uuidString, ub.uuidString, folding: .none)
        }
        if let da = a as? Data, let db = b as? Data {
            for (x, y) in zip(da, db) where x != y { return x < y ? .orderedAscending : .orderedDescending }
            return da.count < db.count ? .orderedAscending : (da.count > db.count ? .orderedDescending : .orderedSame)
        }
        return nil
    }

    /// Literal string order after folding; Swift's `<` already respects canonical equivalence.
    static func compareStrings(_ a: String, _ b: String, folding: StringFolding) -> ComparisonResult {
        let fa = PredicateStringFolding.fold(a, folding), fb = PredicateStringFolding.fold(b, folding)
        return fa < fb ? .orderedAscending : (fa == fb ? .orderedSame : .orderedDescending)
    }

    /// A hashable stand-in for `value` that is equal exactly when `isEqual(_:_:folding: .none)` is,
    /// for the kinds that can be hashed (used for set membership and `@distinctUnionOf...`).
    static func hashKey(_ value: Any) -> AnyHashable? {
        if KVCValueKinds.isNull(value) { return AnyHashable(NullKey()) }
        guard let value = KVCValueKinds.unwrap(value) else { return AnyHashable(NullKey()) }
        if let s = KVCValueKinds.string(value) { return AnyHashable(s) }
        if let n = NumericValue(value) { return n.hashKey }
        if KVCValueKinds.collection(value) != nil { return nil }
        return value as? AnyHashable
    }

    private struct NullKey: Hashable {}
}

/// A class whose instances equal values of other types in predicates, for example a managed
/// object that equals its object ID (`SELF == %@` with an `NSManagedObjectID`, as Core Data
/// fetches allow).
///
/// ```swift
/// extension NSManagedObject: PredicateEquatable {
///     public func isPredicateEqual(to other: Any) -> Bool? {
///         (other as? NSManagedObjectID).map { $0 == objectID }   // nil: use the normal rules
///     }
/// }
/// ```
///
/// Consulted by ``ValueComparison/isEqual(_:_:options:)`` (so by `==`, `!=`, `IN`, `CONTAINS`)
/// when either side is a class instance, before the default rules.
public protocol PredicateEquatable: AnyObject {
    /// Whether `self` equals `other` in a predicate, or nil to fall back to the default rules.
    func isPredicateEqual(to other: Any) -> Bool?
}
