import OCDPort
import OpenCoreDataTestSupport
import XCTest

/// `ocd port`'s edits, shape by shape, on sources written for these tests.
final class SourcePorterTests: XCTestCase {
    private var testsFolder: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent() }

    /// The sample in Xcode's generated shape ports to exactly the file the macros' tests compile
    /// and run (`Tests/OpenCoreDataMacrosTests/PortedNotebook.swift`), and the registrations
    /// to `OpenCoreDataClassNames.swift` there.
    func testXcodesGeneratedShapePortsToCodeThatCompilesAndRuns() throws {
        let source = try String(contentsOf: testsFolder.appendingPathComponent("OCDPortTests/Samples/Notebook+CoreData.swift.txt"), encoding: .utf8)
        let expected = try String(contentsOf: testsFolder.appendingPathComponent("OpenCoreDataMacrosTests/PortedNotebook.swift"), encoding: .utf8)
        let result = SourcePorter.port(source, fileName: "Notebook+CoreData.swift")
        XCTAssertEqual(result.text, expected)
        XCTAssertEqual(result.classNames.map(\.modelName), ["PortedNotebook", "PortedPage", "PortedLabel"])
        XCTAssertTrue(result.leftToDo.isEmpty, "\(result.leftToDo)")
        let registrations = try String(contentsOf: testsFolder.appendingPathComponent("OpenCoreDataMacrosTests/OpenCoreDataClassNames.swift"), encoding: .utf8)
        let directory = try makeTemporaryDirectory("ocd-port")
        try source.write(to: directory.appendingPathComponent("Notebook+CoreData.swift"), atomically: true, encoding: .utf8)
        _ = try DirectoryPorter.port(directory: directory, dryRun: false)
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent(DirectoryPorter.registrationFileName), encoding: .utf8), registrations)
    }

    func testPortingTwiceChangesNothingTheSecondTime() throws {
        let source = try String(contentsOf: testsFolder.appendingPathComponent("OCDPortTests/Samples/Notebook+CoreData.swift.txt"), encoding: .utf8)
        let once = SourcePorter.port(source).text
        let twice = SourcePorter.port(once)
        XCTAssertEqual(twice.text, once)
        XCTAssertEqual(twice.changes, [])
    }

    func testImportsBecomeOpenCoreDataAndFoundationGoesWithItsCommentsKept() {
        let source = """
        // Store.swift — the app's stack.
        import Foundation
        import CoreData

        final class Store {}

        """
        XCTAssertEqual(SourcePorter.port(source).text, """
        // Store.swift — the app's stack.
        import OpenCoreData

        final class Store {}

        """)
        // A file of managed properties that imported only Foundation gets the macros' module.
        XCTAssertEqual(SourcePorter.port("import Foundation\n\nextension Item {\n    @NSManaged var name: String?\n}\n").text,
                       "import OpenCoreDataMacros\n\nextension Item {\n    @ManagedProperty var name: String?\n}\n")
        // No import at all: it goes first, after the opening comment.
        XCTAssertEqual(SourcePorter.port("// Item.\nextension Item {\n    @NSManaged var name: String?\n}\n").text,
                       "// Item.\nimport OpenCoreDataMacros\n\nextension Item {\n    @ManagedProperty var name: String?\n}\n")
        // A submodule or a single declaration of Core Data: the whole of OpenCoreData.
        XCTAssertEqual(SourcePorter.port("import CoreData.NSFetchedResultsController\nimport class CoreData.NSManagedObject\n").text, "import OpenCoreData\n")
        // Both imports already there: one is kept.
        XCTAssertEqual(SourcePorter.port("import CoreData\nimport OpenCoreData\n\nlet x = 1\n").text, "import OpenCoreData\n\nlet x = 1\n")
    }

    func testFilesWithoutCoreDataAreLeftAlone() {
        let source = "import Foundation\n\n@objc(Thing) class Thing: NSObject {}\nlet path = #keyPath(Thing.name)\n"
        let result = SourcePorter.port(source)
        XCTAssertFalse(result.usesCoreData)
        XCTAssertEqual(result.text, source)
    }

    func testKeyPathsBecomeStrings() {
        let source = """
        import CoreData
        let a = #keyPath(Employee.department.name)
        let b = #keyPath(name)
        let c = NSSortDescriptor(key: #keyPath( Employee.salary ), ascending: false)

        """
        XCTAssertEqual(SourcePorter.port(source).text, """
        import OpenCoreData
        let a = "department.name"
        let b = "name"
        let c = NSSortDescriptor(key: "salary", ascending: false)

        """)
    }

    func testCVarArgCastsInPredicateArgumentsGo() {
        let source = """
        import CoreData
        let p = NSPredicate(format: "id == %@ AND n > %d", id as CVarArg, n)
        let q = NSPredicate(format: "id == %@", argumentArray: [id])
        let s = String(format: "%@", name as CVarArg)

        """
        let result = SourcePorter.port(source)
        XCTAssertEqual(result.text, """
        import OpenCoreData
        let p = NSPredicate(format: "id == %@ AND n > %d", id, n)
        let q = NSPredicate(format: "id == %@", argumentArray: [id])
        let s = String(format: "%@", name as CVarArg)

        """)
        XCTAssertEqual(SourcePorter.port(result.text).text, result.text)
    }

    func testObjCAttributesGoAndClassNamesAreKeptForTheModel() {
        let source = """
        import CoreData

        /// A bookmark.
        @objc(BookmarkEntity)
        public final class Bookmark: NSManagedObject {
            @objc public func touch() {}
        }
        @objcMembers class Folder: NSManagedObject {}

        """
        let result = SourcePorter.port(source)
        XCTAssertEqual(result.text, """
        import OpenCoreData

        /// A bookmark.
        public final class Bookmark: NSManagedObject {
            public func touch() {}
        }
        class Folder: NSManagedObject {}

        """)
        XCTAssertEqual(result.classNames, [SourcePorter.ClassName(swiftClass: "Bookmark", modelName: "BookmarkEntity")])
        XCTAssertEqual(result.changes.map(\.line), [1, 4, 6, 8])
    }

    /// Xcode's `extension Item : Identifiable {}` restates what OpenCoreData's NSManagedObject
    /// declares (an error in Swift); other types' conformances stay.
    func testXcodesIdentifiableExtensionOfAnEntityGoes() {
        let source = """
        import CoreData

        extension Item : Identifiable {

        }
        extension Folder: Identifiable, Sendable {}
        extension Tag: Identifiable {}
        public class Item: NSManagedObject {}
        class Folder: Item {}

        """
        let result = SourcePorter.port(source)
        XCTAssertEqual(result.text, """
        import OpenCoreData

        extension Item {

        }
        extension Folder: Sendable {}
        extension Tag: Identifiable {}
        public class Item: NSManagedObject {}
        class Folder: Item {}

        """)
        XCTAssertEqual(SourcePorter.port("import CoreData\nextension Tag: Identifiable {}\n", managedClasses: ["Tag"]).text, "import OpenCoreData\nextension Tag {}\n")
    }

    /// Apple code overrides `awakeFromInsert()` in an extension; Swift allows that only for
    /// Objective-C methods, so the override moves into the class (or is listed, when the class
    /// is in another file).
    func testOverridesInExtensionsMoveIntoTheClass() {
        let source = """
        import CoreData

        public final class Setting: NSManagedObject {
            @NSManaged public var domain: String
        }

        extension Setting {

            public override func awakeFromInsert() {
                super.awakeFromInsert()
            }

            func touch() {}
        }
        extension Other {
            override public func willSave() {}
        }

        """
        let result = SourcePorter.port(source)
        XCTAssertEqual(result.text, """
        import OpenCoreDataMacros

        public final class Setting: NSManagedObject {
            @ManagedProperty public var domain: String

            public override func awakeFromInsert() {
                super.awakeFromInsert()
            }
        }

        extension Setting {

            func touch() {}
        }
        extension Other {
            override public func willSave() {}
        }

        """)
        XCTAssertEqual(result.leftToDo.map(\.line), [15], "the extension's line")
        XCTAssertTrue(result.leftToDo[0].message.contains("Move it into the body of class Other"), result.leftToDo[0].message)
        XCTAssertEqual(SourcePorter.port(result.text).text, result.text)
        // A member of `public extension` keeps being public in the class.
        XCTAssertEqual(SourcePorter.port("import CoreData\nclass A: NSManagedObject {\n}\npublic extension A {\n    override func willSave() {}\n    @objc override func didSave() {}\n}\n").text,
                       "import OpenCoreData\nclass A: NSManagedObject {\n    public override func willSave() {}\n    public override func didSave() {}\n}\npublic extension A {\n}\n")
    }

    func testWhatNeedsAHandIsListedWithTheFix() {
        let source = """
        import CoreData
        import UIKit

        final class Item: NSManagedObject {
            @NSManaged var a, b: String?
            func validateName(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws {}
        }
        let container = NSPersistentCloudKitContainer(name: "Items")
        func load(_ request: NSFetchRequest<Item>) { request.fetchBatchSize = 20 }

        """
        let todo = SourcePorter.port(source).leftToDo
        XCTAssertEqual(todo.map(\.line), [2, 5, 6, 8, 9])
        XCTAssertTrue(todo[0].message.contains("Linux has no UIKit"), todo[0].message)
        XCTAssertTrue(todo[1].message.contains("one declaration each"), todo[1].message)
        XCTAssertTrue(todo[2].message.contains("PropertyValueValidating"), todo[2].message)
        XCTAssertTrue(todo[3].message.contains("NSPersistentContainer"), todo[3].message)
        XCTAssertTrue(todo[4].message.contains("fetchBatched"), todo[4].message)
    }

    /// `ocd port --dry-run` prints the diff and writes nothing; `ocd port` writes.
    func testTheCommandPortsADirectoryAndDryRunWritesNothing() throws {
        let directory = try makeTemporaryDirectory("ocd-port")
        let file = directory.appendingPathComponent("Model/Item.swift")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let source = "import CoreData\n\n@objc(Item)\nfinal class Item: NSManagedObject {\n    @NSManaged var name: String?\n}\n"
        try source.write(to: file, atomically: true, encoding: .utf8)
        try "print(1)\n".write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)

        var (status, output, errors) = try runOCD(["port", directory.path, "--dry-run"])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("-import CoreData\n+import OpenCoreDataMacros"), output)
        XCTAssertTrue(output.contains("+        NSManagedObject.register(Item.self, forClassName: \"Item\")"), output)
        XCTAssertTrue(output.contains("1 file uses Core Data; would change 1"), output)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), source, "a dry run writes nothing")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent(DirectoryPorter.registrationFileName).path))

        (status, output, errors) = try runOCD(["port", directory.path])
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "import OpenCoreDataMacros\n\nfinal class Item: NSManagedObject {\n    @ManagedProperty var name: String?\n}\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent(DirectoryPorter.registrationFileName).path))

        (status, output, errors) = try runOCD(["port", directory.appendingPathComponent("main.swift").path])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("is not a directory"), errors)
    }
}
