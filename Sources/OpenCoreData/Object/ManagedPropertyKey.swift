import Foundation

/// One typed property of a managed object subclass, for accessors that read and write the
/// object's storage without key paths: the fastest way to declare a property.
///
/// ```swift
/// final class Employee: NSManagedObject {
///     static let salaryKey = ManagedPropertyKey<Int64>("salary")
///     var salary: Int64 {
///         get { self[managed: Self.salaryKey] }
///         set { self[managed: Self.salaryKey] = newValue }
///     }
/// }
/// ```
///
/// The `@ManagedProperty` macro (module `OpenCoreDataMacros`) writes exactly this for you:
///
/// ```swift
/// import OpenCoreDataMacros
///
/// final class Employee: NSManagedObject {
///     @ManagedProperty var salary: Int64
/// }
/// ```
///
/// A key works with every entity whose class declares it, as `@Managed` does, and with the same
/// value types (see ``ManagedPropertyValue``). It costs less per access: Swift passes a
/// `@Managed` accessor two key paths it materialises on every call, while a key is made once
/// per class and finds the property's slot with one load and one compare.
public final class ManagedPropertyKey<Value: ManagedPropertyValue>: Sendable {
    /// The property's name in the entity.
    public let name: String
    let slots = EntitySlotCache()

    /// A key for the entity property `name`.
    public init(_ name: String) { self.name = name }
}

extension NSManagedObject {
    /// The value of the property `key` names, read or written with change tracking, undo and
    /// inverse maintenance, as through `@Managed`.
    ///
    /// The probe that names Swift key paths (`KeyPathNames`) learns which property a read goes
    /// through from here; without a key path it checks the value read instead.
    public subscript<Value>(managed key: ManagedPropertyKey<Value>) -> Value {
        get { self[genericManaged: key, slot(of: key)] }
        @inlinable set { writeManaged(newValue, key) }
    }

    /// The value of the property `key` names, through Core Data's primitive accessors: what
    /// `@ManagedProperty var primitiveName: String?` (Xcode's `primitive<Key>` shape) reads and
    /// writes. A read is the same as ``subscript(managed:)``; a write sets the value as
    /// `setPrimitiveValue(_:forKey:)` does, without maintaining a relationship's inverse.
    public subscript<Value>(primitive key: ManagedPropertyKey<Value>) -> Value {
        get { self[managed: key] }
        set {
            if layout.indexByName[key.name].map({ layout.properties[$0] is NSRelationshipDescription }) == true {
                setPrimitiveValue(newValue, forKey: key.name)
            } else {
                self[managed: key] = newValue
            }
        }
    }

    // Non-generic overloads for the common scalar types, which Swift prefers to the generic
    // subscript: an unchanged fetched object answers from its fetched row without dispatching
    // through `ManagedPropertyValue` or copying the stored value out (a third of a read's cost
    // in a fetch that reads every attribute). Anything else takes the generic path.

    /// The value of an Integer 64 property, as the generic subscript reads it.
    public subscript(managed key: ManagedPropertyKey<Int64>) -> Int64 {
        get {
            if readsFetchedRowDirectly, let slot = key.slots.cachedSlot(for: entity),
               let i = committedStorage.unsafelyUnwrapped.integer(at: slot) { return i }
            return readOutOfLine(key)
        }
        @inlinable set { writeManaged(newValue, key) }
    }

    /// The value of an integer property read as `Int`.
    public subscript(managed key: ManagedPropertyKey<Int>) -> Int {
        get {
            if readsFetchedRowDirectly, let slot = key.slots.cachedSlot(for: entity),
               let i = committedStorage.unsafelyUnwrapped.integer(at: slot) { return Int(truncatingIfNeeded: i) }
            return readOutOfLine(key)
        }
        @inlinable set { writeManaged(newValue, key) }
    }

    /// The value of an Integer 32 property.
    public subscript(managed key: ManagedPropertyKey<Int32>) -> Int32 {
        get {
            if readsFetchedRowDirectly, let slot = key.slots.cachedSlot(for: entity),
               let i = committedStorage.unsafelyUnwrapped.integer(at: slot) { return Int32(truncatingIfNeeded: i) }
            return readOutOfLine(key)
        }
        @inlinable set { writeManaged(newValue, key) }
    }

    /// The value of an Integer 16 property.
    public subscript(managed key: ManagedPropertyKey<Int16>) -> Int16 {
        get {
            if readsFetchedRowDirectly, let slot = key.slots.cachedSlot(for: entity),
               let i = committedStorage.unsafelyUnwrapped.integer(at: slot) { return Int16(truncatingIfNeeded: i) }
            return readOutOfLine(key)
        }
        @inlinable set { writeManaged(newValue, key) }
    }

    /// The value of a Double property.
    public subscript(managed key: ManagedPropertyKey<Double>) -> Double {
        get {
            if readsFetchedRowDirectly, let slot = key.slots.cachedSlot(for: entity),
               let d = committedStorage.unsafelyUnwrapped.double(at: slot) { return d }
            return readOutOfLine(key)
        }
        @inlinable set { writeManaged(newValue, key) }
    }

    /// The value of a Boolean property.
    public subscript(managed key: ManagedPropertyKey<Bool>) -> Bool {
        get {
            if readsFetchedRowDirectly, let slot = key.slots.cachedSlot(for: entity),
               let b = committedStorage.unsafelyUnwrapped.bool(at: slot) { return b }
            return readOutOfLine(key)
        }
        @inlinable set { writeManaged(newValue, key) }
    }

