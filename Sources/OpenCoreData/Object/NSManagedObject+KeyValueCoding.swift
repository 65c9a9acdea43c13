import Foundation

extension NSManagedObject {
    func kvcValue(forKey key: String) -> Any? {
        publicValue(slot: requireSlot(key))
    }

    /// Like ``value(forKey:)``, but an unknown key throws an `NSError` naming the entity and key.
    public func checkedValue(forKey key: String) throws -> Any? {
        guard let i = layout.indexByName[key] else {
            throw KeyValueCodingError.undefinedKey(key, in: "Entity '\(entity.name ?? "?")'")
        }
        return publicValue(slot: i)
    }

    func publicValue(slot i: Int) -> Any? {
        switch layout.properties[i] {
        case let a as NSAttributeDescription:
            return readStored(i).publicValue(for: a)
        case let r as NSRelationshipDescription:
            if !r.isToMany { return readToOne(i) }
            let members = readToMany(i).objects
            return r.isOrdered ? NSOrderedSet(array: members) : Set(members)
        case let f as NSFetchedPropertyDescription:
            return fetchedPropertyValue(f, slot: i)
        default:
            return nil
        }
    }

    func kvcSetValue(_ value: Any?, forKey key: String) {
        let i = requireSlot(key)
        switch layout.properties[i] {
        case let a as NSAttributeDescription:
            writeSlot(i, .value(StoredValue(value, for: a)))
        case let r as NSRelationshipDescription:
            if r.isToMany {
                replaceToMany(r, slot: i, with: Self.objects(in: value, for: r, of: self))
            } else {
                setToOne(r, slot: i, Self.object(in: value, for: r, of: self))
            }
        default:
            preconditionFailure("setValue(_:forKey:): '\(entity.name ?? "?").\(key)' is a fetched property and read-only.")
        }
    }

    /// The stored value of `key` without change tracking (Apple's `primitiveValue(forKey:)`).
    public func primitiveValue(forKey key: String) -> Any? {
        let i = requireSlot(key)
        switch layout.properties[i] {
        case let a as NSAttributeDescription: return readStored(i).publicValue(for: a)
        default: return publicValue(slot: i)
        }
    }

