import Foundation

// Composite attributes (`NSCompositeAttributeDescription`) hold a dictionary keyed by element
// names. Validation checks each element as it would an attribute of its own; a key path
// through the composite reads and writes one element.

extension NSManagedObject {
    /// Checks a composite attribute's value: a dictionary whose keys are element names, each
    /// element's value checked as an attribute (type, optionality, range, predicates); a nested
    /// composite's value is a dictionary checked the same way.
    func validateComposite(_ value: Any, _ composite: NSCompositeAttributeDescription, keyPath: String) throws {
        guard let dictionary = value as? [String: Any] else {
            throw validationError(NSManagedObjectValidationError, key: keyPath, value: value,
                "\(entity.name ?? "?").\(keyPath) holds a \(type(of: value)); a composite attribute's value is a dictionary keyed by its element names (\(composite.elements.map(\.name).joined(separator: ", "))).")
        }
        let names = Set(composite.elements.map(\.name))
        if let unknown = dictionary.keys.sorted().first(where: { !names.contains($0) }) {
            throw validationError(NSManagedObjectValidationError, key: keyPath, value: value,
                "\(entity.name ?? "?").\(keyPath) has no element '\(unknown)'; its elements are \(composite.elements.map(\.name).joined(separator: ", ")).")
        }
        var errors: [NSError] = []
        for element in composite.elements {
            do {
                try validateAttribute(StoredValue(dictionary[element.name], for: element), element, keyPath: keyPath + "." + element.name)
            } catch let error as NSError {
                errors.append(error)
            }
        }
        if let error = NSManagedObject.combine(errors) { throw error }
    }

    /// `setValue(_:forKeyPath:)` for `composite.element...`: the composite's dictionary with
    /// that element replaced (nil removes it). The key path names an element; anything else is
    /// refused as an unknown key, as Apple's key-value coding does.
    func setCompositeElement(_ value: Any?, _ composite: NSCompositeAttributeDescription, path: ArraySlice<String>) {
        guard composite.element(at: path) != nil else {
            preconditionFailure("setValue(_:forKeyPath:): '\(entity.name ?? "?").\(composite.name)' has no element '\(path.joined(separator: "."))'.")
        }
        var dictionary = self.value(forKey: composite.name) as? [String: Any] ?? [:]
        NSCompositeAttributeDescription.set(KVCValueKinds.isNull(value) ? nil : KVCValueKinds.unwrap(value), in: &dictionary, at: path)
        setValue(dictionary, forKey: composite.name)
    }
}
