import Foundation

/// The key `@ManagedProperty` makes for a property whose Swift type has no typed storage here
/// (it does not conform to ``ManagedPropertyValue``): a Foundation or app type kept in a
/// transformable attribute, such as `@ManagedProperty var notification: Notification?`. Its
/// accessors go through key-value coding (`value(forKey:)`, `setValue(_:forKey:)`), with
/// everything those do — change tracking, undo, validation of the value's type — but boxed, so
/// declare the types you read often with a ``ManagedPropertyValue`` type.
///
/// ```swift
/// final class Feed: NSManagedObject {
///     @ManagedProperty var notification: Notification?   // a ManagedValueKey<Notification?>
/// }
/// ```
public final class ManagedValueKey<Value>: Sendable {
    /// The property's name in the entity.
    public let name: String

    /// A key for the entity property `name`.
    public init(_ name: String) { self.name = name }
}

/// The key `@ManagedProperty` declares beside a property: Swift picks the typed
/// ``ManagedPropertyKey`` when the property's type conforms to ``ManagedPropertyValue``, else a
/// ``ManagedValueKey``, so one spelling covers every type `@NSManaged` takes.
public enum ManagedPropertyKeys {
    public static func key<Value: ManagedPropertyValue>(_ type: Value.Type, _ name: String) -> ManagedPropertyKey<Value> {
        ManagedPropertyKey(name)
    }

    @_disfavoredOverload
    public static func key<Value>(_ type: Value.Type, _ name: String) -> ManagedValueKey<Value> {
        ManagedValueKey(name)
    }
}

extension NSManagedObject {
    /// The value of the property `key` names, through key-value coding.
    public subscript<Value>(managed key: ManagedValueKey<Value>) -> Value {
        get { Self.cast(value(forKey: key.name), key) }
        set { setValue(Self.flattened(newValue), forKey: key.name) }
    }

    /// The value of the property `key` names, through `primitiveValue(forKey:)` and
    /// `setPrimitiveValue(_:forKey:)` (Xcode's `primitive<Key>` shape).
    public subscript<Value>(primitive key: ManagedValueKey<Value>) -> Value {
        get { Self.cast(primitiveValue(forKey: key.name), key) }
        set { setPrimitiveValue(Self.flattened(newValue), forKey: key.name) }
    }

    /// `value` as the property's type; nil becomes the optional type's nil.
    private static func cast<Value>(_ value: Any?, _ key: ManagedValueKey<Value>) -> Value {
        if let typed = value as? Value { return typed }
        // nil (or NSNull) read as an optional type: `Optional<Wrapped>.none`.
        if value == nil || value is NSNull, let none = Optional<Any>.none as? Value { return none }
        preconditionFailure("@ManagedProperty var \(key.name): the stored value is \(value.map { "a \(type(of: $0))" } ?? "nil"), not a \(Value.self). Declare the property optional if it can be nil, or with the attribute's type.")
    }

    /// A value passed as `Any`, with the optional it may be unwrapped: key-value coding takes
    /// nil, not an optional holding nil.
    private static func flattened(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { flattened($0.value) }
    }
}
