import Foundation

extension NSMappingModel {
    /// Fills in the value expressions an `.xcmappingmodel` leaves to "Auto Generate Value
    /// Expressions", the way Xcode's mapping model compiler writes them into a `.cdm`:
    ///
    /// - an attribute the source entity also has: `$source.<name>`;
    /// - a relationship the source entity also has:
    ///   `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", $source.<name>)`
    ///   when exactly one entity mapping migrates the relationship's source destination entity
    ///   into its destination entity and that entity has no subentities; otherwise (instances
    ///   may come from several mappings)
    ///   `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "<name>", $source.<name>)`;
    /// - anything else (a new property, an added entity): no expression; the property keeps its
    ///   default value.
    ///
    /// Mappings that already have an expression are left alone, so calling this again is harmless.
    func generateValueExpressions(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        let sources = sourceModel.entitiesByName
        for mapping in entityMappings {
            guard let sourceName = mapping.sourceEntityName, let source = sources[sourceName] else { continue }
            let sourceProperties = source.propertiesByName
            for property in mapping.attributeMappings ?? [] where property.generatesValueExpression && property.valueExpression == nil {
                guard let name = property.name, sourceProperties[name] is NSAttributeDescription else { continue }
                property.valueExpression = Self.sourceKeyPath(name)
            }
            for property in mapping.relationshipMappings ?? [] where property.generatesValueExpression && property.valueExpression == nil {
                guard let name = property.name, let relationship = sourceProperties[name] as? NSRelationshipDescription,
                      let target = relationship.destinationEntity?.name else { continue }
                let destinationTarget = (destinationModel.entitiesByName[mapping.destinationEntityName ?? ""]?
                    .propertiesByName[name] as? NSRelationshipDescription)?.destinationEntity?.name
                let candidates = entityMappings.filter { $0.sourceEntityName == target && $0.destinationEntityName == destinationTarget }
                let manager = NSExpression(forVariable: "manager")
                if candidates.count == 1, relationship.destinationEntity?.subentities.isEmpty == true {
                    property.valueExpression = NSExpression(forFunction: manager, selectorName: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                                                            arguments: [NSExpression(forConstantValue: candidates[0].name), Self.sourceKeyPath(name)])
                } else {
                    property.valueExpression = NSExpression(forFunction: manager, selectorName: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
                                                            arguments: [NSExpression(forConstantValue: name), Self.sourceKeyPath(name)])
                }
            }
        }
    }

    /// `$source.<name>`.
    private static func sourceKeyPath(_ name: String) -> NSExpression {
        NSExpression(node: .keyPath(operand: NSExpression(forVariable: "source"), components: [name]))
    }
}
