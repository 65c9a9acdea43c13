import Foundation

/// The meaning of each comparison operator, applied to two evaluated values.
///
/// ```swift
/// NSPredicate(format: "name LIKE[c] 'jo*'").evaluate(with: ["name": "John"])        // true
/// NSPredicate(format: "tags CONTAINS 'x'").evaluate(with: ["tags": ["x", "y"]])    // true
/// NSPredicate(format: "'ohn' IN name").evaluate(with: ["name": "John"])            // true (substring)
/// NSPredicate(format: "age BETWEEN {18, 65}").evaluate(with: ["age": 65])          // true (inclusive)
/// ```
///
/// - `==`/`!=`: ``ValueComparison/isEqual(_:_:options:)`` (nil equals only nil/`NSNull`).
/// - `<` `<=` `>` `>=`: false when either side is nil or the values cannot be ordered.
/// - `BEGINSWITH` `ENDSWITH` `LIKE` `MATCHES`: strings only; anything else is false.
/// - `CONTAINS`: collection membership when the left side is a collection, else substring.
/// - `IN`: membership when the right side is a collection (dictionary: its values), else substring.
/// - `BETWEEN`: the right side is a two-element collection; inclusive at both ends.
/// - `ANY`/`ALL`: applied to each element of the left side; nested collections (to-many of
///   to-many) are flattened; nil is an empty collection (`ANY` false, `ALL` true) and a
///   single value is a one-element collection.
enum ComparisonEvaluator {
    /// Work done once per predicate for a constant right-hand side.
    struct Prepared {
        /// The compiled `MATCHES` pattern, or the error compiling it gave.
        var regex: Result<NSRegularExpression, NSError>?
        /// The folded constant string for string operators.
        var foldedString: String?
        /// A constant numeric right-hand side, read once (the `30` of `age > 30`).
        var number: NumericValue?
    }

    static func prepare(_ op: NSComparisonPredicate.Operator, _ rhs: NSExpression, _ options: NSComparisonPredicate.Options) -> Prepared {
        var prepared = Prepared()
        guard case .constant(let value) = rhs.node else { return prepared }
        if !(value is Bool) { prepared.number = NumericValue(value) }
        guard let string = KVCValueKinds.string(value) else { return prepared }
        switch op {
        case .matches: prepared.regex = compileRegex(string, options)
        case .beginsWith, .endsWith, .like, .contains: prepared.foldedString = PredicateStringFolding.fold(string, options: options)
        default: break
        }
        return prepared
    }

