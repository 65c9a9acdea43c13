import Foundation

/// Rebuilds the value expressions of mapping models from their `NSKeyedArchiver` form (a
/// compiled `.cdm`, and `valueexpressiondata` in an `.xcmappingmodel`), with
/// ``ArchivedPredicateDecoder``; what it can't read is an `NSMigrationError`.
///
/// ```swift
/// let archive = KeyedArchiveObjects(data)!
/// let e = try ArchivedExpressionDecoder(archive).expression(archive.top["root"])
/// // FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)
/// ```
///
/// `FETCH` (`NSFetchRequestExpression`) is read as its fetch-request expression (see
/// ``NSEntityMapping/sourceExpression``).
struct ArchivedExpressionDecoder {
    let decoder: ArchivedPredicateDecoder

    init(_ archive: KeyedArchiveObjects) { decoder = ArchivedPredicateDecoder(archive) }

    func expression(_ value: Any?) throws -> NSExpression? {
        do { return try decoder.expression(value) } catch let failure as ArchivedPredicateDecoder.Failure {
            throw Self.error(failure.description)
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
