import Foundation

extension NSMappingModel {
    /// The mapping lightweight migration uses between two model versions, or a thrown
    /// `NSInferredMappingModelError` (134190) that names every change it cannot carry data across.
    ///
    /// ```swift
    /// let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
    /// mapping.entityMappings.filter { $0.mappingType == .addEntityMappingType }.map(\.destinationEntityName)
    /// ```
    ///
    /// What is inferred, as in Apple's lightweight migration:
    /// - A destination entity matches the source entity named by its `renamingIdentifier`, else
    ///   the one of the same name; unmatched source entities are removed, unmatched destination
    ///   entities added. An entity's superentity must map to the source's superentity
    ///   (inheritance changes are not lightweight).
    /// - A destination property matches the source property named by its `renamingIdentifier`,
    ///   else the one of the same name. Attributes keep their type (integer sizes may change);
    ///   optionality and default values may change. A new attribute that is not optional needs
    ///   a default value, and a new relationship must be optional.
    /// - Relationships keep their destination (through the entity mapping) and may change
    ///   cardinality: to-one → to-many keeps the member; to-many → to-one keeps it when there is
    ///   at most one (checked against the data during migration).
    /// - Transient properties are not stored and not mapped.
    public class func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) throws -> NSMappingModel {
        var inference = MappingInference(source: sourceModel, destination: destinationModel)
        return try inference.run()
    }
}

/// The work of ``NSMappingModel/inferredMappingModel(forSourceModel:destinationModel:)``:
/// collects every problem before throwing, so one error lists all of them.
private struct MappingInference {
    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel
    var problems: [String] = []
    /// Source entity name by destination entity name.
    var sourceNameOf: [String: String] = [:]

    init(source: NSManagedObjectModel, destination: NSManagedObjectModel) {
        self.source = source
        self.destination = destination
    }

    mutating func run() throws -> NSMappingModel {
        let sourceEntities = source.entitiesByName
        var claimed: Set<String> = []
        // Entity matches first: property mappings of relationships need all of them. Renaming
        // identifiers win over equal names, so a new entity may take a renamed one's old name.
        for byRenamingIdentifier in [true, false] {
            for d in destination.entities {
                guard let dName = d.name, sourceNameOf[dName] == nil else { continue }
                guard let candidate = byRenamingIdentifier ? d.renamingIdentifier : dName else { continue }
                if sourceEntities[candidate] != nil && !claimed.contains(candidate) {
                    sourceNameOf[dName] = candidate
                    claimed.insert(candidate)
                }
            }
        }
        var mappings: [NSEntityMapping] = []
        for s in source.entities {
            guard let sName = s.name else { continue }
            guard let dName = sourceNameOf.first(where: { $0.value == sName })?.key, let d = destination.entitiesByName[dName] else {
                let m = NSEntityMapping(name: "IEM_Remove_\(sName)", mappingType: .removeEntityMappingType, sourceEntityName: sName, destinationEntityName: nil)
                m.sourceEntityVersionHash = s.versionHash
                m.userInfo = Self.propertyChanges(mapped: [], added: [], removed: storedProperties(of: s).map(\.name))
                mappings.append(m)
                continue
            }
            mappings.append(transformMapping(from: s, to: d))
        }
        for d in destination.entities where sourceNameOf[d.name ?? ""] == nil {
            let dName = d.name ?? ""
            let m = NSEntityMapping(name: "IEM_Add_\(dName)", mappingType: .addEntityMappingType, sourceEntityName: nil, destinationEntityName: dName)
            m.destinationEntityVersionHash = d.versionHash
            m.userInfo = Self.propertyChanges(mapped: [], added: storedProperties(of: d).map(\.name), removed: [])
            m.attributeMappings = storedProperties(of: d).compactMap { $0 as? NSAttributeDescription }.map { NSPropertyMapping(name: $0.name, sourceName: nil) }
            m.relationshipMappings = storedProperties(of: d).compactMap { $0 as? NSRelationshipDescription }.map { NSPropertyMapping(name: $0.name, sourceName: nil) }
            mappings.append(m)
        }
        if !problems.isEmpty {
            throw CoreDataError.make(NSInferredMappingModelError,
                "No lightweight migration exists from the source model to the destination model: \(problems.joined(separator: "; ")). Change the new model version so that these are lightweight changes (give new non-optional attributes a default value, set renamingIdentifier to the old name of a renamed entity or property, keep attribute types), or migrate the data yourself.",
                ["problems": problems])
        }
        return NSMappingModel(entityMappings: mappings)
    }

    /// Stored (non-transient, non-fetched) properties, inherited ones first.
    func storedProperties(of entity: NSEntityDescription) -> [NSPropertyDescription] {
        entity.allProperties.filter { !$0.isTransient && !($0 is NSFetchedPropertyDescription) }
    }

