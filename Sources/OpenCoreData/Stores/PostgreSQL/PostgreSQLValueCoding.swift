import Foundation

/// Converts attribute values between ``StoredValue`` and the PostgreSQL column values of
/// ``PostgreSQLSchema``'s table (its type table says which column each attribute type gets).
///
/// ```swift
/// let bound = try PostgreSQLValueCoding.columnValue(.date(d), for: startDate)   // .double(seconds since 2001)
/// let value = PostgreSQLValueCoding.storedValue(.text("12.50"), for: price)     // .decimal(12.5)
/// ```
///
/// Values of another type than the attribute's (a store save without validation) are
/// converted where the conversion is exact, and refused otherwise, so a save never writes a
/// column of the wrong type.
enum PostgreSQLValueCoding {
    static func columnValue(_ value: StoredValue, for attribute: NSAttributeDescription) throws -> PostgreSQLValue {
        if case .null = value { return .null }
        switch (attribute.attributeType, value) {
        case (.integer16AttributeType, .integer(let i)), (.integer32AttributeType, .integer(let i)), (.integer64AttributeType, .integer(let i)):
            return .integer(i)
        case (.integer16AttributeType, .bool(let b)), (.integer32AttributeType, .bool(let b)), (.integer64AttributeType, .bool(let b)):
            return .integer(b ? 1 : 0)
        case (.booleanAttributeType, .bool(let b)): return .bool(b)
        case (.booleanAttributeType, .integer(let i)): return .bool(i != 0)
        case (.doubleAttributeType, .double(let d)), (.floatAttributeType, .double(let d)): return .double(d)
        case (.doubleAttributeType, .integer(let i)), (.floatAttributeType, .integer(let i)): return .double(Double(i))
        case (.dateAttributeType, .date(let d)): return .double(d.timeIntervalSinceReferenceDate)
        case (.dateAttributeType, .double(let d)): return .double(d)
        case (.decimalAttributeType, .decimal(let d)): return .text(Self.text(of: d))
        case (.decimalAttributeType, .integer(let i)): return .text(String(i))
        case (.decimalAttributeType, .double(let d)) where d.isFinite: return .text(Self.text(of: Decimal(d)))
        case (.stringAttributeType, .string(let s)): return .text(s)
        case (.URIAttributeType, .url(let u)): return .text(u.absoluteString)
        case (.URIAttributeType, .string(let s)): return .text(s)
        case (.UUIDAttributeType, .uuid(let u)): return .text(u.uuidString)
        case (.binaryDataAttributeType, .data(let d)): return .bytes(d)
        case (.transformableAttributeType, .data(let d)): return .bytes(d)
        case (.transformableAttributeType, .boxed(let box)): return .bytes(try TransformableValueCoding.data(for: box.value, of: attribute))
        default:
            throw StoreCodingError("attribute '\(attribute.entity?.name ?? "?").\(attribute.name)' holds \(value), not a value of its type \(attribute.attributeType)")
        }
    }

    /// The attribute's value in a column of its type (``columnValue(_:for:)``'s inverse). A
    /// value of another type than the column's (a table the store did not make) reads as nil.
    static func storedValue(_ value: PostgreSQLValue, for attribute: NSAttributeDescription) -> StoredValue {
        switch (attribute.attributeType, value) {
        case (_, .null): return .null
        case (.integer16AttributeType, .integer(let i)), (.integer32AttributeType, .integer(let i)), (.integer64AttributeType, .integer(let i)):
            return .integer(i)
        case (.booleanAttributeType, .bool(let b)): return .bool(b)
        case (.doubleAttributeType, .double(let d)), (.floatAttributeType, .double(let d)): return .double(d)
        case (.dateAttributeType, .double(let d)): return .date(Date(timeIntervalSinceReferenceDate: d))
        case (.decimalAttributeType, .text(let s)): return Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) } ?? .null
        case (.stringAttributeType, .text(let s)): return .string(s)
        case (.URIAttributeType, .text(let s)): return URL(string: s).map { .url($0) } ?? .null
        case (.UUIDAttributeType, .text(let s)): return UUID(uuidString: s).map { .uuid($0) } ?? .null
        case (.binaryDataAttributeType, .bytes(let d)): return .data(d)
        case (.transformableAttributeType, .bytes(let d)): return TransformableValueCoding.value(from: d, of: attribute)
        default: return .null
        }
    }

    /// A decimal as PostgreSQL's `numeric` reads it: plain digits, a point, no exponent.
    private static func text(of decimal: Decimal) -> String {
        var value = decimal
        return NSDecimalString(&value, Locale(identifier: "en_US_POSIX"))
    }
}
