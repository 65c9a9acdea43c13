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
        return [
            "get { self[managed: Self.\(raw: property.keyName)] }",
            "set { self[managed: Self.\(raw: property.keyName)] = newValue }",
        ]
    }

    public static func expansion(of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        // Errors are reported once, by the accessor expansion.
        guard let property = try? ManagedPropertyDeclaration(declaration, attribute: node) else { return [] }
        let key = StringLiteralExprSyntax(content: property.key)
        return ["private static let \(raw: property.keyName) = OpenCoreData.ManagedPropertyKey<\(property.type.trimmed)>(\(key))"]
    }
}

/// The parts of a `@ManagedProperty` declaration the expansion needs, or the error to report.
struct ManagedPropertyDeclaration {
    let name: String
    let type: TypeSyntax
    /// The entity property: the attribute's argument, or the Swift name.
    let key: String
    var keyName: String { "__managedKey_\(name)" }

    init(_ declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax) throws {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            throw ManagedPropertyMessage.error("@ManagedProperty applies to a property: write `@ManagedProperty var name: Type`", at: Syntax(declaration))
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
        if type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            throw ManagedPropertyMessage.error("@ManagedProperty can't use an implicitly unwrapped optional: write `\(type.trimmedDescription.dropLast())?`", at: Syntax(type))
        }
        name = String(identifier.identifier.text.filter { $0 != "`" })
        self.type = type
        key = try Self.explicitKey(in: attribute) ?? name
    }

    /// The string literal of `@ManagedProperty("key")`.
    private static func explicitKey(in attribute: AttributeSyntax) throws -> String? {
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
    let providingMacros: [Macro.Type] = [ManagedPropertyMacro.self]
}
