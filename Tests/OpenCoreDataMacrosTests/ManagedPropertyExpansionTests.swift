import OpenCoreDataMacrosPlugin
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

// What `@ManagedProperty` writes, and the errors it reports for declarations it can't serve.

final class ManagedPropertyExpansionTests: XCTestCase {
    let macros: [String: Macro.Type] = ["ManagedProperty": ManagedPropertyMacro.self, "ManagedAccessor": ManagedAccessorMacro.self]

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

                private static let __managedKey_department = OpenCoreData.ManagedPropertyKeys.key((Department?).self, "department")
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

            private static let __managedKey_lastName = OpenCoreData.ManagedPropertyKeys.key((String?).self, "surname")
            """,
            macros: macros)
    }

    /// `Date!`, as Xcode declares some attributes: stored through a `Date?` key.
    func testAnImplicitlyUnwrappedOptionalIsStoredAsAnOptional() {
        assertMacroExpansion(
            """
            @ManagedProperty var created: Date!
            """,
            expandedSource: """
            var created: Date! {
                get {
                    self[managed: Self.__managedKey_created]
                }
                set {
                    self[managed: Self.__managedKey_created] = newValue
                }
            }

            private static let __managedKey_created = OpenCoreData.ManagedPropertyKeys.key((Date?).self, "created")
            """,
            macros: macros)
    }

    /// `primitiveName`, Core Data's primitive accessor of `name`.
    func testAPrimitiveAccessorReachesItsPropertyWithoutSideEffects() {
        assertMacroExpansion(
            """
            @ManagedProperty private var primitiveName: String?
            """,
            expandedSource: """
            private var primitiveName: String? {
                get {
                    self[primitive: Self.__managedKey_primitiveName]
                }
                set {
                    self[primitive: Self.__managedKey_primitiveName] = newValue
                }
            }

            private static let __managedKey_primitiveName = OpenCoreData.ManagedPropertyKeys.key((String?).self, "name")
            """,
            macros: macros)
    }

    /// Xcode's to-many accessors get a body naming the relationship their name spells.
    func testGeneratedToManyAccessorsGetBodies() {
        let cases: [(declaration: String, call: String)] = [
            ("func addToItems(_ value: Item)", #"OpenCoreData.ManagedToManyAccessor.add(value, to: "items", of: self)"#),
            ("func removeFromItems(_ values: NSSet)", #"OpenCoreData.ManagedToManyAccessor.remove(values, from: "items", of: self)"#),
            ("func insertIntoItems(_ value: Item, at idx: Int)", #"OpenCoreData.ManagedToManyAccessor.insert(value, at: idx, into: "items", of: self)"#),
            ("func removeFromItems(at indexes: NSIndexSet)", #"OpenCoreData.ManagedToManyAccessor.remove(at: indexes, from: "items", of: self)"#),
            ("func replaceItems(at idx: Int, with value: Item)", #"OpenCoreData.ManagedToManyAccessor.replace(at: idx, with: value, in: "items", of: self)"#),
            ("func addToURLs(_ value: Link)", #"OpenCoreData.ManagedToManyAccessor.add(value, to: "uRLs", of: self)"#),
            // The key-value coding selectors' names, which Apple code declares too.
            ("func addItems(_ values: NSSet)", #"OpenCoreData.ManagedToManyAccessor.add(values, to: "items", of: self)"#),
            ("func addToys(_ values: NSSet)", #"OpenCoreData.ManagedToManyAccessor.add(values, to: "toys", of: self)"#),
            ("func removeItems(_ values: NSSet)", #"OpenCoreData.ManagedToManyAccessor.remove(values, from: "items", of: self)"#),
        ]
        for c in cases {
            assertMacroExpansion("@ManagedAccessor \(c.declaration)", expandedSource: "\(c.declaration) {\n    \(c.call)\n}", macros: macros)
        }
        // The key can be given, as for a property.
        assertMacroExpansion(#"@ManagedAccessor("links") func addToURLs(_ value: Link)"#,
                             expandedSource: "func addToURLs(_ value: Link) {\n    " + #"OpenCoreData.ManagedToManyAccessor.add(value, to: "links", of: self)"# + "\n}",
                             macros: macros)
    }

    func testFunctionsThatAreNotToManyAccessorsAreRejected() {
        assertMacroExpansion("@ManagedAccessor func sortItems()", expandedSource: "func sortItems()", diagnostics: [
            DiagnosticSpec(message: "@ManagedAccessor writes one of Xcode's to-many accessors, named addTo<Key>, removeFrom<Key>, insertInto<Key> or replace<Key>: addToItems(_ value: Item), addToItems(_ values: NSSet), removeFromItems(_:), insertIntoItems(_ value: Item, at idx: Int), removeFromItems(at idx: Int), replaceItems(at idx: Int, with value: Item)", line: 1, column: 23),
        ], macros: macros)
        assertMacroExpansion("@ManagedAccessor func addToItems(_ a: Item, _ b: Item)", expandedSource: "func addToItems(_ a: Item, _ b: Item)", diagnostics: [
            DiagnosticSpec(message: "@ManagedAccessor can't tell what 'addToItems' does from its parameters; Xcode's accessors are addToItems(_ value: Item), addToItems(_ values: NSSet), removeFromItems(_:), insertIntoItems(_ value: Item, at idx: Int), removeFromItems(at idx: Int), replaceItems(at idx: Int, with value: Item)", line: 1, column: 33),
        ], macros: macros)
    }

    func testDeclarationsWithoutManagedStorageAreRejectedWithTheFix() {
        let cases: [(source: String, message: String, column: Int)] = [
            ("@ManagedProperty let a: Int64", "@ManagedProperty needs `var`: a managed property can change, even when only the store changes it", 18),
            ("@ManagedProperty var a = 5", "@ManagedProperty needs the property's type: write `var a: Type`", 22),
            ("@ManagedProperty var a: Int64 = 5", "@ManagedProperty takes no initial value: set the attribute's default value in the model, or assign it in awakeFromInsert()", 31),
            ("@ManagedProperty var a: Int64 { 5 }", "@ManagedProperty writes the accessors: remove the property's own get/set", 22),
            ("@ManagedProperty static var a: Int64", "@ManagedProperty declares an instance property: remove `static`", 18),
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
