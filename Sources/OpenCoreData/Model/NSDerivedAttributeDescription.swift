import Foundation

/// An attribute whose value a store computes from other values of the object, such as a count
/// of a to-many relationship or a canonical (folded) form of a string.
///
/// ```swift
/// let count = NSDerivedAttributeDescription()
/// count.name = "orderCount"
/// count.attributeType = .integer64AttributeType
/// count.derivationExpression = NSExpression(format: "orders.@count")
/// ```
///
/// A root context's save computes the value, and that of every object a change reaches through
/// the derivation's relationship (see `NSManagedObjectContext+DerivedAttributes.swift` for the
/// derivations computed; another derivation is a model problem). Apple's SQLite store does it
/// with triggers, which a store Apple's framework made keeps.
open class NSDerivedAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// How the value is computed: a key path (`name`), a to-many aggregate (`items.@count`), or
    /// a function of the object's values (`canonical:(name)`, `now()`).
    open var derivationExpression: NSExpression? { willSet { checkMutable() } }

    override func copyDescription() -> NSPropertyDescription {
        let copy = super.copyDescription()
        (copy as? NSDerivedAttributeDescription)?.derivationExpression = derivationExpression
        return copy
    }

    public required init() { super.init() }
}
