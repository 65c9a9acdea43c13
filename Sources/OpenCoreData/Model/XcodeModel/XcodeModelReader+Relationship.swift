import Foundation

extension XcodeModelReader {
    /// Xcode's `deletionRule` strings.
    static let deleteRules: [String: NSDeleteRule] = [
        "Nullify": .nullifyDeleteRule, "Cascade": .cascadeDeleteRule,
        "Deny": .denyDeleteRule, "No Action": .noActionDeleteRule, "NoAction": .noActionDeleteRule,
    ]

    /// A `<relationship>`. Its destination and inverse are kept by name and connected by
    /// `NSManagedObjectModel.resolveReferences()` once every entity exists.
    func readRelationship(_ element: XcodeXMLElement, entityName: String) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = element.string("name") ?? ""
        let label = "\(entityName).\(relationship.name)"
        readCommonFlags(element, into: relationship)
        relationship.destinationEntityName = element.string("destinationEntity")
        relationship.inverseName = element.string("inverseName")
        if let inverseEntity = element.string("inverseEntity") {
            inverseEntityNames.append((relationship, inverseEntity, label))
        }
        relationship.isOrdered = element.bool("ordered")
        relationship.minCount = element.int("minCount") ?? 0
        // Xcode writes maxCount="1" for to-one and toMany="YES" (with maxCount only when limited)
        // for to-many; Core Data's single notion is maxCount, where 0 means unlimited.
        if element.bool("toMany") {
            let max = element.int("maxCount") ?? 0
            if max == 1 {
                warn("Relationship '\(label)' is to-many with maxCount 1; loaded as to-many without a maximum. Use a to-one relationship if one object is meant.")
            }
            relationship.maxCount = max == 1 ? 0 : max
        } else {
            relationship.maxCount = 1
        }
        if let ruleName = element.string("deletionRule") {
            if let rule = Self.deleteRules[ruleName] {
                relationship.deleteRule = rule
            } else {
                warn("Relationship '\(label)' has deletion rule '\(ruleName)', which Core Data does not know; it uses Nullify.")
            }
        }
        if relationship.destinationEntityName == nil {
            warn("Relationship '\(label)' has no destination entity. Set one in Xcode.")
        }
        return relationship
    }

    /// A `<fetchedProperty>` with its `<fetchRequest>` child. Left out (with a warning) when its
    /// predicate does not parse: evaluating it without the predicate would return the wrong objects.
    func readFetchedProperty(_ element: XcodeXMLElement, entityName: String) -> NSFetchedPropertyDescription? {
        let property = NSFetchedPropertyDescription()
        property.name = element.string("name") ?? ""
        readCommonFlags(element, into: property)
        if let requestElement = element.elements(forName: "fetchRequest").first {
            guard let request = readFetchRequest(requestElement, owner: "fetched property '\(entityName).\(property.name)'") else { return nil }
            property.fetchRequest = request
        } else {
            warn("Fetched property '\(entityName).\(property.name)' has no fetch request; it was left out.")
            return nil
        }
        return property
    }

    /// A `<fetchRequest entity predicateString fetchLimit ...>`, or nil (with a warning) when its
    /// predicate does not parse. Its entity is connected after all entities are read.
    func readFetchRequest(_ element: XcodeXMLElement, owner: String) -> NSFetchRequest<NSFetchRequestResult>? {
        let request = NSFetchRequest<NSFetchRequestResult>()
        if let text = element.string("predicateString"), !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                request.predicate = try NSPredicate(validatingFormat: text, argumentArray: [])
            } catch {
                warn("The \(owner) has predicate '\(text)', which does not parse (\(error.localizedDescription)); it was left out. Fix the predicate in Xcode.")
                return nil
            }
        }
        if let entityName = element.string("entity") {
            request.entityName = entityName
            pendingRequestEntities.add(request, entityName: entityName, owner: owner)
        }
        if let limit = element.int("fetchLimit"), limit >= 0 { request.fetchLimit = limit }
        if let offset = element.int("fetchOffset"), offset >= 0 { request.fetchOffset = offset }
        if let size = element.int("fetchBatchSize"), size >= 0 { request.fetchBatchSize = size }
        if let type = element.int("resultType"), type >= 0 { request.resultType = NSFetchRequestResultType(rawValue: UInt(type)) }
        request.includesSubentities = element.bool("includeSubentities", default: true)
        request.includesPropertyValues = element.bool("includePropertyValues", default: true)
        request.includesPendingChanges = element.bool("includesPendingChanges", default: true)
        request.returnsObjectsAsFaults = element.bool("returnObjectsAsFaults", default: true)
        request.returnsDistinctResults = element.bool("returnDistinctResults")
        return request
    }
}
