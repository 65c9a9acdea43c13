import Foundation

/// Reads the model format of Xcode 3 (`Name.xcdatamodel/elements`): an `NSKeyedArchiver`
/// binary property list of Xcode's own UML classes (`XDPMModel`, `XDPMEntity`,
/// `XDPMAttribute`, `XDPMRelationship`), where Core Data settings live in "stereotypes":
/// dictionaries of keys such as `XD_PAttK_attributeType` (Apple's raw `NSAttributeType`) or
/// `XD_PRK_destination` (a reference to the destination entity).
///
/// Linux has no classes of those names to unarchive into, so the archive is walked as a
/// property list: `$objects` and the UID references between them. Settings this reader does
/// not recognise become ``warnings``; Xcode 4 and later converts such files to the XML
/// `contents` format, which ``XcodeModelReader`` reads in full.
final class LegacyXcodeModelReader {
    let url: URL
    let moduleName: String?
    private(set) var warnings: [String] = []
    private var archive = KeyedArchiveObjects(objects: [], top: [:])

    init(url: URL, moduleName: String?) {
        self.url = url
        self.moduleName = moduleName
    }

    func read(_ data: Data, into model: NSManagedObjectModel) throws {
        let plist: [String: Any]
        do {
            guard let dict = try UntrustedPropertyList.propertyList(from: data) as? [String: Any] else {
                throw XcodeModelError.corrupt(url, "'\(url.path)' is a property list but not a keyed archive. Open the model in Xcode and save it again to convert it to the current format.")
            }
            plist = dict
        } catch where (error as NSError).userInfo[NSFilePathErrorKey] != nil {
            throw error // ours, from the guard above
        } catch {
            throw XcodeModelError.corrupt(url, "'\(url.path)' is not an Xcode 3 model archive (\(error.localizedDescription)). Open the model in Xcode and save it again to convert it to the current format.", underlying: error)
        }
        archive = KeyedArchiveObjects(objects: plist["$objects"] as? [Any] ?? [], top: plist["$top"] as? [String: Any] ?? [:])
        guard let top = plist["$top"] as? [String: Any], let root = archive.dict(top["root"]),
              archive.className(of: root) == "XDPMModel", let package = archive.dict(root["_xd_rootPackage"]) else {
            throw XcodeModelError.corrupt(url, "'\(url.path)' is a keyed archive but not an Xcode 3 data model (no XDPMModel root). Open the model in Xcode and save it again.")
        }

        // Entities first, then references by name (like the XML reader).
        var entities: [NSEntityDescription] = []
        var parents: [(NSEntityDescription, String)] = []
        for (_, value) in archive.pairs(package["XDBucketForClassesstorage"]) {
            guard let object = archive.dict(value), archive.className(of: object) == "XDPMEntity" else { continue }
            let (entity, parent) = readEntity(object)
            entities.append(entity)
            if let parent { parents.append((entity, parent)) }
        }
        model.entities = entities
        let byName = model.entitiesByName
        for (entity, parentName) in parents {
            guard let parent = byName[parentName], !parent.isKindOf(entity: entity) else {
                warnings.append("Entity '\(entity.name ?? "?")' names parent '\(parentName)', which is not in the model or makes the inheritance circular; it was loaded without a parent.")
                continue
            }
            parent.subentities.append(entity)
        }
        model.resolveReferences()

        for (name, value) in archive.pairs(root["_configurationsByName"]) {
            let members = archive.array(value).compactMap { member -> NSEntityDescription? in
                if let entityName = archive.resolve(member) as? String { return byName[entityName] }
                return archive.dict(member).flatMap { archive.string($0["_name"]) }.flatMap { byName[$0] }
            }
            model.setEntities(members, forConfigurationName: name)
        }
        if let identifier = archive.string(root["_modelVersionIdentifier"]), !identifier.isEmpty {
            model.versionIdentifiers = [identifier]
        }
    }

    // MARK: Entities and properties

    private func readEntity(_ object: [String: Any]) -> (NSEntityDescription, parent: String?) {
        let entity = NSEntityDescription()
        let name = archive.string(object["_name"]) ?? ""
        entity.name = name
        let settings = stereotype("XD_PStereotype", of: object)
        entity.isAbstract = archive.bool(settings["XD_PSK_isAbstract"]) ?? archive.bool(object["_isAbstract"]) ?? false
        entity.userInfo = userInfo(settings["XD_PSK_userInfo"])
        entity.versionHashModifier = archive.string(settings["XD_PSK_versionHashModifier"])
        entity.renamingIdentifier = archive.string(settings["XD_PSK_renamingIdentifier"])
        if let warning = XcodeClassName.apply(archive.string(settings["XD_PSK_entityClassName"]), to: entity, moduleName: moduleName) {
            warnings.append(warning)
        }
        if !archive.array(settings["XD_PSK_fetchRequestsArray"]).isEmpty {
            warnings.append("Entity '\(name)' has Xcode 3 fetch requests, which this reader does not convert. Open the model in Xcode and save it again to keep them.")
        }

        var properties: [NSPropertyDescription] = []
        for (_, value) in archive.pairs(object["XDBucketForOwnedAttributesstorage"]) {
            guard let property = archive.dict(value) else { continue }
            switch archive.className(of: property) {
            case "XDPMAttribute": properties.append(readAttribute(property, entityName: name))
            case "XDPMRelationship": properties.append(readRelationship(property))
            default:
                warnings.append("Entity '\(name)' has property '\(archive.string(property["_name"]) ?? "?")' of Xcode 3 kind \(archive.className(of: property) ?? "?"), which this reader does not convert; it was left out.")
            }
        }
        entity.properties = properties
        // Inheritance: a generalization refers to the parent entity.
        let parent = archive.array(object["XDBucketForGeneralizationsstorage"]).lazy.compactMap { self.parentName(in: $0, child: name) }.first
        return (entity, parent)
    }

