/// What a store made of one ``FetchPlan`` (the SQLite store: its SQL), kept for the plan's next
/// call to the same store.
///
/// A fetch first asks whether the store evaluates the plan itself (`canEvaluate`), then runs it
/// (`fetchRows`, `countRows`, ...). Both need the translated predicate; without this the
/// predicate was translated twice per fetch.
///
/// ```swift
/// let query = plan.translation.cached(by: self, for: plan) { SQLiteFetchQuery(plan, ...) }
/// ```
///
/// Copies of a plan share it; the plans `withoutLimits` and `inStoreOrder` make get their own.
/// The two settings a context may change after making a plan are part of the key.
final class FetchPlanTranslation {
    private struct Key: Equatable {
        let store: ObjectIdentifier
        let inKeyOrder: Bool
        let evaluatesPendingChanges: Bool
    }

    private var key: Key?
    private var value: Any?
    /// Keeps the store alive while its identifier is a key, so no other store can reuse it.
    private var store: AnyObject?

    /// `store`'s translation of `plan`: the one made earlier for this plan, or `make()`'s.
    func cached<T>(by store: AnyObject, for plan: FetchPlan, _ make: () -> T) -> T {
        let wanted = Key(store: ObjectIdentifier(store), inKeyOrder: plan.inKeyOrder, evaluatesPendingChanges: plan.evaluatesPendingChanges)
        if key == wanted, let value = value as? T { return value }
        let made = make()
        key = wanted
        value = made
        self.store = store
        return made
    }
}