    /// Sets `key` without inverse maintenance — the primitive setter custom accessors build on.
    /// The change is still recorded, so it is saved and can be undone.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        let i = requireSlot(key)
        switch layout.properties[i] {
        case let a as NSAttributeDescription:
            writeSlot(i, .value(StoredValue(value, for: a)))
        case let r as NSRelationshipDescription:
            if r.isToMany {
                writeSlot(i, .toMany(RelatedObjects(Self.objects(in: value, for: r, of: self))))
            } else {
                writeSlot(i, Self.object(in: value, for: r, of: self).map { .toOne($0) } ?? .null)
            }
        default:
            break
        }
    }

    /// The value at a dotted key path, through to-one and to-many relationships, with the
    /// collection operators `@count @sum @avg @min @max` and `@distinctUnionOfObjects`:
    ///
    /// ```swift
    /// department.value(forKeyPath: "employees.@avg.salary")
    /// employee.value(forKeyPath: "department.name")
    /// ```
    public func value(forKeyPath keyPath: String) -> Any? {
        do {
            return try KeyPathEvaluator.value(of: self, forKeyPath: keyPath)
        } catch {
            preconditionFailure("value(forKeyPath: \"\(keyPath)\"): \((error as NSError).localizedDescription)")
        }
    }

    /// Sets the value at a key path; a path through a to-many sets it on every member, and a
    /// path into a composite attribute (`location.latitude`) sets that element.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let dot = keyPath.firstIndex(of: ".") else { setValue(value, forKey: keyPath); return }
        let head = String(keyPath[..<dot]), rest = String(keyPath[keyPath.index(after: dot)...])
        if let i = layout.indexByName[head], let composite = layout.properties[i] as? NSCompositeAttributeDescription {
            setCompositeElement(value, composite, path: KeyPathEvaluator.components(of: rest)[...])
            return
        }
        switch self.value(forKey: head) {
        case let o as NSManagedObject: o.setValue(value, forKeyPath: rest)
        case let set as Set<NSManagedObject>: for o in set { o.setValue(value, forKeyPath: rest) }
        case let ordered as NSOrderedSet: for case let o as NSManagedObject in ordered.array { o.setValue(value, forKeyPath: rest) }
        default: break
        }
    }

    /// A live, mutable set of a to-many relationship's members. Adding and removing through it
    /// updates the relationship and its inverse:
    ///
    /// ```swift
    /// newDepartment.mutableSetValue(forKey: "employees").add(employee)
    /// ```
    public func mutableSetValue(forKey key: String) -> NSMutableSet {
        let i = requireSlot(key)
        guard let r = layout.properties[i] as? NSRelationshipDescription, r.isToMany, !r.isOrdered else {
            preconditionFailure("mutableSetValue(forKey:): '\(entity.name ?? "?").\(key)' is not an unordered to-many relationship\((layout.properties[i] as? NSRelationshipDescription)?.isOrdered == true ? "; use mutableOrderedSetValue(forKey:)" : "").")
        }
        return RelationshipMutableSet(owner: self, relationship: r, slot: i)
    }

    /// A live, mutable ordered set of an ordered to-many relationship's members.
    public func mutableOrderedSetValue(forKey key: String) -> NSMutableOrderedSet {
        let i = requireSlot(key)
        guard let r = layout.properties[i] as? NSRelationshipDescription, r.isToMany, r.isOrdered else {
            preconditionFailure("mutableOrderedSetValue(forKey:): '\(entity.name ?? "?").\(key)' is not an ordered to-many relationship.")
        }
        return RelationshipMutableOrderedSet(owner: self, relationship: r, slot: i)
    }

    /// Whether the relationship `key` has not been loaded yet (reading it would fetch).
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        if isFault { return true }
        return currentSlot(requireSlot(key)).isRelationshipFault
    }

    /// The IDs of the objects related through `key`, without loading them.
    public func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] {
        let i = requireSlot(key)
        switch readStored(i) {
        case .objectID(let id): return [id]
        case .objectIDs(let ids): return ids
        default: return []
        }
    }

    // MARK: Converting public values to relationship members

    static func object(in value: Any?, for r: NSRelationshipDescription, of owner: NSManagedObject) -> NSManagedObject? {
        guard let value, !(value is NSNull) else { return nil }
        if let optional = value as? OptionalProtocol { return object(in: optional.wrappedAny, for: r, of: owner) }
        guard let o = value as? NSManagedObject else {
            preconditionFailure("setValue(_:forKey: \"\(r.name)\") on '\(owner.entity.name ?? "?")': expected a managed object (or nil) for this to-one relationship, got \(type(of: value)).")
        }
        return o
    }

    static func objects(in value: Any?, for r: NSRelationshipDescription, of owner: NSManagedObject) -> [NSManagedObject] {
        guard let value, !(value is NSNull) else { return [] }
        if let optional = value as? OptionalProtocol { return objects(in: optional.wrappedAny, for: r, of: owner) }
        let elements: [Any]
        switch value {
        case let s as NSOrderedSet: elements = s.array
        case let s as NSSet: elements = s.allObjects
        case let a as NSArray: elements = a.map { $0 }
        case let s as any Sequence: elements = Array(anySequence: s)
        default: elements = [value]
        }
        return elements.map { element in
            guard let o = element as? NSManagedObject else {
                preconditionFailure("setValue(_:forKey: \"\(r.name)\") on '\(owner.entity.name ?? "?")': a to-many relationship takes a set or array of managed objects; found \(type(of: element)).")
            }
            return o
        }
    }
}

extension Array where Element == Any {
    /// The elements of a sequence whose element type is known only at run time.
    init(anySequence sequence: any Sequence) {
        func collect<S: Sequence>(_ s: S) -> [Any] { s.map { $0 as Any } }
        self = collect(sequence)
    }
}

extension NSManagedObject: PredicateEquatable {
    /// In predicates an object equals its own ID, so `NSPredicate(format: "SELF == %@", id)` and
    /// `department == %@` with an ID match as in Core Data's fetches.
    public func isPredicateEqual(to other: Any) -> Bool? {
        if let id = other as? NSManagedObjectID { return objectID == id }
        return nil
    }
}
