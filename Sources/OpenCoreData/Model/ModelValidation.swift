import Foundation

extension NSManagedObjectModel {
    /// The model's problems, one sentence each, naming the entity and property and saying what to
    /// fix. Empty when the model is usable.
    ///
    /// ```swift
    /// for problem in model.validationProblems() { print(problem) }
    /// ```
    public func validationProblems() -> [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for entity in entities {
            guard let name = entity.name, !name.isEmpty else {
                problems.append("An entity has no name. Give every entity a name.")
                continue
            }
            if !seen.insert(name).inserted { problems.append("Two entities are named '\(name)'. Entity names must be unique.") }
            if let sup = entity.superentity, !entities.contains(where: { $0 === sup }) {
                problems.append("Entity '\(name)' inherits from '\(sup.name ?? "?")', which is not in this model. Add it to the model's entities.")
            }
            let className = entity.managedObjectClassName ?? "NSManagedObject"
            if ManagedObjectClassResolver.resolve(className) == nil {
                problems.append("Entity '\(name)' names class '\(className)', which is not an NSManagedObject subclass this program contains. Use \"Module.ClassName\" of a class that inherits from NSManagedObject.")
            }
            var names = Set<String>()
            for p in entity.allProperties where !names.insert(p.name).inserted {
                problems.append("Entity '\(name)' has two properties named '\(p.name)' (possibly one inherited). Rename one.")
            }
            for p in entity.properties {
                if p.name.isEmpty { problems.append("Entity '\(name)' has a property without a name.") }
                if let a = p as? NSAttributeDescription, a.attributeType == .undefinedAttributeType, !a.isTransient {
                    problems.append("Attribute '\(name).\(a.name)' has no type (undefined). Set attributeType, or make it transient.")
                }
                guard let r = p as? NSRelationshipDescription else { continue }
                guard let dest = r.destinationEntity ?? r.destinationEntityName.flatMap({ entitiesByName[$0] }) else {
                    problems.append("Relationship '\(name).\(r.name)' has no destination entity\(r.destinationEntityName.map { " ('\($0)' is not in the model)" } ?? ""). Set destinationEntity.")
                    continue
                }
                if !entities.contains(where: { $0 === dest }) {
                    problems.append("Relationship '\(name).\(r.name)' points to entity '\(dest.name ?? "?")', which is not in this model.")
                }
                if let inv = r.inverseRelationship {
                    if !dest.isKindOf(entity: inv.entity) && !inv.entity.isKindOf(entity: dest) {
                        problems.append("Relationship '\(name).\(r.name)' has inverse '\(inv.entity?.name ?? "?").\(inv.name)', which is not a relationship of its destination '\(dest.name ?? "?")'.")
                    } else if let back = inv.destinationEntity, !entity.isKindOf(entity: back) {
                        problems.append("Relationship '\(name).\(r.name)' has inverse '\(inv.entity?.name ?? "?").\(inv.name)', but that inverse points to '\(back.name ?? "?")', not to '\(name)'. Make the two relationships point at each other.")
                    }
                } else if let invName = r.inverseName {
                    problems.append("Relationship '\(name).\(r.name)' names inverse '\(invName)', which '\(dest.name ?? "?")' does not have.")
                }
                if r.minCount < 0 || r.maxCount < 0 || (r.maxCount > 0 && r.minCount > r.maxCount) {
                    problems.append("Relationship '\(name).\(r.name)' has minCount \(r.minCount) and maxCount \(r.maxCount); need 0 ≤ minCount ≤ maxCount (maxCount 0 = unlimited).")
                }
            }
        }
        return problems
    }

    /// Throws an `NSError` (NSCoreDataError, 134060) listing ``validationProblems()``.
    public func validate() throws {
        let problems = validationProblems()
        guard !problems.isEmpty else { return }
        throw CoreDataError.make(NSCoreDataError, "The managed object model is not valid: " + problems.joined(separator: " "), ["NSValidationProblems": problems])
    }
}
