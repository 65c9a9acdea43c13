import Foundation

/// A method name, standing in for Objective-C's `Selector` (which Linux Swift does not have),
/// so sort descriptors keep Apple's `init(key:ascending:selector:)` spelling.
///
/// ```swift
/// NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))
/// NSSortDescriptor(key: "name", ascending: true, selector: "caseInsensitiveCompare:")
/// ```
///
/// Only the comparison selectors ``NSSortDescriptor`` knows can be performed; there is no
/// runtime to send arbitrary messages.
#if canImport(ObjectiveC)
// Apple platforms have the real `Selector`; read its name through the runtime.
extension Selector {
    var name: String { NSStringFromSelector(self) }
}
#else
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    public init(stringLiteral name: String) { self.name = name }

    public var description: String { name }
}
#endif
