import SwiftParser
import SwiftSyntax
import SwiftSyntaxBuilder

/// Ports one Swift source file written for Apple's Core Data to OpenCoreData: the mechanical
/// edits of the README's porting guide, made on the syntax tree so comments and layout stay.
///
/// ```swift
/// let result = SourcePorter.port(source, fileName: "Bookmark+CoreDataProperties.swift")
/// result.text        // import OpenCoreDataMacros, @ManagedProperty var title: String?, ...
/// result.changes     // what was changed, line by line
/// result.leftToDo    // what could not be changed, with the reason and a suggestion
/// ```
///
/// The edits: `import CoreData` becomes `import OpenCoreData` (`OpenCoreDataMacros` when the file
/// declares managed properties) and `import Foundation` goes (OpenCoreData re-exports it);
/// `@NSManaged` becomes `@ManagedProperty` on properties and `@ManagedAccessor` on Xcode's
/// to-many accessor functions; `@objc(Name)` on a class goes, its name kept in
/// ``Result/classNames`` for `NSManagedObject.register(_:forClassName:)`; `@objc` on members
/// goes; `#keyPath(Entity.a.b)` becomes `"a.b"`. A file already ported comes back unchanged.
public enum SourcePorter {
    public struct Result: Equatable, Sendable {
        public var text: String
        public var changes: [Finding] = []
        public var leftToDo: [Finding] = []
        /// Classes whose `@objc(Name)` was removed: the Swift class and the name the model uses.
        public var classNames: [ClassName] = []
        /// Whether the file uses Core Data at all (files that don't are left alone).
        public var usesCoreData = false
    }

    public struct Finding: Equatable, Sendable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    public struct ClassName: Equatable, Sendable {
        public let swiftClass: String
        public let modelName: String
        public init(swiftClass: String, modelName: String) {
            self.swiftClass = swiftClass
            self.modelName = modelName
        }
    }

    /// Frameworks Linux does not have; a persistence file that imports one needs a hand.
    static let appleOnlyModules: Set<String> = [
        "UIKit", "AppKit", "SwiftUI", "Combine", "CloudKit", "WidgetKit", "os", "OSLog", "CoreSpotlight", "MapKit", "CoreLocation",
    ]

    /// - Parameter managedClasses: the `NSManagedObject` subclasses declared in the other files
    ///   being ported (``managedClasses(in:)``); this file's own are found here.
    public static func port(_ source: String, fileName: String = "<source>", managedClasses: Set<String> = []) -> Result {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: fileName, tree: tree)
        let rewriter = PortRewriter(converter: converter, managedClasses: Self.managedClasses(in: [tree], extending: managedClasses))
        let mover = OverrideMover(converter: converter, tree: tree)
        let rewritten = mover.rewrite(rewriter.rewrite(tree)).cast(SourceFileSyntax.self)
        var result = Result(text: source)
        result.usesCoreData = rewriter.importsCoreData || rewriter.sawManagedDeclarations
        guard result.usesCoreData else { return result }
        let imports = ImportPass(usesMacros: rewriter.sawManagedDeclarations, importsCoreData: rewriter.importsCoreData, converter: converter)
        let final = imports.rewrite(rewritten)
        result.text = final.description
        result.changes = (imports.changes + rewriter.changes + mover.changes).sorted { $0.line < $1.line }
        result.leftToDo = (imports.leftToDo + rewriter.leftToDo + mover.leftToDo).sorted { $0.line < $1.line }
        result.classNames = rewriter.classNames
        return result
    }
}

extension SourcePorter {
    /// The classes the sources declare as subclasses of `NSManagedObject`, directly or through
    /// another of them.
    public static func managedClasses(in sources: [String]) -> Set<String> {
        managedClasses(in: sources.map { Parser.parse(source: $0) }, extending: [])
    }

    /// The subclasses of `NSManagedObject` or of one of `known` that `trees` declare, and `known`.
    static func managedClasses(in trees: [SourceFileSyntax], extending known: Set<String>) -> Set<String> {
        let finder = ClassFinder(viewMode: .sourceAccurate)
        for tree in trees { finder.walk(tree) }
        var managed = known
        var grew = true
        while grew {
            grew = false
            for (name, superclass) in finder.superclasses where !managed.contains(name) && (superclass == "NSManagedObject" || managed.contains(superclass)) {
                managed.insert(name)
                grew = true
            }
        }
        return managed
    }
}

