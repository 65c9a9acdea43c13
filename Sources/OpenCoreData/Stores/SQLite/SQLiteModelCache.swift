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
        let archive = try inflate(blob)
        let unarchiver: NSKeyedUnarchiver
        do { unarchiver = try NSKeyedUnarchiver(forReadingFrom: archive) } catch {
            throw SQLiteModelCacheError("the inflated model cache is not a keyed archive: \(error.localizedDescription)")
        }
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.setClass(ArchivedModel.self, forClassName: "NSManagedObjectModel")
        unarchiver.setClass(ArchivedKnownKeysDictionary.self, forClassName: "NSKnownKeysDictionary1")
        unarchiver.setClass(ArchivedEntity.self, forClassName: "NSEntityDescription")
        unarchiver.setClass(ArchivedAttribute.self, forClassName: "NSAttributeDescription")
        unarchiver.setClass(ArchivedAttribute.self, forClassName: "NSDerivedAttributeDescription")
        unarchiver.setClass(ArchivedRelationship.self, forClassName: "NSRelationshipDescription")
        unarchiver.setClass(ArchivedIgnored.self, forClassName: "NSFetchedPropertyDescription")
        // Any other class Foundation doesn't know (a subentity's `_NSPropertyDescriptionProxy`
        // for an inherited property, an app's own classes in default values) decodes as an
        // inert object: on Linux, an undecodable object inside a dictionary crashes the process.
        let known: Set<String> = ["NSManagedObjectModel", "NSKnownKeysDictionary1", "NSEntityDescription", "NSAttributeDescription",
                                  "NSDerivedAttributeDescription", "NSRelationshipDescription", "NSFetchedPropertyDescription"]
        if let plist = try? PropertyListSerialization.propertyList(from: archive, format: nil) as? [String: Any],
           let objects = plist["$objects"] as? [Any] {
            for case let object as [String: Any] in objects {
                guard let name = object["$classname"] as? String, !known.contains(name), NSClassFromString(name) == nil else { continue }
                unarchiver.setClass(ArchivedIgnored.self, forClassName: name)
            }
        }
        defer { unarchiver.finishDecoding() }
        guard let archived = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? ArchivedModel else {
            throw SQLiteModelCacheError("the model cache holds no NSManagedObjectModel" + (unarchiver.error.map { ": \($0.localizedDescription)" } ?? ""))
        }
        return try archived.makeModel()
    }
}

