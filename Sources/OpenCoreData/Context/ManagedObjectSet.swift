import Foundation

/// A set of managed objects compared by identity: a context's change sets (inserted, updated,
/// deleted, ...).
///
/// `Set<NSManagedObject>` hashes and compares through NSObject's `hash` and `isEqual(_:)`, which
/// on Linux cost a SipHash and a dynamic cast per probe; inserting 50,000 new objects spent more
/// time there than in building the objects. Here a member is found by its address, mixed with
/// a multiply-xorshift hash, and compared as a pointer. The public API still hands out
/// `Set<NSManagedObject>` (``set``).
struct ManagedObjectSet: Sequence, ExpressibleByArrayLiteral {
    private var members: [Identity: NSManagedObject] = [:]

    /// An object's address as a dictionary key.
    struct Identity: Hashable {
        let address: UInt

        init(_ object: NSManagedObject) { address = UInt(bitPattern: ObjectIdentifier(object)) }

        func hash(into hasher: inout Hasher) { hasher.combine(address) }

        func _rawHashValue(seed: Int) -> Int { SplitMixHash.hash(UInt64(address), seed: seed) }
    }

    init() {}
    init(arrayLiteral objects: NSManagedObject...) { self.init(objects) }
    init<S: Sequence>(_ objects: S) where S.Element == NSManagedObject {
        for object in objects { members[Identity(object)] = object }
    }

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }
    /// The members as the `Set` Core Data's API returns.
    var set: Set<NSManagedObject> { Set(distinct: members.values) }

    func contains(_ object: NSManagedObject) -> Bool { members[Identity(object)] != nil }

    /// Adds `object`; false if it was a member already.
    @discardableResult
    mutating func insert(_ object: NSManagedObject) -> Bool {
        members.updateValue(object, forKey: Identity(object)) == nil
    }

    /// Removes `object`; false if it was not a member.
    @discardableResult
    mutating func remove(_ object: NSManagedObject) -> Bool {
        members.removeValue(forKey: Identity(object)) != nil
    }

    mutating func removeAll() { members.removeAll() }

    func union(_ other: ManagedObjectSet) -> ManagedObjectSet {
        var result = self
        result.members.merge(other.members) { current, _ in current }
        return result
    }

    func filter(_ isIncluded: (NSManagedObject) throws -> Bool) rethrows -> ManagedObjectSet {
        var result = ManagedObjectSet()
        result.members = try members.filter { try isIncluded($0.value) }
        return result
    }

    func makeIterator() -> Dictionary<Identity, NSManagedObject>.Values.Iterator { members.values.makeIterator() }
}
