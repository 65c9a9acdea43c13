import Foundation

/// Turns an `NSKeyedArchiver` archive of an `NSManagedObjectModel` into our model: the format of
/// a compiled `.mom` file (what Xcode's model compiler writes into a `.momd`) and of the
/// `Z_MODELCACHE` Apple's framework keeps in a SQLite store.
///
/// ```swift
/// var decoder = try ArchivedModelDecoder(data, moduleName: "Recipes")
/// let model = try decoder.makeModel()   // or `try decoder.fill(emptyModel)`
/// decoder.warnings   // what was read but could not be used, one sentence each
/// ```
///
/// The archive is read as a plain property list (``KeyedArchiveObjects``), never through
/// `NSKeyedUnarchiver`: on Linux, a damaged archive whose object fails to decode inside a
/// collection leaves a null reference there, and the first read of it crashes the process.
/// Everything Apple's classes archive is read: entities with inheritance, class names, user
/// info, version hash modifiers and renaming identifiers; attributes of every type with defaults,
/// value classes, transformers, validation predicates and flags; derived and composite
/// attributes; relationships; fetched properties; uniqueness constraints, compound and fetch
/// indexes; configurations; fetch request templates; version identifiers. Object references
/// that go back up the graph (a property's entity, an entity's superentity, a relationship's
/// destination) are never followed: the archive keeps names beside them, and the model is wired
/// by name, so no cycle has to be decoded.
///
/// A structure that is not a model (no entities' names, a relationship without a destination)
/// throws ``Failure``; content that reads but cannot be used (a transformable default of a class
/// this program lacks, a predicate with a custom selector) becomes a sentence in ``warnings``.
struct ArchivedModelDecoder {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let archive: KeyedArchiveObjects
    let root: [String: Any]
    /// Module that unqualified class names (`NSClassNameForEntity` "Car") belong to.
    let moduleName: String?
    private(set) var warnings: [String] = []
    let predicates: ArchivedPredicateDecoder

    init(_ data: Data, moduleName: String?) throws {
        guard let archive = KeyedArchiveObjects(data) else { throw Failure("it is not a keyed archive (a binary or XML property list with $objects and $top)") }
        try self.init(archive, moduleName: moduleName)
    }

    init(_ archive: KeyedArchiveObjects, moduleName: String?) throws {
        guard let root = archive.dict(archive.top["root"]), archive.className(of: root) == "NSManagedObjectModel" else {
            throw Failure("the archive's root is not an NSManagedObjectModel")
        }
        self.archive = archive
        self.root = root
        self.moduleName = moduleName
        predicates = ArchivedPredicateDecoder(archive)
    }

    mutating func warn(_ sentence: String) { warnings.append(sentence) }

    // MARK: The model

