import Foundation

/// Several properties at once, and one by name with a subscript, through key-value coding:
///
/// ```swift
/// employee.setValuesForKeys(["firstName": "Fiona", "salary": 1200])
/// let row = employee.dictionaryWithValues(forKeys: ["firstName", "salary"])
/// employee["lastName"] = "Smith"
/// ```
extension NSManagedObject {
    /// The value of the property `key` (``value(forKey:)``), or sets it (``setValue(_:forKey:)``,
    /// with change tracking, undo and inverse maintenance).
    public subscript(key: String) -> Any? {
        get { value(forKey: key) }
        set { setValue(newValue, forKey: key) }
    }

    /// The values of `keys`, by key; a nil value is `NSNull()`, as Foundation's key-value coding
    /// reports it.
    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var values: [String: Any] = [:]
        for key in keys { values[key] = value(forKey: key) ?? NSNull() }
        return values
    }

    /// Sets each key's value (``setValue(_:forKey:)``); `NSNull()` sets nil.
    public func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues { setValue(value is NSNull ? nil : value, forKey: key) }
    }
}

/// Managed objects are identified by their own identity, as on Apple platforms (SwiftUI lists
/// of fetched objects use it). A subclass's own `id` attribute is a separate property.
extension NSManagedObject: Identifiable {}
