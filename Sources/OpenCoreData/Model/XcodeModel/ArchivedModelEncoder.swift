import Foundation

/// Writes a model as a compiled `.mom`: an `NSKeyedArchiver` archive of Apple's model classes,
/// with the keys and flag bits ``ArchivedModelDecoder`` reads (those Apple's framework reads).
///
/// ```swift
/// let data = try ArchivedModelEncoder(model).archive()
/// try data.write(to: URL(fileURLWithPath: "Model.momd/Model.mom"))
/// ```
///
/// Entities refer to each other (superentity, subentities, destinations, fetch requests) by
/// object references, as Apple's archives do, and also by the names Apple writes beside them,
/// which is what the decoder follows. Each entity archives its own properties, not the
/// inherited ones. What has no archived form (a default value of a type Foundation can't archive,
/// a block predicate) is refused with ``Failure``, naming the element.
struct ArchivedModelEncoder {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    typealias Value = KeyedArchiveWriter.Value
    let model: NSManagedObjectModel
    private let writer = KeyedArchiveWriter()
    private let predicates: ArchivedPredicateEncoder
    private var entitySlots: [String: Value] = [:]

    init(_ model: NSManagedObjectModel) {
        self.model = model
        predicates = ArchivedPredicateEncoder(writer)
    }

    /// The archive, as a binary property list.
    mutating func archive() throws -> Data {
        let root = writer.reserve()
        var slots: [(NSEntityDescription, Int)] = []
        for entity in model.entities {
            guard let name = entity.name, !name.isEmpty else { throw Failure("an entity has no name") }
            let slot = writer.reserve()
            entitySlots[name] = slot.value
            slots.append((entity, slot.index))
        }
        for (entity, slot) in slots { try writeEntity(entity, into: slot, model: root.value) }

        var fields: [String: Value] = [
            "NSEntities": writer.dictionary(model.entities.compactMap { e in e.name.map { ($0, entitySlots[$0]!) } }),
            "NSVersionIdentifiers": writer.array(try model.versionIdentifiers.map { identifier in
                guard let value = writer.plainValue(identifier.base) else { throw Failure("version identifier \(identifier) has no archived form") }
                return value
            }, className: "NSSet"),
        ]
        let configurations = model.configurations
        if !configurations.isEmpty {
            fields["NSConfigurations"] = writer.dictionary(configurations.map { name in
                (name, writer.array((model.entities(forConfigurationName: name) ?? []).compactMap { $0.name.flatMap { entitySlots[$0] } }, className: "NSSet"))
            })
        }
        let templates = model.fetchRequestTemplatesByName
        if !templates.isEmpty {
            fields["NSFetchRequestTemplates"] = writer.dictionary(try templates.keys.sorted().map { name in
                (name, try fetchRequest(templates[name]!, owner: "fetch request template '\(name)'"))
            })
        }
        writer.define(root.index, "NSManagedObjectModel", fields)
        return try writer.archive(root: root.value)
    }

    // MARK: Entities

    private func writeEntity(_ entity: NSEntityDescription, into slot: Int, model: Value) throws {
        let name = entity.name!
        let inherited = Set(entity.superentity.map { Self.allProperties(of: $0).map(\.name) } ?? [])
        var fields: [String: Value] = [
            "NSEntityName": writer.string(name),
            "NSClassNameForEntity": writer.string(entity.representedClassName ?? entity.managedObjectClassName ?? "NSManagedObject"),
            "NSManagedObjectModel": model,
            "NSSuperentity": entity.superentity?.name.flatMap { entitySlots[$0] } ?? writer.null,
            "NSSubentities": writer.dictionary(entity.subentities.compactMap { sub in sub.name.flatMap { n in entitySlots[n].map { (n, $0) } } }),
            "NSProperties": writer.dictionary(try entity.properties.filter { !inherited.contains($0.name) }.map { ($0.name, try property($0, entity: name)) }),
            "NSUserInfo": try userInfo(entity.userInfo, of: "entity '\(name)'"),
            // Apple's compiler writes the entity's own name when no renaming identifier is set.
            "NSRenamingIdentifier": writer.string(entity.renamingIdentifier ?? name),
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = writer.bool(true) }
        if let modifier = entity.versionHashModifier { fields["NSVersionHashModifier"] = writer.string(modifier) }
        if !entity.uniquenessConstraints.isEmpty {
            fields["NSUniqueTuples"] = writer.array(entity.uniquenessConstraints.map { writer.array($0.map { writer.string(Self.name(of: $0)) }) })
        }
        if !entity.compoundIndexes.isEmpty {
            fields["NSCompoundIndexes"] = writer.array(entity.compoundIndexes.map { writer.array($0.map { writer.string(Self.name(of: $0)) }) })
        }
        if !entity.indexes.isEmpty {
            fields["NSFetchIndexDescriptions"] = writer.array(try entity.indexes.map { try fetchIndex($0, entity: name) })
        }
        writer.define(slot, "NSEntityDescription", fields)
    }

