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

    /// A default value that is not a literal of its attribute's type, read as Foundation's
    /// `NSString` conversions read it (`longLongValue`, `doubleValue`, `boolValue`): Xcode keeps
    /// the string when an attribute's type is changed (a Boolean left with "0.0", an Integer 64
    /// with "NO"), and Apple's model compiler stores an `NSNumber` of the conversion. nil for the
    /// types without such a conversion, and for whole numbers out of an integer type's range.
    static func foundationNumber(_ text: String, as type: NSAttributeType) -> NSNumber? {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        switch type {
        case .booleanAttributeType:
            // NSString.boolValue: after an optional sign and leading zeros, true on Y, y, T, t or 1–9.
            if let sign = rest.first, sign == "+" || sign == "-" { rest = rest.dropFirst() }
            rest = rest.drop { $0 == "0" }
            guard let first = rest.first else { return NSNumber(value: false) }
            return NSNumber(value: "YyTt123456789".contains(first))
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            // NSString.longLongValue: the leading digits after an optional sign; none is 0.
            var digits = ""
            if let sign = rest.first, sign == "+" || sign == "-" { digits.append(sign); rest = rest.dropFirst() }
            digits += rest.prefix { $0.isASCII && $0.isNumber }
            guard digits.count > (digits.first == "+" || digits.first == "-" ? 1 : 0) else { return NSNumber(value: Int64(0)) }
            guard let value = Int64(digits) else { return nil }
            switch type {
            case .integer16AttributeType: return Int16(exactly: value).map { NSNumber(value: $0) }
            case .integer32AttributeType: return Int32(exactly: value).map { NSNumber(value: $0) }
            default: return NSNumber(value: value)
            }
        case .doubleAttributeType, .floatAttributeType:
            // NSString.doubleValue: the longest leading number; none is 0.
            var best: Double = 0
            var prefix = ""
            for character in rest {
                prefix.append(character)
                if let value = Double(prefix) { best = value } else if !"+-.eE0123456789".contains(character) { break }
            }
            return type == .floatAttributeType ? NSNumber(value: Float(best)) : NSNumber(value: best)
        default:
            return nil
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
