import Foundation

/// Declares a typed property of a managed object subclass — the Linux stand-in for `@NSManaged`.
///
/// ```swift
/// final class Employee: NSManagedObject {
///     @Managed var firstName: String?
///     @Managed var salary: Int64
///     @Managed var department: Department?
///     @Managed var directReports: Set<Employee>
/// }
/// ```
///
/// The property's name is its key in the entity (pass `@Managed("otherName")` to map it to a
/// differently named property). Reads and writes go straight to the object's typed storage, with
/// change tracking, undo and inverse maintenance, and without boxing values as `Any`.
///
/// Supported types: `Int`, `Int16`, `Int32`, `Int64`, `Double`, `Float`, `Bool`, `Decimal`,
/// `String`, `Date`, `Data`, `UUID`, `URL`, their optionals, `NSManagedObject` subclasses
/// (optional, for to-one), `Set` and `Array` of them (to-many and ordered to-many), and any
/// type for a transformable attribute via `ManagedTransformable`.
///
/// A non-optional property whose value is nil reads as zero, false, "" or empty data: declare the
/// property optional when nil is a meaningful value.
@propertyWrapper
public struct Managed<Value: ManagedPropertyValue> {
    var key: String?
    /// The slot in the object's storage, resolved on first use.
    var slot: Int = -1

    public init() {}
    public init(_ key: String) { self.key = key }

    @available(*, unavailable, message: "@Managed can only be used on properties of NSManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        set { fatalError("unreachable") }
    }

    public static subscript<Object: NSManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        get {
            let slot = object.resolveSlot(storageKeyPath)
            // One bit test on an object already in cache: the cost of letting `KeyPathNames` learn
            // which property a Swift key path reads (Linux has no `_kvcKeyPathString`).
            if object.flags.contains(.keyPathProbe) {
                KeyPathNames.probe(object, didRead: slot, through: wrappedKeyPath, as: Value.self)
            }
            return Value.read(from: object, slot: slot)
        }
        set { Value.write(newValue, to: object, slot: object.resolveSlot(storageKeyPath)) }
    }
}

extension Managed: ManagedWrapperProtocol {
    var wrapperKey: String? {
        get { key }
        set { key = newValue }
    }
}

/// Lets the key resolver read any `Managed<T>` it finds through reflection.
protocol ManagedWrapperProtocol {
    var wrapperKey: String? { get set }
}

extension NSManagedObject {
    /// The slot of the property behind a `@Managed` wrapper, cached in the wrapper.
    func resolveSlot<Object: NSManagedObject, Value>(_ storage: ReferenceWritableKeyPath<Object, Managed<Value>>) -> Int {
        let object = self as! Object
        let wrapper = object[keyPath: storage]
        if wrapper.slot >= 0 { return wrapper.slot }
        let key = wrapper.key ?? ManagedKeyResolver.key(for: storage, in: object)
        let slot = requireSlot(key, "@Managed var \(key)")
        object[keyPath: storage].slot = slot
        object[keyPath: storage].key = key
        return slot
    }
}

/// Finds the name of the property a `@Managed` wrapper is stored in. Swift gives a property
/// wrapper no access to its own name, so the first access per class and property marks the
/// wrapper, finds the marked child with `Mirror`, and caches the answer by key path.
enum ManagedKeyResolver {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [AnyKeyPath: String] = [:]  // guarded by `lock`

    static func key<Object: NSManagedObject, Value>(for storage: ReferenceWritableKeyPath<Object, Managed<Value>>, in object: Object) -> String {
        lock.lock()
        if let key = cache[storage] { lock.unlock(); return key }
        lock.unlock()
        let marker = "\u{0}OpenCoreData.marker.\(UUID().uuidString)"
        let saved = object[keyPath: storage]
        object[keyPath: storage].key = marker
        defer { object[keyPath: storage] = saved }
        var mirror: Mirror? = Mirror(reflecting: object)
        while let m = mirror {
            for child in m.children {
                if let wrapper = child.value as? ManagedWrapperProtocol, wrapper.wrapperKey == marker, let label = child.label {
                    let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                    lock.lock(); cache[storage] = name; lock.unlock()
                    return name
                }
            }
            mirror = m.superclassMirror
        }
        preconditionFailure("@Managed: could not find the property name of a wrapper in \(Object.self). Write @Managed(\"name\") to give it explicitly.")
    }
}

/// A type that `@Managed` properties can have. Conformances read and write the object's storage
/// directly; you don't call these yourself.
public protocol ManagedPropertyValue {
    static func read(from object: NSManagedObject, slot: Int) -> Self
    static func write(_ value: Self, to object: NSManagedObject, slot: Int)
}

/// Attribute types with a stored representation.
public protocol ManagedAttributeValue: ManagedPropertyValue {
    /// The value for a nil attribute in a non-optional property.
    static var managedEmptyValue: Self { get }
}

