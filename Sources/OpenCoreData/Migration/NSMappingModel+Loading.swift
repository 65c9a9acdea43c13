import Foundation

extension NSMappingModel {
    /// The mapping model in a file Xcode wrote, or nil when it can't be read (Apple's
    /// signature; ``load(contentsOf:)`` throws the reason instead).
    ///
    /// ```swift
    /// let mapping = NSMappingModel(contentsOf: URL(fileURLWithPath: "Mappings/V2toV3.cdm"))!
    /// mapping.entityMappingsByName["CarToCar"]?.entityMigrationPolicyClassName  // "App.MakerPolicy"
    /// ```
    public convenience init?(contentsOf url: URL?) {
        guard let url, let loaded = try? NSMappingModel.load(contentsOf: url) else { return nil }
        self.init(entityMappings: loaded.entityMappings)
    }

    /// Loads a mapping model: a compiled `.cdm` (what Xcode puts in an app bundle), or an
    /// `.xcmappingmodel` document (the folder, or its `xcmapping.xml`). Throws
    /// `NSMigrationMissingMappingModelError` (134140) for a missing file and `NSMigrationError`
    /// (134110) for one that is not a mapping model. An OpenCoreData addition.
    ///
    /// ```swift
    /// let mapping = try NSMappingModel.load(contentsOf: URL(fileURLWithPath: "V2toV3.xcmappingmodel"))
    /// ```
    ///
    /// An `.xcmappingmodel` lists the expressions Xcode generates at compile time ("Auto
    /// Generate Value Expressions") only as a flag. The loader derives them — as the compiler
    /// does — from the two models, found through the document's model paths beside it (the
    /// `.xcdatamodeld` in a folder above the mapping model); when they aren't there,
    /// ``NSMigrationManager`` derives them from its own models before migrating.
    public static func load(contentsOf url: URL) throws -> NSMappingModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CoreDataError.make(NSMigrationMissingMappingModelError, "There is no mapping model at \(url.path).", [NSFilePathErrorKey: url.path])
        }
        let file = isDirectory.boolValue ? url.appendingPathComponent("xcmapping.xml") : url
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw CoreDataError.make(NSMigrationMissingMappingModelError, "Can't read the mapping model at \(file.path): \(error.localizedDescription)", [NSFilePathErrorKey: file.path, NSUnderlyingErrorKey: error])
        }
        if let archive = KeyedArchiveObjects(data) {
            return try CompiledMappingModelReader(archive: archive, url: file).read()
        }
        return try XcodeMappingModelReader(url: file).read(data)
    }
}

/// Reads a compiled mapping model (`.cdm`): an `NSKeyedArchiver` archive of `NSMappingModel`,
/// `NSEntityMapping` and `NSPropertyMapping` objects, walked as a property list.
struct CompiledMappingModelReader {
    let archive: KeyedArchiveObjects
    let url: URL

    func read() throws -> NSMappingModel {
        guard let root = archive.dict(archive.top["root"]), archive.className(of: root) == "NSMappingModel" else {
            throw CoreDataError.make(NSMigrationError, "\(url.path) is a keyed archive but not a compiled mapping model (its root is not an NSMappingModel).", [NSFilePathErrorKey: url.path])
        }
        let decoder = ArchivedExpressionDecoder(archive)
        var mappings: [NSEntityMapping] = []
        for value in archive.array(root["NSEntityMappings"]) {
            guard let object = archive.dict(value), let name = archive.string(object["NSMappingName"]) else {
                throw CoreDataError.make(NSMigrationError, "An entity mapping in \(url.path) has no name; the file is damaged.", [NSFilePathErrorKey: url.path])
            }
            let type = archive.int(object["NSMappingType"]).flatMap { NSEntityMappingType(rawValue: UInt($0)) } ?? .undefinedEntityMappingType
            let mapping = NSEntityMapping(name: name, mappingType: type,
                                          sourceEntityName: archive.string(object["NSSourceEntityName"]),
                                          destinationEntityName: archive.string(object["NSDestinationEntityName"]))
            mapping.sourceEntityVersionHash = archive.data(object["NSSourceEntityVersionHash"])
            mapping.destinationEntityVersionHash = archive.data(object["NSDestinationEntityVersionHash"])
            mapping.entityMigrationPolicyClassName = archive.string(object["NSEntityMigrationPolicyClassName"])
            mapping.userInfo = userInfo(object["NSUserInfo"])
            mapping.sourceExpression = try decoder.expression(object["NSSourceExpression"])
            mapping.attributeMappings = try propertyMappings(object["NSAttributeMappings"], decoder)
            mapping.relationshipMappings = try propertyMappings(object["NSRelationshipMappings"], decoder)
            mappings.append(mapping)
        }
        return NSMappingModel(entityMappings: mappings)
    }

    private func propertyMappings(_ value: Any?, _ decoder: ArchivedExpressionDecoder) throws -> [NSPropertyMapping] {
        try archive.array(value).compactMap { item in
            guard let object = archive.dict(item) else { return nil }
            let mapping = NSPropertyMapping()
            mapping.name = archive.string(object["NSDestinationPropertyName"])
            mapping.valueExpression = try decoder.expression(object["NSValueExpression"])
            mapping.userInfo = userInfo(object["NSUserInfo"])
            return mapping
        }
    }

    private func userInfo(_ value: Any?) -> [AnyHashable: Any]? {
        let entries = archive.pairs(value)
        guard !entries.isEmpty else { return nil }
        var result: [AnyHashable: Any] = [:]
        for (key, value) in entries { result[key] = archive.plainValue(value) }
        return result
    }
}
