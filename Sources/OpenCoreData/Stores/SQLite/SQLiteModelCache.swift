import CZlib
import Foundation

/// The model Apple's framework caches in a store's `Z_MODELCACHE` table (framework version
/// 1044 and later): one BLOB, raw DEFLATE (no zlib header) of an `NSKeyedArchiver` binary
/// property list of the `NSManagedObjectModel`.
///
/// ```swift
/// let blob = try db.query("SELECT Z_CONTENT FROM Z_MODELCACHE") { $0.blob(at: 0) }.first!!
/// let model = try SQLiteModelCache.model(from: blob)   // entities, attributes, relationships
/// ```
///
/// Only what a store needs to read its rows is taken from the archive: entity names, classes,
/// inheritance and renaming identifiers; attribute names, types, optionality, transience and
/// value transformers; relationship names, destinations, inverses, cardinality, order and
/// delete rules. Fetched properties, fetch request templates, uniqueness constraints, indexes
/// and derived-attribute expressions are left out (derived attributes become plain attributes:
/// their column is read like any other). Relationships are wired by the names the archive
/// keeps beside the object references (`_NSDestinationEntityName`, `_NSInverseRelationshipName`),
/// so no object cycle has to be decoded.
enum SQLiteModelCache {
    /// The most a model cache may inflate to. Apple's are tens to hundreds of kilobytes; a
    /// hostile store's could inflate a few megabytes into gigabytes (a decompression bomb).
    static let maximumInflatedSize = 16 << 20

    /// Inflates raw DEFLATE `data` (zlib window bits -15), refusing to produce more than
    /// `limit` bytes.
    static func inflate(_ data: Data, limit: Int = maximumInflatedSize) throws -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw SQLiteModelCacheError("zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var input = data
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        let status: Int32 = input.withUnsafeMutableBytes { (source: UnsafeMutableRawBufferPointer) -> Int32 in
            stream.next_in = source.bindMemory(to: Bytef.self).baseAddress
            stream.avail_in = uInt(source.count)
            var rc: Int32 = Z_OK
            repeat {
                rc = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(chunk)
                    let rc = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(out.baseAddress!, count: chunk - Int(stream.avail_out))
                    return rc
                }
                if output.count > limit { return Z_BUF_ERROR }
            } while rc == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
            return rc
        }
        guard output.count <= limit else {
            throw SQLiteModelCacheError("the model cache inflates to more than \(limit) bytes (Apple's are kilobytes); it is damaged or hostile and was not read")
        }
        guard status == Z_STREAM_END else {
            throw SQLiteModelCacheError("the model cache is not raw DEFLATE data (zlib status \(status))")
        }
        return output
    }

    /// The model archived in a `Z_MODELCACHE` blob.
    static func model(from blob: Data) throws -> NSManagedObjectModel {
        try model(fromArchive: try inflate(blob))
    }

    /// The model in an inflated model cache: an `NSKeyedArchiver` binary property list of an
    /// `NSManagedObjectModel`, the format of a compiled `.mom` file too.
    ///
    /// Read as a plain property list (``KeyedArchiveObjects``), never through
    /// `NSKeyedUnarchiver`: on Linux, a damaged archive whose object fails to decode inside a
    /// collection leaves a null reference there, and the first read of it crashes the process.
    static func model(fromArchive archive: Data) throws -> NSManagedObjectModel {
        guard let objects = KeyedArchiveObjects(archive) else {
            throw SQLiteModelCacheError("the inflated model cache is not a keyed archive")
        }
        guard let root = objects.dict(objects.top["root"]), objects.className(of: root) == "NSManagedObjectModel" else {
            throw SQLiteModelCacheError("the model cache holds no NSManagedObjectModel")
        }
        return try ArchivedModel(root, in: objects).makeModel()
    }
}

struct SQLiteModelCacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Archived objects (the names are Apple's classes')

/// Apple's `NSManagedObjectModel` in the archive.
private struct ArchivedModel {
    let entities: [ArchivedEntity]
    let versionIdentifiers: [AnyHashable]

