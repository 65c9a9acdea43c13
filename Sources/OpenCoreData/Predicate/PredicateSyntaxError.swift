import Foundation

/// The errors thrown for malformed predicate and expression formats.
///
/// ```swift
/// do { _ = try NSPredicate(validatingFormat: "age >") }
/// catch let error as NSError {
///     error.code                  // 2048 (NSFormattingError)
///     error.localizedDescription  // Unable to parse the format string "age >" at position 5: expected an expression ...
///     error.userInfo[PredicateSyntaxError.positionKey] // 5
/// }
/// ```
public enum PredicateSyntaxError {
    /// `userInfo` key: the character offset (in Unicode scalars) where parsing failed.
    public static let positionKey = "OCDPredicateFormatPosition"
    /// `userInfo` key: the format string that failed to parse.
    public static let formatKey = "OCDPredicateFormat"

    /// An `NSError` in `NSCocoaErrorDomain`, code 2048, quoting `format` and `position`.
    public static func make(format: String, position: Int, problem: String) -> NSError {
        let shown = format.count > 200 ? String(format.prefix(200)) + "…" : format
        return NSError(domain: NSCocoaErrorDomain, code: CocoaError.formatting.rawValue, userInfo: [
            NSLocalizedDescriptionKey: "Unable to parse the format string \"\(shown)\" at position \(position): \(problem).",
            positionKey: position,
            formatKey: format,
        ])
    }

    /// The human-readable message of any error, for `preconditionFailure`.
    static func message(of error: Error) -> String {
        (error as NSError).localizedDescription
    }
}
