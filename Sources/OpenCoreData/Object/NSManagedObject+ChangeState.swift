import Foundation

extension NSManagedObject {
    /// The persistent properties whose values differ from the last saved (or fetched) values,
    /// with their new values. For a new object: every property that has a value.
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        for i in layout.persistentIndexes {
            let current = readStored(i)
            let changed: Bool
            if let committed { changed = !current.isSame(as: committed[i]) } else { changed = !current.isEmptyValue }
            if changed { result[layout.properties[i].name] = publicValueOrNull(slot: i) }
        }
        return result
    }

    /// The slots of the persistent properties whose values differ from the last saved values
    /// (what persistent history records as an update's `updatedProperties`).
    func changedPersistentSlots() -> [Int] {
        guard let committed else { return layout.persistentIndexes }
        return layout.persistentIndexes.filter { !readStored($0).isSame(as: committed[$0]) }
    }

    /// The persistent properties changed since the last `processPendingChanges` (the last
    /// objects-did-change notification), with their values from before those changes.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        guard let originals = eventOriginals else { return [:] }
        var result: [String: Any] = [:]
        for (i, old) in originals where layout.persistentIndexes.contains(i) && !old.isSame(as: readStored(i)) {
            result[layout.properties[i].name] = publicValue(of: old, slot: i) ?? NSNull()
        }
        return result
    }

    /// The last saved values of `keys` (all persistent properties for nil). A new object has none.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard let committed else { return [:] }
        let indexes = keys.map { $0.map { requireSlot($0) } } ?? layout.persistentIndexes
        var result: [String: Any] = [:]
        for i in indexes where layout.persistentIndexes.contains(i) {
            result[layout.properties[i].name] = publicValue(of: committed[i], slot: i) ?? NSNull()
        }
        return result
    }

    private func publicValueOrNull(slot i: Int) -> Any { publicValue(slot: i) ?? NSNull() }

    /// Converts a stored value of slot `i` to its public form, resolving object IDs in the context.
    func publicValue(of value: StoredValue, slot i: Int) -> Any? {
        switch (layout.properties[i], value) {
        case (let a as NSAttributeDescription, _): return value.publicValue(for: a)
        case (_, .objectID(let id)): return managedObjectContext?.object(with: id)
        case (let r as NSRelationshipDescription, .objectIDs(let ids)):
            let objects = ids.compactMap { managedObjectContext?.object(with: $0) }
            return r.isOrdered ? NSOrderedSet(array: objects) : Set(objects)
        case (let r as NSRelationshipDescription, .null): return r.isToMany ? Set<NSManagedObject>() : nil
        default: return nil
        }
    }

    /// A snapshot of the persistent slots in stored form.
    func snapshot() -> RowValues {
        fireFaultIfNeeded()   // a fault has no slots yet; without this its snapshot would be empty
        // The slot count without reading `slots`, which would copy an unchanged object's row.
        let count = flags.contains(.slotsFollowCommitted) ? committedStorage?.count ?? 0 : ownSlots.count
        let checks = layout.attributeChecks
        return RowValues(count: count) { checks[$0].isAttribute ? readAttribute($0) : readStored($0) }
    }
}

extension StoredValue {
    /// Null, or an empty to-many: the state of a property nobody has set.
    var isEmptyValue: Bool {
        switch self {
        case .null: return true
        case .objectIDs(let ids): return ids.isEmpty
        default: return false
        }
    }
}
