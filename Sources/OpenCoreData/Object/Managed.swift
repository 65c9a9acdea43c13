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
    /// An explicit key's index in ``ManagedKeyNames`` (-1: the key is the property's own name).
    /// Four bytes instead of a `String?`'s sixteen: every object carries one per property.
    var keyIndex: Int32 = -1

    public init() {}
    public init(_ key: String) { keyIndex = ManagedKeyNames.intern(key) }

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
    var wrapperKeyIndex: Int32 {
        get { keyIndex }
        set { keyIndex = newValue }
    }
}

/// Lets the key resolver read any `Managed<T>` it finds through reflection.
protocol ManagedWrapperProtocol {
    var wrapperKeyIndex: Int32 { get set }
}

extension NSManagedObject {
    /// The slot of the property behind a `@Managed` wrapper.
    ///
    /// Cached per entity by the wrapper's key path: one lock-free table probe per access, and no
    /// write into the object (writing the wrapper back through its key path cost more than the lookup
    /// when each object's properties are read once, as in a fetch).
    func resolveSlot<Object: NSManagedObject, Value>(_ storage: ReferenceWritableKeyPath<Object, Managed<Value>>) -> Int {
        let layout = self.layout
        let cached = layout.wrapperSlots.slot(for: storage)
        if let slot = cached { return slot }
        let object = self as! Object
        let index = object[keyPath: storage].keyIndex
        let key = index >= 0 ? ManagedKeyNames.name(at: index) : ManagedKeyResolver.key(for: storage, in: object)
        let slot = requireSlot(key, "@Managed var \(key)")
        layout.wrapperSlots.remember(slot, for: storage)
        return slot
    }
}

/// The explicit keys of `@Managed("key")` wrappers, interned so a wrapper stores a small index.
enum ManagedKeyNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var names: [String] = []             // guarded by `lock`
    nonisolated(unsafe) private static var indexes: [String: Int32] = [:]    // guarded by `lock`
    nonisolated(unsafe) private static var lastMarker: Int32 = -1            // guarded by `lock`

    static func intern(_ name: String) -> Int32 {
        lock.lock(); defer { lock.unlock() }
        if let index = indexes[name] { return index }
        let index = Int32(names.count)
        names.append(name)
        indexes[name] = index
        return index
    }

    static func name(at index: Int32) -> String {
        lock.lock(); defer { lock.unlock() }
        return names[Int(index)]
    }

    /// A value no wrapper holds (below -1), to find one wrapper through `Mirror`.
    static func newMarker() -> Int32 {
        lock.lock(); defer { lock.unlock() }
        lastMarker -= 1
        return lastMarker
    }
}

/// `@Managed` key path → slot, for one entity layout.
///
/// Every property read goes through here, so the common case neither locks nor hashes: the
/// runtime instantiates the key path of a stored property once and hands out that same object
/// on every access, so a small open-addressed table keyed by the key path's address answers in
/// one load and one compare. (Hashing an `AnyKeyPath` walks its components: it cost a quarter of
/// a fetch that reads every attribute; the lock cost another tenth; scanning a list of
/// identities cost half as much as the rest of the read.)
///
/// Each entry is one atomic word, `address << 16 | slot + 1` (0: empty), written once under
/// `lock`, so a reader never sees half an entry. `keepAlive` holds every listed key path, so an
/// address is never reused by another key path. Key paths the table can't hold (a full
/// neighbourhood, an address above 2⁴⁸, a slot above 65,534) are answered by the hashed table.
final class WrapperSlotCache: @unchecked Sendable {
    // @unchecked Sendable: `table` holds atomic words; the rest of the state is guarded by `lock`.
    private static let capacity = 128, probes = 8
    private let table = AddressSlotWords(count: capacity)
    private let lock = NSLock()
    private var keepAlive: [AnyKeyPath] = []
    private var byValue: [AnyKeyPath: Int] = [:]

    @inline(__always) private static func home(of address: UInt64) -> Int {
        Int(truncatingIfNeeded: address >> 4) & (capacity - 1)
    }

    func slot(for keyPath: AnyKeyPath) -> Int? {
        let address = AddressSlotWords.address(of: keyPath)
        var i = Self.home(of: address)
        for _ in 0..<Self.probes {
            let word = table.load(i)
            if AddressSlotWords.names(word, address: address) { return AddressSlotWords.slot(in: word) }
            if word == 0 { break }
            i = (i + 1) & (Self.capacity - 1)
        }
        lock.lock(); defer { lock.unlock() }
        guard let slot = byValue[keyPath] else { return nil }
        publish(keyPath, slot)
        return slot
    }

    func remember(_ slot: Int, for keyPath: AnyKeyPath) {
        lock.lock(); defer { lock.unlock() }
        byValue[keyPath] = slot
        publish(keyPath, slot)
    }

