import Foundation

/// A logical condition on an object, parsed from Apple's predicate format language or built from
/// ``NSComparisonPredicate`` and ``NSCompoundPredicate``.
///
/// ```swift
/// let adults = NSPredicate(format: "age >= %d AND name BEGINSWITH[c] %@", 18, "a")
/// adults.evaluate(with: ["age": 30, "name": "Alice"])   // true
/// adults.predicateFormat                                 // age >= 18 AND name BEGINSWITH[c] "a"
/// try NSPredicate(validatingFormat: "age >")             // throws: quotes the format and position
/// ```
///
/// `NSPredicate(format:)` returns the concrete subclass the format describes, as on Apple
/// platforms: `NSPredicate(format: "a == 1") is NSComparisonPredicate` is true.
///
/// Evaluation walks the parsed tree; nothing is re-parsed. Objects are read through
/// ``KeyPathEvaluator`` (``KeyValueCoding`` values, dictionaries, collections).
///
/// `evaluate(with:)` cannot throw (Apple's signature): when a key path names nothing it returns
/// false. Code that must tell "false" from "broken" (fetches) calls
/// ``evaluateThrowing(with:substitutionVariables:)``.
// @unchecked Sendable: predicates are immutable trees (all stored properties are `let`); block
// predicates hold a closure the caller promises is safe to call from any thread, as on Apple platforms.
open class NSPredicate: NSObject, @unchecked Sendable {
    /// What a plain `NSPredicate` (not one of the subclasses) is.
    enum Kind {
        case value(Bool)
        case block((Any?, [String: Any]?) -> Bool)
        /// A subclass that overrides evaluation, printing and equality.
        case subclass
        /// A decoded predicate: Swift initializers cannot change their class, so a plain
        /// `NSPredicate` decoded from an archive forwards to the parsed subclass instance.
        case proxy(NSPredicate)
    }

    /// The predicate this one stands for: itself, or the one a decoded proxy forwards to.
    var resolved: NSPredicate {
        if case .proxy(let target) = kind { return target.resolved }
        return self
    }

    final let kind: Kind

    init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    /// `TRUEPREDICATE` (`value == true`) or `FALSEPREDICATE`.
    public init(value: Bool) {
        kind = .value(value)
        super.init()
    }

    /// A predicate computed by `block(object, substitutionVariables)`. It cannot be printed
    /// as a format, archived, or translated to SQL: fetches evaluate it in memory.
    public init(block: @escaping (Any?, [String: Any]?) -> Bool) {
        kind = .block(block)
        super.init()
    }

    // MARK: Archiving (the encoding half is in PredicateArchiving.swift)

    /// A predicate decoded from its format string (see `PredicateArchiving`). Declared here
    /// because required initializers cannot live in extensions.
    public required convenience init(from decoder: Decoder) throws {
        let format = try decoder.singleValueContainer().decode(String.self)
        self.init(kind: .proxy(try PredicateArchiving.parse(format)))
    }

    public required convenience init?(coder: NSCoder) {
        guard let format = coder.decodeObject(of: NSString.self, forKey: PredicateArchiving.formatKey) as String?,
              let parsed = try? PredicateArchiving.parse(format) else { return nil }
        self.init(kind: .proxy(parsed))
    }

    // MARK: Evaluating

    /// Whether `object` satisfies the predicate. Returns false (instead of raising, as Apple's
    /// `NSUnknownKeyException` would) when evaluation fails, for example on a key the object
    /// does not have; call ``evaluateThrowing(with:substitutionVariables:)`` to see the error.
    open func evaluate(with object: Any?) -> Bool {
        (try? evaluateThrowing(with: object, substitutionVariables: nil)) ?? false
    }

