import Foundation

extension _PredicateFormatParsing {
    /// The `NSPredicate` equivalent of a Foundation `Predicate` (`#Predicate`) over a managed
    /// object subclass, or a thrown `NSError` naming the part that has no equivalent.
    ///
    /// ```swift
    /// let p = try NSPredicate(translating: #Predicate<Employee> {
    ///     $0.salary > 5000 && $0.department?.name == "Sales"
    /// })
    /// p.predicateFormat   // salary > 5000 AND department.name == "Sales"
    /// request.predicate = p
    /// ```
    ///
    /// Key paths must go through `@Managed` properties of classes whose entities a loaded model
    /// describes (see ``KeyPathNames``). Translated: comparisons, `&&` `||` `!`, constants,
    /// optional chaining and `??`, `c ? a : b`, `contains` on a constant collection or range
    /// (`IN`, `BETWEEN`), string `contains` / `starts(with:)` / `isEmpty`, to-many
    /// `contains(where:)` / `allSatisfy` / `filter` (`SUBQUERY`), `count` and `isEmpty`
    /// (`@count`), arithmetic; docs/DEVIATIONS.md has the full table. Nothing is approximated:
    /// where Swift's meaning and the predicate language's differ (`String.count`, integer `/`,
    /// force unwrap) the initializer throws. Parts that do not read the object are computed by
    /// Swift and become constants.
    ///
    /// The error is an `NSError` in `NSCocoaErrorDomain` with code 2048, whose description says
    /// what could not be translated and what to write instead.
    public init<Input>(translating predicate: Predicate<Input>) throws {
        var state = PredicateTranslationState(input: predicate.variable.key)
        let translated = try predicate.expression.translatedPredicate(&state)
        guard let typed = translated as? Self else {
            throw PredicateTranslation.failure("the predicate translates to a \(type(of: translated)), not a \(Self.self); create it with NSPredicate(translating:)")
        }
        self = typed
    }

    /// The `NSPredicate` equivalent of a Foundation `Predicate`, or nil when part of it has no
    /// equivalent — Apple's `NSPredicate(_:)`. Use ``init(translating:)`` to learn why.
    ///
    /// ```swift
    /// request.predicate = NSPredicate(#Predicate<Employee> { $0.salary > 5000 })
    /// ```
    public init?<Input>(_ predicate: Predicate<Input>) {
        guard let translated = try? Self(translating: predicate) else { return nil }
        self = translated
    }
}
