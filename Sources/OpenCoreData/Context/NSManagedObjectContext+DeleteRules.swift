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
    func propagateDeletes() {
        while !state.deletesToPropagate.isEmpty {
            let object = state.deletesToPropagate.removeFirst()
            guard object.isDeleted else { continue }
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
}
