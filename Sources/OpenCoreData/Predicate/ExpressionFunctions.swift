import Foundation

/// `FIRST`, `LAST` and `SIZE` in `array[FIRST]`: kept as a constant of this type so they cannot
/// be confused with the strings `'FIRST'`.
enum PredicateIndexSymbol: String, Hashable, Sendable {
    case first = "FIRST"
    case last = "LAST"
    case size = "SIZE"
}

/// Apple's built-in `NSExpression` functions, by selector name.
///
/// ```swift
/// NSExpression(format: "sum({1, 2, 3})").expressionValue(with: nil, context: nil)    // 6
/// NSExpression(format: "uppercase:('abc')").expressionValue(with: nil, context: nil) // "ABC"
/// NSExpression(format: "2 ** 10").expressionValue(with: nil, context: nil)           // 1024
/// ```
enum ExpressionFunctions {
    /// Selector name → number of arguments, for every function the evaluator knows.
    static let arity: [String: Int] = [
        "sum:": 1, "count:": 1, "min:": 1, "max:": 1, "average:": 1, "median:": 1, "mode:": 1, "stddev:": 1,
        "add:to:": 2, "from:subtract:": 2, "multiply:by:": 2, "divide:by:": 2, "modulus:by:": 2, "raise:toPower:": 2,
        "sqrt:": 1, "log:": 1, "ln:": 1, "exp:": 1, "floor:": 1, "ceiling:": 1, "abs:": 1, "trunc:": 1,
        "random": 0, "random:": 1, "randomn:": 1, "now": 0,
        "uppercase:": 1, "lowercase:": 1, "canonical:": 1, "length:": 1, "noindex:": 1, "distinct:": 1,
        "bitwiseAnd:with:": 2, "bitwiseOr:with:": 2, "bitwiseXor:with:": 2, "leftshift:by:": 2, "rightshift:by:": 2,
        "onesComplement:": 1, "castObject:toType:": 2, "objectFrom:withIndex:": 2,
    ]

    /// Plain function names accepted in formats (`sum(x)`) and the selector each stands for.
    static let formatNames: [String: String] = [
        "sum": "sum:", "count": "count:", "min": "min:", "max": "max:", "average": "average:", "median": "median:",
        "mode": "mode:", "stddev": "stddev:", "sqrt": "sqrt:", "log": "log:", "ln": "ln:", "exp": "exp:",
        "floor": "floor:", "ceiling": "ceiling:", "abs": "abs:", "trunc": "trunc:", "random": "random",
        "randomn": "randomn:", "now": "now", "uppercase": "uppercase:", "lowercase": "lowercase:", "canonical": "canonical:", "length": "length:",
        "noindex": "noindex:", "distinct": "distinct:",
    ]

    static func call(_ name: String, arguments: [NSExpression], object: Any?, context: PredicateEvaluationContext) throws -> Any? {
        guard let expected = arity[name] else {
            throw PredicateEvaluationError.make("Unknown function '\(name)'. Known functions: \(arity.keys.sorted().joined(separator: " ")).")
        }
        guard arguments.count == expected else {
            throw PredicateEvaluationError.make("Function '\(name)' takes \(expected) argument(s) but was given \(arguments.count).")
        }
        // The index of `objectFrom:withIndex:` may be FIRST/LAST/SIZE, read before evaluating.
        if name == "objectFrom:withIndex:" {
            return try index(arguments[0].evaluate(object, context), arguments[1].evaluate(object, context))
        }
        let values = try arguments.map { try $0.evaluate(object, context) }
        return try apply(name, values)
    }

