import Foundation

/// A number read from any of the numeric types managed objects and format arguments produce,
/// so predicates compare `Int16(3)`, `3.0`, `Decimal(3)`, `NSNumber(3)` and `true` by value.
///
/// ```swift
/// NumericValue(Int16(3)) == NumericValue(3.0)   // compare(...) == .orderedSame
/// NumericValue("3")                             // nil: strings are not numbers
/// ```
///
/// Integers stay exact (`Int64`) until a `Double` or `Decimal` takes part; `Bool` counts as 0/1,
/// as `NSNumber` does on Apple platforms.
public enum NumericValue: Sendable, CustomStringConvertible {
    case int(Int64)
    case double(Double)
    case decimal(Decimal)

    /// Reads `value` as a number, or nil when it is not one.
    @inlinable
    public init?(_ value: Any?) {
        guard let value else { return nil }
        // Exact metatype checks first: cheaper than dynamic casts for the common cases.
        let t = type(of: value)
        if t == Int.self, let v = value as? Int { self = .int(Int64(v)); return }
        if t == Double.self, let v = value as? Double { self = .double(v); return }
        if t == String.self || t == Date.self { return nil }
        // Foundation classes only for class instances: casting a Swift value to NSNumber bridges it.
        if KVCValueKinds.isObject(value) {
            if let v = value as? NSDecimalNumber { self = .decimal(v.decimalValue); return }
            if let v = value as? NSNumber { self = NumericValue(nsNumber: v); return }
            return nil
        }
        switch value {
        case is String: return nil
        case let v as Bool: self = .int(v ? 1 : 0)
        case let v as Int64: self = .int(v)
        case let v as Int32: self = .int(Int64(v))
        case let v as Int16: self = .int(Int64(v))
        case let v as Int8: self = .int(Int64(v))
        case let v as UInt8: self = .int(Int64(v))
        case let v as UInt16: self = .int(Int64(v))
        case let v as UInt32: self = .int(Int64(v))
        case let v as UInt: self = v <= UInt(Int64.max) ? .int(Int64(v)) : .double(Double(v))
        case let v as UInt64: self = v <= UInt64(Int64.max) ? .int(Int64(v)) : .double(Double(v))
        case let v as Float: self = .double(Double(v))
        case let v as Decimal: self = .decimal(v)
        case let v as CGFloat: self = .double(Double(v))
        default: return nil
        }
    }

    @usableFromInline
    init(nsNumber n: NSNumber) {
        switch String(cString: n.objCType) {
        case "f", "d": self = .double(n.doubleValue)
        case "Q", "L":
            let u = n.uint64Value
            self = u <= UInt64(Int64.max) ? .int(Int64(u)) : .double(Double(u))
        default: self = .int(n.int64Value)
        }
    }