    /// Whether `object` satisfies the predicate with `$variables` taken from `bindings`.
    open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        (try? evaluateThrowing(with: object, substitutionVariables: bindings)) ?? false
    }

    /// Whether `object` satisfies the predicate, throwing the `NSError` that stopped evaluation:
    /// ``KeyValueCodingError/undefinedKey(_:in:)`` for an unknown key, a formatting error (code
    /// 2048) for an unbound `$variable`, an invalid regular expression or an unsupported operator.
    ///
    /// ```swift
    /// do { _ = try NSPredicate(format: "nmae == 'x'").evaluateThrowing(with: employee) }
    /// catch { print(error.localizedDescription) } // "Employee has no property named 'nmae'. ..."
    /// ```
    public func evaluateThrowing(with object: Any?, substitutionVariables: [String: Any]? = nil) throws -> Bool {
        try evaluate(object, PredicateEvaluationContext(variables: substitutionVariables ?? [:], userContext: nil))
    }

    /// Evaluation hook the subclasses override.
    func evaluate(_ object: Any?, _ context: PredicateEvaluationContext) throws -> Bool {
        switch kind {
        case .value(let value): return value
        case .block(let block): return block(object, context.variables)
        case .proxy(let target): return try target.evaluate(object, context)
        case .subclass: preconditionFailure("NSPredicate subclasses must override evaluate(_:_:)")
        }
    }

    /// Apple's secure-decoding hook; predicates here are always evaluable.
    open func allowEvaluation() {}

    // MARK: Variables

    /// A copy with every `$variable` named in `variables` replaced by a constant. Variables not
    /// in the dictionary, and `SUBQUERY` iterator variables, are left in place.
    ///
    /// ```swift
    /// let template = NSPredicate(format: "age > $minimum")
    /// template.withSubstitutionVariables(["minimum": 18]).predicateFormat // "age > 18"
    /// ```
    public func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        guard let result = substituting(variables, bound: []) as? Self else {
            preconditionFailure("substituting variables changed the predicate's class; please report this as an OpenCoreData bug")
        }
        return result
    }

    /// Substitution hook the subclasses override; `bound` holds subquery iterator variables.
    func substituting(_ variables: [String: Any], bound: Set<String>) -> NSPredicate {
        if case .proxy(let target) = kind { return NSPredicate(kind: .proxy(target.substituting(variables, bound: bound))) }
        return self
    }

    // MARK: Printing and equality

    /// The predicate in Apple's canonical format (`==`, double-quoted strings, upper-case
    /// keywords, nested compounds parenthesised). Parsing it gives an equal predicate.
    open var predicateFormat: String {
        switch kind {
        case .value(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .block: return "BLOCKPREDICATE(\(Unmanaged.passUnretained(self).toOpaque()))"
        case .proxy(let target): return target.predicateFormat
        case .subclass: preconditionFailure("NSPredicate subclasses must override predicateFormat")
        }
    }

    open override var description: String { predicateFormat }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = (object as? NSPredicate)?.resolved else { return false }
        if case .proxy(let target) = kind { return target.isEqual(other) }
        if self === other { return true }
        switch (kind, other.kind) {
        case let (.value(a), .value(b)): return a == b
        default: return false
        }
    }

    open override var hash: Int {
        switch kind {
        case .value(let value): return value ? 1 : 0
        case .block: return ObjectIdentifier(self).hashValue
        case .proxy(let target): return target.hash
        case .subclass: return 2
        }
    }
}

// MARK: - Parsing initializers

/// Gives `NSPredicate` and its subclasses the format-parsing initializers. They live in a
/// protocol extension because only there may an initializer assign `self`, which lets
/// `NSPredicate(format:)` return the subclass the format describes (`NSCompoundPredicate`, ...).
public protocol _PredicateFormatParsing {}

extension NSPredicate: _PredicateFormatParsing {}

extension _PredicateFormatParsing {
    /// A predicate parsed from `format`, with `%@` (object), `%K` (key path), `%d`, `%f`, ...
    /// arguments taken from `args`. A malformed format stops the program with a message that
    /// quotes the format and the position; use ``init(validatingFormat:_:)`` to handle it.
    public init(format: String, _ args: Any...) {
        self.init(format: format, argumentArray: args)
    }

    /// A predicate parsed from `format` with arguments from `argumentArray`.
    public init(format: String, argumentArray: [Any]?) {
        do {
            try self.init(validatingFormat: format, argumentArray: argumentArray ?? [])
        } catch {
            preconditionFailure(PredicateSyntaxError.message(of: error))
        }
    }

    /// A predicate parsed from `format`, or a thrown `NSError` (`NSCocoaErrorDomain`, code 2048)
    /// whose description quotes the format and the character position of the problem.
    public init(validatingFormat format: String, _ args: Any...) throws {
        try self.init(validatingFormat: format, argumentArray: args)
    }

    /// A predicate parsed from `format` with arguments from `argumentArray`, or a thrown `NSError`.
    public init(validatingFormat format: String, argumentArray: [Any]) throws {
        let parsed = try PredicateParser(format: format, arguments: argumentArray).parsePredicateFormat()
        guard let typed = parsed as? Self else {
            throw PredicateSyntaxError.make(format: format, position: 0, problem: "the format describes a \(String(describing: type(of: parsed))), not a \(String(describing: Self.self)); create it with NSPredicate(format:)")
        }
        self = typed
    }
}
