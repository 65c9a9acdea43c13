import Foundation

/// A context's identity map: at most one object per record, keyed by a small struct.
///
/// It holds its objects unretained: a changed object is kept alive by the context's change sets,
/// an unchanged one only by the application (seed 004, "Object Lifetime"). An object removes its
/// own entry in `deinit`, which is cheaper than a weak reference's side table per object.
final class ObjectRegistry {
    private var objects: [ObjectKey: Unmanaged<NSManagedObject>] = [:]

    var count: Int { objects.count }

    func register(_ object: NSManagedObject) {
        objects[object.objectID.key] = .passUnretained(object)
    }

    func object(for key: ObjectKey) -> NSManagedObject? {
        objects[key]?.takeUnretainedValue()
    }

    /// Removes `object`'s entry (only if the entry is that object).
    func forget(_ object: NSManagedObject) {
        let key = object.objectID.key
        if let entry = objects[key], entry.toOpaque() == Unmanaged.passUnretained(object).toOpaque() {
            objects[key] = nil
        }
    }

    /// Moves an object to a new key (its temporary ID became permanent, or back after a failed save).
    func rekey(_ object: NSManagedObject, from old: ObjectKey) {
        if let entry = objects[old], entry.toOpaque() == Unmanaged.passUnretained(object).toOpaque() { objects[old] = nil }
        objects[object.objectID.key] = .passUnretained(object)
    }

    var allObjects: [NSManagedObject] { objects.values.map { $0.takeUnretainedValue() } }

    func removeAll() { objects.removeAll() }
}
