import Foundation

/// A small, strict XML parser for Xcode model files: the XML declaration, comments, processing
/// instructions, elements, attributes (with the five predefined entities and character
/// references), text and CDATA (skipped). No DTDs, no external entities.
///
/// ```swift
/// let root = try XcodeXMLParser.parse(data)   // root.name == "model"
/// ```
///
/// Why not FoundationXML: on Linux both `XMLDocument(data:)` and `XMLParser` crash the process
/// on some malformed input (a null-pointer dereference for an unknown `encoding` in the XML
/// declaration, empty data or binary garbage; a trap in `XMLParser` for some attribute bytes),
/// found by this package's fuzz test. A model loader must survive any file it is pointed at, and
/// the model format needs only this subset of XML.
struct XcodeXMLParser {
    struct SyntaxError: Error, CustomStringConvertible {
        let message: String
        let line: Int
        var description: String { "line \(line): \(message)" }
    }

    /// The deepest nesting of elements accepted. Xcode's files nest a handful of levels (a
    /// mapping document about a dozen); without a limit, a hostile file of thousands of nested
    /// elements would overflow the stack when the element tree is freed, one `deinit` per level.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0
    /// Mapping models (`xcmapping.xml`, a Core Data XML store document) keep values in element
    /// text and start with `<!DOCTYPE database SYSTEM "...CoreData.dtd">`; model files do neither.
    private let forStoreDocument: Bool

    /// The root element of `data`, or a thrown ``SyntaxError`` saying where and why it is not
    /// well-formed.
    ///
    /// `storeDocument`: keep each element's text (``XcodeXMLElement/text``) and skip an external
    /// `DOCTYPE` (one with an internal subset, which could declare entities, is still refused).
    static func parse(_ data: Data, storeDocument: Bool = false) throws -> XcodeXMLElement {
        guard String(data: data, encoding: .utf8) != nil else {
            throw SyntaxError(message: "the file is not UTF-8 text", line: 1)
        }
        var parser = XcodeXMLParser(bytes: [UInt8](data), forStoreDocument: storeDocument)
        return try parser.document()
    }

    private init(bytes: [UInt8], forStoreDocument: Bool) {
        self.bytes = bytes
        self.forStoreDocument = forStoreDocument
        // A UTF-8 byte order mark is allowed before the declaration.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    // MARK: Document structure

    private mutating func document() throws -> XcodeXMLElement {
        var root: XcodeXMLElement?
        var stack: [XcodeXMLElement] = []
        while position < bytes.count {
            if peek("<?") {
                try processingInstruction(isFirst: position <= 3 && root == nil)
            } else if peek("<!--") {
                try skip(past: "-->", what: "comment")
            } else if peek("<![CDATA[") {
                guard !stack.isEmpty else { throw error("CDATA outside the root element") }
                try skip(past: "]]>", what: "CDATA section")
            } else if forStoreDocument && root == nil && peek("<!DOCTYPE") {
                let start = position
                try skip(past: ">", what: "DOCTYPE")
                if bytes[start..<position].contains(UInt8(ascii: "[")) {
                    throw error("a DOCTYPE with an internal subset (entity declarations) is not used by Xcode files")
                }
            } else if peek("<!") {
                throw error("DOCTYPE and other declarations are not used by Xcode models")
            } else if peek("</") {
                position += 2
                let name = try self.name()
                skipWhitespace()
                try expect(">")
                guard let open = stack.popLast() else { throw error("closing tag </\(name)> without an open element") }
                guard open.name == name else { throw error("closing tag </\(name)> does not match <\(open.name)>") }
            } else if peek("<") {
                position += 1
                let (element, selfClosing) = try startTag()
                if let parent = stack.last {
                    parent.children.append(element)
                } else if root == nil {
                    root = element
                } else {
                    throw error("a second root element <\(element.name)>")
                }
                if !selfClosing {
                    guard stack.count < Self.maximumDepth else {
                        throw error("elements nested more than \(Self.maximumDepth) elements deep; Xcode's files nest a few levels")
                    }
                    stack.append(element)
                }
            } else {
                // Text: allowed (and ignored) inside the root; only whitespace outside it.
                let byte = bytes[position]
                if stack.isEmpty && !Self.isWhitespace(byte) { throw error("text outside the root element") }
                if byte == 0 { throw error("a NUL byte") }
                if forStoreDocument, let open = stack.last {
                    if byte == UInt8(ascii: "&") {
                        open.textBytes += try reference()
                        continue
                    }
                    open.textBytes.append(byte)
                }
                position += 1
            }
        }
        guard let root else { throw error(bytes.isEmpty ? "the file is empty" : "no root element") }
        if let open = stack.last { throw error("the document ends before <\(open.name)> is closed") }
        return root
    }

    private mutating func startTag() throws -> (XcodeXMLElement, selfClosing: Bool) {
        let name = try self.name()
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = skipWhitespace()
            if peek("/>") { position += 2; return (XcodeXMLElement(name: name, attributes: attributes), true) }
            if peek(">") { position += 1; return (XcodeXMLElement(name: name, attributes: attributes), false) }
            guard hadSpace else { throw error("expected whitespace, '>' or '/>' in <\(name)>") }
            let attribute = try self.name()
            skipWhitespace()
            try expect("=")
            skipWhitespace()
            guard attributes[attribute] == nil else { throw error("attribute '\(attribute)' repeated in <\(name)>") }
            attributes[attribute] = try attributeValue()
        }
    }

