import Foundation

/// Reads values by key and key path, following Apple's key-value coding rules, without the
/// Objective-C runtime.
///
/// ```swift
/// let company: [String: Any] = ["employees": [["salary": 10], ["salary": 32]]]
/// try KeyPathEvaluator.value(of: company, forKeyPath: "employees.@sum.salary") // 42
/// try KeyPathEvaluator.value(of: company, forKeyPath: "employees.salary")      // [10, 32]
/// try KeyPathEvaluator.value(of: company, forKeyPath: "employees.@count")      // 2
/// ```
///
/// What a key means depends on the value it is applied to:
/// - a ``KeyValueCoding`` value answers through `checkedValue(forKey:)` (this is how
///   `NSManagedObject` is read);
/// - a dictionary (`[String: Any]`, `NSDictionary`) answers with the entry for the key, or nil;
/// - a collection (array, set, `NSArray`, `NSSet`, `NSOrderedSet`, any Swift `Sequence` that is
///   not a string) maps the key over its elements: arrays give arrays (`NSNull` for nil), sets
///   give sets (nil dropped). Nested collections are not flattened, as in Apple's KVC; use
///   `@unionOfArrays` / `@distinctUnionOfSets` to flatten;
/// - a path component starting with `@` is a collection operator applied to the collection as a
///   whole, with the rest of the path as its argument (`@sum.salary`);
/// - `self` returns the value itself; numbers and strings answer a few of Foundation's
///   accessor names (`intValue`, `doubleValue`, `length`, `uppercaseString`, ...).
///
/// Anything else throws ``KeyValueCodingError/undefinedKey(_:in:)``'s `NSError`; the engine
/// never traps on bad input.
public enum KeyPathEvaluator {
    /// The value at `keyPath` (dot-separated keys and collection operators) starting from `root`.
    ///
    /// `nil` anywhere along the path gives `nil` (messaging nil in Objective-C).
    public static func value(of root: Any?, forKeyPath keyPath: String) throws -> Any? {
        try value(of: root, forKeyPathComponents: components(of: keyPath)[...])
    }

    /// The value for the single key `key` (no dots are interpreted).
    public static func value(of root: Any?, forKey key: String) throws -> Any? {
        guard let root = KVCValueKinds.unwrap(root) else { return nil }
        if key.hasPrefix("@") {
            return try KeyPathCollectionOperators.apply(key, to: root, rest: [][...])
        }
        return try valueForKey(key, of: root)
    }

    /// Splits a key path at its dots. Parsed predicates split once and keep the components.
    public static func components(of keyPath: String) -> [String] {
        keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The value at a pre-split key path; the hot path used by predicate evaluation.
    public static func value(of root: Any?, forKeyPathComponents components: ArraySlice<String>) throws -> Any? {
        // Fast path: one plain key on a KeyValueCoding object (`age`, the common predicate).
        if components.count == 1, let object = root as? any KeyValueCoding, let key = components.first, !key.hasPrefix("@"), key != "self" {
            return KVCValueKinds.unwrap(try object.checkedValue(forKey: key))
        }
        var current = KVCValueKinds.unwrap(root)
        var index = components.startIndex
        while index < components.endIndex {
            guard let value = current else { return nil }
            let key = components[index]
            if key.hasPrefix("@") {
                return try KeyPathCollectionOperators.apply(key, to: value, rest: components[(index + 1)...])
            }
            current = try valueForKey(key, of: value)
            index += 1
        }
        return current
    }

    /// One key applied to one non-nil value.
    static func valueForKey(_ key: String, of object: Any) throws -> Any? {
        // `self` is a method every NSObject answers; dictionaries instead look the key up (Apple's rule).
        if key == "self", !KVCValueKinds.isDictionary(object) { return object }
        if let object = object as? any KeyValueCoding {
            return KVCValueKinds.unwrap(try object.checkedValue(forKey: key))
        }
        if let dictionary = object as? [String: Any] {
            return KVCValueKinds.unwrap(dictionary[key])
        }
        if KVCValueKinds.isObject(object), let dictionary = object as? NSDictionary {
            return KVCValueKinds.unwrap(dictionary.object(forKey: key))
        }
        if let dictionary = object as? [AnyHashable: Any] {
            return KVCValueKinds.unwrap(dictionary[AnyHashable(key)])
        }
        if let (elements, kind) = KVCValueKinds.collection(object) {
            var mapped: [Any?] = []
            mapped.reserveCapacity(elements.count)
            for element in elements {
                guard let element = KVCValueKinds.unwrap(element), !KVCValueKinds.isNull(element) else {
                    mapped.append(nil)
                    continue
                }
                mapped.append(try valueForKey(key, of: element))
            }
            return KVCValueKinds.makeCollection(mapped, kind: kind)
        }
        if let value = try builtinValue(forKey: key, of: object) { return value }
        throw KeyValueCodingError.undefinedKey(key, in: String(describing: type(of: object)))
    }

    /// The few accessor names Foundation's value classes answer on Apple platforms, so that
    /// common paths such as `prices.@avg.doubleValue` and `name.length` work.
    private static func builtinValue(forKey key: String, of object: Any) throws -> Any?? {
        if let string = KVCValueKinds.string(object) {
            switch key {
            case "length": return .some(string.utf16.count)
            case "uppercaseString": return .some(string.uppercased())
            case "lowercaseString": return .some(string.lowercased())
            case "intValue", "integerValue", "longLongValue": return .some(Int(string.trimmingCharacters(in: .whitespaces)) ?? 0)
            case "doubleValue", "floatValue": return .some(Double(string.trimmingCharacters(in: .whitespaces)) ?? 0)
            case "boolValue":
                let lowered = string.trimmingCharacters(in: .whitespaces).lowercased()
                return .some(["y", "yes", "t", "true"].contains(lowered) || (Int(lowered) ?? 0) != 0)
            case "description", "stringValue": return .some(string)
            default: return nil
            }
        }
        if let number = NumericValue(object) {
            switch key {
            case "intValue", "integerValue", "longValue", "longLongValue": return .some(number.intValue)
            case "doubleValue", "floatValue": return .some(number.doubleValue)
            case "boolValue": return .some(number.doubleValue != 0)
            case "decimalValue": return .some(number.decimalValue)
            case "stringValue", "description": return .some(number.description)
            default: return nil
            }
        }
        if let date = object as? Date, key == "timeIntervalSinceReferenceDate" {
            return .some(date.timeIntervalSinceReferenceDate)
        }
        return nil
    }
}
