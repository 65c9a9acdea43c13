import OpenCoreDataTestSupport
import Foundation
import XCTest

/// The layer order of `docs/ARCHITECTURE.md` ("Layers") holds in the code: a file may name the
/// types of its own layer and of the layers below it, never of a layer above or of a peer
/// (the stores), except for the upward references that section lists, each with its reason.
///
/// The check reads both tables from the document, so the document is the one place the order
/// is written. It fails with the file, the type and both layers for a new upward reference, and
/// also for a listed exception the code no longer has, so the list stays true.
final class ArchitectureLayerTests: XCTestCase {
    func testEachLayerNamesOnlyTypesOfTheLayersBelowIt() throws {
        let root = packageRoot
        let document = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let layers = try LayerCheck.Layers(markdown: document)
        let sources = try LayerCheck.sources(under: root.appendingPathComponent("Sources/OpenCoreData"))
        XCTAssertGreaterThan(sources.count, 100, "the sources were not found under \(root.path)")
        let report = LayerCheck(layers).check(sources)
        XCTAssertEqual(report.filesInNoLayer, [], "every folder of Sources/OpenCoreData must be in the layer table of docs/ARCHITECTURE.md")
        for violation in report.violations { XCTFail(violation) }
        for exception in report.unusedExceptions {
            XCTFail("docs/ARCHITECTURE.md lists \(exception) as an upward reference, but the code no longer has it: remove the line")
        }
    }

    /// The check itself fails on an upward reference, a reference between peers and a
    /// reference an exception does not cover; and passes the same files without them.
    func testTheCheckFindsUpwardAndPeerReferences() throws {
        let layers = try LayerCheck.Layers(markdown: """
            | layer | folders | what lives there |
            |---|---|---|
            | 1 | `Model/` | entities |
            | 2 | `Object/` | objects |
            | 3 | `Stores/A/`, `Stores/B/` | two stores |

            | file | names | why |
            |---|---|---|
            | `Model/Entity.swift` | `Object` | the entity makes its objects |
            """)
        let sources = [
            "Model/Entity.swift": "final class Entity { func make() -> Object { Object() } }",
            "Object/Object.swift": "final class Object { let entity = Entity() /* Store A */ let note = \"AStore\" }",
            "Stores/A/A.swift": "final class AStore { let o: Object? = nil }",
            "Stores/B/B.swift": "final class BStore { let a = AStore() }",
            "Model/Other.swift": "struct Other { var store: BStore? }",
            "Loose.swift": "let x = 1",
        ]
        let report = LayerCheck(layers).check(sources)
        XCTAssertEqual(report.violations, [
            "Model/Other.swift names BStore, which Stores/B/ declares: Model/ (layer 1) may only name types of its own layer and the layers below it",
            "Stores/B/B.swift names AStore, which Stores/A/ declares: Stores/B/ (layer 3) may only name types of its own layer and the layers below it",
        ])
        XCTAssertEqual(report.filesInNoLayer, ["Loose.swift"])
        XCTAssertEqual(report.unusedExceptions, [])

        let clean = sources.filter { !["Model/Other.swift", "Stores/B/B.swift", "Loose.swift"].contains($0.key) }
        XCTAssertEqual(LayerCheck(layers).check(clean).violations, [])
        let withoutException = clean.merging(["Model/Entity.swift": "final class Entity {}"]) { $1 }
        XCTAssertEqual(LayerCheck(layers).check(withoutException).unusedExceptions, ["Model/Entity.swift → Object"])
    }
}

/// Which folder declares each type, and which types each file names.
///
/// A deliberately small reading of Swift: top-level `class`, `struct`, `enum`, `protocol`,
/// `actor` and `typealias` declarations (nested types are reached through their outer type's
/// name), and every identifier outside comments and string literals.
struct LayerCheck {
    struct Layers {
        /// Folder (relative to `Sources/OpenCoreData`, with a trailing slash) → layer number.
        var layerOfFolder: [String: Int] = [:]
        /// Upward references allowed: file → type names.
        var exceptions: [String: Set<String>] = [:]