    mutating func makeModel() throws -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        try fill(model)
        return model
    }

    /// Fills the empty `model`.
    mutating func fill(_ model: NSManagedObjectModel) throws {
        let archived = entityObjects()
        var entities: [NSEntityDescription] = []
        var byName: [String: NSEntityDescription] = [:]
        for object in archived {
            let entity = try readEntity(object)
            guard byName[entity.name!] == nil else { throw Failure("two entities are named '\(entity.name!)'") }
            byName[entity.name!] = entity
            entities.append(entity)
        }
        try connectInheritance(archived, byName)
        // The archive repeats inherited properties in each subentity; ours declare their own.
        // Whether an ancestor was filtered already doesn't matter: every ancestor is walked.
        for entity in entities {
            var inherited = Set<String>()
            var ancestor = entity.superentity
            while let a = ancestor { inherited.formUnion(a.properties.map(\.name)); ancestor = a.superentity }
            entity.properties = entity.properties.filter { !inherited.contains($0.name) }
        }
        model.entities = entities
        model.resolveReferences()
        try checkRelationships(in: model)
        warnings += pendingRequestEntities.resolve(in: model)

        for (name, value) in archive.pairs(root["NSConfigurations"]) {
            let members = archive.array(value).compactMap { archive.dict($0).flatMap { archive.string($0["NSEntityName"]) } }
            model.setEntities(members.sorted().compactMap { byName[$0] }, forConfigurationName: name)
        }
        for (name, value) in archive.pairs(root["NSFetchRequestTemplates"]) {
            if let request = fetchRequest(value, owner: "fetch request template '\(name)'") { model.setFetchRequestTemplate(request, forName: name) }
        }
        warnings += pendingRequestEntities.resolve(in: model)
        // Xcode compiles an empty "Identifier" field as "": no identifier, as the source reads.
        model.versionIdentifiers = Set(archive.array(root["NSVersionIdentifiers"]).compactMap { archive.plainValue($0) as? AnyHashable }.filter { $0 != AnyHashable("") })
    }

    /// `NSEntities`: an `NSKnownKeysDictionary1` (its entities are the array under "values") or
    /// a plain dictionary.
    private func entityObjects() -> [[String: Any]] {
        guard let container = archive.dict(root["NSEntities"]) else { return [] }
        let values = container["values"] != nil ? archive.array(container["values"]) : archive.pairs(root["NSEntities"]).map(\.1)
        return values.compactMap { archive.dict($0) }.filter { archive.className(of: $0) == "NSEntityDescription" }
    }

    /// Each entity's subentities by name (`NSSubentities`), refusing names not in the model,
    /// a second parent and cycles (a cycle would make every walk up the hierarchy loop forever).
    private func connectInheritance(_ archived: [[String: Any]], _ byName: [String: NSEntityDescription]) throws {
        var parentOf: [String: String] = [:]
        for object in archived {
            let name = archive.string(object["NSEntityName"]) ?? ""
            for (subName, _) in archive.pairs(object["NSSubentities"]).sorted(by: { $0.0 < $1.0 }) {
                guard byName[subName] != nil else { throw Failure("entity '\(name)' lists subentity '\(subName)', which the model lacks") }
                if let other = parentOf[subName], other != name { throw Failure("entity '\(subName)' is a subentity of both '\(other)' and '\(name)'") }
                parentOf[subName] = name
            }
        }
        for start in parentOf.keys {
            var seen: Set<String> = [start]
            var current = start
            while let parent = parentOf[current] {
                guard seen.insert(parent).inserted else { throw Failure("the inheritance of entity '\(start)' is circular") }
                current = parent
            }
        }
        for object in archived {
            let name = archive.string(object["NSEntityName"]) ?? ""
            byName[name]!.subentities = archive.pairs(object["NSSubentities"]).map(\.0).sorted().compactMap { byName[$0] }
        }
    }

    /// Every relationship has its destination in the model, and a named inverse exists there.
    private func checkRelationships(in model: NSManagedObjectModel) throws {
        for entity in model.entities {
            for case let r as NSRelationshipDescription in entity.properties {
                let label = "\(entity.name ?? "?").\(r.name)"
                guard r.destinationEntity != nil else {
                    throw Failure("relationship \(label) names destination '\(r.destinationEntityName ?? "")', which the model lacks")
                }
                if r.inverseRelationship == nil, let inverse = r.inverseName {
                    throw Failure("relationship \(label) names inverse '\(inverse)', which its destination '\(r.destinationEntity?.name ?? "?")' lacks")
                }
            }
        }
    }

    // MARK: Entities

    private mutating func readEntity(_ object: [String: Any]) throws -> NSEntityDescription {
        guard let name = archive.string(object["NSEntityName"]), !name.isEmpty else { throw Failure("an archived entity has no name") }
        let entity = NSEntityDescription()
        entity.name = name
        entity.isAbstract = archive.bool(object["NSIsAbstract"]) ?? false
        entity.renamingIdentifier = renamingIdentifier(object, name: name)
        entity.versionHashModifier = archive.string(object["NSVersionHashModifier"])
        entity.userInfo = userInfo(object["NSUserInfo"])
        if let warning = XcodeClassName.apply(archive.string(object["NSClassNameForEntity"]), to: entity, moduleName: moduleName) { warn(warning) }

        var properties: [NSPropertyDescription] = []
        var seen = Set<String>()
        for value in propertyObjects(object) {
            guard let property = try readProperty(value, entityName: name) else { continue }
            guard seen.insert(property.name).inserted else { throw Failure("entity '\(name)' has two properties named '\(property.name)'") }
            properties.append(property)
        }
        entity.properties = properties.sorted { $0.name < $1.name }

        entity.uniquenessConstraints = archive.array(object["NSUniqueTuples"]).map { tuple in
            archive.array(tuple).compactMap { propertyName($0) }
        }.filter { !$0.isEmpty }
        // Apple's framework derives `isIndexed` from the fetch indexes (a property is indexed
        // when a fetch index of it alone exists) and, when it archives a model it has used (the
        // Z_MODELCACHE of its stores), adds a fetch index named after each indexed property.
        // Both are read back to what the source says: the mirror index is dropped, and
        // `isIndexed` stays only where no other fetch index made it.
        let indexedNames = Set(properties.filter(\.isIndexed).map(\.name))
        let indexes = archive.array(object["NSFetchIndexDescriptions"]).compactMap { fetchIndex($0, entityName: name) }.filter { index in
            !(index.elements.count == 1 && index.elements[0].propertyName == index.name && indexedNames.contains(index.name))
        }
        let singlyIndexed = Set(indexes.filter { $0.elements.count == 1 }.compactMap(\.elements[0].propertyName))
        for property in properties where property.isIndexed && singlyIndexed.contains(property.name) { property.isIndexed = false }
        entity.indexes = indexes
        // Apple's compiler mirrors each fetch index of several properties as a compound index
        // (the API fetch indexes replaced); the source has only the fetch index, read once.
        let mirrored = Set(entity.indexes.map { $0.elements.compactMap(\.propertyName) }.filter { $0.count > 1 })
        entity.compoundIndexes = archive.array(object["NSCompoundIndexes"]).map { index in
            archive.array(index).compactMap { propertyName($0) }
        }.filter { !$0.isEmpty && !mirrored.contains($0) }
        return entity
    }

    /// `NSProperties`: a dictionary of name → property (plain or known-keys).
    private func propertyObjects(_ entity: [String: Any]) -> [[String: Any]] {
        guard let container = archive.dict(entity["NSProperties"]) else { return [] }
        let values = container["values"] != nil ? archive.array(container["values"]) : archive.pairs(entity["NSProperties"]).map(\.1)
        return values.compactMap { archive.dict($0) }
    }

    /// A name in a constraint or index: a string, or a property description.
    private func propertyName(_ value: Any?) -> String? {
        if let s = archive.string(value) { return s }
        return archive.dict(value).flatMap { archive.string($0["NSPropertyName"]) }
    }

    /// Apple's compiler writes the element's own name when no renaming identifier was set; that
    /// is Apple's default, read as none.
    func renamingIdentifier(_ object: [String: Any], name: String) -> String? {
        let identifier = archive.string(object["NSRenamingIdentifier"])
        return identifier == name ? nil : identifier
    }

    func userInfo(_ value: Any?) -> [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (key, value) in archive.pairs(value) { result[key] = archive.plainValue(value) }
        return result
    }

    /// An `NSFetchIndexDescription`: name, elements (property or expression, collation,
    /// order) and partial-index predicate.
    private mutating func fetchIndex(_ value: Any?, entityName: String) -> NSFetchIndexDescription? {
        guard let object = archive.dict(value) else { return nil }
        let name = archive.string(object["NSIndexName"]) ?? ""
        var elements: [NSFetchIndexElementDescription] = []
        for item in archive.array(object["NSIndexElements"]) {
            guard let element = archive.dict(item) else { continue }
            let rawType = archive.int(element["NSFetchIndexElementType"]) ?? 0
            let collation = NSFetchIndexElementType(rawValue: UInt(max(0, rawType))) ?? .binary
            var expression: NSExpression?
            let property = archive.string(element["NSPropertyName"]) ?? archive.dict(element["NSProperty"]).flatMap { archive.string($0["NSPropertyName"]) }
            if property == nil {
                do { expression = try predicates.expression(element["NSExpression"]) } catch {
                    warn("Fetch index '\(entityName).\(name)' has an element whose expression can't be read (\(error)); the element was left out.")
                    continue
                }
            }
            guard property != nil || expression != nil else { continue }
            let indexElement = NSFetchIndexElementDescription(propertyName: property, expression: expression, collationType: collation)
            indexElement.isAscending = archive.bool(element["NSAscending"]) ?? true
            elements.append(indexElement)
        }
        let index = NSFetchIndexDescription(name: name, elements: elements)
        do { index.partialIndexPredicate = try predicates.predicate(object["NSPartialIndexPredicate"]) } catch {
            warn("Fetch index '\(entityName).\(name)' has a partial-index predicate that can't be read (\(error)); it was left out, so the index covers every row.")
        }
        return index
    }

    // MARK: Fetch requests

    /// Requests whose entity is known by name until every entity exists.
    private var pendingRequestEntities = PendingRequestEntities()

    /// An archived `NSFetchRequest`, or nil (with a warning) when its predicate can't be read:
    /// running it without the predicate would return the wrong objects.
    mutating func fetchRequest(_ value: Any?, owner: String, entityName fallback: String? = nil) -> NSFetchRequest<NSFetchRequestResult>? {
        guard let object = archive.dict(value) else {
            warn("The \(owner) has no fetch request; it was left out.")
            return nil
        }
        let request = NSFetchRequest<NSFetchRequestResult>()
        do {
            request.predicate = try predicates.predicate(object["NSPredicate"])
            request.havingPredicate = try predicates.predicate(object["NSHavingPredicate"])
        } catch {
            warn("The \(owner) has a predicate that can't be read (\(error)); it was left out.")
            return nil
        }
        let sorts = archive.array(object["NSSortDescriptors"]).compactMap { predicates.sortDescriptor($0) }
        if !sorts.isEmpty { request.sortDescriptors = sorts }
        if let entityName = archive.dict(object["NSEntity"]).flatMap({ archive.string($0["NSEntityName"]) }) ?? archive.string(object["NSEntityName"]) ?? fallback {
            request.entityName = entityName
            pendingRequestEntities.add(request, entityName: entityName, owner: owner)
        }
        if let limit = archive.int(object["NSFetchLimit"]), limit >= 0 { request.fetchLimit = limit }
        if let offset = archive.int(object["NSFetchOffset"]), offset >= 0 { request.fetchOffset = offset }
        if let size = archive.int(object["NSBatchSize"]), size >= 0 { request.fetchBatchSize = size }
        if let type = archive.int(object["NSResultType"]), type >= 0 { request.resultType = NSFetchRequestResultType(rawValue: UInt(type)) }
        if archive.bool(object["NSHasFetchRequestFlags"]) == true, let flags = archive.int(object["NSFetchRequestFlags"]) {
            let f = ArchivedFetchRequestFlags(rawValue: flags)
            request.returnsDistinctResults = f.contains(.returnsDistinctResults)
            request.includesSubentities = f.contains(.includesSubentities)
            request.includesPropertyValues = f.contains(.includesPropertyValues)
            request.returnsObjectsAsFaults = f.contains(.returnsObjectsAsFaults)
            request.includesPendingChanges = f.contains(.includesPendingChanges)
            request.shouldRefreshRefetchedObjects = f.contains(.shouldRefreshRefetchedObjects)
        }
        let prefetch = archive.array(object["NSRelationshipKeyPathsForPrefetching"]).compactMap { archive.string($0) }
        if !prefetch.isEmpty { request.relationshipKeyPathsForPrefetching = prefetch }
        let toFetch = archive.array(object["NSValuesToFetch"]).compactMap { propertyName($0) }
        if !toFetch.isEmpty { request.propertiesToFetch = toFetch }
        let groupBy = archive.array(object["NSValuesToGroupBy"]).compactMap { propertyName($0) }
        if !groupBy.isEmpty { request.propertiesToGroupBy = groupBy }
        return request
    }
}

/// `NSFetchRequestFlags` of an archived fetch request: its Boolean settings, one bit each.
struct ArchivedFetchRequestFlags: OptionSet {
    let rawValue: Int
    static let returnsDistinctResults = ArchivedFetchRequestFlags(rawValue: 1 << 0)
    static let includesSubentities = ArchivedFetchRequestFlags(rawValue: 1 << 1)
    static let includesPropertyValues = ArchivedFetchRequestFlags(rawValue: 1 << 2)
    static let returnsObjectsAsFaults = ArchivedFetchRequestFlags(rawValue: 1 << 3)
    static let includesPendingChanges = ArchivedFetchRequestFlags(rawValue: 1 << 4)
    static let shouldRefreshRefetchedObjects = ArchivedFetchRequestFlags(rawValue: 1 << 5)
}
