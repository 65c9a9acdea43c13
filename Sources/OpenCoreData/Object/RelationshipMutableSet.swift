import Foundation

/// The live set `mutableSetValue(forKey:)` returns: reads see the relationship as it is now, and
/// `add`/`remove` change it through the object, so inverses, change tracking and undo all apply.
final class RelationshipMutableSet: NSMutableSet {
    private let owner: NSManagedObject
    private let relationship: NSRelationshipDescription
    private let slot: Int

    init(owner: NSManagedObject, relationship: NSRelationshipDescription, slot: Int) {
        self.owner = owner
        self.relationship = relationship
        self.slot = slot
        super.init(capacity: 0)
    }

    required init?(coder: NSCoder) { nil }
    required convenience init(arrayLiteral elements: Any...) {
        preconditionFailure("A relationship set is created by mutableSetValue(forKey:), not from a literal.")
    }
    required init(capacity numItems: Int) {
        preconditionFailure("A relationship set is created by mutableSetValue(forKey:).")
    }

    private var members: [NSManagedObject] { owner.readToMany(slot).objects }

    override var count: Int { owner.readToMany(slot).count }
    override func member(_ object: Any) -> Any? {
        guard let o = object as? NSManagedObject, owner.readToMany(slot).contains(o) else { return nil }
        return o
    }
    override func contains(_ anObject: Any) -> Bool { member(anObject) != nil }
    override func objectEnumerator() -> NSEnumerator { NSArray(array: members).objectEnumerator() }
    override var allObjects: [Any] { members }

    override func add(_ object: Any) {
        owner.addToMany(relationship, slot: slot, managed(object))
    }
    override func remove(_ object: Any) {
        guard let o = object as? NSManagedObject else { return }
        owner.removeFromToMany(relationship, slot: slot, o)
    }
    override func addObjects(from array: [Any]) { for o in array { add(o) } }
    override func removeAllObjects() { for o in members { owner.removeFromToMany(relationship, slot: slot, o) } }
    override func union(_ otherSet: Set<AnyHashable>) { for o in otherSet { add(o) } }
    override func minus(_ otherSet: Set<AnyHashable>) { for o in otherSet { remove(o) } }
    override func intersect(_ otherSet: Set<AnyHashable>) {
        for o in members where !otherSet.contains(o) { owner.removeFromToMany(relationship, slot: slot, o) }
    }
    override func setSet(_ otherSet: Set<AnyHashable>) {
        owner.replaceToMany(relationship, slot: slot, with: otherSet.map { managed($0) })
    }

    private func managed(_ object: Any) -> NSManagedObject {
        guard let o = object as? NSManagedObject else {
            preconditionFailure("mutableSetValue(forKey: \"\(relationship.name)\"): only managed objects can be added, not \(type(of: object)).")
        }
        return o
    }
}

/// The live ordered set `mutableOrderedSetValue(forKey:)` returns.
final class RelationshipMutableOrderedSet: NSMutableOrderedSet {
    private let owner: NSManagedObject
    private let relationship: NSRelationshipDescription
    private let slot: Int

    init(owner: NSManagedObject, relationship: NSRelationshipDescription, slot: Int) {
        self.owner = owner
        self.relationship = relationship
        self.slot = slot
        super.init(capacity: 0)
        syncMirror()
    }

    /// `NSOrderedSet.array` and `objectEnumerator()` are not open in Linux Foundation and read the
    /// superclass's own storage, so that storage mirrors the relationship after every change made
    /// through this proxy.
    private func syncMirror() {
        super.removeAllObjects()
        for (i, o) in members.enumerated() { super.insert(o, at: i) }
    }

    required init?(coder: NSCoder) { nil }
    required convenience init(arrayLiteral elements: Any...) {
        preconditionFailure("A relationship ordered set is created by mutableOrderedSetValue(forKey:), not from a literal.")
    }

    private var members: [NSManagedObject] { owner.readToMany(slot).objects }

    override var count: Int { owner.readToMany(slot).count }
    override func object(at idx: Int) -> Any { members[idx] }
    // `index(of:)` and `contains(_:)` are left to the superclass: they read the mirrored
    // storage, and `super.insert` (used by the mirror) relies on them.

    override func insert(_ object: Any, at idx: Int) {
        owner.addToMany(relationship, slot: slot, managed(object), at: idx)
        syncMirror()
    }
    override func add(_ object: Any) { insert(object, at: count) }
    override func removeObject(at idx: Int) {
        owner.removeFromToMany(relationship, slot: slot, members[idx])
        syncMirror()
    }
    override func remove(_ object: Any) {
        guard let o = object as? NSManagedObject else { return }
        owner.removeFromToMany(relationship, slot: slot, o)
        syncMirror()
    }
    override func replaceObject(at idx: Int, with object: Any) {
        removeObject(at: idx)
        insert(object, at: idx)
    }
    override func removeAllObjects() {
        for o in members { owner.removeFromToMany(relationship, slot: slot, o) }
        syncMirror()
    }

    private func managed(_ object: Any) -> NSManagedObject {
        guard let o = object as? NSManagedObject else {
            preconditionFailure("mutableOrderedSetValue(forKey: \"\(relationship.name)\"): only managed objects can be added, not \(type(of: object)).")
        }
        return o
    }
}
