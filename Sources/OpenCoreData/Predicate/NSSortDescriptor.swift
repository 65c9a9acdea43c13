import Foundation

/// Orders objects by the value at a key path, ascending or descending, with one of Apple's
/// comparison selectors or a comparator closure.
///
/// ```swift
/// let byName = NSSortDescriptor(key: "name", ascending: true, selector: "localizedStandardCompare:")
/// let byAge = NSSortDescriptor(key: "age", ascending: false)
/// people.sorted(using: [byAge, byName])          // oldest first, then "file2" before "file10"
/// byAge.compare(alice, to: bob)                  // .orderedAscending when Alice is older
/// ```
///
/// - The key may be a key path through to-one relationships (`"manager.name"`), read with
///   ``KeyPathEvaluator``; a key that cannot be read counts as nil.
/// - nil (and `NSNull`) sorts before every value when ascending, after when descending (Apple's rule).
/// - Selectors: `compare:` (default; numbers, strings, dates, ...), `caseInsensitiveCompare:`,
///   `localizedCompare:`, `localizedCaseInsensitiveCompare:`, `localizedStandardCompare:`
///   (Finder order: case-insensitive, digits compared as numbers). Any other selector name
///   behaves like `compare:`, since there is no runtime to send it.
/// - Values that cannot be ordered against each other compare as the same.
// @unchecked Sendable: immutable (all `let`); comparator closures are the caller's promise, as on Apple platforms.
open class NSSortDescriptor: NSObject, @unchecked Sendable {
    public let key: String?
    public let ascending: Bool
    public let selector: Selector?
    public let comparator: Comparator?
    private let components: [String]?

    public init(key: String?, ascending: Bool) {
        self.key = key
        self.ascending = ascending
        selector = nil
        comparator = nil
        components = key.map(KeyPathEvaluator.components(of:))
        super.init()
    }

    public init(key: String?, ascending: Bool, selector: Selector?) {
        self.key = key
        self.ascending = ascending
        self.selector = selector
        comparator = nil
        components = key.map(KeyPathEvaluator.components(of:))
        super.init()
    }

    public init(key: String?, ascending: Bool, comparator: @escaping Comparator) {
        self.key = key
        self.ascending = ascending
        selector = nil
        self.comparator = comparator
        components = key.map(KeyPathEvaluator.components(of:))
        super.init()
    }

    /// The same ordering reversed.
    open var reversedSortDescriptor: Any {
        if let comparator { return NSSortDescriptor(key: key, ascending: !ascending, comparator: comparator) }
        return NSSortDescriptor(key: key, ascending: !ascending, selector: selector)
    }

    /// Apple's secure-decoding hook; always allowed here.
    open func allowEvaluation() {}

    /// The value this descriptor sorts `object` by (nil when the key path cannot be read).
    func sortValue(of object: Any) -> Any? {
        guard let components, !components.isEmpty, components != ["self"] else { return KVCValueKinds.unwrap(object) }
        return try? KeyPathEvaluator.value(of: object, forKeyPathComponents: components[...])
    }

    /// How `object1` orders against `object2` under this descriptor.
    open func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        compareSortValues(sortValue(of: object1), sortValue(of: object2))
    }

    /// How two sort values (``sortValue(of:)``) order under this descriptor, its direction
    /// applied: for callers that read one object's values once and compare them many times.
    func compareSortValues(_ a: Any?, _ b: Any?) -> ComparisonResult {
        let result = compareValues(a, b)
        guard !ascending else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// Ascending order of two sort values.
    func compareValues(_ a: Any?, _ b: Any?) -> ComparisonResult {
        let aNull = KVCValueKinds.isNull(a), bNull = KVCValueKinds.isNull(b)
        if aNull || bNull { return aNull == bNull ? .orderedSame : (aNull ? .orderedAscending : .orderedDescending) }
        guard let a, let b else { return .orderedSame }
        if let comparator { return comparator(a, b) }
        if let sa = KVCValueKinds.string(a), let sb = KVCValueKinds.string(b) {
            switch selector?.name {
            case "caseInsensitiveCompare:": return sa.compare(sb, options: .caseInsensitive)
            case "localizedCompare:": return sa.compare(sb, options: [], range: nil, locale: .current)
            case "localizedCaseInsensitiveCompare:": return sa.compare(sb, options: .caseInsensitive, range: nil, locale: .current)
            case "localizedStandardCompare:": return sa.localizedStandardCompare(sb)
            default: return sa.compare(sb)
            }
        }
        return ValueComparison.compare(a, b, options: []) ?? .orderedSame
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSSortDescriptor else { return false }
        return self === other || (key == other.key && ascending == other.ascending && selector == other.selector
            && comparator == nil && other.comparator == nil)
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(ascending)
        hasher.combine(selector)
        return hasher.finalize()
    }

    open override var description: String {
        "(\(key ?? "self"), \(ascending ? "ascending" : "descending"), \(selector?.name ?? (comparator == nil ? "compare:" : "<comparator>")))"
    }
}