        /// Reads the layer table (`| n | `Folder/`, ... | ... |`) and the exception table
        /// (`| `File.swift` | `Type`, ... | why |`) of a markdown document.
        init(markdown: String) throws {
            for line in markdown.split(separator: "\n").map(String.init) where line.hasPrefix("|") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count >= 3 else { continue }
                let names = Self.codeSpans(cells[1])
                if let number = Int(cells[0]) {
                    for folder in names { layerOfFolder[folder] = number }
                } else if let file = Self.codeSpans(cells[0]).first, file.hasSuffix(".swift") {
                    exceptions[file, default: []].formUnion(names)
                }
            }
            guard !layerOfFolder.isEmpty else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no layer table (| 1 | `Support/` | ... |) found"])
            }
        }

        static func codeSpans(_ cell: String) -> [String] {
            cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }

        /// The folder (the longest listed prefix) and layer of a file.
        func layer(of file: String) -> (folder: String, number: Int)? {
            layerOfFolder.filter { file.hasPrefix($0.key) }.max { $0.key.count < $1.key.count }.map { ($0.key, $0.value) }
        }
    }

    struct Report {
        var violations: [String] = []
        var filesInNoLayer: [String] = []
        var unusedExceptions: [String] = []
    }

    let layers: Layers
    init(_ layers: Layers) { self.layers = layers }

    /// The Swift files under `directory`, by path relative to it.
    static func sources(under directory: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let base = directory.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            result[relative] = try String(contentsOfFile: base + relative, encoding: .utf8)
        }
        return result
    }

    func check(_ sources: [String: String]) -> Report {
        var report = Report()
        var code: [String: String] = [:]
        var declaredIn: [String: String] = [:]  // type → folder
        for (file, text) in sources {
            guard let (folder, _) = layers.layer(of: file) else { report.filesInNoLayer.append(file); continue }
            let stripped = Self.strippingCommentsAndStrings(text)
            code[file] = stripped
            for name in Self.topLevelTypeNames(in: stripped) { declaredIn[name] = folder }
        }
        var used: Set<String> = []
        for (file, stripped) in code.sorted(by: { $0.key < $1.key }) {
            guard let (folder, number) = layers.layer(of: file) else { continue }
            for name in Self.identifiers(in: stripped).sorted() {
                guard let owner = declaredIn[name], owner != folder, let ownerLayer = layers.layerOfFolder[owner], ownerLayer >= number else { continue }
                if layers.exceptions[file]?.contains(name) == true { used.insert("\(file) → \(name)"); continue }
                report.violations.append("\(file) names \(name), which \(owner) declares: \(folder) (layer \(number)) may only name types of its own layer and the layers below it")
            }
        }
        report.filesInNoLayer.sort()
        report.unusedExceptions = layers.exceptions.flatMap { file, names in names.map { "\(file) → \($0)" } }.filter { !used.contains($0) }.sorted()
        return report
    }

    /// `text` with comments and string literals blanked out (interpolations too: a type named
    /// only inside `"\(...)"` is not seen).
    static func strippingCommentsAndStrings(_ text: String) -> String {
        var out = ""
        let chars = Array(text.unicodeScalars)
        var i = 0
        func at(_ k: Int) -> Unicode.Scalar? { k < chars.count ? chars[k] : nil }
        while i < chars.count {
            let c = chars[i]
            if c == "/", at(i + 1) == "/" {
                while i < chars.count, chars[i] != "\n" { i += 1 }
            } else if c == "/", at(i + 1) == "*" {
                var depth = 0
                repeat {
                    if chars[i] == "/", at(i + 1) == "*" { depth += 1; i += 2 }
                    else if chars[i] == "*", at(i + 1) == "/" { depth -= 1; i += 2 }
                    else { i += 1 }
                } while depth > 0 && i < chars.count
                out.unicodeScalars.append(" ")
            } else if c == "\"" {
                let multiline = at(i + 1) == "\"" && at(i + 2) == "\""
                i += multiline ? 3 : 1
                while i < chars.count {
                    if chars[i] == "\\" { i += 2; continue }
                    if multiline, chars[i] == "\"", at(i + 1) == "\"", at(i + 2) == "\"" { i += 3; break }
                    if !multiline, chars[i] == "\"" || chars[i] == "\n" { i += 1; break }
                    i += 1
                }
                out.unicodeScalars.append("\"")
                out.unicodeScalars.append("\"")
            } else {
                out.unicodeScalars.append(c)
                i += 1
            }
        }
        return out
    }

    /// Names of types declared at the top level (no indentation) of `code`.
    static func topLevelTypeNames(in code: String) -> [String] {
        let keywords: Set<String> = ["class", "struct", "enum", "protocol", "actor", "typealias"]
        let modifiers: Set<String> = ["public", "internal", "package", "private", "fileprivate", "final", "open", "indirect", "nonisolated"]
        var names: [String] = []
        for line in code.split(separator: "\n") where !(line.first?.isWhitespace ?? true) {
            var words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "{" || $0 == "<" || $0 == "=" }).map(String.init)[...]
            while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) { words = words.dropFirst() }
            if let keyword = words.first, keywords.contains(keyword), words.count > 1 { names.append(words[words.startIndex + 1]) }
        }
        return names
    }

    /// Every identifier in `code`.
    static func identifiers(in code: String) -> Set<String> {
        var result: Set<String> = []
        var current = ""
        for scalar in code.unicodeScalars {
            if scalar == "_" || CharacterSet.alphanumerics.contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else {
                if let first = current.unicodeScalars.first, !CharacterSet.decimalDigits.contains(first) { result.insert(current) }
                current = ""
            }
        }
        if !current.isEmpty { result.insert(current) }
        return result
    }
}
