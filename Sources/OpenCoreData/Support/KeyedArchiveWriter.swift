import Foundation

/// Writes an `NSKeyedArchiver` archive object by object, for classes Linux can't archive itself
/// (the model classes of a compiled `.mom`): the reverse of ``KeyedArchiveObjects``.
///
/// ```swift
/// let writer = KeyedArchiveWriter()
/// let name = writer.string("Car")
/// let root = writer.object("NSEntityDescription", ["NSEntityName": name])
/// let data = try writer.archive(root: root)      // a binary property list, "bplist00…"
/// ```
///
/// Values are property-list fragments (``Value``): references to archived objects, or inline
/// integers, reals and Booleans as keyed archives keep them. Strings, data and collections
/// are archived objects, shared where the same string is written twice, as Apple's archiver
/// does. The archive is built as XML and converted to binary by `PropertyListSerialization`,
/// which turns XML `CF$UID` dictionaries into archive UIDs on every platform.
final class KeyedArchiveWriter {
    /// A property-list fragment: an object reference (`CF$UID`) or an inline scalar.
    struct Value {
        fileprivate let xml: String
    }

    private var objects: [String] = ["<string>$null</string>"]
    private var classes: [String: Int] = [:]
    private var strings: [String: Int] = [:]

    /// `$null`: Apple's nil.
    var null: Value { reference(0) }

    func integer(_ value: Int) -> Value { Value(xml: "<integer>\(value)</integer>") }
    func real(_ value: Double) -> Value { Value(xml: "<real>\(value)</real>") }
    func bool(_ value: Bool) -> Value { Value(xml: value ? "<true/>" : "<false/>") }

    private func reference(_ index: Int) -> Value { Value(xml: "<dict><key>CF$UID</key><integer>\(index)</integer></dict>") }

    private func add(_ xml: String) -> Value {
        objects.append(xml)
        return reference(objects.count - 1)
    }

    /// A slot for an object that others refer to before it is written (``define(_:_:_:)``).
    func reserve() -> (index: Int, value: Value) {
        objects.append("<string>$null</string>")
        return (objects.count - 1, reference(objects.count - 1))
    }

    /// XML 1.0 can't hold most control characters, even escaped: such strings are archived as
    /// `NSString` objects holding UTF-16 data instead (`NS.bytes` is not read here, so none are
    /// expected in a model; a name with a control character is refused earlier).
    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    func string(_ text: String) -> Value {
        if let index = strings[text] { return reference(index) }
        let value = add("<string>\(Self.escaped(text))</string>")
        strings[text] = objects.count - 1
        return value
    }

    func data(_ bytes: Data) -> Value { add("<data>\(bytes.base64EncodedString())</data>") }

    private func classReference(_ name: String, _ superclasses: [String]) -> Value {
        if let index = classes[name] { return reference(index) }
        let chain = ([name] + superclasses + ["NSObject"]).map { "<string>\($0)</string>" }.joined()
        let value = add("<dict><key>$classname</key><string>\(name)</string><key>$classes</key><array>\(chain)</array></dict>")
        classes[name] = objects.count - 1
        return value
    }

