import Foundation

// Reading and writing slots. Every tracked change goes through `writeSlot`, which tells the
// context (change sets, undo, notifications) and never touches inverses: the relationship
// functions below write both sides through it, and primitive setters and undo use it alone.

extension NSManagedObject {
    var layout: EntityLayout { entity.layout! }

    /// The slot index of `key`, or a stop that names the entity, the key and the fix.
    func requireSlot(_ key: String, _ caller: String = #function) -> Int {
        guard let i = layout.indexByName[key] else {
            preconditionFailure("\(caller): entity '\(entity.name ?? "?")' has no property '\(key)'. Its properties are: \(layout.properties.map(\.name).sorted().joined(separator: ", ")). Use checkedValue(forKey:) to get a thrown error instead.")
        }
        return i
    }

    /// Loads the object's values if it is a fault.
    @inline(__always) func fireFaultIfNeeded() {
        if flags.contains(.fault) { managedObjectContext?.fulfillFault(for: self) }
    }

    func readStored(_ i: Int) -> StoredValue {
        fireFaultIfNeeded()
        if flags.contains(.slotsFollowCommitted) {
            let value = committedStorage.unsafelyUnwrapped[i]
            if !UnloadedRelationship.isMarker(value) { return value }
        }
        loadRelationshipIfNeeded(i)
        return slots[i].storedValue
    }

    /// ``readStored(_:)`` of an attribute's slot, which holds no relationship to load: the
    /// per-object loops of saving (validation, snapshots) read every attribute this way.
    @inline(__always) func readAttribute(_ i: Int) -> StoredValue {
        fireFaultIfNeeded()
        if flags.contains(.slotsFollowCommitted) { return committedStorage.unsafelyUnwrapped[i] }
        if case .value(let value) = ownSlots[i] { return value }
        return ownSlots[i].storedValue
    }

    /// Slot `i` as it is now, without firing a fault, loading a relationship or giving an
    /// unchanged fetched object its own copy of its row.
    func currentSlot(_ i: Int) -> PropertySlot {
        if flags.contains(.slotsFollowCommitted), let committed = committedStorage { return .value(committed[i]) }
        return slots[i]
    }

    /// Makes the object's current values its own, equal to the committed ones, before they are
    /// changed or handed out by reference.
    func separateSlotsFromCommitted() {
        flags.remove(.slotsFollowCommitted)
        ownSlots = committedStorage?.map { .value($0) } ?? []
    }

    func readToOne(_ i: Int) -> NSManagedObject? {
        fireFaultIfNeeded()
        loadRelationshipIfNeeded(i)
        switch slots[i] {
        case .toOne(let o): return o
        case .value(.objectID(let id)):
            guard let o = managedObjectContext?.object(with: id) else { return nil }
            slots[i] = .toOne(o)
            return o
        default: return nil
        }
    }

    func readToMany(_ i: Int) -> RelatedObjects {
        fireFaultIfNeeded()
        loadRelationshipIfNeeded(i)
        switch slots[i] {
        case .toMany(let r): return r
        case .value(.objectIDs(let ids)):
            guard let context = managedObjectContext else { return RelatedObjects() }
            let r = RelatedObjects(ids.map { context.object(with: $0) })
            slots[i] = .toMany(r)
            context.loadFaultsTogether(r.objects)
            return r
        default: return RelatedObjects()
        }
    }

    /// Changes a slot with change tracking and undo.
    func writeSlot(_ i: Int, _ new: PropertySlot) {
        fireFaultIfNeeded()
        if flags.contains(.slotsFollowCommitted) { separateSlotsFromCommitted() }
        var old = new
        swap(&old, &ownSlots[i])
        withContext { $0.objectDidChange(self, slot: i, from: old) }
    }

    // MARK: Relationship maintenance