    /// The name of the entity a generalization element refers to (the element itself, or one of
    /// its fields), other than the child.
    private func parentName(in value: Any, child: String) -> String? {
        guard let object = archive.dict(value) else { return nil }
        if archive.className(of: object) == "XDPMEntity", let name = archive.string(object["_name"]), name != child { return name }
        for (_, field) in object {
            if let target = archive.dict(field), archive.className(of: target) == "XDPMEntity", let name = archive.string(target["_name"]), name != child { return name }
        }
        return nil
    }

    private func readCommon(_ object: [String: Any], into property: NSPropertyDescription) {
        property.name = archive.string(object["_name"]) ?? ""
        let settings = stereotype("XD_PPropStereotype", of: object)
        property.isOptional = archive.bool(settings["XD_PPSK_isOptional"]) ?? true
        property.isTransient = archive.bool(settings["XD_PPSK_isTransient"]) ?? false
        property.isIndexed = archive.bool(settings["XD_PPSK_isIndexed"]) ?? false
        property.isIndexedBySpotlight = archive.bool(settings["XD_PPSK_isSpotlightIndexed"]) ?? false
        property.userInfo = userInfo(settings["XD_PPSK_userInfo"])
        property.versionHashModifier = archive.string(settings["XD_PPSK_versionHashModifier"])
        property.renamingIdentifier = archive.string(settings["XD_PPSK_renamingIdentifier"])
    }

    private func readAttribute(_ object: [String: Any], entityName: String) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        readCommon(object, into: attribute)
        let settings = stereotype("XD_PAtt_Stereotype", of: object)
        let raw = archive.int(settings["XD_PAttK_attributeType"]) ?? 0
        if let type = NSAttributeType(rawValue: UInt(clamping: max(raw, 0))) {
            attribute.attributeType = type
        } else {
            warnings.append("Attribute '\(entityName).\(attribute.name)' has type number \(raw), which Core Data does not know; it was loaded as Undefined.")
        }
        attribute.valueTransformerName = archive.string(settings["XD_PAttK_valueTransformerName"])
        if let text = archive.string(settings["XD_PAttK_defaultValueAsString"]) {
            if let value = XcodeValueParser.value(text, as: attribute.attributeType) {
                attribute.defaultValue = value
            } else {
                warnings.append("Attribute '\(entityName).\(attribute.name)' has default value '\(text)', which is not a valid \(XcodeValueParser.typeName(attribute.attributeType)); it has no default value.")
            }
        }
        return attribute
    }

    private func readRelationship(_ object: [String: Any]) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        readCommon(object, into: relationship)
        let settings = stereotype("XD_PR_Stereotype", of: object)
        relationship.destinationEntityName = archive.dict(settings["XD_PRK_destination"]).flatMap { archive.string($0["_name"]) }
        relationship.inverseName = archive.dict(settings["XD_PRK_inverseRelationship"]).flatMap { archive.string($0["_name"]) }
        relationship.minCount = archive.int(settings["XD_PRK_minCount"]) ?? 0
        if archive.bool(settings["XD_PRK_isToMany"]) == true {
            let max = archive.int(settings["XD_PRK_maxCount"]) ?? 0
            relationship.maxCount = max == 1 ? 0 : max
        } else {
            relationship.maxCount = 1
        }
        relationship.isOrdered = archive.bool(settings["XD_PRK_isOrdered"]) ?? false
        if let raw = archive.int(settings["XD_PRK_deleteRule"]), let rule = NSDeleteRule(rawValue: UInt(clamping: max(raw, 0))) {
            relationship.deleteRule = rule
        }
        return relationship
    }

    // MARK: Walking the archive

    /// A stereotype's settings: key → value (the `_default` of each of its owned attributes).
    private func stereotype(_ name: String, of object: [String: Any]) -> [String: Any] {
        guard let stereo = archive.pairs(object["XDBucketForStereotypesstorage"]).first(where: { $0.0 == name }).flatMap({ archive.dict($0.1) }) else { return [:] }
        var settings: [String: Any] = [:]
        for (key, value) in archive.pairs(stereo["XDBucketForOwnedAttributesstorage"]) {
            if let setting = archive.dict(value), let resolved = archive.resolve(setting["_default"]) { settings[key] = resolved }
        }
        return settings
    }

    private func userInfo(_ value: Any?) -> [AnyHashable: Any]? {
        let entries = archive.pairs(value)
        guard !entries.isEmpty else { return nil }
        var result: [AnyHashable: Any] = [:]
        for (key, value) in entries { result[key] = archive.string(value) ?? archive.resolve(value) }
        return result
    }
}
