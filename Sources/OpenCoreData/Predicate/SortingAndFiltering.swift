import Foundation

// Apple's collection helpers for sort descriptors and predicates: `sorted(using:)`,
// `filtered(using:)`, `NSArray.sortedArray(using:)`.

/// Orders `a` before `b` by the first descriptor that tells them apart.
func sortOrder(_ a: Any, _ b: Any, by descriptors: [NSSortDescriptor]) -> ComparisonResult {
    for descriptor in descriptors {
        let result = descriptor.compare(a, to: b)
        if result != .orderedSame { return result }
    }
    return .orderedSame
}

extension Sequence {
    /// The elements sorted by `descriptors` (first descriptor first); a stable sort, so
    /// elements the descriptors cannot tell apart keep their order.
    ///
    /// ```swift
    /// employees.sorted(using: [NSSortDescriptor(key: "department.name", ascending: true),
    ///                          NSSortDescriptor(key: "salary", ascending: false)])
    /// ```
    public func sorted(using descriptors: [NSSortDescriptor]) -> [Element] {
        var indexed = Array(enumerated())
        indexed.sort { x, y in
            switch sortOrder(x.element, y.element, by: descriptors) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return x.offset < y.offset
            }
        }
        return indexed.map(\.element)
    }

    /// The elements for which `predicate` evaluates to true (Apple's `filtered(using:)`).
    public func filtered(using predicate: NSPredicate) -> [Element] {
        filter { predicate.evaluate(with: $0) }
    }
}

extension NSArray {
    /// The array sorted by `descriptors` (Apple's `sortedArray(using:)`).
    public func sortedArray(using descriptors: [NSSortDescriptor]) -> [Any] {
        map { $0 }.sorted(using: descriptors)
    }

    /// The elements for which `predicate` evaluates to true (Apple's `filtered(using:)`).
    public func filtered(using predicate: NSPredicate) -> [Any] {
        filter { predicate.evaluate(with: $0) }
    }
}