    static func apply(_ name: String, _ values: [Any?]) throws -> Any? {
        func number(_ i: Int) throws -> NumericValue? {
            if KVCValueKinds.isNull(values[i]) { return nil }
            guard let n = NumericValue(values[i]) else {
                throw PredicateEvaluationError.make("Function '\(name)' needs a number, but argument \(i + 1) is \(String(describing: values[i]!)).")
            }
            return n
        }
        func numbers() throws -> [NumericValue] {
            let elements = KVCValueKinds.collection(values[0])?.elements ?? (KVCValueKinds.isNull(values[0]) ? [] : [values[0]!])
            return try elements.compactMap { e -> NumericValue? in
                if KVCValueKinds.isNull(e) { return nil }
                guard let n = NumericValue(e) else {
                    throw PredicateEvaluationError.make("Function '\(name)' needs a collection of numbers, but found \(e).")
                }
                return n
            }
        }
        func binary(_ f: (NumericValue, NumericValue) -> NumericValue) throws -> Any? {
            guard let a = try number(0), let b = try number(1) else { return nil }
            return f(a, b).anyValue
        }
        func integers(_ f: (Int, Int) -> Int) throws -> Any? {
            guard let a = try number(0), let b = try number(1) else { return nil }
            return f(a.intValue, b.intValue)
        }
        func unary(_ f: (Double) -> Double) throws -> Any? {
            guard let a = try number(0) else { return nil }
            return f(a.doubleValue)
        }
        switch name {
        case "sum:":
            return try numbers().reduce(NumericValue.int(0)) { $0.adding($1) }.anyValue
        case "count:":
            return KVCValueKinds.collection(values[0])?.elements.count ?? (KVCValueKinds.isNull(values[0]) ? 0 : 1)
        case "min:", "max:":
            let ns = try numbers()
            guard var best = ns.first else { return nil }
            for n in ns.dropFirst() {
                let order = n.compare(best)
                if (name == "min:" && order == .orderedAscending) || (name == "max:" && order == .orderedDescending) { best = n }
            }
            return best.anyValue
        case "average:":
            let ns = try numbers()
            guard !ns.isEmpty else { return nil }
            return ns.reduce(0.0) { $0 + $1.doubleValue } / Double(ns.count)
        case "median:":
            let ds = try numbers().map(\.doubleValue).sorted()
            guard !ds.isEmpty else { return nil }
            return ds.count % 2 == 1 ? ds[ds.count / 2] : (ds[ds.count / 2 - 1] + ds[ds.count / 2]) / 2
        case "mode:":
            // Apple returns an array of the most frequent values.
            let ns = try numbers()
            var counts: [AnyHashable: (Int, Any)] = [:]
            for n in ns { counts[n.hashKey, default: (0, n.anyValue)].0 += 1 }
            let top = counts.values.map(\.0).max() ?? 0
            return counts.values.filter { $0.0 == top }.map(\.1)
        case "stddev:":
            let ds = try numbers().map(\.doubleValue)
            guard !ds.isEmpty else { return nil }
            let mean = ds.reduce(0, +) / Double(ds.count)
            return (ds.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(ds.count)).squareRoot()
        case "add:to:": return try binary { $0.adding($1) }
        case "from:subtract:": return try binary { $0.subtracting($1) }
        case "multiply:by:": return try binary { $0.multiplying($1) }
        case "divide:by:": return try binary { $0.dividing($1) }
        case "modulus:by:":
            guard let a = try number(0), let b = try number(1) else { return nil }
            if case .int(let x) = a, case .int(let y) = b, y != 0 {
                // Int64.min % -1 overflows (and traps) in Swift; its remainder is 0.
                return Int(x.remainderReportingOverflow(dividingBy: y).partialValue)
            }
            return fmod(a.doubleValue, b.doubleValue)
        case "raise:toPower:":
            guard let a = try number(0), let b = try number(1) else { return nil }
            let result = pow(a.doubleValue, b.doubleValue)
            if case .int = a, case .int(let e) = b, e >= 0, result.magnitude < 9.0e15 { return Int(result) }
            return result
        case "sqrt:": return try unary { $0.squareRoot() }
        case "log:": return try unary { log10($0) }
        case "ln:": return try unary { Foundation.log($0) }
        case "exp:": return try unary { Foundation.exp($0) }
        case "floor:": return try unary { $0.rounded(.down) }
        case "ceiling:": return try unary { $0.rounded(.up) }
        case "trunc:": return try unary { $0.rounded(.towardZero) }
        case "abs:":
            guard let a = try number(0) else { return nil }
            switch a {
            case .int(let i): return i == .min ? Double(i).magnitude : Int(i.magnitude)
            case .double(let d): return d.magnitude
            case .decimal(let d): return d < 0 ? -d : d
            }
        case "random": return Double.random(in: 0..<1)
        case "random:":
            return KVCValueKinds.collection(values[0])?.elements.randomElement()
        case "randomn:":
            guard let n = try number(0), n.intValue > 0 else { return 0 }
            return Int.random(in: 0..<n.intValue)
        case "now": return Date()
        case "uppercase:", "lowercase:", "canonical:", "length:":
            if KVCValueKinds.isNull(values[0]) { return nil }
            guard let s = KVCValueKinds.string(values[0]) else {
                throw PredicateEvaluationError.make("Function '\(name)' needs a string, but got \(values[0]!).")
            }
            if name == "length:" { return s.utf16.count }
            // Apple's canonical form (derived attributes): case- and diacritic-folded, as [cd] compares.
            if name == "canonical:" { return PredicateStringFolding.fold(s, caseInsensitive: true, diacriticInsensitive: true) }
            return name == "uppercase:" ? s.uppercased() : s.lowercased()
        case "noindex:": return values[0]
        case "distinct:":
            return KeyPathCollectionOperators.distinct(KVCValueKinds.collection(values[0])?.elements ?? [])
        case "bitwiseAnd:with:": return try integers(&)
        case "bitwiseOr:with:": return try integers(|)
        case "bitwiseXor:with:": return try integers(^)
        case "leftshift:by:": return try integers { $0 << $1 }
        case "rightshift:by:": return try integers { $0 >> $1 }
        case "onesComplement:":
            guard let a = try number(0) else { return nil }
            return ~a.intValue
        case "castObject:toType:":
            guard let type = KVCValueKinds.string(values[1]) else {
                throw PredicateEvaluationError.make("CAST needs a class name string as its second argument, like CAST(x, 'NSDate').")
            }
            return try cast(values[0], to: type)
        default:
            throw PredicateEvaluationError.make("Function '\(name)' is not implemented.")
        }
    }

