import Foundation

/// Rebuilds an `NSExpression` from its `NSKeyedArchiver` form, as Xcode stores the value
/// expressions of mapping models (in a compiled `.cdm`, and as `valueexpressiondata` in an
/// `.xcmappingmodel`).
///
/// ```swift
/// let archive = KeyedArchiveObjects(data)!
/// let e = try ArchivedExpressionDecoder(archive).expression(archive.top["root"])
/// // FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)
/// ```
///
/// Known forms: constants, `SELF`, variables, key paths (`NSKeyPathExpression`: `$source.name`),
/// function calls with or without a target, and `FETCH` (`NSFetchRequestExpression`), which is
/// read as its fetch-request expression (see ``NSEntityMapping/sourceExpression``). Anything
/// else is an `NSMigrationError` naming the expression type.
struct ArchivedExpressionDecoder {
    let archive: KeyedArchiveObjects

    init(_ archive: KeyedArchiveObjects) { self.archive = archive }

    func expression(_ value: Any?, depth: Int = 0) throws -> NSExpression? {
        guard let object = archive.dict(value) else { return nil }
        // Archives are trees here; a reference cycle must not recurse forever.
        guard depth < 64 else { throw Self.error("the archived expression is nested too deeply (a reference cycle?)") }
        let className = archive.className(of: object) ?? "?"
        switch archive.int(object["NSExpressionType"]) {
        case 0:
            return NSExpression(forConstantValue: archive.plainValue(object["NSConstantValue"]))
        case 1:
            return NSExpression.expressionForEvaluatedObject()
        case 2:
            guard let name = archive.string(object["NSVariable"]) else { throw Self.error("a variable expression without a name") }
            return NSExpression(forVariable: name)
        case 3, 10:
            guard let keyPath = archive.string(object["NSKeyPath"]) else { throw Self.error("a key path expression without a key path") }
            return NSExpression(forKeyPath: keyPath)
        case 4:
            let operand = try expression(object["NSOperand"], depth: depth + 1)
            guard let selector = archive.string(object["NSSelectorName"]) else { throw Self.error("a function expression without a selector") }
            let arguments = try archive.array(object["NSArguments"]).map { argument -> NSExpression in
                guard let e = try expression(argument, depth: depth + 1) else { throw Self.error("a missing argument of '\(selector)'") }
                return e
            }
            // `$source.owner` is archived as FUNCTION($source, "valueForKeyPath:", owner).
            if className == "NSKeyPathExpression", arguments.count == 1, case .keyPath(nil, let components) = arguments[0].node {
                var base = operand
                if let operand, case .evaluatedObject = operand.node { base = nil }
                return NSExpression(node: .keyPath(operand: base, components: components))
            }
            if let operand {
                return NSExpression(forFunction: operand, selectorName: selector, arguments: arguments)
            }
            return NSExpression(forFunction: selector, arguments: arguments)
        case 50:
            return try expression(object["NSFRExpression"], depth: depth + 1)
        case let type:
            throw Self.error("expression type \(type.map(String.init) ?? "?") (\(className)) is not supported in mapping models")
        }
    }

    /// The expression archived as the root of `data` (Xcode's `valueexpressiondata`).
    static func expression(archivedIn data: Data) throws -> NSExpression? {
        guard let archive = KeyedArchiveObjects(data) else { throw error("the value expression data is not a keyed archive") }
        return try ArchivedExpressionDecoder(archive).expression(archive.top["root"])
    }

    static func error(_ message: String) -> NSError {
        CoreDataError.make(NSMigrationError, "Can't read a mapping model's expression: \(message).")
    }
}
