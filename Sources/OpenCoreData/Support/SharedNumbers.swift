import Foundation

/// `NSNumber`s of small integers and Booleans, made once and shared.
///
/// Core Data hands attribute values out as `NSNumber` (key-value coding, the per-key
/// `validate(_:value:)` of a ``PropertyValueValidating`` class, dictionary results), and
/// Foundation on Linux allocates each one: an allocation and a free per value handed out.
/// Apple's runtime gets small numbers for free as tagged pointers; this is the Linux stand-in.
/// Saving a validating object boxes every property for its validator, so an object of ten
/// small integer attributes paid for ten allocations per save.
///
/// ```swift
/// SharedNumbers.number(Int64(42))   // the same NSNumber every time
/// SharedNumbers.number(Int64(1 << 40))  // a new one
/// ```
///
/// Each integer type has its own table, so `objCType` is what `NSNumber(value:)` would give.
/// The tables are built on first use of their type.
enum SharedNumbers {
    /// The range shared: flags, enumerations, counts, small identifiers.
    static let range: ClosedRange<Int64> = -128...1023

    private static let int64s = range.map { NSNumber(value: $0) }
    private static let int32s = range.map { NSNumber(value: Int32($0)) }
    private static let int16s = range.map { NSNumber(value: Int16($0)) }
    private static let no = NSNumber(value: false)
    private static let yes = NSNumber(value: true)

    static func number(_ value: Int64) -> NSNumber {
        range.contains(value) ? int64s[Int(value - range.lowerBound)] : NSNumber(value: value)
    }

    static func number(_ value: Int32) -> NSNumber {
        range.contains(Int64(value)) ? int32s[Int(Int64(value) - range.lowerBound)] : NSNumber(value: value)
    }

    static func number(_ value: Int16) -> NSNumber {
        range.contains(Int64(value)) ? int16s[Int(Int64(value) - range.lowerBound)] : NSNumber(value: value)
    }

    static func number(_ value: Bool) -> NSNumber { value ? yes : no }
}
