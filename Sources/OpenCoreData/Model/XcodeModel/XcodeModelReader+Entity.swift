import Foundation

extension XcodeModelReader {
    /// An `<entity>`: its own fields, properties, indexes and constraints. Inheritance and
    /// relationship targets are wired by name later, when every entity exists.
    func readEntity(_ element: XcodeXMLElement) -> NSEntityDescription {
        let entity = NSEntityDescription()
        let name = element.string("name") ?? ""
        entity.name = name
        entity.isAbstract = element.bool("isAbstract")
        entity.versionHashModifier = element.string("versionHashModifier")
        entity.renamingIdentifier = element.string("elementID")
        entity.userInfo = element.userInfoEntries
        if let warning = XcodeClassName.apply(element.string("representedClassName"), to: entity, moduleName: moduleName) { warn(warning) }

        var properties: [NSPropertyDescription] = []
        for child in element.children {
            switch child.name {
            case "attribute": properties.append(readAttribute(child, entityName: name))
            case "relationship": properties.append(readRelationship(child, entityName: name))
            case "fetchedProperty": if let p = readFetchedProperty(child, entityName: name) { properties.append(p) }
            default: break
            }
        }
        entity.properties = properties

        for list in element.elements(forName: "uniquenessConstraints") {
            for constraint in list.elements(forName: "uniquenessConstraint") {
                let names = constraint.elements(forName: "constraint").compactMap { $0.string("value") }
                if !names.isEmpty { entity.uniquenessConstraints.append(names) }
            }
        }
        for list in element.elements(forName: "compoundIndexes") {
            for index in list.elements(forName: "compoundIndex") {
                let names = index.elements(forName: "index").compactMap { $0.string("value") }
                if !names.isEmpty { entity.compoundIndexes.append(names) }
            }
        }
        entity.indexes = element.elements(forName: "fetchIndex").compactMap { readFetchIndex($0, entityName: name) }
        return entity
    }

    /// A `<fetchIndex name>` with `<fetchIndexElement property|expression type order/>` children.
    func readFetchIndex(_ element: XcodeXMLElement, entityName: String) -> NSFetchIndexDescription? {
        let name = element.string("name") ?? ""
        var elements: [NSFetchIndexElementDescription] = []
        for child in element.elements(forName: "fetchIndexElement") {
            let collation: NSFetchIndexElementDescription.CollationType = child.string("type")?.lowercased() == "rtree" ? .rTree : .binary
            var expression: NSExpression?
            let property = child.string("property")
            if property == nil, let text = child.string("expression") {
                do { expression = try NSExpression(validatingFormat: text, argumentArray: []) } catch {
                    warn("Fetch index '\(entityName).\(name)' has expression '\(text)', which does not parse (\(error.localizedDescription)); the element was left out.")
                    continue
                }
            }
            guard property != nil || expression != nil else { continue }
            let indexElement = NSFetchIndexElementDescription(propertyName: property, expression: expression, collationType: collation)
            indexElement.isAscending = child.string("order")?.lowercased() != "descending"
            elements.append(indexElement)
        }
        return NSFetchIndexDescription(name: name, elements: elements)
    }
}