/// Each class's first inherited type (its superclass, when it has one).
final class ClassFinder: SyntaxVisitor {
    var superclasses: [(String, String)] = []
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        if let first = node.inheritanceClause?.inheritedTypes.first {
            superclasses.append((node.name.text, first.type.trimmedDescription))
        }
        return .visitChildren
    }
}

/// The declaration-level edits: attributes, `#keyPath`, and what to report.
final class PortRewriter: SyntaxRewriter {
    let converter: SourceLocationConverter
    var changes: [SourcePorter.Finding] = []
    var leftToDo: [SourcePorter.Finding] = []
    var classNames: [SourcePorter.ClassName] = []
    var importsCoreData = false
    /// `@NSManaged`, `@ManagedProperty` or `@ManagedAccessor` seen (ported or not).
    var sawManagedDeclarations = false

    /// `NSManagedObject` subclasses: an extension making one `Identifiable` is redundant here.
    let managedClasses: Set<String>

    init(converter: SourceLocationConverter, managedClasses: Set<String>) {
        self.converter = converter
        self.managedClasses = managedClasses
        super.init(viewMode: .sourceAccurate)
    }

    private func line(_ node: some SyntaxProtocol) -> Int {
        node.startLocation(converter: converter).line
    }

    override func visit(_ node: ImportDeclSyntax) -> DeclSyntax {
        let module = node.path.first?.name.text ?? ""
        if ["CoreData", "OpenCoreData", "OpenCoreDataMacros"].contains(module) { importsCoreData = true }
        if SourcePorter.appleOnlyModules.contains(module) {
            leftToDo.append(.init(line: line(node), message: "`import \(module)`: Linux has no \(module). Move the code that needs it out of the persistence layer, or behind `#if canImport(\(module))`."))
        }
        return DeclSyntax(node)
    }

    // MARK: Classes and members

    override func visit(_ node: ClassDeclSyntax) -> DeclSyntax {
        let visited = super.visit(node).cast(ClassDeclSyntax.self)
        let className = visited.name.text
        return DeclSyntax(removingObjC(from: visited, line: line(node)) { name in
            if let name {
                classNames.append(.init(swiftClass: className, modelName: name))
                return "`@objc(\(name))` removed from class \(className); the model's class name \"\(name)\" is registered instead"
            }
            return "`@objc` removed from class \(className)"
        })
    }

    override func visit(_ node: ExtensionDeclSyntax) -> DeclSyntax {
        var visited = super.visit(node).cast(ExtensionDeclSyntax.self)
        // Xcode writes `extension Item : Identifiable {}` for each entity; OpenCoreData's
        // NSManagedObject is Identifiable already, and Swift refuses the restatement here.
        let typeName = visited.extendedType.trimmedDescription
        if managedClasses.contains(typeName), let clause = visited.inheritanceClause,
           clause.inheritedTypes.contains(where: { $0.type.trimmedDescription == "Identifiable" }) {
            let others = clause.inheritedTypes.filter { $0.type.trimmedDescription != "Identifiable" }
            if others.isEmpty {
                visited.inheritanceClause = nil
                visited.extendedType = visited.extendedType.with(\.trailingTrivia, .space)
            } else {
                var types = Array(others)
                types[types.count - 1] = types[types.count - 1].with(\.trailingComma, nil).with(\.trailingTrivia, clause.inheritedTypes.last!.trailingTrivia)
                visited.inheritanceClause = clause.with(\.inheritedTypes, InheritedTypeListSyntax(types))
            }
            changes.append(.init(line: line(node), message: "`Identifiable` removed from the extension of \(typeName): NSManagedObject is Identifiable in OpenCoreData"))
        }
        return DeclSyntax(removingObjC(from: visited, line: line(node)) { _ in "`@objc` removed from an extension" })
    }

