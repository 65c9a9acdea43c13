import Foundation

// Predicates, expressions and sort descriptors are immutable, so a copy can be the same object
// (what Apple's `copyWithZone:` does for immutable Foundation classes). Without this,
// `predicate.copy()` would trap on Linux, where `NSObject.copy()` needs `NSCopying`.

extension NSPredicate: NSCopying {
    /// The predicate itself: predicates are immutable.
    ///
    /// ```swift
    /// let p = NSPredicate(format: "a == 1")
    /// p.copy() as AnyObject === p   // true
    /// ```
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension NSExpression: NSCopying {
    /// The expression itself: expressions are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension NSSortDescriptor: NSCopying {
    /// The sort descriptor itself: sort descriptors are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
