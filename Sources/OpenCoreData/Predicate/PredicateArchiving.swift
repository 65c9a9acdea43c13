import Foundation

/// Archiving predicates (Codable and NSSecureCoding) as their format string.
///
/// ```swift
/// let data = try JSONEncoder().encode(NSPredicate(format: "age > %d", 18))   // "age > 18"
/// let p = try JSONDecoder().decode(NSPredicate.self, from: data)
/// let c = try JSONDecoder().decode(NSComparisonPredicate.self, from: data)   // the concrete class
/// ```
///
/// The archive is `predicateFormat`, which is exact for everything the format language can
/// express (strings, numbers, dates, UUIDs, URLs, data, collections, variables). Encoding checks
/// that the format parses back to an equal predicate and throws otherwise (block predicates,
/// constants of arbitrary object types), so an archive never silently changes meaning.
///
/// Decoding as `NSPredicate.self` gives an `NSPredicate` that forwards to the parsed predicate
/// (Swift initializers cannot change the class they create); decode as
/// `NSComparisonPredicate.self` / `NSCompoundPredicate.self` to get those classes.
enum PredicateArchiving {
    static let formatKey = "NSPredicateFormat"

    /// The format to archive, or an error naming why `predicate` cannot be archived.
    static func archivableFormat(of predicate: NSPredicate) throws -> String {
        let format = predicate.predicateFormat
        guard let reparsed = try? NSPredicate(validatingFormat: format, argumentArray: []), reparsed.isEqual(predicate) else {
            throw PredicateEvaluationError.make("The predicate \(format) cannot be archived: its format does not read back as the same predicate (block predicates and constants of arbitrary object types have no format). Archive a predicate built from format-expressible values.")
        }
        return format
    }

    static func parse(_ format: String) throws -> NSPredicate {
        try NSPredicate(validatingFormat: format, argumentArray: [])
    }
}

extension NSPredicate: Codable, NSSecureCoding {
    public static var supportsSecureCoding: Bool { true }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try PredicateArchiving.archivableFormat(of: self))
    }

    public func encode(with coder: NSCoder) {
        // NSCoding cannot throw: an unarchivable predicate is a programming error, as on Apple platforms.
        do {
            coder.encode(try PredicateArchiving.archivableFormat(of: self) as NSString, forKey: PredicateArchiving.formatKey)
        } catch {
            preconditionFailure(error.localizedDescription)
        }
    }
}
