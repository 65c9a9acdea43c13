import Foundation

/// What a derived attribute's value is computed from, worked out once when the model freezes:
/// the derivations Apple's framework computes.
///
/// ```swift
/// // Department.employeeCount = employees.@count: a change to an employee's department
/// // changes the count of the departments at both ends.
/// let derivation = try Derivation(count, of: department)
/// derivation.relationship?.name   // "employees"; its inverse finds the departments to update
/// ```
///
/// The shapes: a key path of the object (`name`) or through a to-one relationship
/// (`department.name`); an aggregate of a to-many relationship (`employees.@count`,
/// `employees.@sum.salary`, `@avg`, `@max`, `@min`); `now()`; and `lowercase:`, `uppercase:`
/// or `canonical:` of such a key path. A relationship a value reads through needs an inverse:
/// it is how a change at its far end finds the objects whose values it changes.
struct Derivation {
    let attribute: NSDerivedAttributeDescription
    let expression: NSExpression
    /// The relationship the value reads through, if any.
    let relationship: NSRelationshipDescription?

    /// Why `attribute` can't be computed, as a model problem.
    struct Unsupported: Error {
        let problem: String
    }

    init(_ attribute: NSDerivedAttributeDescription, of entity: NSEntityDescription) throws {
        let label = "\(entity.name ?? "?").\(attribute.name)"
        guard let expression = attribute.derivationExpression else {
            throw Unsupported(problem: "Derived attribute '\(label)' has no derivation expression. Set derivationExpression, or make it a plain attribute.")
        }
        func unsupported(_ why: String) -> Unsupported {
            Unsupported(problem: "Derived attribute '\(label)' is derived as '\(expression.description)', which \(why). Use a key path of the object or through a to-one relationship (name, department.name), an aggregate of a to-many relationship (items.@count, items.@sum.price), now(), or lowercase:, uppercase: or canonical: of a key path.")
        }
        /// The relationship of a key path on `entity` that the value reads through.
        func readsThrough(_ components: [String], allowingAggregate: Bool) throws -> NSRelationshipDescription? {
            let properties = entity.propertiesByName
            switch components.count {
            case 1:
                guard properties[components[0]] is NSAttributeDescription else { throw unsupported("does not name an attribute of '\(entity.name ?? "?")'") }
                return nil
            case 2, 3:
                guard let r = properties[components[0]] as? NSRelationshipDescription, let destination = r.destinationEntity else {
                    throw unsupported("does not start with a relationship of '\(entity.name ?? "?")'")
                }
                guard r.inverseRelationship != nil else { throw unsupported("reads through '\(r.name)', which has no inverse relationship") }
                let last = components[components.count - 1]
                if r.isToMany {
                    guard allowingAggregate else { throw unsupported("reads a to-many relationship inside a function") }
                    switch (components[1], components.count) {
                    case ("@count", 2): return r
                    case ("@sum", 3), ("@avg", 3), ("@max", 3), ("@min", 3):
                        guard destination.propertiesByName[last] is NSAttributeDescription else { throw unsupported("aggregates '\(last)', which is not an attribute of '\(destination.name ?? "?")'") }
                        return r
                    default: throw unsupported("reads a to-many relationship without @count, @sum, @avg, @max or @min")
                    }
                }
                guard components.count == 2, destination.propertiesByName[last] is NSAttributeDescription else {
                    throw unsupported("does not end with an attribute of '\(destination.name ?? "?")'")
                }
                return r
            default:
                throw unsupported("reads a key path of more than one relationship")
            }
        }
        switch expression.node {
        case .keyPath(nil, let components):
            relationship = try readsThrough(components, allowingAggregate: true)
        case .function("now", nil, let arguments) where arguments.isEmpty:
            relationship = nil
        case .function(let name, nil, let arguments) where ["lowercase:", "uppercase:", "canonical:"].contains(name) && arguments.count == 1:
            guard case .keyPath(nil, let components) = arguments[0].node else { throw unsupported("applies \(name) to something other than a key path") }
            relationship = try readsThrough(components, allowingAggregate: false)
        default:
            throw unsupported("is not a derivation Core Data computes")
        }
        self.attribute = attribute
        self.expression = expression
    }
}

/// The derivations of a frozen model: each entity's own and inherited, and for each entity the
/// derivations a change to one of its objects affects through a relationship.
struct ModelDerivations {
    /// Entity → the derivations of its objects (inherited ones included).
    let byEntity: [ObjectIdentifier: [Derivation]]
    /// Entity → the derivations that read through a relationship ending at it (or at a
    /// superentity): a change to such an object changes the values of the objects its inverse
    /// relationship reaches.
    let byDestination: [ObjectIdentifier: [Derivation]]

    var isEmpty: Bool { byEntity.isEmpty }

    /// Unsupported derivations are left out: the model's `validationProblems()` names them, and
    /// a coordinator does not add a store for a model with problems.
    init(_ model: NSManagedObjectModel) {
        var own: [ObjectIdentifier: [Derivation]] = [:]
        var parameters: [ObjectIdentifier: [Derivation]] = [:]
        // A model with an inheritance cycle freezes too (the coordinator then refuses it for
        // that problem); every walk up its hierarchy would be endless.
        let hasCycle = model.entities.contains { entity in
            var visited = Set<ObjectIdentifier>()
            var e: NSEntityDescription? = entity
            while let current = e {
                if !visited.insert(ObjectIdentifier(current)).inserted { return true }
                e = current.superentity
            }
            return false
        }
        for entity in model.entities where !hasCycle {
            var inheritedAndOwn: [Derivation] = []
            var e: NSEntityDescription? = entity
            while let current = e {
                for case let attribute as NSDerivedAttributeDescription in current.properties {
                    if let derivation = try? Derivation(attribute, of: current) { inheritedAndOwn.append(derivation) }
                }
                e = current.superentity
            }
            if !inheritedAndOwn.isEmpty { own[ObjectIdentifier(entity)] = inheritedAndOwn }
        }
        for entity in model.entities where !hasCycle {
            for case let attribute as NSDerivedAttributeDescription in entity.properties {
                guard let derivation = try? Derivation(attribute, of: entity), let destination = derivation.relationship?.destinationEntity else { continue }
                for candidate in model.entities where candidate.isKindOf(entity: destination) {
                    parameters[ObjectIdentifier(candidate), default: []].append(derivation)
                }
            }
        }
        byEntity = own
        byDestination = parameters
    }
}
