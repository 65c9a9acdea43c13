import Foundation

/// Reads Xcode's mapping model document, `Name.xcmappingmodel/xcmapping.xml`. The document is a
/// Core Data XML store: `<object type="XDDEVENTITYMAPPING" id="z103">` elements whose
/// `<attribute name="sourcename" type="string">Car</attribute>` children hold the values and
/// whose `<relationship name="attributemappings" idrefs="z114 z113"/>` children point at other
/// objects (`XDDEVATTRIBUTEMAPPING`, `XDDEVRELATIONSHIPMAPPING`, one `XDDEVMAPPINGMODEL`).
///
/// What Xcode's mapping model compiler adds, the reader adds the same way: entity mappings in
/// their `mappingnumber` order, named `<Source>To<Destination>` (or the one entity's name for an
/// added or removed entity), with the mapping type derived when the document says "Undefined"
/// (no source: add; no destination: remove; a migration policy: custom; else copy); the source
/// expression fetching every instance of the source entity; value expressions archived in the
/// document decoded, and the ones left to "autogenerate" derived from the models
/// (``NSMappingModel/generateValueExpressions(sourceModel:destinationModel:)``).
struct XcodeMappingModelReader {
    let url: URL

    private struct Object {
        let type: String
        var values: [String: String] = [:]
        var references: [String: [String]] = [:]
    }

    func read(_ data: Data) throws -> NSMappingModel {
        let root: XcodeXMLElement
        do { root = try XcodeXMLParser.parse(data, storeDocument: true) } catch {
            throw fail("is neither a compiled mapping model nor a readable xcmapping.xml (\(error))")
        }
        guard root.name == "database" else { throw fail("is XML but not an Xcode mapping model document (its root element is <\(root.name)>, not <database>)") }
        var objects: [String: Object] = [:]
        for element in root.elements(forName: "object") {
            guard let id = element.string("id"), let type = element.string("type") else { continue }
            var object = Object(type: type)
            for attribute in element.elements(forName: "attribute") {
                if let name = attribute.string("name") { object.values[name] = attribute.text }
            }
            for relationship in element.elements(forName: "relationship") {
                if let name = relationship.string("name") {
                    object.references[name] = (relationship.string("idrefs") ?? "").split(separator: " ").map(String.init)
                }
            }
            objects[id] = object
        }
        guard let (_, document) = objects.first(where: { $0.value.type == "XDDEVMAPPINGMODEL" }) else {
            throw fail("has no XDDEVMAPPINGMODEL object; it is not an Xcode mapping model document")
        }
        let entityObjects = (document.references["entitymappings"] ?? []).compactMap { objects[$0] }
            .filter { $0.type == "XDDEVENTITYMAPPING" }
            .sorted { Int($0.values["mappingnumber"] ?? "") ?? .max < Int($1.values["mappingnumber"] ?? "") ?? .max }

        var mappings: [NSEntityMapping] = []
        for object in entityObjects {
            let source = object.values["sourcename"].flatMap { $0.isEmpty ? nil : $0 }
            let destination = object.values["destinationname"].flatMap { $0.isEmpty ? nil : $0 }
            let policy = object.values["migrationpolicyclassname"].flatMap { $0.isEmpty ? nil : $0 }
            let name: String
            switch (source, destination) {
            case let (s?, d?): name = "\(s)To\(d)"
            case let (s?, nil): name = s
            case let (nil, d?): name = d
            case (nil, nil): throw fail("has an entity mapping with neither a source nor a destination entity")
            }
            let type: NSEntityMappingType
            switch object.values["mappingtypename"] {
            case "Custom": type = .customEntityMappingType
            case "Add": type = .addEntityMappingType
            case "Remove": type = .removeEntityMappingType
            case "Copy": type = .copyEntityMappingType
            case "Transform": type = .transformEntityMappingType
            default:
                type = source == nil ? .addEntityMappingType : destination == nil ? .removeEntityMappingType
                    : policy != nil ? .customEntityMappingType : .copyEntityMappingType
            }
            let mapping = NSEntityMapping(name: name, mappingType: type, sourceEntityName: source, destinationEntityName: destination)
            mapping.entityMigrationPolicyClassName = policy
            if let source {
                mapping.sourceExpression = NSExpression(forFunction: NSExpression(forVariable: "manager"),
                                                        selectorName: "fetchRequestForSourceEntityNamed:predicateString:",
                                                        arguments: [NSExpression(forConstantValue: source), NSExpression(forConstantValue: "TRUEPREDICATE")])
            }
            let autogenerates = object.values["autogenerateexpression"] == "1"
            func properties(_ key: String) throws -> [NSPropertyMapping] {
                try (object.references[key] ?? []).compactMap { objects[$0] }.map { property in
                    let mapping = NSPropertyMapping()
                    mapping.name = property.values["name"]
                    if let text = property.values["valueexpressiondata"], !text.isEmpty {
                        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                            throw fail("has a value expression of '\(mapping.name ?? "?")' that is not base64 data")
                        }
                        mapping.valueExpression = try ArchivedExpressionDecoder.expression(archivedIn: data)
                    } else {
                        mapping.generatesValueExpression = autogenerates || property.values["autogenerateexpression"] == "1"
                    }
                    return mapping
                }.sorted { ($0.name ?? "") < ($1.name ?? "") }
            }
            mapping.attributeMappings = try properties("attributemappings")
            mapping.relationshipMappings = try properties("relationshipmappings")
            mappings.append(mapping)
        }
        let model = NSMappingModel(entityMappings: mappings)
        if let sourceModel = findModel(document.values["sourcemodelpath"]), let destinationModel = findModel(document.values["destinationmodelpath"]) {
            model.generateValueExpressions(sourceModel: sourceModel, destinationModel: destinationModel)
            // The compiler records the models' hashes; these are OpenCoreData's hashes of the
            // same models, which is what NSMappingModel.isMapping(from:to:) compares them with.
            let sourceHashes = sourceModel.entityVersionHashesByName, destinationHashes = destinationModel.entityVersionHashesByName
            for mapping in mappings {
                mapping.sourceEntityVersionHash = mapping.sourceEntityName.flatMap { sourceHashes[$0] }
                mapping.destinationEntityVersionHash = mapping.destinationEntityName.flatMap { destinationHashes[$0] }
            }
        }
        return model
    }

    /// The model at `path` (relative to the Xcode project, e.g.
    /// `Tests/Model.xcdatamodeld/Model2.xcdatamodel`), looked for under each folder above the
    /// mapping model with ever shorter tails of the path. Nil when not found or unreadable.
    private func findModel(_ path: String?) -> NSManagedObjectModel? {
        guard let path, !path.isEmpty else { return nil }
        let components = path.split(separator: "/").map(String.init)
        var folder = url.deletingLastPathComponent()
        for _ in 0..<8 {
            for start in components.indices {
                let candidate = components[start...].reduce(folder) { $0.appendingPathComponent($1) }
                if FileManager.default.fileExists(atPath: candidate.path), let model = try? NSManagedObjectModel.load(contentsOf: candidate) {
                    return model
                }
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return nil
    }

    private func fail(_ message: String) -> NSError {
        CoreDataError.make(NSMigrationError, "The mapping model at \(url.path) \(message).", [NSFilePathErrorKey: url.path])
    }
}