    override func visit(_ node: VariableDeclSyntax) -> DeclSyntax {
        var decl = super.visit(node).cast(VariableDeclSyntax.self)
        if let renamed = renamingNSManaged(in: decl.attributes, to: "ManagedProperty") {
            decl.attributes = renamed
            let names = decl.bindings.map { $0.pattern.trimmedDescription }.joined(separator: ", ")
            changes.append(.init(line: line(node), message: "@NSManaged → @ManagedProperty on \(names)"))
            if decl.bindings.count > 1 {
                leftToDo.append(.init(line: line(node), message: "`@ManagedProperty` declares one property: split `var \(names)` into one declaration each."))
            }
        }
        if hasAttribute(decl.attributes, "ManagedProperty") { sawManagedDeclarations = true }
        return DeclSyntax(removingObjC(from: decl, line: line(node)) { _ in "`@objc` removed from a property" })
    }

    override func visit(_ node: FunctionDeclSyntax) -> DeclSyntax {
        var decl = super.visit(node).cast(FunctionDeclSyntax.self)
        if let renamed = renamingNSManaged(in: decl.attributes, to: "ManagedAccessor") {
            decl.attributes = renamed
            changes.append(.init(line: line(node), message: "@NSManaged → @ManagedAccessor on \(decl.name.text)"))
        }
        if hasAttribute(decl.attributes, "ManagedAccessor") { sawManagedDeclarations = true }
        let name = decl.name.text
        if name.hasPrefix("validate"), name.count > "validate".count, name.dropFirst("validate".count).first?.isUppercase == true,
           decl.signature.parameterClause.parameters.contains(where: { $0.type.trimmedDescription.contains("AutoreleasingUnsafeMutablePointer") }) {
            leftToDo.append(.init(line: line(node), message: "`\(name)`: per-key validators are found through the Objective-C runtime on Apple platforms. Conform the class to PropertyValueValidating and move the check into `validate(_ key: String, value: inout Any?)`."))
        }
        return DeclSyntax(removingObjC(from: decl, line: line(node)) { _ in "`@objc` removed from \(name)" })
    }

    // MARK: Expressions

    override func visit(_ node: MacroExpansionExprSyntax) -> ExprSyntax {
        guard node.macroName.text == "keyPath", let argument = node.arguments.first, node.arguments.count == 1 else {
            return super.visit(node)
        }
        var components = argument.expression.trimmedDescription.filter { !$0.isWhitespace }.split(separator: ".").map(String.init)
        // `#keyPath(Entity.a.b)` names the path from a type; `#keyPath(self.a)` from the object.
        if components.count > 1, let first = components.first, first == "self" || first.first?.isUppercase == true {
            components.removeFirst()
        }
        let keyPath = components.joined(separator: ".")
        changes.append(.init(line: line(node), message: "\(node.trimmedDescription) → \"\(keyPath)\""))
        return ExprSyntax(StringLiteralExprSyntax(content: keyPath)).with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
    }

    /// `NSPredicate(format: "id == %@", id as CVarArg)`: Apple code casts a `UUID` (and other
    /// values) to `CVarArg`, which Linux's `UUID` is not; OpenCoreData's `NSPredicate(format:)`
    /// takes any value, so the cast goes.
    override func visit(_ node: FunctionCallExprSyntax) -> ExprSyntax {
        let visited = super.visit(node).cast(FunctionCallExprSyntax.self)
        guard visited.calledExpression.trimmedDescription == "NSPredicate", visited.arguments.first?.label?.text == "format" else {
            return ExprSyntax(visited)
        }
        var changed = false
        let arguments = visited.arguments.map { argument -> LabeledExprSyntax in
            guard argument.label == nil, let inner = Self.castToCVarArgOperand(argument.expression) else { return argument }
            changed = true
            return argument.with(\.expression, inner.with(\.trailingTrivia, argument.expression.trailingTrivia))
        }
        guard changed else { return ExprSyntax(visited) }
        changes.append(.init(line: line(node), message: "`as CVarArg` removed from NSPredicate(format:) arguments: OpenCoreData's takes any value (Linux's UUID is not CVarArg)"))
        return ExprSyntax(visited.with(\.arguments, LabeledExprListSyntax(arguments)))
    }

