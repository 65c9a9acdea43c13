import Foundation

// How the built-in policies merge the objects of a constraint conflict into one (the rules are
// documented on `resolve(constraintConflicts:)`). Runs on the saving context's queue, under
// the coordinator's lock; every change goes through the objects' tracked setters, so the kept
// object is saved like any changed object and relationship inverses stay consistent.

extension NSMergePolicy {
    func apply(_ conflict: NSConstraintConflict) {
        // An earlier conflict of the same save (another constraint) may have merged some of
        // these objects away already.
        let live = conflict.conflictingObjects.filter { $0.managedObjectContext != nil && !$0.isDeleted }
        let survivor: NSManagedObject
        if let database = conflict.databaseObject, database.managedObjectContext != nil, !database.isDeleted {
            survivor = database
        } else if let saved = live.first(where: { !$0.isInserted }) {
            survivor = saved
        } else if let first = live.first {
            survivor = first
        } else {
            return
        }
        guard let context = survivor.managedObjectContext else { return }
        survivor.fireFaultIfNeeded()
        for duplicate in live where duplicate !== survivor && duplicate.managedObjectContext === context {
            merge(duplicate, into: survivor)
            context.delete(duplicate)
        }
    }

    /// Moves `duplicate`'s values and relationships into `survivor` by this policy's rule, then
    /// cuts every relationship `duplicate` still has (so deleting it cascades nowhere).
    private func merge(_ duplicate: NSManagedObject, into survivor: NSManagedObject) {
        duplicate.fireFaultIfNeeded()
        let layout = duplicate.layout
        for i in layout.persistentIndexes {
            let property = layout.properties[i]
            guard let j = survivor.layout.indexByName[property.name] else { continue }
            let theirs = duplicate.readStored(i)
            // What the duplicate "changed": for a new object every property with a value, for a
            // saved one what differs from its last saved state (as `changedValues()`).
            let isNew = duplicate.committed == nil
            let changed = duplicate.committed.map { i < $0.count && !theirs.isSame(as: $0[i]) } ?? !theirs.isEmptyValue
            switch (property, survivor.layout.properties[j]) {
            case (is NSAttributeDescription, is NSAttributeDescription):
                let ours = survivor.readStored(j)
                if takes(changed: changed, isNew: isNew, ours: ours), !theirs.isSame(as: ours) { survivor.writeSlot(j, .value(theirs)) }
            case (let r as NSRelationshipDescription, let s as NSRelationshipDescription) where r.isToMany == s.isToMany:
                if r.isToMany {
                    let members = duplicate.readToMany(i).objects
                    if mergeType != .rollbackMergePolicyType {
                        for member in members where member !== survivor && member !== duplicate { survivor.addToMany(s, slot: j, member) }
                    }
                    for member in duplicate.readToMany(i).objects { duplicate.removeFromToMany(r, slot: i, member) }
                } else {
                    let target = duplicate.readToOne(i)
                    let ours = survivor.readStored(j)
                    if target !== survivor, target !== duplicate, takes(changed: changed, isNew: isNew, ours: ours) {
                        survivor.setToOne(s, slot: j, target)
                    }
                    if duplicate.readToOne(i) != nil { duplicate.setToOne(r, slot: i, nil) }
                }
            default:
                continue
            }
        }
    }

    /// Whether the kept object takes the duplicate's value of a property. A new duplicate's
    /// whole state trumps under object trump, nil included: that is what Apple's policy is
    /// reported to do (custom policies are written to keep stored values the new object lacks).
    private func takes(changed: Bool, isNew: Bool, ours: StoredValue) -> Bool {
        switch mergeType {
        case .overwriteMergePolicyType: return true
        case .mergeByPropertyObjectTrumpMergePolicyType: return isNew || changed
        case .mergeByPropertyStoreTrumpMergePolicyType: return changed && ours.isEmptyValue
        case .rollbackMergePolicyType, .errorMergePolicyType: return false
        }
    }
}
