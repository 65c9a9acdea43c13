import Foundation

/// One property value as Core Data keeps it: typed, unboxed, comparable, free of objects.
///
/// Snapshots, stores and undo use this form; `value(forKey:)` converts to `Any` only at the
/// public boundary. Relationships appear as object IDs here (`.objectID`, `.objectIDs`).
enum StoredValue: @unchecked Sendable {
    // @unchecked Sendable: every payload is a value type or an immutable Sendable class, except
    // `.boxed`, which holds transformable values; those are handed between contexts only as
    // immutable values (Core Data copies them on save), and mis-typed values never leave a context.
    case null
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case string(String)
    case date(Date)
    case data(Data)
    case decimal(Decimal)
    case uuid(UUID)
    case url(URL)
    case objectID(NSManagedObjectID)
    case objectIDs([NSManagedObjectID])
    /// A transformable value, or a value of the wrong type that validation will reject at save.
    case boxed(AnyBox)

    var isNull: Bool { if case .null = self { return true } else { return false } }

    /// Whether two values are the same for change tracking.
    func isSame(as other: StoredValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case let (.integer(a), .integer(b)): return a == b
        case let (.double(a), .double(b)): return a == b || (a.isNaN && b.isNaN)
        case let (.bool(a), .bool(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.date(a), .date(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.decimal(a), .decimal(b)): return a == b
        case let (.uuid(a), .uuid(b)): return a == b
        case let (.url(a), .url(b)): return a == b
        case let (.objectID(a), .objectID(b)): return a == b
        case let (.objectIDs(a), .objectIDs(b)): return Set(a) == Set(b)
        case let (.boxed(a), .boxed(b)): return a.isSame(as: b)
        default: return false
        }
    }
}

/// Holds a value of any type, comparing by `Hashable` equality or object identity.
final class AnyBox: @unchecked Sendable {
    let value: Any
    init(_ value: Any) { self.value = value }
    func isSame(as other: AnyBox) -> Bool { Self.isSame(value, other.value, inDictionary: false) }

    /// Dictionaries (a composite attribute's values) compare entry by entry, and numbers in
    /// them by value, so a fetched value (`NSNumber`s) equal to the one set (`Double`, `Int16`,
    /// ...) is no change. A number on its own (a transformable value) keeps `Hashable`
    /// equality: `1` and `1.0` archive differently.
    private static func isSame(_ a: Any, _ b: Any, inDictionary: Bool) -> Bool {
        if let a = a as? [String: Any], let b = b as? [String: Any] {
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { isSame(value, $0, inDictionary: true) } ?? false }
        }
        if inDictionary, let na = NumericValue(a), let nb = NumericValue(b) { return na.compare(nb) == .orderedSame }
        if let a = a as? AnyHashable, let b = b as? AnyHashable { return a == b }
        if let a = a as AnyObject?, let b = b as AnyObject? { return a === b }
        return false
    }
}

