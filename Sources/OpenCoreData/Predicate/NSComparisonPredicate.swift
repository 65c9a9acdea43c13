import Foundation

/// A predicate that compares two expressions with an operator: `age > 18`,
/// `ANY employees.name BEGINSWITH[c] 'a'`, `price BETWEEN {1, 10}`.
///
/// ```swift
/// let p = NSComparisonPredicate(
///     leftExpression: NSExpression(forKeyPath: "name"),
///     rightExpression: NSExpression(forConstantValue: "ann"),
///     modifier: .direct, type: .beginsWith, options: .caseInsensitive)
/// p.predicateFormat                       // name BEGINSWITH[c] "ann"
/// p.evaluate(with: ["name": "Annie"])     // true
/// ```
///
/// Operator semantics are in `ComparisonEvaluator`. A constant right-hand side is prepared
/// once at creation (regular expression compiled, string folded), not per evaluated object.
// @unchecked Sendable: immutable (all `let`); see NSPredicate.
open class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    /// `ANY`/`ALL`/direct, with Apple's raw values.
    public enum Modifier: UInt, Sendable {
        case direct = 0
        case all = 1
        case any = 2
    }

    /// The comparison operators, with Apple's raw values.
    public enum Operator: UInt, Sendable {
        case lessThan = 0
        case lessThanOrEqualTo = 1
        case greaterThan = 2
        case greaterThanOrEqualTo = 3
        case equalTo = 4
        case notEqualTo = 5
        case matches = 6
        case like = 7
        case beginsWith = 8
        case endsWith = 9
        case `in` = 10
        case customSelector = 11
        case contains = 99
        case between = 100
    }

    /// String comparison options: `[c]`, `[d]`, `[n]`, `[l]`.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `[c]`: case-insensitive (Unicode case folding; see ``PredicateStringFolding``).
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: diacritic-insensitive.
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `[n]`: the strings are already normalized; compare them as they are.
        public static let normalized = Options(rawValue: 4)
        /// `[l]`: locale-sensitive (accepted and printed; comparisons stay locale-independent).
        public static let localeSensitive = Options(rawValue: 8)
    }

    public final let leftExpression: NSExpression
    public final let rightExpression: NSExpression
    public final let comparisonPredicateModifier: Modifier
    public final let predicateOperatorType: Operator
    public final let options: Options
    /// Not supported on Linux (no Objective-C runtime); always nil.
    public var customSelector: Selector? { nil }

    /// Work done once for a constant right-hand side (compiled regex, folded string...).
    final let prepared: ComparisonEvaluator.Prepared

    /// A comparison of `lhs` and `rhs` with `type`, under `modifier` (`ANY`/`ALL`) and string `options`.
    public init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, modifier: Modifier, type: Operator, options: Options = []) {
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = modifier
        predicateOperatorType = type
        self.options = options
        prepared = ComparisonEvaluator.prepare(type, rhs, options)
        super.init(kind: .subclass)
    }

    /// Decodes a comparison archived as its format (see `PredicateArchiving`).
    public required convenience init(from decoder: Decoder) throws {
        let format = try decoder.singleValueContainer().decode(String.self)
        guard let c = try PredicateArchiving.parse(format) as? NSComparisonPredicate else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(format) is not a comparison predicate; decode it as NSPredicate"))
        }
        self.init(copying: c)
    }

    public required convenience init?(coder: NSCoder) {
        guard let format = coder.decodeObject(of: NSString.self, forKey: PredicateArchiving.formatKey) as String?,
              let c = (try? PredicateArchiving.parse(format)) as? NSComparisonPredicate else { return nil }
        self.init(copying: c)
    }

    private convenience init(copying c: NSComparisonPredicate) {
        self.init(leftExpression: c.leftExpression, rightExpression: c.rightExpression, modifier: c.comparisonPredicateModifier, type: c.predicateOperatorType, options: c.options)
    }

    override func evaluate(_ object: Any?, _ context: PredicateEvaluationContext) throws -> Bool {
        let lhs = try leftExpression.evaluate(object, context)
        let rhs = try rightExpression.evaluate(object, context)
        switch comparisonPredicateModifier {
        case .direct:
            return try ComparisonEvaluator.perform(predicateOperatorType, lhs, rhs, options, prepared)
        case .any:
            for element in ComparisonEvaluator.flattenedElements(lhs) {
                if try ComparisonEvaluator.perform(predicateOperatorType, element, rhs, options, prepared) { return true }
            }
            return false
        case .all:
            for element in ComparisonEvaluator.flattenedElements(lhs) {
                if try !ComparisonEvaluator.perform(predicateOperatorType, element, rhs, options, prepared) { return false }
            }
            return true
        }
    }

    override func substituting(_ variables: [String: Any], bound: Set<String>) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: leftExpression.substituting(variables, bound: bound),
            rightExpression: rightExpression.substituting(variables, bound: bound),
            modifier: comparisonPredicateModifier, type: predicateOperatorType, options: options)
    }

    open override var predicateFormat: String { PredicateFormatter.format(self) }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = (object as? NSPredicate)?.resolved as? NSComparisonPredicate else { return false }
        return self === other || (predicateOperatorType == other.predicateOperatorType
            && comparisonPredicateModifier == other.comparisonPredicateModifier
            && options == other.options
            && leftExpression.isEqual(other.leftExpression)
            && rightExpression.isEqual(other.rightExpression))
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(predicateOperatorType)
        hasher.combine(comparisonPredicateModifier)
        hasher.combine(options)
        hasher.combine(leftExpression.hash)
        hasher.combine(rightExpression.hash)
        return hasher.finalize()
    }
}
