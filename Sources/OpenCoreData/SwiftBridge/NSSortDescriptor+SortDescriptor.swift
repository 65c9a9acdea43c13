import Foundation

extension NSSortDescriptor {
    /// The `NSSortDescriptor` for a Foundation `SortDescriptor`: keyed, when its key path goes
    /// through `@Managed` properties, so stores can sort; otherwise wrapping it as a comparator.
    ///
    /// ```swift
    /// NSSortDescriptor(SortDescriptor(\Employee.salary, order: .reverse))
    ///     // key "salary", ascending false, selector compare:
    /// NSSortDescriptor(SortDescriptor(\Employee.department?.name))
    ///     // key "department.name", ascending true, selector compare:
    ///
    /// struct Item { var rank: Int }
    /// NSSortDescriptor(SortDescriptor(\Item.rank)).key   // nil: sorts in memory with the SortDescriptor
    /// ```
    ///
    /// A keyed result orders exactly as the `SortDescriptor` does: `ascending` is
    /// `order == .forward`, and the selector is `compare:` (on Linux a `SortDescriptor` compares
    /// strings lexically: its only string comparator is `.lexical`).
    /// When no key can be named (a plain Swift type, a computed property, a custom comparator)
    /// the result has `key == nil` and compares objects with the `SortDescriptor` itself, which
    /// only works in memory; use ``init(translating:)`` to require a key.
    public convenience init<Compared>(_ sortDescriptor: SortDescriptor<Compared>) {
        if let keyed = try? KeyedSort(sortDescriptor) {
            self.init(key: keyed.key, ascending: keyed.ascending, selector: keyed.selector)
        } else {
            self.init(key: nil, ascending: true) { a, b in
                guard let x = a as? Compared, let y = b as? Compared else { return .orderedSame }
                return sortDescriptor.compare(x, y)
            }
        }
    }

    /// The keyed `NSSortDescriptor` for a Foundation `SortDescriptor`, or a thrown `NSError`
    /// (code 2048) saying why it has no key.
    ///
    /// ```swift
    /// request.sortDescriptors = [try NSSortDescriptor(translating: SortDescriptor(\Employee.lastName))]
    /// ```
    public convenience init<Compared>(translating sortDescriptor: SortDescriptor<Compared>) throws {
        let keyed = try KeyedSort(sortDescriptor)
        self.init(key: keyed.key, ascending: keyed.ascending, selector: keyed.selector)
    }
}

/// A `SortDescriptor` as key, direction and selector.
private struct KeyedSort {
    let key: String
    let ascending: Bool
    let selector: Selector

    init<Compared>(_ descriptor: SortDescriptor<Compared>) throws {
        guard let keyPath = descriptor.keyPath else {
            throw PredicateTranslation.failure("the SortDescriptor compares whole values, not a key path, so it has no key. Sort by a key path (SortDescriptor(\\.name))")
        }
        let resolved = try KeyPathNames.resolve(keyPath)
        guard !resolved.isCollection else {
            throw PredicateTranslation.failure("the SortDescriptor's key path \(resolved.name) goes through a to-many relationship; sort keys must lead to one value")
        }
        key = resolved.name
        ascending = descriptor.order == .forward
        guard var comparator = descriptor.stringComparator else {
            selector = "compare:"
            return
        }
        // Linux Foundation offers only `.lexical` (and option sets without a locale); `compare:` is
        // the lexical comparison, anything with options has no selector.
        comparator.order = .forward
        var lexical = String.StandardComparator.lexical
        lexical.order = .forward
        guard comparator == lexical else {
            throw PredicateTranslation.failure("the SortDescriptor's string comparator (\(comparator)) has no NSSortDescriptor selector; use the default or .lexical, or NSSortDescriptor(key:ascending:selector:)")
        }
        selector = "compare:"
    }
}