extension ManagedAttributeValue {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        storedCast(object.readStored(slot)) ?? managedEmptyValue
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        object.writeAttribute(value, slot: slot)
    }
    static func storedCast(_ stored: StoredValue) -> Self? {
        switch stored {
        case .null: return nil
        case .integer(let i):
            switch Self.self {
            case is Int64.Type: return i as? Self
            case is Int.Type: return Int(truncatingIfNeeded: i) as? Self
            case is Int32.Type: return Int32(truncatingIfNeeded: i) as? Self
            case is Int16.Type: return Int16(truncatingIfNeeded: i) as? Self
            case is Bool.Type: return (i != 0) as? Self
            case is Double.Type: return Double(i) as? Self
            default: return nil
            }
        case .double(let d):
            switch Self.self {
            case is Double.Type: return d as? Self
            case is Float.Type: return Float(d) as? Self
            default: return nil
            }
        case .bool(let b): return b as? Self
        case .string(let s): return s as? Self
        case .date(let d): return d as? Self
        case .data(let d): return d as? Self
        case .decimal(let d): return d as? Self
        case .uuid(let u): return u as? Self
        case .url(let u): return u as? Self
        case .boxed(let box): return box.value as? Self
        case .objectID(let id): return id as? Self
        case .objectIDs: return nil
        }
    }
}

extension NSManagedObject {
    func writeAttribute(_ value: Any?, slot i: Int) {
        guard let a = layout.properties[i] as? NSAttributeDescription else {
            preconditionFailure("@Managed var \(layout.properties[i].name): the property is a relationship; declare it as an NSManagedObject subclass (optional) or a Set of one.")
        }
        writeSlot(i, .value(StoredValue(value, for: a)))
    }
}

extension Int: ManagedAttributeValue { public static var managedEmptyValue: Int { 0 } }
extension Int16: ManagedAttributeValue { public static var managedEmptyValue: Int16 { 0 } }
extension Int32: ManagedAttributeValue { public static var managedEmptyValue: Int32 { 0 } }
extension Int64: ManagedAttributeValue { public static var managedEmptyValue: Int64 { 0 } }
extension Double: ManagedAttributeValue { public static var managedEmptyValue: Double { 0 } }
extension Float: ManagedAttributeValue { public static var managedEmptyValue: Float { 0 } }
extension Bool: ManagedAttributeValue { public static var managedEmptyValue: Bool { false } }
extension Decimal: ManagedAttributeValue { public static var managedEmptyValue: Decimal { 0 } }
extension String: ManagedAttributeValue { public static var managedEmptyValue: String { "" } }
extension Date: ManagedAttributeValue { public static var managedEmptyValue: Date { Date(timeIntervalSinceReferenceDate: 0) } }
extension Data: ManagedAttributeValue { public static var managedEmptyValue: Data { Data() } }
extension UUID: ManagedAttributeValue { public static var managedEmptyValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) } }
extension URL: ManagedAttributeValue { public static var managedEmptyValue: URL { URL(string: "about:blank")! } }

/// Marks a type stored in a transformable attribute, so `@Managed` can hold it.
public protocol ManagedTransformable: ManagedPropertyValue {}
extension ManagedTransformable {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        guard case .boxed(let box) = object.readStored(slot), let value = box.value as? Self else {
            preconditionFailure("@Managed var \(object.layout.properties[slot].name): the stored value is not a \(Self.self). Declare the property optional if it can be nil.")
        }
        return value
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        object.writeAttribute(value, slot: slot)
    }
}

extension Optional: ManagedPropertyValue where Wrapped: ManagedPropertyValue {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        switch object.layout.properties[slot] {
        case is NSRelationshipDescription:
            return object.readToOne(slot).map { $0 as! Wrapped }
        default:
            if object.readStored(slot).isNull { return nil }
            return Wrapped.read(from: object, slot: slot)
        }
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        if let r = object.layout.properties[slot] as? NSRelationshipDescription {
            object.setToOne(r, slot: slot, value.map { $0 as! NSManagedObject })
        } else if let value {
            Wrapped.write(value, to: object, slot: slot)
        } else {
            object.writeAttribute(nil, slot: slot)
        }
    }
}

/// To-one relationships: `@Managed var department: Department?` (the optional form).
public protocol ManagedObjectReference: ManagedPropertyValue {}
extension ManagedObjectReference where Self: NSManagedObject {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        guard let target = object.readToOne(slot) as? Self else {
            preconditionFailure("@Managed var \(object.layout.properties[slot].name): the relationship is nil. Declare it optional (\(Self.self)?).")
        }
        return target
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        guard let r = object.layout.properties[slot] as? NSRelationshipDescription else { return }
        object.setToOne(r, slot: slot, value)
    }
}
extension NSManagedObject: ManagedObjectReference {}

extension Set: ManagedPropertyValue where Element: NSManagedObject {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        Set(object.readToMany(slot).objects.map { $0 as! Element })
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        guard let r = object.layout.properties[slot] as? NSRelationshipDescription else { return }
        object.replaceToMany(r, slot: slot, with: Array(value))
    }
}

extension Array: ManagedPropertyValue where Element: NSManagedObject {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        object.readToMany(slot).objects.map { $0 as! Element }
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        guard let r = object.layout.properties[slot] as? NSRelationshipDescription else { return }
        object.replaceToMany(r, slot: slot, with: value)
    }
}
