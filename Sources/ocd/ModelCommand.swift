import OCDCommands
import OpenCoreData

/// `ocd model <path> [--version-info <momd>] [--module <name>]`: loads an Xcode model and prints
/// its entities, properties, configurations, fetch request templates, what the loader could not
/// carry over (warnings) and the model's problems, in plain text.
///
/// ```
/// $ ocd model Recipes.xcdatamodeld
/// Model Recipes.xcdatamodeld (version "Recipes")
/// Entities (4)
///   Image  class NSManagedObject
///     image            Transformable  optional  transformer ImageToDataTransformer
///     recipe           → Recipe  to-one  inverse recipe.image  delete Nullify
/// ...
/// ```
enum ModelCommand {
    static let usage = "usage: ocd model <path to .momd, .mom, .xcdatamodeld, .xcdatamodel or contents> [--version-info <.momd>] [--module <name>]"

    /// Returns the exit status: 0 when loaded (even with problems, which are printed), 1 when
    /// the path holds no readable model, 2 for wrong arguments.
    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var versionInfo: String?
        var module: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--version-info": versionInfo = rest.popFirst()
            case "--module": module = rest.popFirst()
            default:
                if path != nil || argument.hasPrefix("--") {
                    printError("ocd model: unexpected argument '\(argument)'\n\(usage)")
                    return 2
                }
                path = argument
            }
        }
        guard let path else {
            printError(usage)
            return 2
        }
        let model: NSManagedObjectModel
        do {
            model = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: path),
                                                  versionInfo: versionInfo.map { URL(fileURLWithPath: $0) },
                                                  moduleName: module)
        } catch {
            printError("ocd model: cannot load '\(path)': \(error.localizedDescription)")
            return 1
        }
        print(describe(model, path: path), terminator: "")
        return 0
    }

    /// The whole report for `model`.
    static func describe(_ model: NSManagedObjectModel, path: String) -> String {
        var out = "Model \(path)"
        var header: [String] = []
        if let version = model.xcodeVersionName { header.append("version \"\(version)\"") }
        if !model.versionIdentifiers.isEmpty { header.append("identifiers \(model.versionIdentifiers.map { "\($0)" }.sorted())") }
        if let hashes = model.appleEntityVersionHashesByName { header.append("Apple version hashes for \(hashes.count) entities") }
        out += header.isEmpty ? "\n" : " (\(header.joined(separator: ", ")))\n"

        let entities = model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }
        out += "\nEntities (\(entities.count))\n"
        for entity in entities { out += describe(entity, appleHash: model.appleEntityVersionHashesByName?[entity.name ?? ""]) }

        out += "\nConfigurations (\(model.configurations.count))\n"
        for name in model.configurations {
            let members = (model.entities(forConfigurationName: name) ?? []).compactMap(\.name).sorted()
            out += "  \(name): \(members.isEmpty ? "(no entities)" : members.joined(separator: ", "))\n"
        }

        let templates = model.fetchRequestTemplatesByName.sorted { $0.key < $1.key }
        out += "\nFetch request templates (\(templates.count))\n"
        for (name, request) in templates { out += "  \(name): \(describe(request))\n" }

        out += "\nWarnings (\(model.loadingWarnings.count))\n"
        for warning in model.loadingWarnings { out += "  - \(warning)\n" }

        let problems = model.validationProblems()
        out += "\nProblems (\(problems.count))\n"
        for problem in problems { out += "  - \(problem)\n" }
        return out
    }

    static func describe(_ entity: NSEntityDescription, appleHash: Data?) -> String {
        var line = "  \(entity.name ?? "(unnamed)")"
        if let parent = entity.superentity?.name { line += " : \(parent)" }
        if entity.isAbstract { line += "  abstract" }
        if let written = entity.representedClassName {
            line += "  class NSManagedObject (model names '\(written)', not in this program)"
        } else {
            line += "  class \(entity.managedObjectClassName ?? "NSManagedObject")"
        }
        if let renamed = entity.renamingIdentifier { line += "  renaming id '\(renamed)'" }
        if let modifier = entity.versionHashModifier { line += "  hash modifier '\(modifier)'" }
        if let appleHash { line += "  Apple hash \(appleHash.prefix(4).map { String(format: "%02x", $0) }.joined())…" }
        var out = line + "\n"
        if !entity.subentities.isEmpty {
            out += "    subentities: \(entity.subentities.compactMap(\.name).sorted().joined(separator: ", "))\n"
        }
        for property in entity.properties { out += "    " + describe(property) + "\n" }
        if !entity.uniquenessConstraints.isEmpty {
            out += "    unique: " + entity.uniquenessConstraints.map { "(" + $0.map { "\($0)" }.joined(separator: ", ") + ")" }.joined(separator: " ") + "\n"
        }
        for index in entity.indexes {
            out += "    index \(index.name): " + index.elements.map(\.description).joined(separator: ", ") + "\n"
        }
        for compound in entity.compoundIndexes {
            out += "    compound index: (" + compound.map { "\($0)" }.joined(separator: ", ") + ")\n"
        }
        if let info = entity.userInfo, !info.isEmpty { out += "    userInfo: \(describe(info))\n" }
        return out
    }

    static func describe(_ property: NSPropertyDescription) -> String {
        var parts: [String] = [property.name.padding(toLength: max(16, property.name.count), withPad: " ", startingAt: 0)]
        switch property {
        case let r as NSRelationshipDescription:
            parts.append("→ \(r.destinationEntity?.name ?? "(missing)")")
            parts.append(r.isToMany ? (r.isOrdered ? "to-many ordered" : "to-many") : "to-one")
            if r.minCount > 0 || (r.isToMany && r.maxCount > 0) { parts.append("count \(r.minCount)…\(r.maxCount == 0 ? "∞" : "\(r.maxCount)")") }
            parts.append(r.inverseRelationship.map { "inverse \($0.entity?.name ?? "?").\($0.name)" } ?? "no inverse")
            parts.append("delete \(deleteRuleName(r.deleteRule))")
        case let f as NSFetchedPropertyDescription:
            parts.append("fetched: \(f.fetchRequest.map(describe) ?? "(no request)")")
        case let a as NSAttributeDescription:
            parts.append(typeName(a))
            if let derived = a as? NSDerivedAttributeDescription {
                parts.append("derived from \(derived.derivationExpression.map { "\($0)" } ?? "?")")
            }
            if let composite = a as? NSCompositeAttributeDescription {
                parts.append("{" + composite.elements.map { "\($0.name): \(typeName($0))" }.joined(separator: ", ") + "}")
            }
            if let value = a.defaultValue { parts.append("default \(value)") }
            if let transformer = a.valueTransformerName { parts.append("transformer \(transformer)") }
            if a.attributeType == .transformableAttributeType, let className = a.attributeValueClassName { parts.append("value class \(className)") }
            if a.allowsExternalBinaryDataStorage { parts.append("external storage") }
            if a.preservesValueInHistoryOnDeletion { parts.append("preserved after deletion") }
        default:
            break
        }
        if property.isOptional { parts.append("optional") }
        if property.isTransient { parts.append("transient") }
        if property.isIndexed { parts.append("indexed") }
        if !property.validationPredicates.isEmpty {
            parts.append("valid if " + property.validationPredicates.map(\.predicateFormat).joined(separator: " AND "))
        }
        if let renamed = property.renamingIdentifier { parts.append("renaming id '\(renamed)'") }
        if let modifier = property.versionHashModifier { parts.append("hash modifier '\(modifier)'") }
        if let info = property.userInfo, !info.isEmpty { parts.append("userInfo \(describe(info))") }
        return parts.joined(separator: "  ")
    }

    static func describe(_ request: NSFetchRequest<NSFetchRequestResult>) -> String {
        var text = request.entityName ?? "(no entity)"
        if let predicate = request.predicate { text += " where \(predicate.predicateFormat)" }
        if request.fetchLimit > 0 { text += ", limit \(request.fetchLimit)" }
        if request.fetchBatchSize > 0 { text += ", batch \(request.fetchBatchSize)" }
        if request.returnsDistinctResults { text += ", distinct" }
        return text
    }

    static func describe(_ info: [AnyHashable: Any]) -> String {
        "{" + info.map { ("\($0.key)", "\($0.value)") }.sorted { $0.0 < $1.0 }.map { "\($0.0) = \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func typeName(_ attribute: NSAttributeDescription) -> String {
        switch attribute.attributeType {
        case .undefinedAttributeType: return "Undefined"
        case .integer16AttributeType: return "Integer 16"
        case .integer32AttributeType: return "Integer 32"
        case .integer64AttributeType: return "Integer 64"
        case .decimalAttributeType: return "Decimal"
        case .doubleAttributeType: return "Double"
        case .floatAttributeType: return "Float"
        case .stringAttributeType: return "String"
        case .booleanAttributeType: return "Boolean"
        case .dateAttributeType: return "Date"
        case .binaryDataAttributeType: return "Binary"
        case .UUIDAttributeType: return "UUID"
        case .URIAttributeType: return "URI"
        case .transformableAttributeType: return "Transformable"
        case .objectIDAttributeType: return "Object ID"
        case .compositeAttributeType: return "Composite"
        }
    }

    static func deleteRuleName(_ rule: NSDeleteRule) -> String {
        switch rule {
        case .noActionDeleteRule: return "No Action"
        case .nullifyDeleteRule: return "Nullify"
        case .cascadeDeleteRule: return "Cascade"
        case .denyDeleteRule: return "Deny"
        }
    }

    static func printError(_ text: String) { printToolError(text) }
}
