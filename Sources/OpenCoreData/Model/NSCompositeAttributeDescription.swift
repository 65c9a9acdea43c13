import Foundation

/// An attribute made of several named sub-attributes stored together, such as an address of
/// street, city and postcode (Xcode's "Composite" attribute type).
///
/// ```swift
/// let address = NSCompositeAttributeDescription()
/// address.name = "address"
/// address.elements = [
///     NSAttributeDescription(name: "street", type: .stringAttributeType),
///     NSAttributeDescription(name: "city", type: .stringAttributeType),
/// ]
/// ```
open class NSCompositeAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The sub-attributes, in order. A sub-attribute may itself be composite.
    open var elements: [NSAttributeDescription] = [] { willSet { checkMutable() } }

    override func copyDescription() -> NSPropertyDescription {
        let copy = super.copyDescription()
        (copy as? NSCompositeAttributeDescription)?.elements = elements.compactMap { $0.copyDescription() as? NSAttributeDescription }
        return copy
    }

    public required init() {
        super.init()
        attributeType = .compositeAttributeType
    }
}