    /// `x` of `x as CVarArg` (unfolded, as the parser gives it, or folded).
    private static func castToCVarArgOperand(_ expression: ExprSyntax) -> ExprSyntax? {
        if let sequence = expression.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            guard elements.count == 3, elements[1].is(UnresolvedAsExprSyntax.self),
                  elements[2].as(TypeExprSyntax.self)?.type.trimmedDescription == "CVarArg" else { return nil }
            return elements[0].trimmed
        }
        if let cast = expression.as(AsExprSyntax.self), cast.type.trimmedDescription == "CVarArg" { return cast.expression.trimmed }
        return nil
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> ExprSyntax {
        if node.baseName.text == "NSPersistentCloudKitContainer" {
            leftToDo.append(.init(line: line(node), message: "`NSPersistentCloudKitContainer`: CloudKit mirroring needs Apple's servers and is not available on Linux. Use NSPersistentContainer."))
        }
        return super.visit(node)
    }

    override func visit(_ node: MemberAccessExprSyntax) -> ExprSyntax {
        if node.declName.baseName.text == "fetchBatchSize" {
            leftToDo.append(.init(line: line(node), message: "`fetchBatchSize`: `fetch(_:)` returns every object at once on Linux. To iterate a large result batch by batch, call `context.fetchBatched(request)` instead of `fetch`."))
        }
        return super.visit(node)
    }

    // MARK: Attributes

    private func hasAttribute(_ attributes: AttributeListSyntax, _ name: String) -> Bool {
        attributes.contains { element in
            if case .attribute(let a) = element { return a.attributeName.trimmedDescription == name }
            return false
        }
    }

    /// The attributes with `@NSManaged` renamed, or nil when there is none.
    private func renamingNSManaged(in attributes: AttributeListSyntax, to name: String) -> AttributeListSyntax? {
        guard hasAttribute(attributes, "NSManaged") else { return nil }
        return AttributeListSyntax(attributes.map { element in
            guard case .attribute(let a) = element, a.attributeName.trimmedDescription == "NSManaged" else { return element }
            let renamed = TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
                .with(\.leadingTrivia, a.attributeName.leadingTrivia).with(\.trailingTrivia, a.attributeName.trailingTrivia)
            return .attribute(a.with(\.attributeName, renamed))
        })
    }

    /// `decl` without its `@objc` and `@objcMembers` attributes (Linux has no Objective-C
    /// runtime); the comments and line breaks before a removed first attribute stay.
    /// `describe` gets `@objc(Name)`'s name (nil for a plain `@objc`) and says what changed;
    /// `line` is the declaration's in the original file (a rewritten node has no position).
    private func removingObjC<D: WithAttributesSyntax>(from decl: D, line: Int, _ describe: (String?) -> String) -> D {
        var kept: [AttributeListSyntax.Element] = []
        var firstRemovedTrivia: Trivia?
        for (i, element) in decl.attributes.enumerated() {
            guard case .attribute(let a) = element, ["objc", "objcMembers"].contains(a.attributeName.trimmedDescription) else {
                kept.append(element)
                continue
            }
            if i == 0 { firstRemovedTrivia = a.leadingTrivia }
            var objcName: String?
            if case .objCName(let pieces) = a.arguments, pieces.count == 1, let piece = pieces.first, piece.colon == nil {
                objcName = piece.name?.text
            }
            changes.append(.init(line: line, message: describe(objcName)))
        }
        guard kept.count != decl.attributes.count else { return decl }
        var result = decl.with(\.attributes, AttributeListSyntax(kept))
        if let trivia = firstRemovedTrivia { result = result.with(\.leadingTrivia, trivia) }
        return result
    }
}

/// Moves the overrides in extensions of a class into the class's body: Apple code overrides
/// `awakeFromInsert()`, `willSave()`, ... in extensions, which Swift allows only for
/// Objective-C methods. When the class is declared in another file, the override is listed
/// for a hand.
final class OverrideMover: SyntaxRewriter {
    let converter: SourceLocationConverter
    var changes: [SourcePorter.Finding] = []
    var leftToDo: [SourcePorter.Finding] = []
    /// The classes this file declares (at the top level).
    private let classes: Set<String>
    /// The overrides taken out of extensions, by class, in file order.
    private var moved: [String: [MemberBlockItemSyntax]] = [:]

    init(converter: SourceLocationConverter, tree: SourceFileSyntax) {
        self.converter = converter
        classes = Set(tree.statements.compactMap { $0.item.as(ClassDeclSyntax.self)?.name.text })
        super.init(viewMode: .sourceAccurate)
    }

