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

    /// Foundation's key-path initializer: keyed by the path's name when it goes through
    /// `@Managed`/`@ManagedProperty` properties (so a store sorts), as Apple's is keyed by the
    /// Objective-C key path.
    ///
    /// ```swift
    /// request.sortDescriptors = [NSSortDescriptor(keyPath: \Employee.lastName, ascending: true)]   // key "lastName"
    /// ```
    ///
    /// A path that names no managed property (a plain Swift type) sorts in memory by the values
    /// it reads, compared as sort descriptors compare them.
    ///
    /// Linux Foundation declares an `NSSortDescriptor(keyPath:ascending:)` of its own class;
    /// this overload, for managed objects, is the more specific one, so
    /// `NSSortDescriptor(keyPath: \Employee.lastName, ascending: true)` makes OpenCoreData's
    /// even where no type is expected.
    public convenience init<Root: NSManagedObject, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(anyKeyPath: keyPath, ascending: ascending)
    }

    /// `init(keyPath:ascending:)` for any root type, where an OpenCoreData `NSSortDescriptor`
    /// is expected.
    public convenience init<Root, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(anyKeyPath: keyPath, ascending: ascending)
    }

    private convenience init<Root, Value>(anyKeyPath keyPath: KeyPath<Root, Value>, ascending: Bool) {
        if let name = try? KeyPathNames.name(of: keyPath) {
            self.init(key: name, ascending: ascending)
        } else {
            self.init(key: nil, ascending: ascending) { a, b in
                guard let x = a as? Root, let y = b as? Root else { return .orderedSame }
                return ValueComparison.compare(x[keyPath: keyPath], y[keyPath: keyPath], options: []) ?? .orderedSame
            }
        }
    }

    /// Foundation's key-path initializer with a comparator for the values the path reads.
    public convenience init<Root, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool, comparator: @escaping Comparator) {
        if let name = try? KeyPathNames.name(of: keyPath) {
            self.init(key: name, ascending: ascending, comparator: comparator)
        } else {
            self.init(key: nil, ascending: ascending) { a, b in
                guard let x = a as? Root, let y = b as? Root else { return .orderedSame }
                return comparator(x[keyPath: keyPath], y[keyPath: keyPath])
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
