import Foundation

/// An element of a parsed Xcode model file: name, attributes and child elements (the format
/// puts nothing in text content, so text is dropped). ``XcodeXMLParser`` builds the tree.
final class XcodeXMLElement {
    let name: String
    let attributes: [String: String]
    var children: [XcodeXMLElement] = []
    /// The element's text content as UTF-8, kept only when parsing a store document.
    var textBytes: [UInt8] = []

    /// The element's text content (store documents only; empty for model files).
    var text: String { String(decoding: textBytes, as: UTF8.self) }

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// The child elements named `name`, in document order.
    func elements(forName name: String) -> [XcodeXMLElement] {
        children.filter { $0.name == name }
    }

    /// The attribute `name`'s text, or nil when absent.
    func string(_ name: String) -> String? {
        attributes[name]
    }

    /// A `YES`/`NO` attribute; `defaultValue` when absent or unrecognised.
    func bool(_ name: String, default defaultValue: Bool = false) -> Bool {
        guard let text = string(name)?.trimmingCharacters(in: .whitespaces).lowercased() else { return defaultValue }
        switch text {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: return defaultValue
        }
    }

    /// An integer attribute, or nil when absent or not an integer.
    func int(_ name: String) -> Int? {
        string(name).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The `<userInfo><entry key value/></userInfo>` child as a dictionary, or nil when absent.
    var userInfoEntries: [AnyHashable: Any]? {
        guard let info = elements(forName: "userInfo").first else { return nil }
        var result: [AnyHashable: Any] = [:]
        for entry in info.elements(forName: "entry") {
            guard let key = entry.string("key") else { continue }
            result[key] = entry.string("value") ?? ""
        }
        return result
    }
}