    /// Makes `other` usable in a relationship with `self`: same context, inserted if it has none.
    func adopt(_ other: NSManagedObject, for relationship: NSRelationshipDescription) {
        guard let context = managedObjectContext else { return }
        if let theirs = other.managedObjectContext {
            precondition(theirs === context, "Illegal attempt to establish relationship '\(relationship.name)' between objects in different contexts (source: \(entity.name ?? "?"), destination: \(other.entity.name ?? "?")). Use object(with: objectID) to get the object in this context.")
        } else {
            context.insert(other)
        }
    }

    func checkDestination(_ other: NSManagedObject, _ r: NSRelationshipDescription) {
        if let dest = r.destinationEntity {
            precondition(other.entity.isKindOf(entity: dest), "Relationship '\(entity.name ?? "?").\(r.name)' takes '\(dest.name ?? "?")' objects, not '\(other.entity.name ?? "?")'.")
        }
    }

    /// Sets a to-one relationship and keeps the inverse in step.
    func setToOne(_ r: NSRelationshipDescription, slot i: Int, _ target: NSManagedObject?) {
        let old = readToOne(i)
        if old === target { return }
        if let target { checkDestination(target, r); adopt(target, for: r) }
        writeSlot(i, target.map { .toOne($0) } ?? .null)
        guard let inverse = r.inverseRelationship else { return }
        old?.removeMember(self, from: inverse)
        target?.addInverseMember(self, to: inverse, forward: r)
    }

    /// Adds `member` to a to-many relationship and keeps the inverse in step.
    func addToMany(_ r: NSRelationshipDescription, slot i: Int, _ member: NSManagedObject, at index: Int? = nil) {
        var related = readToMany(i)
        checkDestination(member, r)
        adopt(member, for: r)
        guard related.insert(member, at: index) else { return }
        writeSlot(i, .toMany(related))
        guard let inverse = r.inverseRelationship else { return }
        member.addInverseMember(self, to: inverse, forward: r)
    }

    /// Removes `member` from a to-many relationship and keeps the inverse in step.
    func removeFromToMany(_ r: NSRelationshipDescription, slot i: Int, _ member: NSManagedObject) {
        var related = readToMany(i)
        guard related.remove(member) else { return }
        writeSlot(i, .toMany(related))
        if let inverse = r.inverseRelationship { member.removeMember(self, from: inverse) }
    }

    /// The inverse side of a change: `owner` now relates to `self` through `forward`, so `self`'s
    /// `inverse` must point back at `owner` (and, for a to-one inverse, stop pointing elsewhere).
    func addInverseMember(_ owner: NSManagedObject, to inverse: NSRelationshipDescription, forward: NSRelationshipDescription) {
        let j = requireSlot(inverse.name)
        if inverse.isToMany {
            var related = readToMany(j)
            if related.insert(owner) { writeSlot(j, .toMany(related)) }
            return
        }
        let previous = readToOne(j)
        if previous === owner { return }
        writeSlot(j, .toOne(owner))
        previous?.removeMember(self, from: forward)
    }

    /// Removes `member` from `relationship` of `self` without further inverse work.
    func removeMember(_ member: NSManagedObject, from relationship: NSRelationshipDescription) {
        let j = requireSlot(relationship.name)
        if relationship.isToMany {
            var related = readToMany(j)
            if related.remove(member) { writeSlot(j, .toMany(related)) }
        } else if readToOne(j) === member {
            writeSlot(j, .null)
        }
    }

    /// Replaces the whole membership of a to-many relationship, maintaining inverses.
    func replaceToMany(_ r: NSRelationshipDescription, slot i: Int, with members: [NSManagedObject]) {
        let current = readToMany(i)
        let wanted = RelatedObjects(members)
        for old in current.objects where !wanted.contains(old) { removeFromToMany(r, slot: i, old) }
        for new in wanted.objects where !current.contains(new) { addToMany(r, slot: i, new) }
        if r.isOrdered, readToMany(i).objects.map(ObjectIdentifier.init) != wanted.objects.map(ObjectIdentifier.init) {
            writeSlot(i, .toMany(wanted))
        }
    }
}