    /// Adds a table entry if there is room. Call with `lock` held.
    private func publish(_ keyPath: AnyKeyPath, _ slot: Int) {
        guard let word = AddressSlotWords.word(for: keyPath, slot: slot) else { return }
        var i = Self.home(of: AddressSlotWords.address(of: keyPath))
        for _ in 0..<Self.probes {
            let existing = table.load(i)
            if existing == word { return }
            if existing == 0 {
                keepAlive.append(keyPath)
                table.store(word, at: i)
                return
            }
            i = (i + 1) & (Self.capacity - 1)
        }
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
        let marker = ManagedKeyNames.newMarker()
        let saved = object[keyPath: storage]
        object[keyPath: storage].keyIndex = marker
        defer { object[keyPath: storage] = saved }
        var mirror: Mirror? = Mirror(reflecting: object)
        while let m = mirror {
            for child in m.children {
                if let wrapper = child.value as? ManagedWrapperProtocol, wrapper.wrapperKeyIndex == marker, let label = child.label {
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

/// A value in the form a managed object stores it. Opaque outside OpenCoreData: it lets the
/// `@Managed` conformances below convert without boxing values as `Any`.
public struct ManagedStoredValue {
    let value: StoredValue
}

/// Attribute types with a stored representation. The conformances are OpenCoreData's own
/// (`Int`, `Int16`, `Int32`, `Int64`, `Double`, `Float`, `Bool`, `Decimal`, `String`, `Date`,
/// `Data`, `UUID`, `URL`); they convert directly to and from the object's typed storage.
public protocol ManagedAttributeValue: ManagedPropertyValue {
    /// The value for a nil attribute in a non-optional property.
    static var managedEmptyValue: Self { get }
    init?(managedStoredValue: ManagedStoredValue)
    var managedStoredValue: ManagedStoredValue { get }
}

extension ManagedAttributeValue {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        Self(managedStoredValue: ManagedStoredValue(value: object.readStored(slot))) ?? managedEmptyValue
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        object.writeAttribute(stored: value.managedStoredValue.value, slot: slot)
    }
}

extension NSManagedObject {
    func writeAttribute(_ value: Any?, slot i: Int) {
        writeAttribute(stored: StoredValue(value, for: wrappedAttribute(slot: i)), slot: i)
    }

    /// Writes an already typed value. A Swift type that does not match the attribute's type is
    /// stored as it is and rejected by validation at save, like a wrong value through KVC.
    func writeAttribute(stored value: StoredValue, slot i: Int) {
        if !layout.attributeChecks[i].isAttribute { _ = wrappedAttribute(slot: i) }  // stops with the fix
        writeSlot(i, .value(value))
    }

    /// The attribute behind a `@Managed` attribute property; a relationship there is a declaration
    /// mistake, reported with the fix.
    private func wrappedAttribute(slot i: Int) -> NSAttributeDescription {
        let layout = self.layout
        guard case .attribute(let a) = layout.kinds[i] else {
            preconditionFailure("@Managed var \(layout.properties[i].name): the property is a relationship; declare it as an NSManagedObject subclass (optional) or a Set of one.")
        }
        return a
    }
}

extension Int64: ManagedAttributeValue {
    public static var managedEmptyValue: Int64 { 0 }
    public init?(managedStoredValue s: ManagedStoredValue) {
        switch s.value {
        case .integer(let i): self = i
        case .bool(let b): self = b ? 1 : 0
        case .double(let d): guard let i = Int64(exactly: d) else { return nil }; self = i
        default: return nil
        }
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .integer(self)) }
}
extension Int: ManagedAttributeValue {
    public static var managedEmptyValue: Int { 0 }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard let i = Int64(managedStoredValue: s) else { return nil }
        self = Int(truncatingIfNeeded: i)
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .integer(Int64(self))) }
}
extension Int32: ManagedAttributeValue {
    public static var managedEmptyValue: Int32 { 0 }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard let i = Int64(managedStoredValue: s) else { return nil }
        self = Int32(truncatingIfNeeded: i)
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .integer(Int64(self))) }
}
extension Int16: ManagedAttributeValue {
    public static var managedEmptyValue: Int16 { 0 }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard let i = Int64(managedStoredValue: s) else { return nil }
        self = Int16(truncatingIfNeeded: i)
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .integer(Int64(self))) }
}
extension Double: ManagedAttributeValue {
    public static var managedEmptyValue: Double { 0 }
    public init?(managedStoredValue s: ManagedStoredValue) {
        switch s.value {
        case .double(let d): self = d
        case .integer(let i): self = Double(i)
        case .decimal(let d): self = NSDecimalNumber(decimal: d).doubleValue
        default: return nil
        }
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .double(self)) }
}
extension Float: ManagedAttributeValue {
    public static var managedEmptyValue: Float { 0 }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard let d = Double(managedStoredValue: s) else { return nil }
        self = Float(d)
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .double(Double(self))) }
}
extension Bool: ManagedAttributeValue {
    public static var managedEmptyValue: Bool { false }
    public init?(managedStoredValue s: ManagedStoredValue) {
        switch s.value {
        case .bool(let b): self = b
        case .integer(let i): self = i != 0
        default: return nil
        }
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .bool(self)) }
}
extension Decimal: ManagedAttributeValue {
    public static var managedEmptyValue: Decimal { 0 }
    public init?(managedStoredValue s: ManagedStoredValue) {
        switch s.value {
        case .decimal(let d): self = d
        case .integer(let i): self = Decimal(i)
        case .double(let d): self = Decimal(d)
        default: return nil
        }
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .decimal(self)) }
}
extension String: ManagedAttributeValue {
    public static var managedEmptyValue: String { "" }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard case .string(let v) = s.value else { return nil }
        self = v
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .string(self)) }
}
extension Date: ManagedAttributeValue {
    public static var managedEmptyValue: Date { Date(timeIntervalSinceReferenceDate: 0) }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard case .date(let v) = s.value else { return nil }
        self = v
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .date(self)) }
}
extension Data: ManagedAttributeValue {
    public static var managedEmptyValue: Data { Data() }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard case .data(let v) = s.value else { return nil }
        self = v
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .data(self)) }
}
extension UUID: ManagedAttributeValue {
    public static var managedEmptyValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard case .uuid(let v) = s.value else { return nil }
        self = v
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .uuid(self)) }
}
extension URL: ManagedAttributeValue {
    public static var managedEmptyValue: URL { URL(string: "about:blank")! }
    public init?(managedStoredValue s: ManagedStoredValue) {
        guard case .url(let v) = s.value else { return nil }
        self = v
    }
    public var managedStoredValue: ManagedStoredValue { ManagedStoredValue(value: .url(self)) }
}

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
    // The slot's kind, decided when the model froze, says what the property is: no cast of
    // its description per access.
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        switch object.layout.kinds[slot] {
        case .relationship(let r) where r.isToMany:
            // Xcode's `NSSet?`: never nil, the relationship's (possibly empty) members.
            return Wrapped.read(from: object, slot: slot)
        case .relationship:
            return object.readToOne(slot).map { $0 as! Wrapped }
        default:
            if object.readStored(slot).isNull { return nil }
            return Wrapped.read(from: object, slot: slot)
        }
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        switch object.layout.kinds[slot] {
        case .relationship(let r) where r.isToMany:
            // nil empties the relationship.
            if let value { Wrapped.write(value, to: object, slot: slot) } else { object.replaceToMany(r, slot: slot, with: []) }
        case .relationship(let r):
            object.setToOne(r, slot: slot, value.map { $0 as! NSManagedObject })
        default:
            if let value { Wrapped.write(value, to: object, slot: slot) } else { object.writeAttribute(nil, slot: slot) }
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

// Sets and arrays are a to-many relationship's members (`Set<Employee>`, `[Employee]` for an
// ordered one) or a transformable attribute's value (`[String]?`, `Set<Int64>`), as Xcode
// declares both; which one, the slot's property says.

extension Set: ManagedPropertyValue {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        if case .relationship = object.layout.kinds[slot] {
            return Set(object.readToMany(slot).objects.map { $0 as! Element })
        }
        return transformableValue(of: object, slot: slot) ?? []
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        if case .relationship = object.layout.kinds[slot] {
            object.replaceToMany(slot: slot, withElements: Array(value))
        } else {
            object.writeAttribute(value, slot: slot)
        }
    }
}

