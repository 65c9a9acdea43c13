import Foundation

extension NSManagedObjectContext {
    /// Computes the derived attributes a root save writes, as Apple's store does at each save
    /// (see ``Derivation`` for the derivations computed).
    ///
    /// ```swift
    /// // Department.employeeCount is derived as employees.@count.
    /// employee.department = sales
    /// try context.save()
    /// sales.employeeCount    // counts the employee now; the old department's count dropped
    /// ```
    ///
    /// The objects recomputed: each inserted or updated object (all its derived attributes, so
    /// `now()` is the time of its last save), and the objects a changed, inserted or deleted object
    /// reaches through the inverse of a relationship a derivation reads through, at the save
    /// and as last saved (an employee moved from one department to another changes both
    /// counts). A value that comes out the same leaves its object unchanged. Derived attributes
    /// a store keeps itself (triggers of a store Apple's framework made) are left to it.
    /// Undo does not record these writes: undoing a change recomputes at the next save.
    func deriveAttributes(coordinator: NSPersistentStoreCoordinator) {
        guard let derivations = coordinator.managedObjectModel.derivations else { return }
        let maintained = coordinator.derivedAttributesMaintainedByStores
        var owners = ManagedObjectSet()
        for object in state.inserted where !state.deleted.contains(object) { owners.insert(object) }
        for object in state.updated where !state.deleted.contains(object) { owners.insert(object) }
        // The objects whose values read through a relationship to a changed object.
        for changed in [state.inserted, state.updated, state.deleted] {
            for object in changed {
                guard let affecting = derivations.byDestination[ObjectIdentifier(object.entity)] else { continue }
                for derivation in affecting {
                    guard let inverse = derivation.relationship?.inverseRelationship else { continue }
                    for owner in Self.objects(object.value(forKey: inverse.name)) { owners.insert(owner) }
                    for owner in Self.objects(object.committedValues(forKeys: [inverse.name])[inverse.name]) { owners.insert(owner) }
                }
            }
        }
        guard !owners.isEmpty else { return }
        undoManager?.disableUndoRegistration()
        defer { undoManager?.enableUndoRegistration() }
        for owner in owners where !owner.isDeleted && owner.managedObjectContext === self {
            guard let own = derivations.byEntity[ObjectIdentifier(owner.entity)] else { continue }
            for derivation in own where !maintained.contains("\(derivation.attribute.entity.name ?? "").\(derivation.attribute.name)") {
                let value = derivation.expression.expressionValue(with: owner, context: nil)
                let slot = derivation.attribute.slotIndex
                let typed = (value as? NSNumber).flatMap { derivation.attribute.attributeType.number($0) } ?? value
                let stored = StoredValue(typed, for: derivation.attribute)
                if !stored.isSame(as: owner.readStored(slot)) { owner.writeAttribute(stored: stored, slot: slot) }
            }
        }
    }

    /// The managed objects of a relationship's value: one, a set, an ordered set or an array.
    private static func objects(_ value: Any?) -> [NSManagedObject] {
        switch value {
        case let object as NSManagedObject: return [object]
        case let objects as Set<NSManagedObject>: return Array(objects)
        case let objects as [NSManagedObject]: return objects
        case let collection as NSOrderedSet: return collection.array.compactMap { $0 as? NSManagedObject }
        case let collection as NSSet: return collection.allObjects.compactMap { $0 as? NSManagedObject }
        default: return []
        }
    }
}
