import Foundation

/// The settings Xcode's model editor keeps for code generation and the loader ignores: each
/// entity's Codegen choice (`codeGenerationType`) and class name, each attribute's "Use Scalar
/// Type" and custom class. `ocd generate` and the model plugin read them through
/// `@_spi(Tooling) import OpenCoreData`; they are not Core Data's API.
///
/// ```swift
/// let settings = try XcodeCodeGenerationSettings(contentsOf: URL(fileURLWithPath: "Company.xcdatamodeld"))
/// settings.entities["Employee"]?.codeGeneration         // .classDefinition
/// settings.entities["Employee"]?.scalarAttributes       // ["salary", ...]
/// ```
@_spi(Tooling) public struct XcodeCodeGenerationSettings: Sendable {
    /// Xcode's Codegen choices for an entity.
    public enum CodeGeneration: String, Sendable {
        /// `class`: Xcode writes the class and its properties.
        case classDefinition = "class"
        /// `category`: Xcode writes the properties in an extension; you write the class.
        case categoryExtension = "category"
        /// Manual/None: Xcode writes nothing.
        case manual
    }

    public struct Entity: Sendable {
        public let codeGeneration: CodeGeneration
        /// `representedClassName`, as written ("Employee", ".Employee", "App.Employee").
        public let className: String?
        /// Attributes with "Use Scalar Type" (`usesScalarValueType="YES"`).
        public let scalarAttributes: Set<String>
        /// Attributes' custom classes (`customClassName`), by attribute name.
        public let customClassNames: [String: String]
    }

    public let entities: [String: Entity]

    /// Reads the current version of a `.xcdatamodeld`, a `.xcdatamodel` or a `contents` file.
    /// Throws the loader's errors (260, 259, 256); a compiled model has no such settings (259).
    public init(contentsOf url: URL) throws {
        let location = try XcodeModelLocation.resolve(url)
        guard location.format == .xml else {
            throw XcodeModelError.corrupt(location.fileURL, "'\(url.path)' has no code generation settings: they are in the Xcode source's XML (Xcode 4 and later), not in a compiled or Xcode 3 model.")
        }
        let data: Data
        do { data = try Data(contentsOf: location.fileURL) } catch {
            throw XcodeModelError.unreadable(location.fileURL, "Could not read '\(location.fileURL.path)': \(error.localizedDescription).", underlying: error)
        }
        let root: XcodeXMLElement
        do { root = try XcodeXMLParser.parse(data) } catch {
            throw XcodeModelError.corrupt(location.fileURL, "'\(location.fileURL.path)' is not well-formed XML (\(error)).", underlying: error)
        }
        var entities: [String: Entity] = [:]
        for element in root.elements(forName: "entity") {
            guard let name = element.string("name") else { continue }
            let attributes = element.elements(forName: "attribute")
            entities[name] = Entity(
                // Xcode writes no codeGenerationType for Manual/None.
                codeGeneration: element.string("codeGenerationType").flatMap(CodeGeneration.init(rawValue:)) ?? .manual,
                className: element.string("representedClassName"),
                scalarAttributes: Set(attributes.filter { $0.bool("usesScalarValueType") }.compactMap { $0.string("name") }),
                customClassNames: Dictionary(attributes.compactMap { a in a.string("name").flatMap { n in a.string("customClassName").map { (n, $0) } } },
                                             uniquingKeysWith: { first, _ in first }))
        }
        self.entities = entities
    }
}
