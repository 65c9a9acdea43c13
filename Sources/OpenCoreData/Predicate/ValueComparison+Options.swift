import Foundation

/// The comparisons of ``ValueComparison`` and ``PredicateStringFolding`` with a predicate's
/// options, as predicates and sort descriptors call them.
///
/// ```swift
/// ValueComparison.isEqual("Éclair", "eclair", options: [.caseInsensitive, .diacriticInsensitive]) // true
/// PredicateStringFolding.fold("Straße", options: .caseInsensitive)                                // "strasse"
/// ```
///
/// Only `.caseInsensitive` and `.diacriticInsensitive` change an answer; `[n]` (normalized) and
/// `[l]` (locale) do not fold, as Apple defines them.
extension StringFolding {
    init(_ options: NSComparisonPredicate.Options) {
        self.init(caseInsensitive: options.contains(.caseInsensitive), diacriticInsensitive: options.contains(.diacriticInsensitive))
    }
}

extension ValueComparison {
    /// Whether `a` equals `b` under the string `options` (which only affect strings).
    public static func isEqual(_ a: Any?, _ b: Any?, options: NSComparisonPredicate.Options) -> Bool {
        isEqual(a, b, folding: StringFolding(options))
    }

    /// The order of `a` and `b`, or nil when they cannot be ordered (nil, mixed kinds, unorderable types).
    public static func compare(_ a: Any?, _ b: Any?, options: NSComparisonPredicate.Options) -> ComparisonResult? {
        compare(a, b, folding: StringFolding(options))
    }

    /// Literal string order after folding; Swift's `<` already respects canonical equivalence.
    public static func compareStrings(_ a: String, _ b: String, options: NSComparisonPredicate.Options) -> ComparisonResult {
        compareStrings(a, b, folding: StringFolding(options))
    }
}

extension PredicateStringFolding {
    /// `string` folded as `options` ask (`.caseInsensitive`, `.diacriticInsensitive`; other options are ignored).
    public static func fold(_ string: String, options: NSComparisonPredicate.Options) -> String {
        fold(string, StringFolding(options))
    }
}
