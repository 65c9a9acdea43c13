import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ManagedProperty var name: Type` → accessors through a static `ManagedPropertyKey<Type>`.
///
/// The property must be an instance `var` with a written type, no initial value and no
/// accessors of its own: the entity's model, not Swift, gives it a default, and its storage is
/// the object's.
public struct ManagedPropertyMacro: AccessorMacro, PeerMacro {
    public static func expansion(of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [AccessorDeclSyntax] {
        let property = try ManagedPropertyDeclaration(declaration, attribute: node)
        let subscriptLabel = property.isPrimitive ? "primitive" : "managed"
        return [
            "get { self[\(raw: subscriptLabel): Self.\(raw: property.keyName)] }",
            "set { self[\(raw: subscriptLabel): Self.\(raw: property.keyName)] = newValue }",
        ]
    }

    public static func expansion(of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        // Errors are reported once, by the accessor expansion.
        guard let property = try? ManagedPropertyDeclaration(declaration, attribute: node) else { return [] }
        let key = StringLiteralExprSyntax(content: property.key)
        // `ManagedPropertyKeys.key` is overloaded: the typed key for a `ManagedPropertyValue`
        // type, else a key-value coding key, which the macro can't tell apart from syntax.
        return ["private static let \(raw: property.keyName) = OpenCoreData.ManagedPropertyKeys.key((\(property.type.trimmed)).self, \(key))"]
    }
}

/// `@ManagedAccessor func addToItems(_ value: Item)` and Xcode's other generated to-many
/// accessors (`removeFromX`, `insertIntoX`, `replaceX`) → a body that calls
/// `ManagedToManyAccessor` with the relationship's key.
public struct ManagedAccessorMacro: BodyMacro {
    public static func expansion(of node: AttributeSyntax, providingBodyFor declaration: some DeclSyntaxProtocol & WithOptionalCodeBlockSyntax,
                                 in context: some MacroExpansionContext) throws -> [CodeBlockItemSyntax] {
        guard let function = declaration.as(FunctionDeclSyntax.self) else { return [] }
        let accessor = try ToManyAccessorDeclaration(function, attribute: node)
        return ["\(raw: accessor.call)"]
    }
}

/// An Xcode-generated to-many accessor: which change it makes, to which relationship.
struct ToManyAccessorDeclaration {
    /// `ManagedToManyAccessor.add(value, to: "items", of: self)`.
    let call: String

    private static let shapes = "addToItems(_ value: Item), addToItems(_ values: NSSet), removeFromItems(_:), insertIntoItems(_ value: Item, at idx: Int), removeFromItems(at idx: Int), replaceItems(at idx: Int, with value: Item)"

    init(_ function: FunctionDeclSyntax, attribute: AttributeSyntax) throws {
        let name = function.name.text
        if let body = function.body {
            throw ManagedPropertyMessage.error("@ManagedAccessor writes the accessor's body: remove the function's own", at: Syntax(body))
        }
        let parameters = Array(function.signature.parameterClause.parameters)
        func reference(_ i: Int) -> String { (parameters[i].secondName ?? parameters[i].firstName).text }
        func label(_ i: Int) -> String { parameters[i].firstName.text }
        // Xcode's names (`addToItems`), or the key-value coding selectors Apple code also
        // declares (`@objc(addItems:) func addItems(_:)`): the key starts with a capital after
        // the prefix, so `addToys` is `add` + `Toys`.
        let prefixes = ["insertInto", "removeFrom", "addTo", "replace", "insert", "remove", "add"]
        let canonical = ["insert": "insertInto", "remove": "removeFrom", "add": "addTo"]
        guard let spelled = prefixes.first(where: { name.hasPrefix($0) && name.dropFirst($0.count).first?.isUppercase == true }) else {
            throw ManagedPropertyMessage.error("@ManagedAccessor writes one of Xcode's to-many accessors, named addTo<Key>, removeFrom<Key>, insertInto<Key> or replace<Key>: \(Self.shapes)", at: Syntax(function.name))
        }
        let prefix = canonical[spelled] ?? spelled
        let rest = name.dropFirst(spelled.count)
        let key = try ManagedPropertyDeclaration.explicitKey(in: attribute) ?? (rest.prefix(1).lowercased() + rest.dropFirst())
        let literal = StringLiteralExprSyntax(content: key).description
        func requireShape(_ ok: Bool) throws {
            guard ok else {
                throw ManagedPropertyMessage.error("@ManagedAccessor can't tell what '\(name)' does from its parameters; Xcode's accessors are \(Self.shapes)", at: Syntax(function.signature))
            }
        }
        switch prefix {
        case "addTo":
            try requireShape(parameters.count == 1)
            call = "OpenCoreData.ManagedToManyAccessor.add(\(reference(0)), to: \(literal), of: self)"
        case "removeFrom" where parameters.count == 1 && label(0) == "at":
            call = "OpenCoreData.ManagedToManyAccessor.remove(at: \(reference(0)), from: \(literal), of: self)"
        case "removeFrom":
            try requireShape(parameters.count == 1)
            call = "OpenCoreData.ManagedToManyAccessor.remove(\(reference(0)), from: \(literal), of: self)"
        case "insertInto":
            try requireShape(parameters.count == 2 && label(1) == "at")
            call = "OpenCoreData.ManagedToManyAccessor.insert(\(reference(0)), at: \(reference(1)), into: \(literal), of: self)"
        default:
            try requireShape(parameters.count == 2 && label(0) == "at" && label(1) == "with")
            call = "OpenCoreData.ManagedToManyAccessor.replace(at: \(reference(0)), with: \(reference(1)), in: \(literal), of: self)"
        }
    }
}

/// The parts of a `@ManagedProperty` declaration the expansion needs, or the error to report.
struct ManagedPropertyDeclaration {
    let name: String
    let type: TypeSyntax
    /// The entity property: the attribute's argument, or the Swift name (`primitiveName`'s is
    /// `name`).
    let key: String
    /// Xcode's `primitive<Key>` accessor: `primitiveName` reads and sets `name` as
    /// `primitiveValue(forKey:)` and `setPrimitiveValue(_:forKey:)` do.
    let isPrimitive: Bool
    var keyName: String { "__managedKey_\(name)" }

    init(_ declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax) throws {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            throw ManagedPropertyMessage.error("@ManagedProperty applies to a property: write `@ManagedProperty var name: Type` (a to-many accessor function takes @ManagedAccessor)", at: Syntax(declaration))
        }
        guard variable.bindingSpecifier.tokenKind == .keyword(.var) else {
            throw ManagedPropertyMessage.error("@ManagedProperty needs `var`: a managed property can change, even when only the store changes it", at: Syntax(variable.bindingSpecifier))
        }
        if let modifier = variable.modifiers.first(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) {
            throw ManagedPropertyMessage.error("@ManagedProperty declares an instance property: remove `\(modifier.name.text)`", at: Syntax(modifier))
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
            // The compiler refuses a macro on several bindings before expanding it; this is a backstop.
            throw ManagedPropertyMessage.error("@ManagedProperty declares one property: write one `@ManagedProperty var name: Type` per line", at: Syntax(variable.bindings))
        }
        guard let type = binding.typeAnnotation?.type else {
            throw ManagedPropertyMessage.error("@ManagedProperty needs the property's type: write `var \(identifier.identifier.text): Type`", at: Syntax(binding))
        }
        if let initializer = binding.initializer {
            throw ManagedPropertyMessage.error("@ManagedProperty takes no initial value: set the attribute's default value in the model, or assign it in awakeFromInsert()", at: Syntax(initializer))
        }
        if binding.accessorBlock != nil {
            throw ManagedPropertyMessage.error("@ManagedProperty writes the accessors: remove the property's own get/set", at: Syntax(binding))
        }
        name = String(identifier.identifier.text.filter { $0 != "`" })
        // `Date!` (Xcode writes it for some attributes) is stored as `Date?`: a generic
        // argument can't be implicitly unwrapped, and the accessors return the optional.
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            self.type = TypeSyntax(OptionalTypeSyntax(wrappedType: unwrapped.wrappedType.trimmed))
        } else {
            self.type = type
        }
        // `primitiveName` → `name`, as Core Data names primitive accessors (a capital after
        // the prefix); an explicit key means the name is the property's own.
        let primitive = name.dropFirst("primitive".count)
        if let explicit = try Self.explicitKey(in: attribute) {
            key = explicit
            isPrimitive = false
        } else if name.hasPrefix("primitive"), let first = primitive.first, first.isUppercase {
            key = first.lowercased() + primitive.dropFirst()
            isPrimitive = true
        } else {
            key = name
            isPrimitive = false
        }
    }

    /// The string literal of `@ManagedProperty("key")`.
    static func explicitKey(in attribute: AttributeSyntax) throws -> String? {
        guard case .argumentList(let arguments) = attribute.arguments, let first = arguments.first else { return nil }
        guard let literal = first.expression.as(StringLiteralExprSyntax.self), let key = literal.representedLiteralValue, !key.isEmpty else {
            throw ManagedPropertyMessage.error("@ManagedProperty(_:) takes the entity property's name as a plain string literal, such as @ManagedProperty(\"firstName\")", at: Syntax(first))
        }
        return key
    }
}

/// A `@ManagedProperty` misuse, reported at the part of the declaration to fix.
struct ManagedPropertyMessage: DiagnosticMessage {
    let message: String
    var diagnosticID: MessageID { MessageID(domain: "OpenCoreDataMacros", id: "ManagedProperty") }
    var severity: DiagnosticSeverity { .error }

    static func error(_ message: String, at node: Syntax) -> DiagnosticsError {
        DiagnosticsError(diagnostics: [Diagnostic(node: node, message: ManagedPropertyMessage(message: message))])
    }
}

@main
struct OpenCoreDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [ManagedPropertyMacro.self, ManagedAccessorMacro.self]
}
