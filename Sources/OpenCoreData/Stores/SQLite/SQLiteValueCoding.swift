import CSQLite
import Foundation

/// Converts attribute values between ``StoredValue`` and the column values Apple's framework
/// writes, without boxing.
///
/// ```swift
/// let bound = try SQLiteValueCoding.columnValue(.date(d), for: startDate)   // .real(seconds since 2001)
/// let value = SQLiteValueCoding.storedValue(from: statement, at: 4, for: startDate)
/// ```
///
/// | attribute | column |
/// |---|---|
/// | Integer 16/32/64, Boolean | INTEGER (Boolean 0/1) |
/// | Double, Float | REAL |
/// | Date | REAL seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`) |
/// | Decimal | REAL, as in Apple's stores; read back with 15 significant digits (more are lost) |
/// | String | TEXT; URI: its `absoluteString` |
/// | UUID | BLOB of 16 bytes |
/// | Binary | BLOB |
/// | Transformable | BLOB: the named `ValueTransformer`'s data, or an `NSKeyedArchiver` archive (``TransformableValueCoding``) |
enum SQLiteValueCoding {
    /// The column value for `value` of `attribute`.
    static func columnValue(_ value: StoredValue, for attribute: NSAttributeDescription) throws -> SQLiteValue {
        switch value {
        case .null: return .null
        case .integer(let i): return .integer(i)
        case .double(let d): return .real(d)
        case .bool(let b): return .integer(b ? 1 : 0)
        case .string(let s): return .text(s)
        case .date(let d): return .real(d.timeIntervalSinceReferenceDate)
        case .data(let d): return .blob(d)
        case .decimal(let d): return .real(NSDecimalNumber(decimal: d).doubleValue)
        case .uuid(let u): return .blob(withUnsafeBytes(of: u.uuid) { Data($0) })
        case .url(let u): return .text(u.absoluteString)
        case .objectID, .objectIDs:
            throw StoreCodingError("attribute '\(attribute.name)' holds an object ID; the SQLite store stores object IDs only in relationships")
        case .boxed(let box):
            return .blob(try TransformableValueCoding.data(for: box.value, of: attribute))
        }
    }

    /// The value of `attribute` in column `index` of the statement's current row.
    ///
    /// Accepts whatever storage class the column holds (Apple's framework has written
    /// decimals as INTEGER or REAL, for example), so reading never traps on a foreign store.
    static func storedValue(from row: SQLiteStatement, at index: Int32, for attribute: NSAttributeDescription) -> StoredValue {
        let storage = row.storageClass(at: index)
        if storage == SQLITE_NULL { return .null }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return .integer(storage == SQLITE_FLOAT ? Int64(exactly: row.double(at: index).rounded(.towardZero)) ?? 0 : row.int64(at: index))
        case .booleanAttributeType:
            return .bool(row.int64(at: index) != 0)
        case .doubleAttributeType, .floatAttributeType:
            return .double(row.double(at: index))
        case .dateAttributeType:
            return .date(Date(timeIntervalSinceReferenceDate: row.double(at: index)))
        case .decimalAttributeType:
            switch storage {
            case SQLITE_INTEGER: return .decimal(Decimal(row.int64(at: index)))
            case SQLITE_TEXT: return Decimal(string: row.text(at: index) ?? "", locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) } ?? .null
            default:
                // Apple's framework stores a decimal through its Double value (3.3333333333 lands
                // as 3.3333333332999993); 15 significant digits, all a Double holds reliably,
                // give the decimal back.
                let double = row.double(at: index)
                return .decimal(Decimal(string: String(format: "%.15g", double), locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(double))
            }
        case .stringAttributeType:
            return row.text(at: index).map { .string($0) } ?? .null
        case .URIAttributeType:
            return row.text(at: index).flatMap { URL(string: $0) }.map { .url($0) } ?? .null
        case .UUIDAttributeType:
            if storage == SQLITE_BLOB, let data = row.blob(at: index), data.count == 16 {
                return .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
            }
            return row.text(at: index).flatMap { UUID(uuidString: $0) }.map { .uuid($0) } ?? .null
        case .binaryDataAttributeType:
            return row.blob(at: index).map { .data($0) } ?? .null
        case .transformableAttributeType:
            return row.blob(at: index).map { TransformableValueCoding.value(from: $0, of: attribute) } ?? .null
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return .null
        }
    }
}