    static func compileRegex(_ pattern: String, _ options: NSComparisonPredicate.Options) -> Result<NSRegularExpression, NSError> {
        do {
            // Anchored at both ends: MATCHES must match the whole string.
            let regex = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: options.contains(.caseInsensitive) ? [.caseInsensitive] : [])
            return .success(regex)
        } catch {
            return .failure(PredicateEvaluationError.make("MATCHES pattern '\(pattern)' is not a valid ICU regular expression: \(error.localizedDescription)"))
        }
    }

    /// The elements `ANY`/`ALL` iterate: nested collections flattened, nil as empty.
    static func flattenedElements(_ value: Any?) -> [Any?] {
        guard let value = KVCValueKinds.unwrap(value), !KVCValueKinds.isNull(value) else { return [] }
        guard let (elements, _) = KVCValueKinds.collection(value) else { return [value] }
        var result: [Any?] = []
        result.reserveCapacity(elements.count)
        for e in elements {
            if KVCValueKinds.collection(e) != nil { result.append(contentsOf: flattenedElements(e)) } else { result.append(e) }
        }
        return result
    }

    static func perform(_ op: NSComparisonPredicate.Operator, _ lhs: Any?, _ rhs: Any?, _ options: NSComparisonPredicate.Options, _ prepared: Prepared) throws -> Bool {
        // Fast path for `key <op> number`: one numeric read instead of two generic comparisons.
        if let number = prepared.number {
            let order = NumericValue(KVCValueKinds.unwrap(lhs))?.compare(number)
            switch op {
            case .equalTo: return order == .orderedSame
            case .notEqualTo: return order != .orderedSame
            case .lessThan: return order == .orderedAscending
            case .lessThanOrEqualTo: return order == .orderedAscending || order == .orderedSame
            case .greaterThan: return order == .orderedDescending
            case .greaterThanOrEqualTo: return order == .orderedDescending || order == .orderedSame
            default: break
            }
        }
        switch op {
        case .equalTo: return ValueComparison.isEqual(lhs, rhs, options: options)
        case .notEqualTo: return !ValueComparison.isEqual(lhs, rhs, options: options)
        case .lessThan: return ValueComparison.compare(lhs, rhs, options: options) == .orderedAscending
        case .lessThanOrEqualTo:
            guard let order = ValueComparison.compare(lhs, rhs, options: options) else { return false }
            return order != .orderedDescending
        case .greaterThan: return ValueComparison.compare(lhs, rhs, options: options) == .orderedDescending
        case .greaterThanOrEqualTo:
            guard let order = ValueComparison.compare(lhs, rhs, options: options) else { return false }
            return order != .orderedAscending
        case .beginsWith, .endsWith, .like:
            guard let string = KVCValueKinds.string(KVCValueKinds.unwrap(lhs)) else { return false }
            guard let pattern = prepared.foldedString ?? KVCValueKinds.string(KVCValueKinds.unwrap(rhs)).map({ PredicateStringFolding.fold($0, options: options) }) else { return false }
            let subject = PredicateStringFolding.fold(string, options: options)
            switch op {
            case .beginsWith: return subject.hasPrefix(pattern)
            case .endsWith: return subject.hasSuffix(pattern)
            default: return LikePattern.matches(subject, pattern: pattern)
            }
        case .matches:
            guard let string = KVCValueKinds.string(KVCValueKinds.unwrap(lhs)) else { return false }
            let regex: NSRegularExpression
            switch prepared.regex ?? KVCValueKinds.string(KVCValueKinds.unwrap(rhs)).map({ compileRegex($0, options) }) {
            case .success(let compiled)?: regex = compiled
            case .failure(let error)?: throw error
            case nil: return false
            }
            return PredicateStringMatching.matches(string, compiled: regex, options: options)
        case .contains:
            if let (elements, _) = KVCValueKinds.collection(lhs) {
                return elements.contains { ValueComparison.isEqual($0, rhs, options: options) }
            }
            return substring(rhs, in: lhs, options, prepared.foldedString)
        case .in:
            if let rhsValue = KVCValueKinds.unwrap(rhs), KVCValueKinds.isDictionary(rhsValue) {
                let values: [Any] = (rhsValue as? [String: Any]).map { Array($0.values) }
                    ?? (rhsValue as? NSDictionary)?.allValues ?? ((rhsValue as? [AnyHashable: Any]).map { Array($0.values) } ?? [])
                return values.contains { ValueComparison.isEqual(lhs, $0, options: options) }
            }
            if let (elements, _) = KVCValueKinds.collection(rhs) {
                return elements.contains { ValueComparison.isEqual(lhs, $0, options: options) }
            }
            return substring(lhs, in: rhs, options, nil)
        case .between:
            guard let (bounds, _) = KVCValueKinds.collection(rhs), bounds.count == 2 else {
                throw PredicateEvaluationError.make("BETWEEN needs a two-element collection on its right, like BETWEEN {1, 10}; got \(String(describing: rhs)).")
            }
            guard let low = ValueComparison.compare(lhs, bounds[0], options: options),
                  let high = ValueComparison.compare(lhs, bounds[1], options: options) else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case .customSelector:
            throw PredicateEvaluationError.make("Custom-selector comparisons need the Objective-C runtime, which Linux does not have. Use a block predicate (NSPredicate(block:)) instead.")
        }
    }

    /// Whether the string `needle` occurs in the string `haystack` after folding.
    private static func substring(_ needle: Any?, in haystack: Any?, _ options: NSComparisonPredicate.Options, _ foldedNeedle: String?) -> Bool {
        guard let h = KVCValueKinds.string(KVCValueKinds.unwrap(haystack)),
              let n = foldedNeedle ?? KVCValueKinds.string(KVCValueKinds.unwrap(needle)).map({ PredicateStringFolding.fold($0, options: options) }) else { return false }
        if n.isEmpty { return true }
        return PredicateStringFolding.fold(h, options: options).contains(n)
    }
}

/// `LIKE` wildcard matching: `*` matches any run of characters (including none), `?` exactly
/// one character; `\*` and `\?` match the literal characters. Linear-time backtracking on the
/// last `*`, so hostile patterns cannot hang a fetch.
enum LikePattern {
    static func matches(_ subject: String, pattern: String) -> Bool {
        let s = Array(subject), p = Array(pattern)
        var si = 0, pi = 0
        var starPi = -1, starSi = 0
        while si < s.count {
            if pi < p.count {
                let c = p[pi]
                if c == "*" {
                    starPi = pi; starSi = si; pi += 1
                    continue
                }
                if c == "\\", pi + 1 < p.count {
                    if p[pi + 1] == s[si] { pi += 2; si += 1; continue }
                } else if c == "?" || c == s[si] {
                    pi += 1; si += 1
                    continue
                }
            }
            guard starPi >= 0 else { return false }
            pi = starPi + 1
            starSi += 1
            si = starSi
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