struct SQLiteModelCacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Archived classes (decode only; the names are Apple's, mapped with setClass)

/// Apple's `NSManagedObjectModel` in the archive.
private final class ArchivedModel: NSObject, NSCoding {
    let entities: [ArchivedEntity]
    let versionIdentifiers: [AnyHashable]

    init?(coder: NSCoder) {
        guard let dictionary = coder.decodeObject(forKey: "NSEntities") as? ArchivedKnownKeysDictionary else { return nil }
        entities = dictionary.values.compactMap { $0 as? ArchivedEntity }
        versionIdentifiers = ((coder.decodeObject(forKey: "NSVersionIdentifiers") as? NSSet)?.allObjects ?? []).compactMap { $0 as? AnyHashable }
    }

    func encode(with coder: NSCoder) {
        coder.encode(entities, forKey: "NSEntities")
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
                switch property {
                case let a as ArchivedAttribute:
                    let attribute = NSAttributeDescription(name: a.name, type: NSAttributeType(rawValue: a.type) ?? .binaryDataAttributeType, isOptional: a.isOptional)
                    attribute.isTransient = a.isTransient
                    attribute.valueTransformerName = a.valueTransformerName
                    properties.append(attribute)
                case let r as ArchivedRelationship:
                    let relationship = NSRelationshipDescription()
                    relationship.name = r.name
                    relationship.isOptional = r.isOptional
                    relationship.isTransient = r.isTransient
                    relationship.isOrdered = r.isOrdered
                    relationship.minCount = r.minCount
                    relationship.maxCount = r.maxCount
                    relationship.deleteRule = NSDeleteRule(rawValue: r.deleteRule) ?? .nullifyDeleteRule
                    relationships.append((relationship, r, archived.name))
                    properties.append(relationship)
                default:
                    continue
                }
            }
            entity.properties = properties
        }
        for (relationship, archived, owner) in relationships {
            guard let destination = byName[archived.destinationName] else {
                throw SQLiteModelCacheError("relationship \(owner).\(archived.name) names destination '\(archived.destinationName)', which the cached model lacks")
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

/// Apple's `NSKnownKeysDictionary1` (the model's entities by name): only its values are read.
private final class ArchivedKnownKeysDictionary: NSObject, NSCoding {
    let values: [Any]

    init?(coder: NSCoder) {
        values = (coder.decodeObject(forKey: "values") as? NSArray).map { Array($0) } ?? []
    }

    func encode(with coder: NSCoder) {
        coder.encode(values as NSArray, forKey: "values")
    }
}

/// Apple's `NSEntityDescription`. Its superentity and its properties' entity are references
/// back up the graph, never decoded: the hierarchy comes from the subentities' names.
private final class ArchivedEntity: NSObject, NSCoding {
    let name: String
    let renamingIdentifier: String?
    let isAbstract: Bool
    let subentityNames: [String]
    let properties: [ArchivedProperty]

    init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "NSEntityName") as? String ?? ""
        renamingIdentifier = coder.decodeObject(forKey: "NSRenamingIdentifier") as? String
        isAbstract = coder.decodeBool(forKey: "NSIsAbstract")
        subentityNames = ((coder.decodeObject(forKey: "NSSubentities") as? NSDictionary)?.allKeys ?? []).compactMap { $0 as? String }
        properties = ((coder.decodeObject(forKey: "NSProperties") as? NSDictionary)?.allValues ?? []).compactMap { $0 as? ArchivedProperty }
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "NSEntityName")
    }
}

/// The keys every archived property has.
private class ArchivedProperty: NSObject, NSCoding {
    let name: String
    let isOptional: Bool
    let isTransient: Bool

    required init?(coder: NSCoder) {
        // Never nil: a nil inside a decoded dictionary crashes Foundation on Linux. A property
        // without a name is dropped when the model is built.
        name = coder.decodeObject(forKey: "NSPropertyName") as? String ?? ""
        isOptional = coder.decodeBool(forKey: "NSIsOptional")
        isTransient = coder.decodeBool(forKey: "NSIsTransient")
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "NSPropertyName")
    }
}

/// `NSAttributeDescription` (and `NSDerivedAttributeDescription`, read as a plain attribute).
private final class ArchivedAttribute: ArchivedProperty {
    let type: UInt
    let valueTransformerName: String?

    required init?(coder: NSCoder) {
        type = UInt(max(0, coder.decodeInteger(forKey: "NSAttributeType")))
        valueTransformerName = coder.decodeObject(forKey: "NSValueTransformerName") as? String
        super.init(coder: coder)
    }
}

/// `NSRelationshipDescription`, with its destination and inverse by name.
private final class ArchivedRelationship: ArchivedProperty {
    let destinationName: String
    let inverseName: String?
    let isOrdered: Bool
    let minCount: Int
    let maxCount: Int
    let deleteRule: UInt

    required init?(coder: NSCoder) {
        destinationName = coder.decodeObject(forKey: "_NSDestinationEntityName") as? String ?? ""
        inverseName = coder.decodeObject(forKey: "_NSInverseRelationshipName") as? String
        isOrdered = coder.decodeBool(forKey: "NSIsOrdered")
        minCount = coder.decodeInteger(forKey: "NSMinCount")
        // Apple archives "no limit" as 0 or -1.
        maxCount = max(0, coder.decodeInteger(forKey: "NSMaxCount"))
        deleteRule = UInt(max(0, coder.decodeInteger(forKey: "NSDeleteRule")))
        super.init(coder: coder)
    }
}

/// What the store does not read (fetched properties, proxies of inherited properties, an app's
/// own classes): decoded as nothing.
private final class ArchivedIgnored: NSObject, NSCoding {
    init?(coder: NSCoder) {}
    func encode(with coder: NSCoder) {}
}
