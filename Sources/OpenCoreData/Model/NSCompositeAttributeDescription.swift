import Foundation

/// An attribute made of several named sub-attributes stored together, such as an address of
/// street, city and postcode (Xcode's "Composite" attribute type).
///
/// ```swift
/// let location = NSCompositeAttributeDescription()
/// location.name = "location"
/// location.elements = [
///     NSAttributeDescription(name: "latitude", type: .doubleAttributeType),
///     NSAttributeDescription(name: "longitude", type: .doubleAttributeType),
/// ]
/// place.setValue(["latitude": 48.85, "longitude": 2.35], forKey: "location")
/// NSPredicate(format: "location.latitude > 45")   // fetches and sorts by an element
/// ```
///
/// An object holds the value as a dictionary keyed by element names (a nested composite's
/// value is a dictionary inside it). The SQLite store keeps each leaf element in a column of
/// its own, as Apple's does, so predicates and sort descriptors on `location.latitude` run in SQL.
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

    /// What a new object holds, as Apple's framework builds it: `defaultValue` (a dictionary),
    /// with each element's own default filled in where the dictionary has none; nil when
    /// neither gives anything.
    override var initialValue: Any? {
        var value = defaultValue as? [String: Any] ?? [:]
        for leaf in leafElements {
            guard let elementDefault = leaf.attribute.defaultValue else { continue }
            if Self.value(in: value, at: leaf.path[...]) == nil { Self.set(elementDefault, in: &value, at: leaf.path[...]) }
        }
        return value.isEmpty && defaultValue == nil ? nil : value
    }
}

/// A leaf element of a composite attribute: an element that is not itself composite, and the
/// element names that lead to it in the composite's value (`["position", "x"]`).
struct CompositeLeaf {
    let path: [String]
    let attribute: NSAttributeDescription
    /// `location.position.x`, for messages.
    func keyPath(in composite: NSCompositeAttributeDescription) -> String { ([composite.name] + path).joined(separator: ".") }
}

extension NSCompositeAttributeDescription {
    /// The leaf elements, depth first in element order: what the SQLite store gives a column each.
    var leafElements: [CompositeLeaf] {
        var leaves: [CompositeLeaf] = []
        func collect(_ elements: [NSAttributeDescription], _ prefix: [String], depth: Int) {
            // A composite nested in itself would never end; model validation reports it.
            guard depth <= Self.maximumDepth else { return }
            for element in elements {
                if let nested = element as? NSCompositeAttributeDescription {
                    collect(nested.elements, prefix + [element.name], depth: depth + 1)
                } else {
                    leaves.append(CompositeLeaf(path: prefix + [element.name], attribute: element))
                }
            }
        }
        collect(elements, [], depth: 1)
        return leaves
    }

    /// Nesting deeper than this is a model problem (and a composite that contains itself is
    /// infinitely deep).
    static let maximumDepth = 32

    /// The element at the key path `path` below this composite (`["position", "x"]`), or nil.
    func element(at path: ArraySlice<String>) -> NSAttributeDescription? {
        guard let name = path.first, let element = elements.first(where: { $0.name == name }) else { return nil }
        if path.count == 1 { return element }
        return (element as? NSCompositeAttributeDescription)?.element(at: path.dropFirst())
    }

    /// The value at `path` inside a composite value, or nil.
    static func value(in dictionary: [String: Any], at path: ArraySlice<String>) -> Any? {
        guard let key = path.first, let value = dictionary[key] else { return nil }
        if path.count == 1 { return value is NSNull ? nil : value }
        return (value as? [String: Any]).flatMap { self.value(in: $0, at: path.dropFirst()) }
    }

    /// Sets the value at `path` inside a composite value, making the dictionaries on the way;
    /// nil removes the entry.
    static func set(_ value: Any?, in dictionary: inout [String: Any], at path: ArraySlice<String>) {
        guard let key = path.first else { return }
        if path.count == 1 { dictionary[key] = value; return }
        var inner = dictionary[key] as? [String: Any] ?? [:]
        set(value, in: &inner, at: path.dropFirst())
        dictionary[key] = inner
    }
}
