import Foundation

/// Parses the value strings Xcode writes (`defaultValueString`, `minValueString`, ...) as
/// values of an attribute type, in the forms Core Data gives them: `NSNumber` for integers,
/// floating point and booleans, `NSDecimalNumber`, `String`, `Date`, `UUID`, `URL`.
enum XcodeValueParser {
    /// The value, or nil when `text` is not a valid value of `type` (or the type has no literal
    /// form, like Binary and Transformable).
    static func value(_ text: String, as type: NSAttributeType) -> Any? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16AttributeType: return integer(trimmed).flatMap { Int16(exactly: $0) }.map { NSNumber(value: $0) }
        case .integer32AttributeType: return integer(trimmed).flatMap { Int32(exactly: $0) }.map { NSNumber(value: $0) }
        case .integer64AttributeType: return integer(trimmed).map { NSNumber(value: $0) }
        case .doubleAttributeType: return Double(trimmed).map { NSNumber(value: $0) }
        case .floatAttributeType: return Float(trimmed).map { NSNumber(value: $0) }
        case .decimalAttributeType:
            guard Double(trimmed) != nil, let decimal = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            return NSDecimalNumber(decimal: decimal)
        case .booleanAttributeType:
            switch trimmed.lowercased() {
            case "yes", "true", "1": return NSNumber(value: true)
            case "no", "false", "0": return NSNumber(value: false)
            default: return nil
            }
        case .stringAttributeType: return text
        case .dateAttributeType: return date(trimmed)
        case .UUIDAttributeType: return UUID(uuidString: trimmed)
        case .URIAttributeType: return URL(string: trimmed)
        default: return nil
        }
    }

    /// Xcode writes integers plainly, but hand-edited files have "3.0"; accept whole numbers.
    private static func integer(_ text: String) -> Int64? {
        if let i = Int64(text) { return i }
        if let d = Double(text), d.rounded() == d, let i = Int64(exactly: d) { return i }
        return nil
    }

    /// Dates as Xcode displays them: "2013-04-23 12:00:00 +0000", "2010-01-01 01:00:00",
    /// "2020-02-03 04:00" (GMT when no zone is given).
    private static func date(_ text: String) -> Date? {
        for format in ["yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// Xcode's name of a type, for messages.
    static func typeName(_ type: NSAttributeType) -> String {
        XcodeModelReader.attributeTypes.first { $0.value == type && $0.key != "ObjectID" }?.key ?? "\(type)"
    }
}
