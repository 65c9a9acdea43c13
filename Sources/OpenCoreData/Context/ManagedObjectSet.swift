import Foundation

/// A set of managed objects compared by identity, in the order they were inserted: a context's
/// change sets (inserted, updated, deleted, ...).
///
/// ```swift
/// var inserted = ManagedObjectSet()
/// inserted.insert(employee)           // true: new member
/// inserted.contains(employee)         // true, found by address
/// for object in inserted { ... }      // members in the order they were inserted
/// ```
///
/// `Set<NSManagedObject>` hashes and compares through NSObject's `hash` and `isEqual(_:)`, which
/// on Linux cost a SipHash and a dynamic cast per probe; inserting 50,000 new objects spent more
/// time there than in building the objects. Here a member is found by its address, mixed with
/// a multiply-xorshift hash, and compared as a pointer. The public API still hands out
/// `Set<NSManagedObject>` (``set``).
///
/// Why insertion order: a save walks its inserted objects about a dozen times (validation,
/// permanent IDs, rows, notifications), and objects made one after another sit one after
/// another in memory, so walking them in that order lets the processor prefetch instead of
/// missing its caches on every object, as it did in hash order. New objects also get primary
/// keys in the order they were made, so a store appends to its tables and indexes instead of
/// inserting all over them.
///
/// Why the address index is built only when asked: the context adds every new object to two
/// sets (``insertNew(_:)``, after its `.inserted` flag said it is not a member), and a save of
/// new objects only walks them. Hashing each address into a table far larger than the caches
/// was a tenth of the time of inserting and saving 50,000 objects.
struct ManagedObjectSet: Sequence, ExpressibleByArrayLiteral {
    /// The members in insertion order; nil where one was removed, until ``compactIfSparse()``.
    private var members: [NSManagedObject?] = []
    /// Each member's position in ``members``; nil until a lookup needs it.
    private var positions: [Identity: Int]?
    private(set) var count = 0
    /// ``set``, once made, until the members change.
    private var madeSet: Set<NSManagedObject>?

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
        for object in objects { insert(object) }
    }

    var isEmpty: Bool { count == 0 }
    var underestimatedCount: Int { count }
    /// The members as the `Set` Core Data's API returns, made once until the members change.
    ///
    /// A save of new objects usually reports the same objects twice: in the objects-did-change
    /// notification its last event posts, and in did-save. Each `Set` takes a reference to every
    /// object and hashes it, and freeing it gives the references back in hash order, all over
    /// memory; making the second one cost W1 (50,000 new objects) about 1.5% of its
    /// instructions and 2.5% of its time.
    var set: Set<NSManagedObject> {
        mutating get {
            if let madeSet { return madeSet }
            let made = Set(distinct: self)
            madeSet = made
            return made
        }
    }

    /// `objects` as a `Set`: this set's own ``set`` when it holds exactly those objects in
    /// that order (a save's change set and the objects its notifications report, usually),
    /// else a new one.
    mutating func set(of objects: ManagedObjectSet) -> Set<NSManagedObject> {
        hasSameMembers(inOrder: objects) ? set : Set(distinct: objects)
    }

    /// ``set(of:)-(ManagedObjectSet)`` for an array of distinct objects.
    mutating func set(of objects: [NSManagedObject]) -> Set<NSManagedObject> {
        hasSameMembers(inOrder: objects) ? set : Set(distinct: objects)
    }

    /// Whether `other` holds the same objects in the same order, compared by address without
    /// touching them (no reference taken, no object's memory read).
    func hasSameMembers(inOrder other: ManagedObjectSet) -> Bool {
        count == other.count && other.members.withUnsafeBufferPointer { hasMembers(inOrder: $0) }
    }

    /// ``hasSameMembers(inOrder:)`` for an array, which has no gaps.
    func hasSameMembers(inOrder objects: [NSManagedObject]) -> Bool {
        count == objects.count && objects.withUnsafeBufferPointer { $0.withMemoryRebound(to: NSManagedObject?.self) { hasMembers(inOrder: $0) } }
    }

    private func hasMembers(inOrder others: UnsafeBufferPointer<NSManagedObject?>) -> Bool {
        members.withUnsafeBufferPointer { mine in
            // Addresses read as words: an optional reference is one, nil zero.
            let a = UnsafeRawBufferPointer(mine), b = UnsafeRawBufferPointer(others)
            let stride = MemoryLayout<NSManagedObject?>.stride
            func address(_ buffer: UnsafeRawBufferPointer, _ i: Int) -> UInt { buffer.load(fromByteOffset: i * stride, as: UInt.self) }
            var i = 0, j = 0
            while true {
                while i < mine.count, address(a, i) == 0 { i += 1 }
                while j < others.count, address(b, j) == 0 { j += 1 }
                if i == mine.count || j == others.count { return i == mine.count && j == others.count }
                if address(a, i) != address(b, j) { return false }
                i += 1; j += 1
            }
        }
    }

    mutating func contains(_ object: NSManagedObject) -> Bool { index()[Identity(object)] != nil }

    /// Adds `object` at the end; false if it was a member already.
    @discardableResult
    mutating func insert(_ object: NSManagedObject) -> Bool {
        var positions = index()
        self.positions = nil  // held uniquely while it changes
        // One probe: a new key gets the placeholder -1, which `claim` replaces.
        let isNew = Self.claim(&positions[Identity(object), default: -1], for: members.count)
        self.positions = positions
        if isNew { append(object) }
        return isNew
    }

    /// Adds an object the caller knows is not a member, without building the index.
    mutating func insertNew(_ object: NSManagedObject) {
        positions?[Identity(object)] = members.count
        append(object)
    }

    private mutating func append(_ object: NSManagedObject) {
        members.append(object)
        count += 1
        madeSet = nil
    }

    private static func claim(_ position: inout Int, for next: Int) -> Bool {
        guard position < 0 else { return false }
        position = next
        return true
    }

    /// Removes `object`; false if it was not a member.
    @discardableResult
    mutating func remove(_ object: NSManagedObject) -> Bool {
        guard !isEmpty, let position = index()[Identity(object)] else { return false }
        positions![Identity(object)] = nil
        members[position] = nil
        count -= 1
        madeSet = nil
        compactIfSparse()
        return true
    }

    mutating func removeAll() {
        members.removeAll()
        positions = nil
        count = 0
        madeSet = nil
    }

    /// The address index, built from ``members`` the first time it is needed.
    private mutating func index() -> [Identity: Int] {
        if let positions { return positions }
        var built = [Identity: Int](minimumCapacity: count)
        for (position, object) in members.enumerated() {
            if let object { built[Identity(object)] = position }
        }
        positions = built
        return built
    }

    /// Closes the gaps removals left once they are most of ``members``, so walking the set
    /// stays proportional to its size.
    private mutating func compactIfSparse() {
        guard members.count > 32, count < members.count / 2 else { return }
        members.removeAll { $0 == nil }
        positions = nil
    }

    func union(_ other: ManagedObjectSet) -> ManagedObjectSet {
        var result = self
        for object in other { result.insert(object) }
        return result
    }

    /// The members `isIncluded` accepts, in order. When it accepts all of them (as it usually
    /// does for a context's events) the result shares this set's storage instead of copying it.
    func filter(_ isIncluded: (NSManagedObject) throws -> Bool) rethrows -> ManagedObjectSet {
        var result: ManagedObjectSet?  // made at the first member left out
        for (position, slot) in members.enumerated() {
            guard let object = slot else { continue }
            let keep = try isIncluded(object)
            if var copy = result {
                result = nil  // held uniquely while it grows
                if keep { copy.insertNew(object) }
                result = copy
            } else if !keep {
                var copy = ManagedObjectSet()
                for case let earlier? in members[..<position] { copy.insertNew(earlier) }  // distinct already
                result = copy
            }
        }
        return result ?? self
    }

    func makeIterator() -> Iterator { Iterator(members: members.makeIterator()) }

    /// Walks ``members``, skipping the gaps of removed ones.
    struct Iterator: IteratorProtocol {
        var members: IndexingIterator<[NSManagedObject?]>

        mutating func next() -> NSManagedObject? {
            while let slot = members.next() {
                if let object = slot { return object }
            }
            return nil
        }
    }
}