extension Array: ManagedPropertyValue {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        if case .relationship = object.layout.kinds[slot] {
            return object.readToMany(slot).objects.map { $0 as! Element }
        }
        return transformableValue(of: object, slot: slot) ?? []
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        if case .relationship = object.layout.kinds[slot] {
            object.replaceToMany(slot: slot, withElements: value)
        } else {
            object.writeAttribute(value, slot: slot)
        }
    }
}

/// A transformable attribute's dictionary (`[String: Any]?`, as Xcode declares one).
extension Dictionary: ManagedPropertyValue {
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        transformableValue(of: object, slot: slot) ?? [:]
    }
    public static func write(_ value: Self, to object: NSManagedObject, slot: Int) {
        object.writeAttribute(value, slot: slot)
    }
}

extension ManagedPropertyValue {
    /// The transformable attribute's value as this type; nil when the attribute is nil. A value
    /// of another type is a declaration mistake, reported with the property's name.
    static func transformableValue(of object: NSManagedObject, slot: Int) -> Self? {
        switch object.readStored(slot) {
        case .null: return nil
        case .boxed(let box):
            if let value = box.value as? Self { return value }
            preconditionFailure("@Managed var \(object.layout.properties[slot].name): the stored value is a \(type(of: box.value)), not a \(Self.self).")
        default:
            preconditionFailure("@Managed var \(object.layout.properties[slot].name): the attribute is not transformable; declare the property with the attribute's type, not \(Self.self).")
        }
    }
}
