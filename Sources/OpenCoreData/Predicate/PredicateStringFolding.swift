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
public enum PredicateStringFolding {
    /// `string` folded as `options` ask (`.caseInsensitive`, `.diacriticInsensitive`; other options are ignored).
    @inlinable
    public static func fold(_ string: String, options: NSComparisonPredicate.Options) -> String {
        fold(string, caseInsensitive: options.contains(.caseInsensitive), diacriticInsensitive: options.contains(.diacriticInsensitive))
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
