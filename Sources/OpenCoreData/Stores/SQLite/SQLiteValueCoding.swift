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
/// | Transformable | BLOB: the named `ValueTransformer`'s data, or an `NSKeyedArchiver` archive (see below) |
///
/// Transformable values are archived with `NSKeyedArchiver` when they are `NSCoding` objects.
/// A `ValueTransformer` layer (with `NSSecureUnarchiveFromData` as the default, as on Apple
/// platforms) is still to come; until then other values are refused at save with an error that
/// says so, and an archive that does not decode is handed back as its `Data`.
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
            throw SQLiteCodingError("attribute '\(attribute.name)' holds an object ID; the SQLite store stores object IDs only in relationships")
        case .boxed(let box):
            guard attribute.attributeType == .transformableAttributeType else {
                throw SQLiteCodingError("attribute '\(attribute.name)' holds a \(type(of: box.value)), not a value of its type \(attribute.attributeType)")
            }
            if let transformer = customTransformer(of: attribute) {
                guard let data = transformer.storedData(for: box.value) else {
                    throw SQLiteCodingError("transformable attribute '\(attribute.name)': value transformer '\(attribute.valueTransformerName ?? "")' did not turn the \(type(of: box.value)) into Data")
                }
                return .blob(data)
            }
            if let data = box.value as? Data { return .blob(data) }
            guard let object = box.value as? NSObject, object is NSCoding else {
                throw SQLiteCodingError("transformable attribute '\(attribute.name)' holds a \(type(of: box.value)), which is not an NSCoding object. Store NSCoding objects (NSString, NSArray, NSDictionary, your NSSecureCoding class) or Data, or name a registered ValueTransformer in valueTransformerName")
            }
            do {
                return .blob(try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false))
            } catch {
                throw SQLiteCodingError("transformable attribute '\(attribute.name)': NSKeyedArchiver failed: \(error.localizedDescription)")
            }
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
            guard let data = row.blob(at: index) else { return .null }
            if let transformer = customTransformer(of: attribute) {
                return transformer.value(fromStored: data).map { .boxed(AnyBox($0)) } ?? .null
            }
            return .boxed(AnyBox(unarchive(data) ?? data))
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return .null
        }
    }

    /// The transformer an attribute names, unless it is one of the keyed-archive defaults, which
    /// the store applies itself (leniently, so an Apple app's own classes come back as bytes).
    private static func customTransformer(of attribute: NSAttributeDescription) -> ValueTransformer? {
        guard let name = attribute.valueTransformerName, !name.isEmpty,
              ![NSValueTransformerName.secureUnarchiveFromDataTransformerName, .keyedUnarchiveFromDataTransformerName, .unarchiveFromDataTransformerName]
                .map(\.rawValue).contains(name) else { return nil }
        return ValueTransformer.registered(NSValueTransformerName(name))
    }

    /// The archived root object, or nil when `data` is not a keyed archive or names a class
    /// this process does not have.
    private static func unarchive(_ data: Data) -> Any? {
        guard UntrustedPropertyList.binaryProblem(data) == nil, let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = false
        // The default policy on Linux traps on an archive of an unknown class (an Apple app's
        // own NSSecureCoding types, say); report failure instead and keep the bytes.
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    }
}

/// A value the SQLite store can't write; the store reports it as a save error.
struct SQLiteCodingError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
