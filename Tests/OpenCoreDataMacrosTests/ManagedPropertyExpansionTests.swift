import OpenCoreDataMacrosPlugin
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

// What `@ManagedProperty` writes, and the errors it reports for declarations it can't serve.

final class ManagedPropertyExpansionTests: XCTestCase {
    let macros: [String: Macro.Type] = ["ManagedProperty": ManagedPropertyMacro.self]

    func testExpandsToAccessorsThroughAStaticKey() {
        assertMacroExpansion(
            """
            final class Employee: NSManagedObject {
                @ManagedProperty var department: Department?
            }
            """,
            expandedSource: """
            final class Employee: NSManagedObject {
                var department: Department? {
                    get {
                        self[managed: Self.__managedKey_department]
                    }
                    set {
                        self[managed: Self.__managedKey_department] = newValue
                    }
                }

                private static let __managedKey_department = OpenCoreData.ManagedPropertyKey<Department?>("department")
            }
            """,
            macros: macros)
    }

    func testAnExplicitKeyNamesTheEntityProperty() {
        assertMacroExpansion(
            """
            @ManagedProperty("surname") var lastName: String?
            """,
            expandedSource: """
            var lastName: String? {
                get {
                    self[managed: Self.__managedKey_lastName]
                }
                set {
                    self[managed: Self.__managedKey_lastName] = newValue
                }
            }

            private static let __managedKey_lastName = OpenCoreData.ManagedPropertyKey<String?>("surname")
            """,
            macros: macros)
    }

    func testDeclarationsWithoutManagedStorageAreRejectedWithTheFix() {
        let cases: [(source: String, message: String, column: Int)] = [
            ("@ManagedProperty let a: Int64", "@ManagedProperty needs `var`: a managed property can change, even when only the store changes it", 18),
            ("@ManagedProperty var a = 5", "@ManagedProperty needs the property's type: write `var a: Type`", 22),
            ("@ManagedProperty var a: Int64 = 5", "@ManagedProperty takes no initial value: set the attribute's default value in the model, or assign it in awakeFromInsert()", 31),
            ("@ManagedProperty var a: Int64 { 5 }", "@ManagedProperty writes the accessors: remove the property's own get/set", 22),
            ("@ManagedProperty static var a: Int64", "@ManagedProperty declares an instance property: remove `static`", 18),
            ("@ManagedProperty var a: Int64!", "@ManagedProperty can't use an implicitly unwrapped optional: write `Int64?`", 25),
            ("@ManagedProperty(key) var a: Int64", "@ManagedProperty(_:) takes the entity property's name as a plain string literal, such as @ManagedProperty(\"firstName\")", 18),
        ]
        for c in cases {
            // The declaration is left as written, without the attribute.
            let declaration = c.source.replacingOccurrences(of: #"^@ManagedProperty(\([^)]*\))? "#, with: "", options: .regularExpression)
            assertMacroExpansion(c.source, expandedSource: declaration, diagnostics: [
                DiagnosticSpec(message: c.message, line: 1, column: c.column),
            ], macros: macros)
        }
    }
}
