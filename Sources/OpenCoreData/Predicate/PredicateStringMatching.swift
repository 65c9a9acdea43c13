import Foundation

/// The `LIKE` and `MATCHES` semantics of in-memory evaluation, public so that the SQLite store
/// can register the very same functions in SQL and never answer differently.
///
/// ```swift
/// PredicateStringMatching.like("Crème", pattern: "cr?me*", options: [.caseInsensitive, .diacriticInsensitive]) // true
/// try PredicateStringMatching.matches("abc123", regex: "[a-z]+[0-9]+", options: [])                         // true
/// ```
public enum PredicateStringMatching {
    /// `subject LIKE[options] pattern`: `*` any run, `?` one character, `\*`/`\?` literal,
    /// after ``PredicateStringFolding`` of both sides.
    public static func like(_ subject: String, pattern: String, options: NSComparisonPredicate.Options) -> Bool {
        LikePattern.matches(PredicateStringFolding.fold(subject, options: options),
                            pattern: PredicateStringFolding.fold(pattern, options: options))
    }

    /// `subject MATCHES[options] pattern`: an ICU regular expression that must match the whole
    /// string; `[c]` makes it case-insensitive, `[d]` folds diacritics of the subject. Throws
    /// for an invalid pattern. Compiles the pattern on every call; cache the result of
    /// ``compile(_:options:)`` when matching many strings.
    public static func matches(_ subject: String, regex pattern: String, options: NSComparisonPredicate.Options) throws -> Bool {
        matches(subject, compiled: try compile(pattern, options: options), options: options)
    }

    /// `pattern` compiled the way `MATCHES` uses it (anchored at both ends).
    public static func compile(_ pattern: String, options: NSComparisonPredicate.Options) throws -> NSRegularExpression {
        try ComparisonEvaluator.compileRegex(pattern, options).get()
    }

    /// Whether `regex` (from ``compile(_:options:)``) matches the whole of `subject`.
    public static func matches(_ subject: String, compiled regex: NSRegularExpression, options: NSComparisonPredicate.Options) -> Bool {
        let folded = options.contains(.diacriticInsensitive) ? PredicateStringFolding.fold(subject, options: .diacriticInsensitive) : subject
        return regex.firstMatch(in: folded, options: [], range: NSRange(folded.startIndex..., in: folded)) != nil
    }
}
