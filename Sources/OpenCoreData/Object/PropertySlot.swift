import Foundation

/// The value of one property in a live managed object.
///
/// Attributes hold a ``StoredValue``. Relationships start as IDs (`.value(.objectID)` /
/// `.value(.objectIDs)`, a relationship fault) and become object references the first time they
/// are read, so loading an object never loads its whole graph.
enum PropertySlot {
    case value(StoredValue)
    case toOne(NSManagedObject)
    case toMany(RelatedObjects)

    static var null: PropertySlot { .value(.null) }

    /// The slot as the store keeps it: objects replaced by their IDs.
    var storedValue: StoredValue {
        switch self {
        case .value(let v): return v
        case .toOne(let o): return .objectID(o.objectID)
        case .toMany(let r): return .objectIDs(r.objects.map(\.objectID))
        }
    }

    var isRelationshipFault: Bool {
        switch self {
        case .value(.objectID), .value(.objectIDs): return true
        default: return isUnloadedRelationship
        }
    }
}

/// The members of a realized to-many relationship, in insertion order (the order of an ordered
/// relationship), with O(1) membership.
struct RelatedObjects {
    private(set) var objects: [NSManagedObject] = []
    private var members: Set<ObjectIdentifier> = []

    init() {}
    init(_ objects: [NSManagedObject]) {
        for o in objects { _ = insert(o) }
    }

    var count: Int { objects.count }
    func contains(_ o: NSManagedObject) -> Bool { members.contains(ObjectIdentifier(o)) }

    mutating func insert(_ o: NSManagedObject, at index: Int? = nil) -> Bool {
        guard members.insert(ObjectIdentifier(o)).inserted else { return false }
        if let index { objects.insert(o, at: Swift.min(index, objects.count)) } else { objects.append(o) }
        return true
    }

    mutating func remove(_ o: NSManagedObject) -> Bool {
        guard members.remove(ObjectIdentifier(o)) != nil else { return false }
        objects.removeAll { $0 === o }
        return true
    }
}