    private static let accessKeywords: [TokenKind] = [.keyword(.public), .keyword(.internal), .keyword(.fileprivate), .keyword(.private), .keyword(.package)]

    /// `item` with the extension's access modifier, unless it has one of its own.
    private static func giving(_ access: DeclModifierSyntax, to item: MemberBlockItemSyntax) -> MemberBlockItemSyntax {
        guard var decl = item.decl.asProtocol(WithModifiersSyntax.self),
              !decl.modifiers.contains(where: { accessKeywords.contains($0.name.tokenKind) }) else { return item }
        var modifiers = Array(decl.modifiers)
        var modifier = access.trimmed.with(\.trailingTrivia, .space)
        let hasAttributes = (decl.asProtocol(WithAttributesSyntax.self)?.attributes.isEmpty == false)
        if !hasAttributes, let first = modifiers.first {
            // The new first token takes the line break and indentation.
            modifier = modifier.with(\.leadingTrivia, first.leadingTrivia)
            modifiers[0] = first.with(\.leadingTrivia, [])
        }
        modifiers.insert(modifier, at: 0)
        decl.modifiers = DeclModifierListSyntax(modifiers)
        guard let rebuilt = DeclSyntax(Syntax(decl)) else { return item }
        return item.with(\.decl, rebuilt)
    }

    private static func isOverride(_ item: MemberBlockItemSyntax) -> Bool {
        guard let decl = item.decl.asProtocol(WithModifiersSyntax.self) else { return false }
        return decl.modifiers.contains { $0.name.tokenKind == .keyword(.override) }
    }

    override func visit(_ node: SourceFileSyntax) -> SourceFileSyntax {
        // Extensions first (they may follow the class), then the classes take what was moved.
        var items = Array(node.statements)
        for (i, item) in items.enumerated() {
            guard let ext = item.item.as(ExtensionDeclSyntax.self) else { continue }
            let typeName = ext.extendedType.trimmedDescription
            let overrides = ext.memberBlock.members.filter(Self.isOverride)
            guard !overrides.isEmpty else { continue }
            let line = ext.startLocation(converter: converter).line
            guard classes.contains(typeName) else {
                for _ in overrides {
                    leftToDo.append(.init(line: line, message: "an override in an extension of \(typeName): Swift allows overriding in extensions only for Objective-C methods. Move it into the body of class \(typeName)."))
                }
                continue
            }
            // A member of `public extension X` is public; in the class it must say so.
            let access = ext.modifiers.first { Self.accessKeywords.contains($0.name.tokenKind) }
            moved[typeName, default: []] += overrides.map { item in access.map { Self.giving($0, to: item) } ?? item }
            let kept = ext.memberBlock.members.filter { !Self.isOverride($0) }
            items[i] = item.with(\.item, .decl(DeclSyntax(ext.with(\.memberBlock, ext.memberBlock.with(\.members, MemberBlockItemListSyntax(kept))))))
            changes.append(.init(line: line, message: "\(overrides.count) override\(overrides.count == 1 ? "" : "s") moved from an extension into the body of class \(typeName) (Swift overrides in extensions only Objective-C methods)"))
        }
        for (i, item) in items.enumerated() {
            guard let cls = item.item.as(ClassDeclSyntax.self), let extra = moved[cls.name.text] else { continue }
            var members = Array(cls.memberBlock.members)
            members += extra
            items[i] = item.with(\.item, .decl(DeclSyntax(cls.with(\.memberBlock, cls.memberBlock.with(\.members, MemberBlockItemListSyntax(members))))))
        }
        return node.with(\.statements, CodeBlockItemListSyntax(items))
    }
}

/// The import edits, once the declarations are known: `CoreData` → the OpenCoreData module the
/// file needs, `Foundation` dropped.
final class ImportPass {
    let module: String
    let converter: SourceLocationConverter
    var changes: [SourcePorter.Finding] = []
    var leftToDo: [SourcePorter.Finding] = []

    /// Whether the file imports Core Data (or OpenCoreData) already (``PortRewriter`` saw it).
    let importsCoreData: Bool

