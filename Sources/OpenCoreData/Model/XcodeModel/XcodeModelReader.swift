import Foundation

/// Turns the XML of an Xcode model (`Name.xcdatamodel/contents`) into an
/// `NSManagedObjectModel`: entities first, then inheritance, relationships and fetch requests by
/// name once every entity exists.
///
/// The format is undocumented (see `shared/docs/xcdatamodel-format.md`), so the reader is
/// lenient: unknown elements and attributes are ignored, and anything it reads but cannot carry
/// into the model (a predicate that does not parse, an unknown attribute type, a class this
/// program lacks) becomes a sentence in ``warnings`` rather than an error. Only input that is not
/// an Xcode model at all throws.
final class XcodeModelReader {
    /// The file being read, for error messages.
    let url: URL
    /// Module that unqualified class names (`representedClassName="Car"`) belong to.
    let moduleName: String?
    private(set) var warnings: [String] = []

    /// `<composite name>` definitions, for attributes of type Composite.
    var compositesByName: [String: XcodeXMLElement] = [:]
    /// Fetch requests whose entity is resolved once all entities exist.
    var pendingRequestEntities = PendingRequestEntities()
    /// Relationships with their written `inverseEntity`, checked once all entities exist.
    var inverseEntityNames: [(relationship: NSRelationshipDescription, inverseEntity: String, label: String)] = []

    init(url: URL, moduleName: String?) {
        self.url = url
        self.moduleName = moduleName
    }

    func warn(_ sentence: String) { warnings.append(sentence) }

    /// Fills the empty `model` from `data`, the XML of a `contents` file.
    func read(_ data: Data, into model: NSManagedObjectModel) throws {
        let root: XcodeXMLElement
        do {
            root = try XcodeXMLParser.parse(data)
        } catch {
            throw XcodeModelError.corrupt(url, "'\(url.path)' is not well-formed XML (\(error)). An Xcode model's 'contents' is XML written by Xcode; restore it from version control or save the model again in Xcode.", underlying: error)
        }
        guard root.name == "model" else {
            throw XcodeModelError.corrupt(url, "'\(url.path)' is XML but not an Xcode data model: its root is <\(root.name)>, not <model>. Pass the 'contents' file of a .xcdatamodel folder.")
        }

        for composite in root.elements(forName: "composite") {
            if let name = composite.string("name") { compositesByName[name] = composite }
        }

        var parentNames: [(entity: NSEntityDescription, parent: String)] = []
        var entities: [NSEntityDescription] = []
        for element in root.elements(forName: "entity") {
            let entity = readEntity(element)
            entities.append(entity)
            if let parent = element.string("parentEntity") { parentNames.append((entity, parent)) }
        }
        model.entities = entities
        connectInheritance(parentNames, in: model)
        model.resolveReferences()
        checkRelationshipTargets(in: model)

        for element in root.elements(forName: "fetchRequest") {
            guard let name = element.string("name") else {
                warn("A model-level fetch request has no name; it was left out. Name it in Xcode.")
                continue
            }
            if let request = readFetchRequest(element, owner: "fetch request template '\(name)'") {
                model.setFetchRequestTemplate(request, forName: name)
            }
        }
        warnings += pendingRequestEntities.resolve(in: model)

        for element in root.elements(forName: "configuration") {
            guard let name = element.string("name") else { continue }
            var members: [NSEntityDescription] = []
            for member in element.elements(forName: "memberEntity") {
                guard let entityName = member.string("name") else { continue }
                if let entity = model.entitiesByName[entityName] {
                    members.append(entity)
                } else {
                    warn("Configuration '\(name)' lists entity '\(entityName)', which is not in the model; it was left out of the configuration.")
                }
            }
            model.setEntities(members, forConfigurationName: name)
        }

        if let identifier = root.string("userDefinedModelVersionIdentifier"), !identifier.isEmpty {
            model.versionIdentifiers = [identifier]
        }
    }

    /// Makes each entity a subentity of its `parentEntity`, refusing unknown parents and cycles
    /// (a cycle would make every walk up the hierarchy loop forever).
    private func connectInheritance(_ parentNames: [(entity: NSEntityDescription, parent: String)], in model: NSManagedObjectModel) {
        let byName = model.entitiesByName
        for (entity, parentName) in parentNames {
            let name = entity.name ?? "?"
            guard let parent = byName[parentName] else {
                warn("Entity '\(name)' names parent entity '\(parentName)', which is not in the model; it was loaded without a parent.")
                continue
            }
            var ancestor: NSEntityDescription? = parent
            var createsCycle = false
            while let a = ancestor {
                if a === entity { createsCycle = true; break }
                ancestor = a.superentity
            }
            if createsCycle {
                warn("Entity '\(name)' names parent entity '\(parentName)', which makes the inheritance circular; it was loaded without a parent. Fix the parent entities in Xcode.")
                continue
            }
            parent.subentities.append(entity)
        }
    }

    /// `inverseEntity` must be the destination (or related to it by inheritance); Xcode keeps
    /// them in step, so a mismatch means a hand-edited file.
    private func checkRelationshipTargets(in model: NSManagedObjectModel) {
        for entity in model.entities {
            for case let r as NSRelationshipDescription in entity.properties {
                if r.destinationEntity == nil, let destination = r.destinationEntityName {
                    warn("Relationship '\(entity.name ?? "?").\(r.name)' points to entity '\(destination)', which is not in the model.")
                }
            }
        }
        for (relationship, inverseEntity, label) in inverseEntityNames {
            guard let destination = relationship.destinationEntity, destination.name != inverseEntity else { continue }
            warn("Relationship '\(label)' names inverse entity '\(inverseEntity)' but destination '\(destination.name ?? "?")'; the inverse was looked up in the destination. Fix the relationship in Xcode.")
        }
    }
}