    private func body(_ className: String, _ superclasses: [String], _ fields: [String: Value]) -> String {
        var xml = "<dict><key>$class</key>\(classReference(className, superclasses).xml)"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) { xml += "<key>\(Self.escaped(key))</key>\(value.xml)" }
        return xml + "</dict>"
    }

    /// An archived object of `className` with `fields`.
    func object(_ className: String, superclasses: [String] = [], _ fields: [String: Value]) -> Value {
        add(body(className, superclasses, fields))
    }

    /// Writes the object of a reserved slot.
    func define(_ slot: Int, _ className: String, superclasses: [String] = [], _ fields: [String: Value]) {
        objects[slot] = body(className, superclasses, fields)
    }

    func array(_ elements: [Value], className: String = "NSArray") -> Value {
        object(className, ["NS.objects": Value(xml: "<array>\(elements.map(\.xml).joined())</array>")])
    }

    func dictionary(_ pairs: [(String, Value)], className: String = "NSDictionary") -> Value {
        object(className, ["NS.keys": Value(xml: "<array>\(pairs.map { string($0.0).xml }.joined())</array>"),
                           "NS.objects": Value(xml: "<array>\(pairs.map(\.1.xml).joined())</array>")])
    }

    /// A plain value as Foundation archives it: strings, numbers, Booleans, data, dates, UUIDs,
    /// URLs, decimal numbers, and arrays and string-keyed dictionaries of them; nil for anything
    /// else (the caller says what was left out).
    func plainValue(_ value: Any) -> Value? {
        switch value {
        case let s as String: return string(s)
        case let d as Decimal: return decimal(d)
        case let n as NSDecimalNumber: return decimal(n.decimalValue)
        case let b as Bool where type(of: value) == Bool.self: return bool(b)
        case let n as NSNumber:
            // A plist integer is 64-bit; doubles and floats keep their fraction.
            let kind = String(cString: n.objCType)
            return kind == "d" || kind == "f" ? real(n.doubleValue) : integer(n.intValue)
        case let d as Data: return data(d)
        case let date as Date: return object("NSDate", ["NS.time": real(date.timeIntervalSinceReferenceDate)])
        case let uuid as UUID:
            return object("NSUUID", ["NS.uuidbytes": data(withUnsafeBytes(of: uuid.uuid) { Data($0) })])
        case let url as URL:
            return object("NSURL", ["NS.base": null, "NS.relative": string(url.absoluteString)])
        case let list as [Any]:
            var elements: [Value] = []
            for element in list { guard let v = plainValue(element) else { return nil }; elements.append(v) }
            return array(elements)
        case let dictionary as [String: Any]:
            var pairs: [(String, Value)] = []
            for (key, element) in dictionary.sorted(by: { $0.key < $1.key }) { guard let v = plainValue(element) else { return nil }; pairs.append((key, v)) }
            return self.dictionary(pairs)
        default:
            return nil
        }
    }

    /// An `NSDecimalNumber` as Foundation archives it: the mantissa as eight little-endian
    /// 16-bit words, a decimal exponent, the sign and how many words are used. The mantissa is
    /// read from the decimal's digits (Decimal's own fields are internal on Linux); 38 digits,
    /// Decimal's most, fit in 128 bits.
    private func decimal(_ value: Decimal) -> Value {
        let text = "\(value)"
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        var mantissa: UInt128 = 0
        // Digits past 38 are the trailing zeros of a large whole number: each one not taken
        // into the mantissa raises the exponent.
        var dropped = 0
        for digit in parts.joined() {
            guard let d = digit.wholeNumberValue else { continue }
            let (times, o1) = mantissa.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt128(d))
            if o1 || o2 || dropped > 0 { dropped += 1; continue }
            mantissa = plus
        }
        let exponent = (parts.count > 1 ? -parts[1].count : 0) + dropped
        var bytes = Data()
        var length = 0
        for i in 0..<8 {
            let word = UInt16(truncatingIfNeeded: mantissa >> (16 * i))
            if word != 0 { length = i + 1 }
            bytes.append(UInt8(word & 0xFF)); bytes.append(UInt8(word >> 8))
        }
        return object("NSDecimalNumber", ["NS.mantissa": data(bytes), "NS.mantissa.bo": integer(1), "NS.exponent": integer(exponent),
                                          "NS.length": integer(length), "NS.negative": bool(negative && mantissa != 0), "NS.compact": bool(true)])
    }

    /// The archive as a binary property list, `root` as `$top.root`.
    func archive(root: Value) throws -> Data {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>$archiver</key><string>NSKeyedArchiver</string>
        <key>$version</key><integer>100000</integer>
        <key>$top</key><dict><key>root</key>\(root.xml)</dict>
        <key>$objects</key><array>\(objects.joined(separator: "\n"))</array>
        </dict></plist>
        """
        let plist = try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil)
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }
}