    public var doubleValue: Double {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        }
    }

    /// The value truncated to an `Int` (saturating for doubles out of range).
    public var intValue: Int {
        switch self {
        case .int(let i): return Int(truncatingIfNeeded: i)
        case .double(let d):
            guard d.isFinite else { return 0 }
            if d >= Double(Int.max) { return Int.max }
            if d <= Double(Int.min) { return Int.min }
            return Int(d)
        case .decimal(let d): return NSDecimalNumber(decimal: d).intValue
        }
    }

    /// The value as a `Decimal`; NaN for doubles a `Decimal` cannot hold (infinities, NaN,
    /// magnitudes beyond 1e120), where `Decimal(_: Double)` would trap.
    public var decimalValue: Decimal {
        switch self {
        case .int(let i): return Decimal(i)
        case .double(let d): return NumericValue.fitsDecimal(d) ? Decimal(d) : .nan
        case .decimal(let d): return d
        }
    }

    static func fitsDecimal(_ d: Double) -> Bool {
        d.isFinite && d.magnitude < 1e120
    }

    /// Whether arithmetic with `other` should be done in `Decimal` (a decimal takes part and
    /// any double involved converts safely); otherwise it is done in `Double`.
    private func usesDecimalArithmetic(with other: NumericValue) -> Bool {
        switch (self, other) {
        case (.decimal, .double(let d)), (.double(let d), .decimal): return NumericValue.fitsDecimal(d)
        case (.decimal, _), (_, .decimal): return true
        default: return false
        }
    }

    /// The number as the natural Swift value: `Int`, `Double` or `Decimal`.
    public var anyValue: Any {
        switch self {
        case .int(let i): return Int(truncatingIfNeeded: i)
        case .double(let d): return d
        case .decimal(let d): return d
        }
    }

    public var description: String {
        switch self {
        case .int(let i): return String(i)
        case .double(let d): return NumericValue.format(d)
        case .decimal(let d): return d.description
        }
    }

    /// Prints a double the shortest way that parses back to the same value (`1` for 1.0).
    static func format(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        // Infinities print as a literal that overflows back to them when parsed.
        if d.isInfinite { return d > 0 ? "1e999" : "-1e999" }
        return String(d)
    }

    /// Orders two numbers by value.
    public func compare(_ other: NumericValue) -> ComparisonResult {
        switch (self, other) {
        case let (.int(a), .int(b)):
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        case (.decimal, .decimal), (.decimal, .int), (.int, .decimal):
            let a = decimalValue, b = other.decimalValue
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        default:
            // A double is involved: compare as doubles, the precision the double has (so the
            // Decimal 0.1 equals the Double 0.1 it prints and re-parses as).
            let a = doubleValue, b = other.doubleValue
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        }
    }

    /// A hashable key equal for numbers that compare equal (3, 3.0 and Decimal 3 share one).
    var hashKey: AnyHashable {
        switch self {
        case .int(let i): return AnyHashable(Double(i))
        case .double(let d): return AnyHashable(d)
        case .decimal(let d): return AnyHashable(NSDecimalNumber(decimal: d).doubleValue)
        }
    }

    // MARK: Arithmetic (integers stay exact; overflow falls back to Double)

    func adding(_ o: NumericValue) -> NumericValue {
        switch (self, o) {
        case let (.int(a), .int(b)):
            let (r, overflow) = a.addingReportingOverflow(b)
            return overflow ? .double(Double(a) + Double(b)) : .int(r)
        case _ where usesDecimalArithmetic(with: o): return .decimal(decimalValue + o.decimalValue)
        default: return .double(doubleValue + o.doubleValue)
        }
    }

    func subtracting(_ o: NumericValue) -> NumericValue {
        switch (self, o) {
        case let (.int(a), .int(b)):
            let (r, overflow) = a.subtractingReportingOverflow(b)
            return overflow ? .double(Double(a) - Double(b)) : .int(r)
        case _ where usesDecimalArithmetic(with: o): return .decimal(decimalValue - o.decimalValue)
        default: return .double(doubleValue - o.doubleValue)
        }
    }

    func multiplying(_ o: NumericValue) -> NumericValue {
        switch (self, o) {
        case let (.int(a), .int(b)):
            let (r, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? .double(Double(a) * Double(b)) : .int(r)
        case _ where usesDecimalArithmetic(with: o): return .decimal(decimalValue * o.decimalValue)
        default: return .double(doubleValue * o.doubleValue)
        }
    }

    /// Division is always floating point (Apple's `divide:by:` returns a double).
    func dividing(_ o: NumericValue) -> NumericValue {
        if usesDecimalArithmetic(with: o) {
            if o.decimalValue == 0 || o.decimalValue.isNaN { return .double(doubleValue / o.doubleValue) }
            return .decimal(decimalValue / o.decimalValue)
        }
        return .double(doubleValue / o.doubleValue)
    }

    func negated() -> NumericValue {
        switch self {
        case .int(let i): return i == .min ? .double(-Double(i)) : .int(-i)
        case .double(let d): return .double(-d)
        case .decimal(let d): return .decimal(-d)
        }
    }
}