    mutating func transformMapping(from s: NSEntityDescription, to d: NSEntityDescription) -> NSEntityMapping {
        let sName = s.name ?? "", dName = d.name ?? ""
        let sameHash = s.versionHash == d.versionHash && sName == dName
        let m = NSEntityMapping(name: "IEM_\(sameHash ? "Copy" : "Transform")_\(dName)", mappingType: sameHash ? .copyEntityMappingType : .transformEntityMappingType,
                                sourceEntityName: sName, destinationEntityName: dName)
        m.sourceEntityVersionHash = s.versionHash
        m.destinationEntityVersionHash = d.versionHash

        if sourceNameOf[d.superentity?.name ?? ""] != s.superentity?.name {
            problems.append("entity '\(dName)' has superentity \(d.superentity?.name.map { "'\($0)'" } ?? "none") but its source '\(sName)' has \(s.superentity?.name.map { "'\($0)'" } ?? "none") (inheritance changes are not lightweight)")
        }

        let sourceProperties = Dictionary(storedProperties(of: s).map { ($0.name, $0) }, uniquingKeysWith: { _, sub in sub })
        var attributes: [NSPropertyMapping] = []
        var relationships: [NSPropertyMapping] = []
        // A source property another property names as its renamingIdentifier belongs to that one.
        let renamedAway = Set(storedProperties(of: d).compactMap { p in p.renamingIdentifier.flatMap { $0 == p.name ? nil : $0 } })
        for p in storedProperties(of: d) {
            let key = "'\(dName).\(p.name)'"
            let match = p.renamingIdentifier.flatMap { sourceProperties[$0] != nil ? $0 : nil }
                ?? (sourceProperties[p.name] != nil && !renamedAway.contains(p.name) ? p.name : nil)
            let old = match.flatMap { sourceProperties[$0] }
            if let a = p as? NSAttributeDescription {
                if let old {
                    guard let oldAttribute = old as? NSAttributeDescription else {
                        problems.append("\(key) is an attribute, but '\(sName).\(old.name)' is a relationship"); continue
                    }
                    if !Self.canCarry(oldAttribute.attributeType, to: a.attributeType) {
                        problems.append("\(key) changed type from \(oldAttribute.attributeType) to \(a.attributeType)")
                    }
                } else if !a.isOptional && a.defaultValue == nil {
                    problems.append("the new attribute \(key) is not optional and has no default value")
                }
                attributes.append(NSPropertyMapping(name: p.name, sourceName: old?.name))
            } else if let r = p as? NSRelationshipDescription {
                if let old {
                    guard let oldRelationship = old as? NSRelationshipDescription else {
                        problems.append("\(key) is a relationship, but '\(sName).\(old.name)' is an attribute"); continue
                    }
                    let oldDestination = oldRelationship.destinationEntity?.name
                    let mapped = r.destinationEntity?.name.flatMap { sourceNameOf[$0] }
                    if mapped != oldDestination {
                        problems.append("\(key) points to '\(r.destinationEntity?.name ?? "?")', which does not map from its old destination '\(oldDestination ?? "?")'")
                    }
                } else if !r.isOptional || r.minCount > 0 {
                    problems.append("the new relationship \(key) is not optional; existing records would have nothing to point to")
                }
                relationships.append(NSPropertyMapping(name: p.name, sourceName: old?.name))
            }
        }
        m.attributeMappings = attributes
        m.relationshipMappings = relationships
        let mapped = (attributes + relationships).filter { $0.sourceName != nil }
        let sourcesUsed = Set(mapped.compactMap(\.sourceName))
        m.userInfo = Self.propertyChanges(mapped: mapped.compactMap(\.name), added: (attributes + relationships).filter { $0.sourceName == nil }.compactMap(\.name),
                                          removed: storedProperties(of: s).map(\.name).filter { !sourcesUsed.contains($0) })
        return m
    }

    /// The `userInfo` Apple's inferred entity mappings carry: the destination properties that
    /// come from a source property (`mappedProperties`), the new ones (`addedProperties`), and
    /// the source properties left behind (`removedProperties`), as sets of names.
    static func propertyChanges(mapped: [String], added: [String], removed: [String]) -> [AnyHashable: Any] {
        ["mappedProperties": Set(mapped), "addedProperties": Set(added), "removedProperties": Set(removed)]
    }

    /// Attribute type changes whose stored values carry over unchanged: integer sizes (the
    /// SQLite column is INTEGER either way; values are not narrowed, so a value too large for a
    /// smaller type keeps its value, as SQLite keeps it) and otherwise the same type.
    static func canCarry(_ old: NSAttributeType, to new: NSAttributeType) -> Bool {
        old == new || (old.isInteger && new.isInteger)
    }
}