    private mutating func attributeValue() throws -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw error("expected a quoted attribute value")
        }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("unterminated attribute value") }
            let byte = bytes[position]
            switch byte {
            case quote:
                position += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"), 0:
                throw error("'<' or NUL inside an attribute value")
            case UInt8(ascii: "&"):
                value += try reference()
            default:
                value.append(byte)
                position += 1
            }
        }
    }

    /// `&name;` or `&#N;` / `&#xH;` at the current position, as UTF-8 bytes.
    private mutating func reference() throws -> [UInt8] {
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw error("'&' that does not start an entity reference (write &amp;)")
        }
        let body = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        switch body {
        case "quot": return [UInt8(ascii: "\"")]
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let scalarValue: UInt32?
            if body.hasPrefix("#x") { scalarValue = UInt32(body.dropFirst(2), radix: 16) }
            else if body.hasPrefix("#") { scalarValue = UInt32(body.dropFirst(), radix: 10) }
            else { throw error("unknown entity '&\(body);'") }
            guard let scalarValue, scalarValue != 0, let scalar = Unicode.Scalar(scalarValue) else {
                throw error("invalid character reference '&\(body);'")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// `<?xml version="1.0" encoding="UTF-8"?>` (only first, and only UTF-8) or another
    /// processing instruction (skipped).
    private mutating func processingInstruction(isFirst: Bool) throws {
        let start = position
        try skip(past: "?>", what: "processing instruction")
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard text.hasPrefix("<?xml ") || text.hasPrefix("<?xml?") else { return }
        guard isFirst else { throw error("the XML declaration must come first") }
        if let range = text.range(of: "encoding=") {
            let value = text[range.upperBound...].dropFirst().prefix(while: { $0 != "\"" && $0 != "'" }).lowercased()
            guard value == "utf-8" || value == "utf8" else {
                throw error("encoding '\(value)' is not supported; Xcode writes models in UTF-8")
            }
        }
    }

    // MARK: Lexical helpers

    private mutating func name() throws -> String {
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            let isNameByte = b >= 0x80 || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: ":")
            guard isNameByte else { break }
            position += 1
        }
        guard position > start else { throw error("expected a name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        return position > start
    }

    private static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    private func peek(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { buffer in
            for i in 0..<count where bytes[position + i] != buffer[i] { return false }
            return true
        }
    }

    private mutating func expect(_ text: StaticString) throws {
        guard peek(text) else { throw error("expected '\(text)'") }
        position += text.utf8CodeUnitCount
    }

    /// Moves past the next `terminator`.
    private mutating func skip(past terminator: StaticString, what: String) throws {
        while position < bytes.count {
            if peek(terminator) { position += terminator.utf8CodeUnitCount; return }
            position += 1
        }
        throw error("unterminated \(what)")
    }

    private func error(_ message: String) -> SyntaxError {
        let line = 1 + bytes[..<min(position, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        return SyntaxError(message: message, line: line)
    }
}
