import Foundation

/// `AND`, `OR` and `NOT` of other predicates.
///
/// ```swift
/// let p = NSCompoundPredicate(andPredicateWithSubpredicates: [
///     NSPredicate(format: "age > 18"), NSPredicate(format: "name != nil")])
/// p.predicateFormat                                           // age > 18 AND name != nil
/// NSCompoundPredicate(orPredicateWithSubpredicates: []).evaluate(with: nil) // false
/// ```
///
/// An `AND` of no subpredicates is true, an `OR` of none is false (Apple's rules). A `NOT`
/// negates the `AND` of its subpredicates (normally exactly one). Evaluation short-circuits.
// @unchecked Sendable: immutable (all `let`); see NSPredicate.
open class NSCompoundPredicate: NSPredicate, @unchecked Sendable {
    /// The logical operator, with Apple's raw values.
    public enum LogicalType: UInt, Sendable {
        case not = 0
        case and = 1
        case or = 2
    }

    public final let compoundPredicateType: LogicalType
    final let predicates: [NSPredicate]

    /// The same as ``compoundPredicateType``.
    public var type: LogicalType { compoundPredicateType }

    /// The subpredicates, typed `[Any]` like Apple's (each element is an `NSPredicate`).
    public var subpredicates: [Any] { predicates }

    public init(type: LogicalType, subpredicates: [NSPredicate]) {
        compoundPredicateType = type
        predicates = subpredicates
        super.init(kind: .subclass)
    }

    /// Decodes a compound archived as its format (see `PredicateArchiving`).
    public required convenience init(from decoder: Decoder) throws {
        let format = try decoder.singleValueContainer().decode(String.self)
        guard let c = try PredicateArchiving.parse(format) as? NSCompoundPredicate else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(format) is not a compound predicate; decode it as NSPredicate"))
        }
        self.init(type: c.compoundPredicateType, subpredicates: c.predicates)
    }

    public required convenience init?(coder: NSCoder) {
        guard let format = coder.decodeObject(of: NSString.self, forKey: PredicateArchiving.formatKey) as String?,
              let c = (try? PredicateArchiving.parse(format)) as? NSCompoundPredicate else { return nil }
        self.init(type: c.compoundPredicateType, subpredicates: c.predicates)
    }

    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    override func evaluate(_ object: Any?, _ context: PredicateEvaluationContext) throws -> Bool {
        switch compoundPredicateType {
        case .and:
            for p in predicates where try !p.evaluate(object, context) { return false }
            return true
        case .or:
            for p in predicates where try p.evaluate(object, context) { return true }
            return false
        case .not:
            for p in predicates where try !p.evaluate(object, context) { return true }
            return false
        }
    }

    override func substituting(_ variables: [String: Any], bound: Set<String>) -> NSPredicate {
        NSCompoundPredicate(type: compoundPredicateType, subpredicates: predicates.map { $0.substituting(variables, bound: bound) })
    }

    open override var predicateFormat: String { PredicateFormatter.format(self) }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = (object as? NSPredicate)?.resolved as? NSCompoundPredicate else { return false }
        return self === other || (compoundPredicateType == other.compoundPredicateType
            && predicates.count == other.predicates.count
            && zip(predicates, other.predicates).allSatisfy { $0.isEqual($1) })
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(compoundPredicateType)
        for p in predicates { hasher.combine(p.hash) }
        return hasher.finalize()
    }
}