    init(usesMacros: Bool, importsCoreData: Bool, converter: SourceLocationConverter) {
        module = usesMacros ? "OpenCoreDataMacros" : "OpenCoreData"
        self.importsCoreData = importsCoreData
        self.converter = converter
    }

    func rewrite(_ file: SourceFileSyntax) -> SourceFileSyntax {
        var items: [CodeBlockItemSyntax] = []
        var pendingTrivia: Trivia?
        // Without a Core Data import (a file of managed properties that imported only
        // Foundation), the first `import Foundation` becomes the OpenCoreData one.
        var hasTarget = false
        for item in file.statements {
            // `import CoreData.NSFetchedResultsController` and `import class CoreData.X` name
            // the module too: they become the whole OpenCoreData module.
            guard let importDecl = item.item.as(ImportDeclSyntax.self), let name = importDecl.path.first?.name.text,
                  importDecl.path.count == 1 || name == "CoreData" else {
                items.append(withPending(item, &pendingTrivia))
                continue
            }
            let line = importDecl.startLocation(converter: converter).line
            switch name {
            case "CoreData", "OpenCoreData", "OpenCoreDataMacros":
                if hasTarget {
                    // A second Core Data import (CoreData beside OpenCoreData, say): one is enough.
                    changes.append(.init(line: line, message: "`import \(name)` removed: the file imports \(module)"))
                    if item.leadingTrivia.containsComments { pendingTrivia = item.leadingTrivia }
                    continue
                }
                hasTarget = true
                if name != module {
                    changes.append(.init(line: line, message: "`\(importDecl.trimmedDescription)` → `import \(module)`"))
                    items.append(withPending(item.with(\.item, .decl(DeclSyntax(replacingModule(of: importDecl, with: module)))), &pendingTrivia))
                } else {
                    items.append(withPending(item, &pendingTrivia))
                }
            case "Foundation" where !importsCoreData && !hasTarget:
                hasTarget = true
                changes.append(.init(line: line, message: "`import Foundation` → `import \(module)`: the file declares managed properties, and OpenCoreData re-exports Foundation"))
                items.append(withPending(item.with(\.item, .decl(DeclSyntax(replacingModule(of: importDecl, with: module)))), &pendingTrivia))
            case "Foundation":
                changes.append(.init(line: line, message: "`import Foundation` removed: OpenCoreData re-exports it, and both would make NSPredicate and NSSortDescriptor ambiguous"))
                if item.leadingTrivia.containsComments { pendingTrivia = item.leadingTrivia }
            default:
                items.append(withPending(item, &pendingTrivia))
            }
        }
        if !hasTarget {
            // A file that declares managed properties and imports nothing: the import goes
            // first, after the file's opening comments.
            var decl: DeclSyntax = "import \(raw: module)"
            if !items.isEmpty {
                decl = decl.with(\.leadingTrivia, items[0].leadingTrivia)
                items[0] = items[0].with(\.leadingTrivia, .newlines(2))
            }
            items.insert(CodeBlockItemSyntax(item: .decl(decl)), at: 0)
            changes.append(.init(line: 1, message: "`import \(module)` added: the file declares managed properties"))
        }
        return file.with(\.statements, CodeBlockItemListSyntax(items))
    }

    /// `item`, taking over the comments of an import removed before it.
    private func withPending(_ item: CodeBlockItemSyntax, _ pending: inout Trivia?) -> CodeBlockItemSyntax {
        guard let trivia = pending else { return item }
        pending = nil
        return item.with(\.leadingTrivia, trivia)
    }

    private func replacingModule(of decl: ImportDeclSyntax, with module: String) -> ImportDeclSyntax {
        let first = decl.path.first!
        let last = decl.path.last!
        let name = TokenSyntax.identifier(module).with(\.leadingTrivia, first.name.leadingTrivia).with(\.trailingTrivia, last.name.trailingTrivia)
        return decl.with(\.importKindSpecifier, nil)
            .with(\.path, ImportPathComponentListSyntax([first.with(\.name, name).with(\.trailingPeriod, nil)]))
    }
}

private extension Trivia {
    var containsComments: Bool {
        contains { piece in
            switch piece {
            case .lineComment, .blockComment, .docLineComment, .docBlockComment: return true
            default: return false
            }
        }
    }
}
