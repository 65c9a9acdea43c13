import Foundation

/// A context's identity map: at most one object per record, keyed by a small struct.
///
/// It holds its objects unretained: a changed object is kept alive by the context's change sets,
/// an unchanged one only by the application (seed 004, "Object Lifetime"). An object removes its
/// own entry in `deinit`, which is cheaper than a weak reference's side table per object.
///
/// Objects of a store that observes registration (`NSIncrementalStore`: its
/// `managedObjectContextDidRegisterObjects(with:)` / `...DidUnregister...`; such stores have a
/// negative store token) are reported to their store as they come and go; their IDs are kept in
/// `observedIDs` so that an unregistration can name the ID after the object changed it.
final class ObjectRegistry {
    @exclusivity(unchecked) private var objects = ObjectKeyTable<UnretainedReference<NSManagedObject>>()
    @exclusivity(unchecked) private var observedIDs: [ObjectKey: NSManagedObjectID] = [:]
    /// Objects pushed out of `objects` by another object registered under their key (a store
    /// that hands out an existing record's ID as a new one). They still name this context as
    /// theirs, so the context must find them when it goes away (``allObjects``).
    @exclusivity(unchecked) private var displaced: [UnretainedReference<NSManagedObject>] = []
    /// Strong references to the registered objects while the context's
    /// `retainsRegisteredObjects` is true; nil otherwise.
    @exclusivity(unchecked) private var retained: [ObjectIdentifier: NSManagedObject]?

    /// Whether the registry keeps its objects alive (``NSManagedObjectContext/retainsRegisteredObjects``).
    /// Turning it off lets go of the objects nothing else holds.
    var retainsObjects: Bool {
        get { retained != nil }
        set {
            guard newValue != (retained != nil) else { return }
            retained = newValue ? allObjects.reduce(into: [:]) { $0[ObjectIdentifier($1)] = $1 } : nil
        }
    }

    var count: Int { objects.count }
    /// How many objects the table has room for (for tests that it gives memory back).
    var capacity: Int { objects.capacity }

    /// Makes room for objects with `keys` at once, so a large fetch doesn't grow the table step by step.
    func reserveCapacity<Keys: Sequence<ObjectKey>>(forKeys keys: Keys) { objects.reserveCapacity(forKeys: keys) }

    func register(_ object: NSManagedObject) {
        let entry = UnretainedReference(object)
        let key = object.assignedObjectKey
        if let previous = objects.updateValue(entry, forKey: key), !previous.refers(toSameObjectAs: entry) {
            displaced.append(previous)
        }
        if key.storeToken < 0 { observe(object.objectID) }
        if retained != nil { retained![ObjectIdentifier(object)] = object }
    }

    func object(for key: ObjectKey) -> NSManagedObject? {
        objects[key]?.object
    }

    /// Removes `object`'s entry (only if the entry is that object).
    func forget(_ object: NSManagedObject) { removeEntry(object.assignedObjectKey, ifItIs: object) }

    /// ``forget(_:)`` with the object's key already read.
    func forget(_ object: NSManagedObject, key: ObjectKey) { removeEntry(key, ifItIs: object) }

    /// Moves an object to a new key (its temporary ID became permanent, or back after a failed save).
    func rekey(_ object: NSManagedObject, from old: ObjectKey) {
        removeEntry(old, ifItIs: object)
        register(object)
    }

    /// Removes the entry for `key` if it is `object` (another object may have taken the key).
    /// One hash lookup, not two: every object that dies while registered comes here.
    private func removeEntry(_ key: ObjectKey, ifItIs object: NSManagedObject) {
        // The caller holds `object`, so letting go of it here cannot free it inside this call.
        if retained != nil { retained![ObjectIdentifier(object)] = nil }
        guard let index = objects.index(forKey: key),
              objects[index].refers(to: object) else {
            if !displaced.isEmpty { displaced.removeAll { $0.refers(to: object) } }
            return
        }
        objects.remove(at: index)
        if key.storeToken < 0 { unobserve(key) }
    }

    /// Every object that names this context, displaced ones included.
    var allObjects: [NSManagedObject] { (objects.values + displaced).map(\.object) }

    func removeAll() {
        objects.removeAll()
        displaced.removeAll()
        // Let go of retained objects only once the tables are empty: a freed object's deinit
        // asks the registry to forget it.
        let letGo = retained
        if retained != nil { retained = [:] }
        withExtendedLifetime(letGo) {}
        let ids = Array(observedIDs.values)
        observedIDs.removeAll()
        for (store, group) in Self.byStore(ids) { store.contextDidUnregister(group) }
    }

    private func observe(_ id: NSManagedObjectID) {
        guard observedIDs.updateValue(id, forKey: id.key) == nil else { return }
        (id.persistentStore as? StoreBackend)?.contextDidRegister([id])
    }

    private func unobserve(_ key: ObjectKey) {
        guard let id = observedIDs.removeValue(forKey: key) else { return }
        (id.persistentStore as? StoreBackend)?.contextDidUnregister([id])
    }

    private static func byStore(_ ids: [NSManagedObjectID]) -> [(StoreBackend, [NSManagedObjectID])] {
        var groups: [ObjectIdentifier: (StoreBackend, [NSManagedObjectID])] = [:]
        for id in ids {
            guard let store = id.persistentStore as? StoreBackend else { continue }
            groups[ObjectIdentifier(store), default: (store, [])].1.append(id)
        }
        return Array(groups.values)
    }
}
