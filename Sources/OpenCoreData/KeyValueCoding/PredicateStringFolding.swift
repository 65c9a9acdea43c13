import Foundation

/// The one string folding used by `[c]`, `[d]` and `[cd]` comparisons, in memory and (registered
/// as an SQL function) in the SQLite store, so both paths give the same answers.
///
/// ```swift
/// PredicateStringFolding.fold("Crème BRÛLÉE", options: [.caseInsensitive, .diacriticInsensitive]) // "creme brulee"
/// PredicateStringFolding.fold("Straße", options: .caseInsensitive)                                // "strasse"
/// ```
///
/// Case folding is Unicode full case folding (so `ß` matches `ss`), not ASCII-only like
/// SQLite's `NOCASE`; diacritic folding removes combining marks (`é` → `e`). `[n]` (normalized)
/// and `[l]` (locale) do not fold: Apple defines `[n]` as "the strings are already folded".
///
/// It lives below predicates because key-value coding's collection operators (`@max`,
/// `@distinctUnionOf...`) compare values by the same rules; the `options:` spelling that takes
/// `NSComparisonPredicate.Options` is in `Predicate/PredicateStringFolding+Options.swift`.
public enum PredicateStringFolding {
    /// `string` folded as `folding` asks.
    static func fold(_ string: String, _ folding: StringFolding) -> String {
        fold(string, caseInsensitive: folding.caseInsensitive, diacriticInsensitive: folding.diacriticInsensitive)
    }

    /// `string` folded for case and/or diacritics; the form the SQLite store registers.
    public static func fold(_ string: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        if !caseInsensitive && !diacriticInsensitive { return string }
        // ASCII fast path: no diacritics exist, and case folding is a byte-wise lower-casing.
        var isASCII = true
        for byte in string.utf8 where byte >= 0x80 { isASCII = false; break }
        if isASCII {
            return caseInsensitive ? string.lowercased() : string
        }
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        // Compose afterwards so folded strings compare and hash the same whatever form they came in.
        return string.folding(options: options, locale: nil).precomposedStringWithCanonicalMapping
    }
}

/// Which differences between strings a comparison ignores: a predicate's `[c]` and `[d]`
/// (`NSComparisonPredicate.Options` without the options that do not fold).
struct StringFolding: Equatable {
    var caseInsensitive = false
    var diacriticInsensitive = false
    /// Strings compare as they are.
    static let none = StringFolding()
    var isNone: Bool { !caseInsensitive && !diacriticInsensitive }
}
