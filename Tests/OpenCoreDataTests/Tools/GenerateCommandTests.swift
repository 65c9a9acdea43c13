import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `ocd generate`: the classes Xcode generates for a model, in OpenCoreData's spelling. The
/// output for every model in the shared fixtures type-checks against the built library and
/// macro; Codegen settings choose what is written, as in Xcode's build.
final class GenerateCommandTests: XCTestCase {
    /// The folder of the built products: the library's modules and the macro's plugin.
    private func productsFolder() throws -> URL {
        let folder = try ocdExecutable().deletingLastPathComponent()
        for needed in ["Modules/OpenCoreDataMacros.swiftmodule", "OpenCoreDataMacrosPlugin-tool"]
        where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(needed).path) {
            throw XCTSkip("\(needed) was not built beside the tests in \(folder.path); run `swift build` first.")
        }
        return folder
    }

    /// Type-checks `files` as one module against the built OpenCoreDataMacros; returns swiftc's
    /// exit status and output.
    private func typecheck(_ files: [URL]) throws -> (Int32, String) {
        let products = try productsFolder()
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "Generated", "-I", products.appendingPathComponent("Modules").path,
                         "-I", package.appendingPathComponent("Sources/CSQLite").path, "-I", package.appendingPathComponent("Sources/CZlib").path,
                         "-load-plugin-executable", products.appendingPathComponent("OpenCoreDataMacrosPlugin-tool").path + "#OpenCoreDataMacrosPlugin"]
        for entry in try FileManager.default.contentsOfDirectory(atPath: products.path) where entry.hasSuffix(".build") && !entry.hasSuffix("-tool.build") {
            let map = products.appendingPathComponent(entry).appendingPathComponent("module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments + files.map(\.path)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    func testTheClassesOfEveryFixtureModelTypeCheck() throws {
        let root = fixturesRoot.appendingPathComponent("xcdatamodels")
        guard FileManager.default.fileExists(atPath: root.path) else { throw XCTSkip("Fixtures not found at \(root.path).") }
        let output = try makeTemporaryDirectory("ocd-generate")
        var models = 0
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
        for case let url as URL in enumerator where url.pathExtension == "xcdatamodeld"
            || (url.pathExtension == "xcdatamodel" && url.deletingLastPathComponent().pathExtension != "xcdatamodeld") {
            let folder = output.appendingPathComponent("\(models)")
            let (status, printed, errors) = try runOCD(["generate", url.path, "--output", folder.path])
            XCTAssertEqual(status, 0, "\(url.path): \(errors)")
            XCTAssertTrue(printed.hasPrefix("Wrote "), printed)
            var files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            // A transformable's custom class is the app's own: a stand-in lets the file check.
            let model = try NSManagedObjectModel.load(contentsOf: url)
            let generated = Set(files.map { $0.lastPathComponent.replacingOccurrences(of: "+CoreData.swift", with: "") })
            let custom = Set(model.entities.flatMap(\.properties).compactMap { ($0 as? NSAttributeDescription) }
                .filter { $0.attributeType == .transformableAttributeType }
                .compactMap { $0.attributeValueClassName.map { String($0.split(separator: ".").last ?? "") } })
                .filter { !$0.isEmpty && !generated.contains($0) && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }
            let stubs = folder.appendingPathComponent("Stubs.swift")
            try Data(("import OpenCoreData\n" + custom.sorted().map { "public final class \($0): NSObject {}\n" }.joined()).utf8).write(to: stubs)
            files.append(stubs)
            let (checked, diagnostics) = try typecheck(files)
            XCTAssertEqual(checked, 0, "\(url.lastPathComponent):\n\(diagnostics)")
            models += 1
        }
        XCTAssertGreaterThan(models, 10)
    }

    private func writeModel(_ xml: String) throws -> URL {
        let folder = try makeTemporaryDirectory("ocd-generate-model").appendingPathComponent("Shop.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: folder.appendingPathComponent("contents"))
        return folder
    }

    /// Xcode's shapes: scalar and optional types, to-one, to-many and ordered to-many with their
    /// accessors, a subclass of the parent entity's class, and Codegen choosing what is written.
    func testTheGeneratedShapesFollowXcodesAndCodegenChoosesWhatIsWritten() throws {
        let model = try writeModel("""
        <model>
          <entity name="Product" representedClassName="Product" codeGenerationType="class">
            <attribute name="name" attributeType="String"/>
            <attribute name="stock" attributeType="Integer 32" usesScalarValueType="YES"/>
            <attribute name="rating" optional="YES" attributeType="Double" usesScalarValueType="NO"/>
            <attribute name="price" attributeType="Decimal"/>
            <attribute name="picture" optional="YES" attributeType="Transformable" customClassName="Picture"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="products" inverseEntity="Shelf"/>
          </entity>
          <entity name="Book" representedClassName="Book" parentEntity="Product" codeGenerationType="category">
            <attribute name="isbn" optional="YES" attributeType="String"/>
          </entity>
          <entity name="Shelf" representedClassName=".Shelf" codeGenerationType="class">
            <relationship name="products" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" destinationEntity="Product" inverseName="shelf" inverseEntity="Product"/>
            <relationship name="labels" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Label" inverseName="shelf" inverseEntity="Label"/>
          </entity>
          <entity name="Label" representedClassName="Label">
            <attribute name="class" optional="YES" attributeType="String"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="labels" inverseEntity="Shelf"/>
          </entity>
        </model>
        """)
        let all = try makeTemporaryDirectory("ocd-generate-all")
        XCTAssertEqual(try runOCD(["generate", model.path, "--output", all.path]).0, 0)
        let product = try String(contentsOf: all.appendingPathComponent("Product+CoreData.swift"), encoding: .utf8)
        for line in ["public class Product: NSManagedObject {}",
                     "@nonobjc public class func fetchRequest() -> NSFetchRequest<Product> {",
                     "@ManagedProperty public var name: String?", "@ManagedProperty public var stock: Int32",
                     "@ManagedProperty public var rating: Double?", "@ManagedProperty public var price: Decimal?",
                     "public var picture: Picture? {", "@ManagedProperty public var shelf: Shelf?"] {
            XCTAssertTrue(product.contains(line), "missing \(line) in\n\(product)")
        }
        let book = try String(contentsOf: all.appendingPathComponent("Book+CoreData.swift"), encoding: .utf8)
        XCTAssertTrue(book.contains("public class Book: Product {}"), book)
        let shelf = try String(contentsOf: all.appendingPathComponent("Shelf+CoreData.swift"), encoding: .utf8)
        for line in ["@ManagedProperty public var products: [Product]", "@ManagedProperty public var labels: Set<Label>",
                     "public func insertIntoProducts(_ value: Product, at idx: Int)", "public func replaceProducts(at idx: Int, with value: Product)",
                     "public func addToProducts(_ values: NSOrderedSet)", "public func addToLabels(_ value: Label)", "public func removeFromLabels(_ values: NSSet)"] {
            XCTAssertTrue(shelf.contains(line), "missing \(line) in\n\(shelf)")
        }
        let label = try String(contentsOf: all.appendingPathComponent("Label+CoreData.swift"), encoding: .utf8)
        XCTAssertTrue(label.contains("@ManagedProperty public var `class`: String?"), label)
        let stubs = all.appendingPathComponent("Stubs.swift")
        try Data("import OpenCoreData\npublic final class Picture: NSObject {}\n".utf8).write(to: stubs)
        let (status, diagnostics) = try typecheck(try FileManager.default.contentsOfDirectory(at: all, includingPropertiesForKeys: nil))
        XCTAssertEqual(status, 0, diagnostics)

        // Codegen: Class Definition writes class and properties, Category/Extension only the
        // properties, Manual/None (Label) nothing.
        let build = try makeTemporaryDirectory("ocd-generate-codegen")
        let (status2, printed, errors) = try runOCD(["generate", model.path, "--output", build.path, "--codegen"])
        XCTAssertEqual(status2, 0, errors)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: build.path).sorted(),
                       ["Book+CoreData.swift", "Product+CoreData.swift", "Shelf+CoreData.swift"], printed)
        let category = try String(contentsOf: build.appendingPathComponent("Book+CoreData.swift"), encoding: .utf8)
        XCTAssertFalse(category.contains("public class Book"), "Category/Extension: the class is the user's")
        XCTAssertTrue(category.contains("extension Book {"), category)

        let single = try makeTemporaryDirectory("ocd-generate-single")
        XCTAssertEqual(try runOCD(["generate", model.path, "--output", single.path, "--codegen", "--single-file", "ShopModel.swift"]).0, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: single.path), ["ShopModel.swift"])
    }
}
