import Foundation

/// Delete propagation: when the pending changes are processed, each deleted object's
/// relationships apply their delete rules (Nullify, Cascade, Deny at save, No Action),
/// repeatedly, until cascades stop.
///
/// ```swift
/// context.delete(department)          // employees: cascade
/// context.processPendingChanges()     // its employees are deleted too
/// ```
extension NSManagedObjectContext {
    /// Applies each deleted object's delete rules, repeatedly, until cascades stop.
    /// Objects are taken in the order they were deleted, a round at a time: the cascades of one
    /// round (appended by `delete(_:)`) form the next. (Taking them one by one from the front
    /// of the array moved the rest each time: deleting 50,000 objects was quadratic.)
    func propagateDeletes() {
        while !state.deletesToPropagate.isEmpty {
            let round = state.deletesToPropagate
            state.deletesToPropagate = []
            for object in round { applyDeleteRules(of: object) }
        }
    }

    private func applyDeleteRules(of object: NSManagedObject) {
        guard object.isDeleted else { return }
        for i in object.layout.relationshipIndexes {
            guard let r = object.layout.properties[i] as? NSRelationshipDescription else { continue }
            let related: [NSManagedObject] = r.isToMany ? object.readToMany(i).objects : object.readToOne(i).map { [$0] } ?? []
            switch r.deleteRule {
            case .nullifyDeleteRule:
                if let inverse = r.inverseRelationship {
                    for target in related where !target.isDeleted { target.removeMember(object, from: inverse) }
                }
            case .cascadeDeleteRule:
                for target in related where !target.isDeleted { delete(target) }
            case .denyDeleteRule, .noActionDeleteRule:
                // Deny is checked by validateForDelete at save; No Action leaves the
                // related objects pointing at the deleted one, as documented.
                break
            }
        }
    }
}