extension StoredValue {
    /// Converts a public value to the attribute's stored form. A value of the wrong type is kept
    /// boxed, so the mistake is reported by validation at save (as on Apple platforms), not by a trap.
    init(_ value: Any?, for attribute: NSAttributeDescription) {
        guard let value else { self = .null; return }
        // The attribute's own Swift type first: one cast, where the general path below would
        // ask for NSNull and Optional conformance and try several numeric types (each a
        // runtime cast, the most of a batch insert's per-value cost). A value of exactly that
        // type converts the same way there.
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let i = value as? Int64 { self = .integer(i); return }
            if let i = value as? Int { self = .integer(Int64(i)); return }
        case .doubleAttributeType, .floatAttributeType:
            if let d = value as? Double { self = .double(d); return }
        case .stringAttributeType:
            if let s = value as? String { self = .string(s); return }
        case .dateAttributeType:
            if let d = value as? Date { self = .date(d); return }
        default:
            break
        }
        if isNSNull(value) { self = .null; return }
        if let optional = value as? OptionalProtocol {
            guard let unwrapped = optional.wrappedAny else { self = .null; return }
            self.init(unwrapped, for: attribute)
            return
        }
        switch attribute.attributeType {
        // Numbers are coerced to the attribute's type as Apple's framework does when it stores
        // an NSNumber: integers take `longLongValue` (a fraction is cut off toward zero),
        // Booleans `boolValue` (any number but zero is true). Range checks happen at save.
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let i = NumericConversion.truncatedInt64(value) { self = .integer(i); return }
        case .doubleAttributeType, .floatAttributeType:
            if let d = NumericConversion.double(value) { self = .double(d); return }
        case .booleanAttributeType:
            if let b = value as? Bool { self = .bool(b); return }
            if let d = NumericConversion.double(value), !d.isNaN { self = .bool(d != 0); return }
        case .decimalAttributeType:
            if let d = value as? Decimal { self = .decimal(d); return }
            if let n = value as? NSNumber, !(value is Bool) { self = .decimal(n.decimalValue); return }
            if let i = NumericConversion.int64(value) { self = .decimal(Decimal(i)); return }
            if let d = NumericConversion.double(value) { self = .decimal(Decimal(d)); return }
        case .stringAttributeType:
            if let s = value as? String { self = .string(s); return }
        case .dateAttributeType:
            if let d = value as? Date { self = .date(d); return }
        case .binaryDataAttributeType:
            if let d = value as? Data { self = .data(d); return }
        case .UUIDAttributeType:
            if let u = value as? UUID { self = .uuid(u); return }
        case .URIAttributeType:
            if let u = value as? URL { self = .url(u); return }
        case .objectIDAttributeType:
            if let id = value as? NSManagedObjectID { self = .objectID(id); return }
        case .transformableAttributeType, .undefinedAttributeType, .compositeAttributeType:
            break
        }
        self = .boxed(AnyBox(value))
    }

    /// Whether this value fits the attribute's type: the case must be the one the type stores
    /// (a boxed value fits only transformable, undefined and composite attributes).
    func fits(_ attribute: NSAttributeDescription) -> Bool { fits(attribute.attributeType) }

    func fits(_ type: NSAttributeType) -> Bool {
        switch (self, type) {
        case (.null, _): return true
        case (.integer, .integer16AttributeType), (.integer, .integer32AttributeType), (.integer, .integer64AttributeType): return true
        case (.double, .doubleAttributeType), (.double, .floatAttributeType): return true
        case (.bool, .booleanAttributeType), (.decimal, .decimalAttributeType), (.string, .stringAttributeType): return true
        case (.date, .dateAttributeType), (.data, .binaryDataAttributeType), (.uuid, .UUIDAttributeType): return true
        case (.url, .URIAttributeType), (.objectID, .objectIDAttributeType): return true
        case (_, .transformableAttributeType), (_, .undefinedAttributeType), (_, .compositeAttributeType): return true
        default: return false
        }
    }

    /// The public form: numbers as `NSNumber` (so `as? Int`, `as? Double` and `as? Bool` cast
    /// as they do on Apple platforms), other values as their Swift types.
    func publicValue(for attribute: NSAttributeDescription) -> Any? { publicValue(as: attribute.attributeType) }

    /// ``publicValue(for:)`` with numbers as `NSNumber`s of `type` (an aggregate's result type,
    /// for dictionary results).
    func publicValue(as type: NSAttributeType) -> Any? {
        switch self {
        case .null: return nil
        case .integer(let i):
            switch type {
            case .integer16AttributeType: return SharedNumbers.number(Int16(truncatingIfNeeded: i))
            case .integer32AttributeType: return SharedNumbers.number(Int32(truncatingIfNeeded: i))
            default: return SharedNumbers.number(i)
            }
        case .double(let d): return type == .floatAttributeType ? NSNumber(value: Float(d)) : NSNumber(value: d)
        case .bool(let b): return SharedNumbers.number(b)
        case .string(let s): return s
        case .date(let d): return d
        case .data(let d): return d
        case .decimal(let d): return d
        case .uuid(let u): return u
        case .url(let u): return u
        case .objectID(let id): return id
        case .objectIDs(let ids): return ids
        case .boxed(let box): return box.value
        }
    }
}

/// Whether `value` is `NSNull`, by its type: `value is NSNull` asks the runtime to bridge a Swift
/// value (an `Int64`) to an object first, an `NSNumber` allocated per test.
@inline(__always) func isNSNull(_ value: Any) -> Bool {
    ObjectIdentifier(type(of: value) as Any.Type) == ObjectIdentifier(NSNull.self)
}

/// Lets generic code look inside an `Optional` that arrives as `Any`.
protocol OptionalProtocol { var wrappedAny: Any? { get } }
extension Optional: OptionalProtocol {
    var wrappedAny: Any? { self.map { $0 as Any } }
}

/// Exact conversions between the numeric types a caller may pass in.
enum NumericConversion {
    static func int64(_ value: Any) -> Int64? {
        switch value {
        case let v as Int: return Int64(v)
        case let v as Int64: return v
        case let v as Int32: return Int64(v)
        case let v as Int16: return Int64(v)
        case let v as Int8: return Int64(v)
        case let v as UInt: return Int64(exactly: v)
        case let v as UInt64: return Int64(exactly: v)
        case let v as UInt32: return Int64(v)
        case let v as UInt16: return Int64(v)
        case let v as UInt8: return Int64(v)
        case let v as Bool: return v ? 1 : 0
        case let v as Double: return Int64(exactly: v)
        case let v as Float: return Int64(exactly: v)
        case let v as Decimal: return Int64(exactly: NSDecimalNumber(decimal: v).doubleValue)
        case let v as NSNumber: return Int64(exactly: v.doubleValue) ?? v.int64Value
        default: return nil
        }
    }

    /// `value` as an integer the way `NSNumber.longLongValue` reads it: exact integers as they
    /// are, other finite numbers cut toward zero. nil for what is not a number, NaN, an infinity
    /// or a number outside Int64's range (those stay wrong-typed, and validation reports them).
    static func truncatedInt64(_ value: Any) -> Int64? {
        if let exact = int64(value) { return exact }
        guard !(value is Bool), let d = double(value), d.isFinite else { return nil }
        return Int64(exactly: d.rounded(.towardZero))
    }

    static func double(_ value: Any) -> Double? {
        switch value {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as Decimal: return NSDecimalNumber(decimal: v).doubleValue
        case let v as NSNumber: return v.doubleValue
        default: return int64(value).map(Double.init)
        }
    }
}
