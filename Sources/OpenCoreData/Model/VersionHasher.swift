import Foundation

/// Computes version hashes from the inputs Apple documents.
///
/// Entity: name, isAbstract, superentity name, the hashes of its properties (sorted by name),
/// versionHashModifier. Property: name, isOptional, isTransient, isReadOnly,
/// versionHashModifier; an attribute adds its type (a composite also its leaf elements' hashes);
/// a relationship adds destination name, inverse name, min and max count, isOrdered. Apple does
/// not document the byte layout and its hashes could not be reproduced (see `shared/docs/sqlite-format.md`), so ours are SHA-256 over a
/// tagged text encoding of those inputs: deterministic, 32 bytes like Apple's, but not equal to
/// Apple's. Stores made by Apple are matched to models structurally instead.
enum VersionHasher {
    static func hash(of entity: NSEntityDescription) -> Data {
        var text = "E|\(entity.name ?? "")|abstract=\(entity.isAbstract)|super=\(entity.superentity?.name ?? "")|mod=\(entity.versionHashModifier ?? "")"
        for p in entity.properties.sorted(by: { $0.name < $1.name }) where !(p is NSFetchedPropertyDescription) {
            text += "|P:" + hash(of: p).base64EncodedString()
        }
        return SHA256.hash(Data(text.utf8))
    }

    static func hash(of property: NSPropertyDescription) -> Data {
        var text = "P|\(property.name)|optional=\(property.isOptional)|transient=\(property.isTransient)|readOnly=\(property.isReadOnly)|mod=\(property.versionHashModifier ?? "")"
        if let a = property as? NSAttributeDescription {
            text += "|type=\(a.attributeType.rawValue)"
            // A composite's layout is its leaf elements (each a column), as in Apple's hash.
            for leaf in (a as? NSCompositeAttributeDescription)?.leafElements.sorted(by: { $0.path.lexicographicallyPrecedes($1.path) }) ?? [] {
                text += "|element:\(leaf.path.joined(separator: "."))=" + hash(of: leaf.attribute).base64EncodedString()
            }
        } else if let r = property as? NSRelationshipDescription {
            text += "|dest=\(r.destinationEntity?.name ?? r.destinationEntityName ?? "")|inverse=\(r.inverseRelationship?.name ?? r.inverseName ?? "")|min=\(r.minCount)|max=\(r.maxCount)|ordered=\(r.isOrdered)"
        }
        return SHA256.hash(Data(text.utf8))
    }
}