    init(_ object: [String: Any], in archive: KeyedArchiveObjects) {
        // NSEntities is an NSKnownKeysDictionary1: its entities are the array under "values".
        let entities = archive.dict(object["NSEntities"]).map { archive.array($0["values"]) } ?? []
        self.entities = entities.compactMap { archive.dict($0) }.filter { archive.className(of: $0) == "NSEntityDescription" }.map { ArchivedEntity($0, in: archive) }
        versionIdentifiers = archive.array(object["NSVersionIdentifiers"]).compactMap { archive.plainValue($0) as? AnyHashable }
    }

/// Our model of the archived one: entities, subentities, then relationships by name.
    func makeModel() throws -> NSManagedObjectModel {
        var byName: [String: NSEntityDescription] = [:]
        for archived in entities {
            guard !archived.name.isEmpty else { throw SQLiteModelCacheError("an archived entity has no name") }
            let entity = NSEntityDescription(name: archived.name)
            entity.renamingIdentifier = archived.renamingIdentifier
            entity.isAbstract = archived.isAbstract
            byName[archived.name] = entity
        }
        // The archive lists inherited properties in each subentity too; ours declare only their own.
        var inherited: [String: Set<String>] = [:]
        func collectInherited(_ archived: ArchivedEntity, _ names: Set<String>) {
            // Each entity once: a damaged archive's subentity names can form a cycle.
            guard inherited[archived.name] == nil else { return }
            inherited[archived.name] = names
            let mine = names.union(archived.properties.map(\.name))
            for sub in entities where archived.subentityNames.contains(sub.name) { collectInherited(sub, mine) }
        }
        let subentityNames = Set(entities.flatMap(\.subentityNames))
        for root in entities where !subentityNames.contains(root.name) { collectInherited(root, []) }
        var relationships: [(NSRelationshipDescription, ArchivedRelationship, owner: String)] = []
        for archived in entities {
            let entity = byName[archived.name]!
            entity.subentities = archived.subentityNames.sorted().compactMap { byName[$0] }
            var properties: [NSPropertyDescription] = []
            for property in archived.properties.sorted(by: { $0.name < $1.name }) where !property.name.isEmpty && !(inherited[archived.name] ?? []).contains(property.name) {
                switch property.kind {
                case let .attribute(type, valueTransformerName):
                    let attribute = NSAttributeDescription(name: property.name, type: NSAttributeType(rawValue: type) ?? .binaryDataAttributeType, isOptional: property.isOptional)
                    attribute.isTransient = property.isTransient
                    attribute.valueTransformerName = valueTransformerName
                    properties.append(attribute)
                case let .relationship(r):
                    let relationship = NSRelationshipDescription()
                    relationship.name = property.name
                    relationship.isOptional = property.isOptional
                    relationship.isTransient = property.isTransient
                    relationship.isOrdered = r.isOrdered
                    relationship.minCount = r.minCount
                    relationship.maxCount = r.maxCount
                    relationship.deleteRule = NSDeleteRule(rawValue: r.deleteRule) ?? .nullifyDeleteRule
                    relationships.append((relationship, r, archived.name))
                    properties.append(relationship)
                }
            }
            entity.properties = properties
        }
        for (relationship, archived, owner) in relationships {
            guard let destination = byName[archived.destinationName] else {
                throw SQLiteModelCacheError("relationship \(owner).\(relationship.name) names destination '\(archived.destinationName)', which the cached model lacks")
            }
            relationship.destinationEntity = destination
            if let inverseName = archived.inverseName {
                var declaring: NSEntityDescription? = destination
                while let e = declaring, e.properties.first(where: { $0.name == inverseName }) == nil { declaring = e.superentity }
                relationship.inverseRelationship = declaring?.properties.first { $0.name == inverseName } as? NSRelationshipDescription
            }
        }
        let model = NSManagedObjectModel()
        model.entities = entities.compactMap { byName[$0.name] }
        model.versionIdentifiers = Set(versionIdentifiers)
        return model
    }
}

/// Apple's `NSEntityDescription`. Its superentity and its properties' entity are references
/// back up the graph, never followed: the hierarchy comes from the subentities' names.
private struct ArchivedEntity {
    let name: String
    let renamingIdentifier: String?
    let isAbstract: Bool
    let subentityNames: [String]
    let properties: [ArchivedProperty]

    init(_ object: [String: Any], in archive: KeyedArchiveObjects) {
        name = archive.string(object["NSEntityName"]) ?? ""
        renamingIdentifier = archive.string(object["NSRenamingIdentifier"])
        isAbstract = archive.bool(object["NSIsAbstract"]) ?? false
        subentityNames = archive.pairs(object["NSSubentities"]).map(\.0)
        // Fetched properties, proxies of inherited properties and anything else are left out.
        properties = archive.pairs(object["NSProperties"]).compactMap { _, value in
            archive.dict(value).flatMap { ArchivedProperty($0, in: archive) }
        }
    }
}

/// An archived attribute (`NSAttributeDescription`, and `NSDerivedAttributeDescription` read as a
/// plain attribute) or relationship (`NSRelationshipDescription`, with its destination and
/// inverse by name).
private struct ArchivedProperty {
    enum Kind {
        case attribute(type: UInt, valueTransformerName: String?)
        case relationship(ArchivedRelationship)
    }
    let name: String
    let isOptional: Bool
    let isTransient: Bool
    let kind: Kind

    init?(_ object: [String: Any], in archive: KeyedArchiveObjects) {
        name = archive.string(object["NSPropertyName"]) ?? ""
        isOptional = archive.bool(object["NSIsOptional"]) ?? false
        isTransient = archive.bool(object["NSIsTransient"]) ?? false
        switch archive.className(of: object) {
        case "NSAttributeDescription", "NSDerivedAttributeDescription":
            kind = .attribute(type: UInt(max(0, archive.int(object["NSAttributeType"]) ?? 0)), valueTransformerName: archive.string(object["NSValueTransformerName"]))
        case "NSRelationshipDescription":
            kind = .relationship(ArchivedRelationship(
                destinationName: archive.string(object["_NSDestinationEntityName"]) ?? "",
                inverseName: archive.string(object["_NSInverseRelationshipName"]),
                isOrdered: archive.bool(object["NSIsOrdered"]) ?? false,
                minCount: archive.int(object["NSMinCount"]) ?? 0,
                // Apple archives "no limit" as 0 or -1.
                maxCount: max(0, archive.int(object["NSMaxCount"]) ?? 0),
                deleteRule: UInt(max(0, archive.int(object["NSDeleteRule"]) ?? 0))))
        default:
            return nil
        }
    }
}

private struct ArchivedRelationship {
    let destinationName: String
    let inverseName: String?
    let isOrdered: Bool
    let minCount: Int
    let maxCount: Int
    let deleteRule: UInt
}