    private static func allProperties(of entity: NSEntityDescription) -> [NSPropertyDescription] {
        (entity.superentity.map(allProperties) ?? []) + entity.properties
    }

    /// A name in a constraint or index list: a string, or a property description.
    private static func name(of element: Any) -> String {
        (element as? NSPropertyDescription)?.name ?? "\(element)"
    }

    private func userInfo(_ info: [AnyHashable: Any]?, of owner: String) throws -> Value {
        var pairs: [(String, Value)] = []
        for (key, value) in (info ?? [:]).map({ ("\($0.key)", $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            guard let archived = writer.plainValue(value) else { throw Failure("the user info of \(owner) holds '\(key)' of type \(type(of: value)), which has no archived form") }
            pairs.append((key, archived))
        }
        return writer.dictionary(pairs)
    }

    private func fetchIndex(_ index: NSFetchIndexDescription, entity: String) throws -> Value {
        let elements = try index.elements.map { element -> Value in
            var fields: [String: Value] = ["NSFetchIndexElementType": writer.integer(Int(element.collationType.rawValue)),
                                           "NSAscending": writer.bool(element.isAscending)]
            if let name = element.propertyName {
                fields["NSPropertyName"] = writer.string(name)
            } else if let expression = element.expression {
                fields["NSExpression"] = try archived { try predicates.expression(expression) }
            }
            return writer.object("NSFetchIndexElementDescription", fields)
        }
        var fields: [String: Value] = ["NSIndexName": writer.string(index.name), "NSIndexElements": writer.array(elements), "NSEntity": entitySlots[entity]!]
        if let partial = index.partialIndexPredicate {
            fields["NSPartialIndexPredicate"] = try archived("the partial-index predicate of '\(entity).\(index.name)'") { try predicates.predicate(partial) }
        }
        return writer.object("NSFetchIndexDescription", fields)
    }

    /// Runs an archiving step of the predicate encoder, naming `owner` in its failure.
    private func archived(_ owner: String = "an index element", _ body: () throws -> Value) throws -> Value {
        do { return try body() } catch let failure as ArchivedPredicateDecoder.Failure {
            throw Failure("\(owner) holds \(failure), which can't be compiled")
        }
    }

    // MARK: Properties

    private func property(_ property: NSPropertyDescription, entity: String) throws -> Value {
        let label = "\(entity).\(property.name)"
        var flags: ArchivedPropertyFlags = [ArchivedPropertyFlags(rawValue: 0x1)]
        if property.isOptional { flags.insert(.isOptional) }
        if property.isReadOnly { flags.insert(.isReadOnly) }
        if property.isTransient { flags.insert(.isTransient) }
        if property.isIndexedBySpotlight { flags.insert(.isIndexedBySpotlight) }
        var fields: [String: Value] = ["NSPropertyName": writer.string(property.name), "NSEntity": entitySlots[entity]!,
                                       "NSRenamingIdentifier": writer.string(property.renamingIdentifier ?? property.name)]
        if property.validationPredicates.isEmpty {
            flags.insert(.hasNoValidationPredicates)
        } else {
            fields["NSValidationPredicates"] = writer.array(try property.validationPredicates.map { p in try archived("a validation predicate of '\(label)'") { try predicates.predicate(p) } })
        }
        if property.validationWarnings.isEmpty {
            flags.insert(.hasNoValidationWarnings)
        } else {
            fields["NSValidationWarnings"] = writer.array(property.validationWarnings.map { writer.string($0) })
        }
        if (property.userInfo ?? [:]).isEmpty { flags.insert(.hasNoUserInfo) } else { fields["NSUserInfo"] = try userInfo(property.userInfo, of: "'\(label)'") }
        if let modifier = property.versionHashModifier, !modifier.isEmpty { fields["NSVersionHashModifier"] = writer.string(modifier) } else { flags.insert(.hasNoVersionHashModifier) }
        if property.isIndexed { fields["NSIsIndexed"] = writer.bool(true) }

        let className: String
        switch property {
        case let attribute as NSAttributeDescription:
            className = try attributeFields(attribute, label: label, entity: entity, into: &fields, flags: &flags)
        case let relationship as NSRelationshipDescription:
            className = "NSRelationshipDescription"
            if relationship.isOrdered { flags.insert(.isOrdered) }
            let destination = relationship.destinationEntity?.name ?? relationship.destinationEntityName
            guard let destination else { throw Failure("relationship '\(label)' has no destination entity") }
            fields["_NSDestinationEntityName"] = writer.string(destination)
            fields["NSDestinationEntity"] = entitySlots[destination] ?? writer.null
            fields["_NSInverseRelationshipName"] = (relationship.inverseRelationship?.name ?? relationship.inverseName).map { writer.string($0) } ?? writer.null
            fields["NSMinCount"] = writer.integer(relationship.minCount)
            fields["NSMaxCount"] = writer.integer(relationship.maxCount)
            fields["NSDeleteRule"] = writer.integer(Int(relationship.deleteRule.rawValue))
        case let fetched as NSFetchedPropertyDescription:
            className = "NSFetchedPropertyDescription"
            guard let request = fetched.fetchRequest else { throw Failure("fetched property '\(label)' has no fetch request") }
            fields["NSFetchRequest"] = try fetchRequest(request, owner: "fetched property '\(label)'")
            if let name = request.entity?.name ?? request.entityName { fields["_NSFetchRequestEntityName"] = writer.string(name) }
        default:
            throw Failure("property '\(label)' is a \(type(of: property)), which has no archived form")
        }
        fields["_P"] = writer.integer(flags.rawValue)
        return writer.object(className, superclasses: ["NSPropertyDescription"], fields)
    }

    private func attributeFields(_ attribute: NSAttributeDescription, label: String, entity: String,
                                 into fields: inout [String: Value], flags: inout ArchivedPropertyFlags) throws -> String {
        if attribute.allowsCloudEncryption { flags.insert(.allowsCloudEncryption) }
        fields["NSAttributeType"] = writer.integer(Int(attribute.attributeType.rawValue))
        fields["NSAttributeValueClassName"] = attribute.attributeValueClassName.map { writer.string($0) } ?? writer.null
        fields["NSValueTransformerName"] = attribute.valueTransformerName.map { writer.string($0) } ?? writer.null
        var attributeFlags: ArchivedAttributeFlags = []
        if attribute.allowsExternalBinaryDataStorage { attributeFlags.insert(.allowsExternalBinaryDataStorage) }
        if attribute.preservesValueInHistoryOnDeletion { attributeFlags.insert(.preservesValueInHistoryOnDeletion) }
        fields["NSFlagsKey"] = writer.integer(attributeFlags.rawValue)
        if let value = attribute.defaultValue {
            guard let archived = writer.plainValue(value) else {
                throw Failure("attribute '\(label)' has a default value of type \(type(of: value)), which has no archived form; give it a default Foundation can archive, or none")
            }
            fields["NSDefaultValue"] = archived
        } else {
            fields["NSDefaultValue"] = writer.null
        }
        switch attribute {
        case let derived as NSDerivedAttributeDescription:
            if let expression = derived.derivationExpression {
                fields["NSDerivationExpression"] = try archived("the derivation of '\(label)'") { try predicates.expression(expression) }
            }
            return "NSDerivedAttributeDescription"
        case let composite as NSCompositeAttributeDescription:
            fields["NSCompositeElements"] = writer.array(try composite.elements.map { try property($0, entity: entity) })
            return "NSCompositeAttributeDescription"
        default:
            return "NSAttributeDescription"
        }
    }

    // MARK: Fetch requests

    private func fetchRequest(_ request: NSFetchRequest<NSFetchRequestResult>, owner: String) throws -> Value {
        var fields: [String: Value] = [
            "NSFetchLimit": writer.integer(request.fetchLimit), "NSFetchOffset": writer.integer(request.fetchOffset),
            "NSBatchSize": writer.integer(request.fetchBatchSize), "NSResultType": writer.integer(Int(request.resultType.rawValue)),
            "NSHasFetchRequestFlags": writer.bool(true),
        ]
        var flags: ArchivedFetchRequestFlags = []
        if request.returnsDistinctResults { flags.insert(.returnsDistinctResults) }
        if request.includesSubentities { flags.insert(.includesSubentities) }
        if request.includesPropertyValues { flags.insert(.includesPropertyValues) }
        if request.returnsObjectsAsFaults { flags.insert(.returnsObjectsAsFaults) }
        if request.includesPendingChanges { flags.insert(.includesPendingChanges) }
        if request.shouldRefreshRefetchedObjects { flags.insert(.shouldRefreshRefetchedObjects) }
        fields["NSFetchRequestFlags"] = writer.integer(flags.rawValue)
        if let name = request.entity?.name ?? request.entityName {
            fields["NSEntity"] = entitySlots[name] ?? writer.string(name)
        }
        if let predicate = request.predicate { fields["NSPredicate"] = try archived("the predicate of the \(owner)") { try predicates.predicate(predicate) } }
        if let having = request.havingPredicate { fields["NSHavingPredicate"] = try archived("the having predicate of the \(owner)") { try predicates.predicate(having) } }
        if let sorts = request.sortDescriptors, !sorts.isEmpty {
            fields["NSSortDescriptors"] = writer.array(try sorts.map { s in try archived("a sort descriptor of the \(owner)") { try predicates.sortDescriptor(s) } })
        }
        if let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty {
            fields["NSRelationshipKeyPathsForPrefetching"] = writer.array(keyPaths.map { writer.string($0) })
        }
        if let values = request.propertiesToFetch, !values.isEmpty { fields["NSValuesToFetch"] = writer.array(values.map { writer.string(Self.name(of: $0)) }) }
        if let groups = request.propertiesToGroupBy, !groups.isEmpty { fields["NSValuesToGroupBy"] = writer.array(groups.map { writer.string(Self.name(of: $0)) }) }
        return writer.object("NSFetchRequest", superclasses: ["NSPersistentStoreRequest"], fields)
    }
}