    // A subscript setter takes its index owned: its caller retains the key and the setter
    // releases it, two atomic operations per property written. Inlined, the setter hands the
    // key to a function, which borrows it.

    /// The writes behind the subscripts' setters: the generic one, and one per scalar type so
    /// that each is specialized here (an unspecialized generic write takes the value
    /// indirectly and calls through its type's witness table).
    @usableFromInline func writeManaged<Value>(_ value: Value, _ key: ManagedPropertyKey<Value>) {
        Value.write(value, to: self, slot: slot(of: key))
    }
    @usableFromInline func writeManaged(_ value: Int64, _ key: ManagedPropertyKey<Int64>) { Int64.write(value, to: self, slot: slot(of: key)) }
    @usableFromInline func writeManaged(_ value: Int, _ key: ManagedPropertyKey<Int>) { Int.write(value, to: self, slot: slot(of: key)) }
    @usableFromInline func writeManaged(_ value: Int32, _ key: ManagedPropertyKey<Int32>) { Int32.write(value, to: self, slot: slot(of: key)) }
    @usableFromInline func writeManaged(_ value: Int16, _ key: ManagedPropertyKey<Int16>) { Int16.write(value, to: self, slot: slot(of: key)) }
    @usableFromInline func writeManaged(_ value: Double, _ key: ManagedPropertyKey<Double>) { Double.write(value, to: self, slot: slot(of: key)) }
    @usableFromInline func writeManaged(_ value: Bool, _ key: ManagedPropertyKey<Bool>) { Bool.write(value, to: self, slot: slot(of: key)) }

    /// Every read the fast paths above don't answer. Out of line, so that a fast path, inlined
    /// at every read, carries none of the registers or stack this one needs (a fetch that
    /// reads every attribute takes a fast path once per attribute and row).
    @inline(never) private func readOutOfLine<Value>(_ key: ManagedPropertyKey<Value>) -> Value {
        self[genericManaged: key, slot(of: key)]
    }

    /// The generic read, for a slot already found.
    private subscript<Value>(genericManaged key: ManagedPropertyKey<Value>, slot: Int) -> Value {
        if flags.contains(.keyPathProbe) { KeyPathNames.probe(self, didRead: slot, through: nil, as: Value.self) }
        return Value.read(from: self, slot: slot)
    }

    /// Whether this object's current values are its fetched row (`.slotsFollowCommitted`, so
    /// `committedStorage` is set) and a read needs nothing else: not a fault, not a probe.
    @inline(__always) private var readsFetchedRowDirectly: Bool {
        flags.intersection([.slotsFollowCommitted, .fault, .keyPathProbe]) == .slotsFollowCommitted
    }

    @inline(__always) private func slot<Value>(of key: ManagedPropertyKey<Value>) -> Int {
        if let slot = key.slots.slot(for: entity) { return slot }
        let slot = requireSlot(key.name, "\(type(of: self)).\(key.name)")
        key.slots.remember(slot, for: entity)
        return slot
    }
}

/// Entity → slot of one property, for a ``ManagedPropertyKey``.
///
/// A class's property usually belongs to one entity, or to a few when subentities share the
/// class, so four entries answer nearly every access: each is one atomic word,
/// `address << 16 | slot + 1` (0: empty), written once under `lock`, so a reader never sees half
/// an entry. `byEntity` holds every listed entity, so its address is never reused by another.
/// Entities beyond four, or that don't fit an entry, are answered by the locked table.
final class EntitySlotCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` holds atomic words; the rest of the state is guarded by
    // `lock`. (An NSLock rather than Synchronization's Mutex: Thread Sanitizer sees pthread locks,
    // but not the futex inside the uninstrumented Mutex, and reported its critical sections as
    // races.)
    private static let capacity = 4  // a constant, so the lookup loop unrolls
    private let entries = AddressSlotWords(count: capacity)
    private let lock = NSLock()
    /// Every entity resolved, held strongly (guarded by `lock`).
    private var byEntity: [ObjectIdentifier: (entity: NSEntityDescription, slot: Int)] = [:]

    @inline(__always) func slot(for entity: NSEntityDescription) -> Int? {
        if let slot = cachedSlot(for: entity) { return slot }
        lock.lock(); defer { lock.unlock() }
        return byEntity[ObjectIdentifier(entity)]?.slot
    }

    /// The slot if one of the four entries has it; nil sends the caller to ``slot(for:)``.
    @inline(__always) func cachedSlot(for entity: NSEntityDescription) -> Int? {
        let address = AddressSlotWords.address(of: entity)
        for i in 0..<Self.capacity {
            let word = entries.load(i)
            if AddressSlotWords.names(word, address: address) { return AddressSlotWords.slot(in: word) }
            if word == 0 { return nil }
        }
        return nil
    }

    func remember(_ slot: Int, for entity: NSEntityDescription) {
        lock.lock(); defer { lock.unlock() }
        if byEntity[ObjectIdentifier(entity)] != nil { return }
        byEntity[ObjectIdentifier(entity)] = (entity, slot)
        guard let word = AddressSlotWords.word(for: entity, slot: slot) else { return }
        for i in 0..<Self.capacity where entries.load(i) == 0 {
            entries.store(word, at: i)
            return
        }
    }
}