    /// `CAST(value, 'Type')`: the conversions Core Data predicates use.
    static func cast(_ value: Any?, to type: String) throws -> Any? {
        guard let value = KVCValueKinds.unwrap(value), !KVCValueKinds.isNull(value) else { return nil }
        switch type {
        case "NSDate", "Date":
            if let date = value as? Date { return date }
            if let n = NumericValue(value) { return Date(timeIntervalSinceReferenceDate: n.doubleValue) }
            if let s = KVCValueKinds.string(value), let d = Double(s) { return Date(timeIntervalSinceReferenceDate: d) }
        case "NSNumber":
            if let n = NumericValue(value) { return n.anyValue }
            if let date = value as? Date { return date.timeIntervalSinceReferenceDate }
            if let s = KVCValueKinds.string(value)?.trimmingCharacters(in: .whitespaces) {
                return Int(s) ?? Double(s) ?? 0
            }
        case "NSDecimalNumber", "Decimal":
            if let n = NumericValue(value) { return n.decimalValue }
            if let s = KVCValueKinds.string(value) { return Decimal(string: s) ?? Decimal(0) }
        case "NSString", "String":
            if let s = KVCValueKinds.string(value) { return s }
            if let n = NumericValue(value) { return n.description }
            return String(describing: value)
        case "NSUUID", "UUID":
            if let u = value as? UUID { return u }
            if let s = KVCValueKinds.string(value), let u = UUID(uuidString: s) { return u }
        case "NSURL", "URL":
            if let u = value as? URL { return u }
            if let s = KVCValueKinds.string(value), let u = URL(string: s) { return u }
        case "NSData", "Data":
            if let d = value as? Data { return d }
            if let s = KVCValueKinds.string(value), let d = Data(base64Encoded: s) { return d }
        default:
            throw PredicateEvaluationError.make("CAST to '\(type)' is not supported. Supported types: NSDate, NSNumber, NSDecimalNumber, NSString, NSUUID, NSURL, NSData.")
        }
        throw PredicateEvaluationError.make("CAST cannot convert \(value) to \(type).")
    }

    /// `collection[index]`: array index, `FIRST`, `LAST`, `SIZE`, or a dictionary key.
    static func index(_ collection: Any?, _ index: Any?) throws -> Any? {
        guard let collection = KVCValueKinds.unwrap(collection), !KVCValueKinds.isNull(collection) else { return nil }
        if let key = KVCValueKinds.string(index), KVCValueKinds.isDictionary(collection) {
            return try KeyPathEvaluator.value(of: collection, forKey: key)
        }
        guard let (elements, _) = KVCValueKinds.collection(collection) else {
            throw PredicateEvaluationError.make("Cannot index \(collection): [n], [FIRST], [LAST] and [SIZE] need an array or set.")
        }
        switch index {
        case let symbol as PredicateIndexSymbol:
            switch symbol {
            case .first: return elements.first
            case .last: return elements.last
            case .size: return elements.count
            }
        default:
            guard let n = NumericValue(index)?.intValue else {
                throw PredicateEvaluationError.make("An array index must be a number, FIRST, LAST or SIZE; got \(String(describing: index)).")
            }
            guard elements.indices.contains(n) else {
                throw PredicateEvaluationError.make("Index \(n) is out of range for a collection of \(elements.count) element(s).")
            }
            return elements[n]
        }
    }

    /// `FUNCTION(target, 'selector', ...)`. Without the Objective-C runtime, a selector without
    /// arguments is read as a key (so `FUNCTION(name, 'uppercaseString')` works); a selector
    /// naming one of the built-in functions is called with the target as its first argument.
    static func callMethod(_ selector: String, on target: Any?, arguments: [Any?]) throws -> Any? {
        if let receiver = target as? ExpressionMethodReceiver {
            return try receiver.callExpressionMethod(selector, arguments: arguments)
        }
        // Key-value coding's own selectors, which Xcode writes into mapping models.
        if (selector == "valueForKey:" || selector == "valueForKeyPath:"), arguments.count == 1, let key = arguments[0] as? String {
            return try KeyPathEvaluator.value(of: target, forKeyPathComponents: key.split(separator: ".").map(String.init)[...])
        }
        if !selector.contains(":") && arguments.isEmpty {
            return try KeyPathEvaluator.value(of: target, forKey: selector)
        }
        if let expected = arity[selector], expected == arguments.count + 1 {
            return try apply(selector, [target] + arguments)
        }
        throw PredicateEvaluationError.make("FUNCTION(..., '\(selector)') cannot be called: Linux has no Objective-C runtime. Use an argument-less key (such as 'uppercaseString') or a built-in function (\(arity.keys.sorted().joined(separator: " "))).")
    }
}

/// An object that answers `FUNCTION(object, 'selector:', ...)` itself. Linux has no Objective-C
/// message sending, so a target that wants its methods called from an expression (the migration
/// manager, an entity migration policy) dispatches on the selector's name here.
protocol ExpressionMethodReceiver {
    func callExpressionMethod(_ selector: String, arguments: [Any?]) throws -> Any?
}
