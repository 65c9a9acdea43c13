import Foundation

/// An `NSKeyedArchiver` archive read as a plain property list: its `$objects` and the UID
/// references between them, for archives of classes Linux doesn't have (Xcode 3 models,
/// Xcode's compiled mapping models, archived `NSExpression`s). Every lookup is bounds-checked: a damaged
/// archive gives nil, never a trap.
///
/// ```swift
/// let archive = try KeyedArchiveObjects(data)
/// let root = archive.dict(archive.top["root"])
/// archive.className(of: root!)            // "NSMappingModel"
/// archive.string(root!["NSMappingName"])   // follows the UID to the string
/// ```
struct KeyedArchiveObjects {
    let objects: [Any]
    let top: [String: Any]

    init(objects: [Any], top: [String: Any]) {
        self.objects = objects
        self.top = top
    }

    /// Nil when `data` is not a property list holding a keyed archive.
    init?(_ data: Data) {
        guard let plist = try? UntrustedPropertyList.propertyList(from: data) as? [String: Any],
              let objects = plist["$objects"] as? [Any], let top = plist["$top"] as? [String: Any] else { return nil }
        self.objects = objects
        self.top = top
    }

    /// The index of an archive UID (`CF$UID`): on Linux an `_NSKeyedArchiverUID` with a `value`
    /// field, on Apple platforms a `CFKeyedArchiverUID` whose description holds `value = n`.
    func uid(_ value: Any) -> Int? {
        if value is String || value is NSNumber || value is [Any] || value is [String: Any] || value is Data { return nil }
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let n = child.value as? UInt32 { return Int(n) }
            if let n = child.value as? Int { return n }
            if let n = child.value as? UInt64 { return Int(clamping: n) }
        }
        let text = String(describing: value)
        guard text.contains("UID"), let range = text.range(of: "value = ") else { return nil }
        return Int(text[range.upperBound...].prefix(while: \.isNumber))
    }

    /// Follows a UID to its object; "$null" is nil.
    func resolve(_ value: Any?) -> Any? {
        guard let value else { return nil }
        guard let index = uid(value) else { return value }
        guard objects.indices.contains(index) else { return nil }
        let object = objects[index]
        if let s = object as? String, s == "$null" { return nil }
        return object
    }

    func dict(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }

    func string(_ value: Any?) -> String? {
        let resolved = resolve(value)
        if let s = resolved as? String { return s }
        if let d = resolved as? [String: Any], let s = resolve(d["NS.string"]) as? String { return s }
        return nil
    }

    func int(_ value: Any?) -> Int? {
        // No `is Bool` test: on Linux every NSNumber 0 or 1 casts to Bool.
        let resolved = resolve(value)
        return (resolved as? NSNumber)?.intValue ?? (resolved as? Int)
    }

    func bool(_ value: Any?) -> Bool? {
        let resolved = resolve(value)
        if let b = resolved as? Bool { return b }
        return (resolved as? NSNumber)?.boolValue
    }

    func data(_ value: Any?) -> Data? {
        let resolved = resolve(value)
        if let d = resolved as? Data { return d }
        return dict(value).flatMap { resolve($0["NS.data"]) as? Data }
    }

    func className(of object: [String: Any]) -> String? {
        dict(object["$class"]).flatMap { $0["$classname"] as? String }
    }

    /// The objects of an archived NSArray/NSSet.
    func array(_ value: Any?) -> [Any] {
        let resolved = resolve(value)
        if let list = resolved as? [Any] { return list }
        return dict(value).flatMap { $0["NS.objects"] as? [Any] } ?? []
    }

    /// The (key, value) pairs of an archived NSDictionary with string keys.
    func pairs(_ value: Any?) -> [(String, Any)] {
        guard let d = dict(value), let keys = d["NS.keys"] as? [Any], let values = d["NS.objects"] as? [Any] else { return [] }
        return zip(keys, values).compactMap { key, value in string(key).map { ($0, value) } }
    }

    /// The most values one ``plainValue(_:depth:)`` builds. Collections may share members, so an
    /// archive of 60 levels of two references each to the level below is 60 objects that would
    /// expand to 2^60 values; past the budget, values read as nil.
    static let plainValueBudget = 100_000

    /// A plain value: string, number, data, date (`NS.time`), UUID, URL, decimal number, or an
    /// array or dictionary of them.
    /// Nesting deeper than `depth` (an archive whose collections contain themselves, say), or
    /// more than ``plainValueBudget`` values in all, reads as nil instead of recursing until the
    /// stack overflows or the memory runs out.
    func plainValue(_ value: Any?, depth: Int = 64) -> Any? {
        var budget = Self.plainValueBudget
        return plainValue(value, depth: depth, budget: &budget)
    }

    /// An archived `NSDecimalNumber`: up to eight 16-bit words of mantissa (least significant
    /// first, in the byte order `NS.mantissa.bo` names), a decimal exponent and a sign.
    private func decimal(_ object: [String: Any]) -> Decimal? {
        guard let mantissa = resolve(object["NS.mantissa"]) as? Data, let exponent = int(object["NS.exponent"]),
              let length = int(object["NS.length"]), (0...8).contains(length), mantissa.count >= 2 * length,
              (-128...127).contains(exponent) else { return nil }
        let littleEndian = (int(object["NS.mantissa.bo"]) ?? 1) == 1
        var value = Decimal(0)
        for i in stride(from: length - 1, through: 0, by: -1) {
            let low = UInt16(mantissa[mantissa.startIndex + 2 * i]), high = UInt16(mantissa[mantissa.startIndex + 2 * i + 1])
            value = value * 65536 + Decimal(littleEndian ? high << 8 | low : low << 8 | high)
        }
        value *= Decimal(sign: .plus, exponent: exponent, significand: 1)
        return bool(object["NS.negative"]) == true ? -value : value
    }

    private func plainValue(_ value: Any?, depth: Int, budget: inout Int) -> Any? {
        guard depth > 0, budget > 0 else { return nil }
        budget -= 1
        let resolved = resolve(value)
        switch resolved {
        case nil: return nil
        case let s as String: return s
        case let n as NSNumber: return n
        case let d as Data: return d
        case let object as [String: Any]:
            if let s = string(value) { return s }
            if let t = (resolve(object["NS.time"]) as? NSNumber)?.doubleValue { return Date(timeIntervalSinceReferenceDate: t) }
            if let bytes = resolve(object["NS.uuidbytes"]) as? Data, bytes.count == 16 { return UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }) }
            if let relative = string(object["NS.relative"]) {
                return URL(string: relative, relativeTo: (plainValue(object["NS.base"], depth: depth - 1, budget: &budget) as? URL))
            }
            if let decimal = decimal(object) { return NSDecimalNumber(decimal: decimal) }
            if object["NS.keys"] != nil {
                var result: [String: Any] = [:]
                for (key, v) in pairs(value) { result[key] = plainValue(v, depth: depth - 1, budget: &budget) }
                return result
            }
            if object["NS.objects"] != nil { return array(value).map { plainValue($0, depth: depth - 1, budget: &budget) ?? NSNull() } }
            if let d = data(value) { return d }
            return nil
        default: return nil
        }
    }
}
