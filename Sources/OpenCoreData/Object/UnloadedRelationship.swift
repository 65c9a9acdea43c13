import Foundation

/// The value of a relationship a store has not given yet: an `NSIncrementalStoreNode` may leave
/// a relationship out, and Core Data then asks the store for it
/// (`newValue(forRelationship:forObjectWith:with:)`) only when the relationship is first read —
/// Apple's guide: to-many relationships are faulted "separately from to-one relationships and
/// values".
///
/// It is kept as a `StoredValue` (a box holding this one marker), so rows, snapshots and slots
/// carry it without a new case every switch over `StoredValue` would have to handle. Reading
/// the slot (`readStored`, `readToOne`, `readToMany`) replaces it with the store's answer;
/// snapshots and saves read slots that way, so the marker never leaves the context that
/// fetched the object.
enum UnloadedRelationship {
    private final class Marker: CustomStringConvertible {
        var description: String { "<relationship fault>" }
    }

    /// The one value that stands for "not loaded yet".
    static let value = StoredValue.boxed(AnyBox(Marker()))

    static func isMarker(_ value: StoredValue) -> Bool {
        if case .boxed(let box) = value, case .boxed(let marker) = Self.value { return box === marker }
        return false
    }
}

/// Relationships left unloaded, gathered so that each is read once for all its owners (one
/// store call per relationship, not one per object): each with its slot and the owners (objects,
/// or positions in a list of rows) that left it out.
///
///     var unloaded = UnloadedRelationships<NSManagedObject>()
///     unloaded.append(object, relationship: employees, slot: 3)
///     for (relationship, slot, owners) in unloaded.groups { ... }
struct UnloadedRelationships<Owner> {
    /// By relationship and slot: a subentity shares its parent's relationship, maybe not its slot.
    private struct Key: Hashable {
        let relationship: ObjectIdentifier
        let slot: Int
    }
    private var byKey: [Key: (relationship: NSRelationshipDescription, slot: Int, owners: [Owner])] = [:]

    mutating func append(_ owner: Owner, relationship: NSRelationshipDescription, slot: Int) {
        byKey[Key(relationship: ObjectIdentifier(relationship), slot: slot), default: (relationship, slot, [])].owners.append(owner)
    }

    /// Each relationship and slot with its owners (the groups in no particular order).
    var groups: some Collection<(relationship: NSRelationshipDescription, slot: Int, owners: [Owner])> { byKey.values }
}

extension PropertySlot {
    /// Whether this slot is a relationship the store has not given yet.
    var isUnloadedRelationship: Bool {
        if case .value(let value) = self { return UnloadedRelationship.isMarker(value) }
        return false
    }
}

extension NSManagedObject {
    /// Loads slot `i` if it is a relationship the store has not given yet. Like a fault whose
    /// record is gone, a relationship the store can't load reads as empty (a property getter
    /// can't throw; docs/DEVIATIONS.md).
    @inline(__always) func loadRelationshipIfNeeded(_ i: Int) {
        guard slots[i].isUnloadedRelationship else { return }
        let relationship = layout.properties[i] as? NSRelationshipDescription
        let empty: StoredValue = relationship?.isToMany == true ? .objectIDs([]) : .null
        let value = relationship.flatMap { try? managedObjectContext?.loadRelationship($0, of: self) } ?? empty
        // The store ran user code: if the object was turned into a fault meanwhile, keep that.
        setLoadedRelationship(i, value)
    }

    /// Slot `i`, a relationship the store had not given, set to the store's `value`; nothing
    /// when the slot holds something else by now.
    func setLoadedRelationship(_ i: Int, _ value: StoredValue) {
        guard i < slots.count, slots[i].isUnloadedRelationship else { return }
        slots[i] = .value(value)
        // The store's value is the committed one too (the slot could not have changed unread).
        if let committed, i < committed.count, UnloadedRelationship.isMarker(committed[i]) { self.committed![i] = value }
    }
}
