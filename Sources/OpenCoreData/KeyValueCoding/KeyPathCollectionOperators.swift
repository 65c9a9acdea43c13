import Foundation

/// Apple's key-value coding collection operators: `@count`, `@sum`, `@avg`, `@min`, `@max`,
/// `@unionOfObjects`, `@distinctUnionOfObjects`, `@unionOfArrays`, `@distinctUnionOfArrays`,
/// `@distinctUnionOfSets`.
///
/// ```swift
/// try KeyPathEvaluator.value(of: ["a": [3, 1, 2]], forKeyPath: "a.@max")        // 3
/// try KeyPathEvaluator.value(of: people, forKeyPath: "@distinctUnionOfObjects.city")
/// ```
///
/// Results: `@count` is an `Int`; `@sum` is an `Int` when every value is an integer, a
/// `Decimal` when any value is a `Decimal`, otherwise a `Double` (Apple returns
/// `NSDecimalNumber`; the values compare equal); `@avg` is a `Double` (or `Decimal`), `0` for
/// an empty collection like Apple's; `@min`/`@max` return the extreme element itself (numbers,
/// strings, dates), nil when there is none. nil and `NSNull` elements are skipped.
enum KeyPathCollectionOperators {
    static func apply(_ op: String, to value: Any, rest: ArraySlice<String>) throws -> Any? {
        guard let (elements, _) = KVCValueKinds.collection(value) else {
            throw KeyValueCodingError.undefinedKey(op, in: String(describing: type(of: value)))
        }
        if op == "@count" { return elements.count }

        // The operand of every other operator is the rest of the path applied to each element.
        func mapped() throws -> [Any] {
            var result: [Any] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                let v = rest.isEmpty ? KVCValueKinds.unwrap(element) : try KeyPathEvaluator.value(of: element, forKeyPathComponents: rest)
                if let v, !KVCValueKinds.isNull(v) { result.append(v) }
            }
            return result
        }

        switch op {
        case "@sum":
            return try sum(mapped(), op: op)
        case "@avg":
            let values = try mapped()
            let total = try sum(values, op: op)
            if values.isEmpty { return 0 }
            switch NumericValue(total) {
            case .decimal(let d)?: return d / Decimal(values.count)
            case let n?: return n.doubleValue / Double(values.count)
            case nil: return nil
            }
        case "@min", "@max":
            var best: Any?
            for v in try mapped() {
                guard let current = best else { best = v; continue }
                guard let order = ValueComparison.compare(v, current, folding: .none) else {
                    throw KeyPathCollectionOperators.incomparable(op, v, current)
                }
                if (op == "@min" && order == .orderedAscending) || (op == "@max" && order == .orderedDescending) {
                    best = v
                }
            }
            return best
        case "@unionOfObjects":
            return try mapped()
        case "@distinctUnionOfObjects":
            return distinct(try mapped())
        case "@unionOfArrays", "@distinctUnionOfArrays", "@distinctUnionOfSets":
            var flattened: [Any] = []
            for inner in try mapped() {
                guard let (innerElements, _) = KVCValueKinds.collection(inner) else {
                    throw KeyValueCodingError.undefinedKey(op, in: String(describing: type(of: inner)))
                }
                flattened.append(contentsOf: innerElements.compactMap { KVCValueKinds.unwrap($0) }.filter { !KVCValueKinds.isNull($0) })
            }
            if op == "@unionOfArrays" { return flattened }
            let unique = distinct(flattened)
            return op == "@distinctUnionOfSets" ? KVCValueKinds.makeCollection(unique, kind: .set) : unique
        default:
            throw KeyValueCodingError.undefinedKey(op, in: "collection operators (known: @count @sum @avg @min @max @unionOfObjects @distinctUnionOfObjects @unionOfArrays @distinctUnionOfArrays @distinctUnionOfSets)")
        }
    }

    /// Sums numeric values, keeping integers exact until a double or decimal appears.
    static func sum(_ values: [Any], op: String) throws -> Any {
        var total = NumericValue.int(0)
        for v in values {
            guard let n = NumericValue(v) else {
                throw NSError(domain: NSCocoaErrorDomain, code: CocoaError.keyValueValidation.rawValue, userInfo: [
                    NSLocalizedDescriptionKey: "\(op) needs numbers, but found \(String(describing: type(of: v))) value \(v). Apply it to a numeric key path.",
                ])
            }
            total = total.adding(n)
        }
        return total.anyValue
    }

    /// Values in first-seen order with duplicates (by predicate equality) removed. No value's
    /// own hash is trusted (see ``DistinctValues``): `@distinctUnionOf...` over collections of
    /// `NSOrderedSet`s must not trap.
    static func distinct(_ values: [Any]) -> [Any] {
        DistinctValues.unique(values)
    }

    private static func incomparable(_ op: String, _ a: Any, _ b: Any) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: CocoaError.keyValueValidation.rawValue, userInfo: [
            NSLocalizedDescriptionKey: "\(op) cannot order \(String(describing: type(of: a))) against \(String(describing: type(of: b))). Apply it to a key path whose values are all numbers, strings or dates.",
        ])
    }
}
