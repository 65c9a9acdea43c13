import Foundation

extension NSPersistentStore {
    /// Whether the store was added with `NSPersistentHistoryTrackingKey` on.
    var asksForHistoryTracking: Bool {
        switch options?[NSPersistentHistoryTrackingKey] {
        case let flag as Bool: return flag
        case let number as NSNumber: return number.boolValue
        case is [AnyHashable: Any]: return true  // Apple accepts a dictionary of tracking options
        default: return false
        }
    }
}

/// How `ACHANGE` names an entity's properties, as Apple's stores do (observed in stores Apple's
/// framework wrote, and recorded by an independent reader of them): `ZCOLUMNS` is a bitmap read
/// most significant bit first (bit 0 is `0x80` of the first byte) over the entity's stored
/// properties — attributes and relationships, inherited ones included — sorted by name;
/// `ZTOMBSTONE<n>` holds the *n*-th of its attributes that preserve their value on deletion,
/// sorted by name.
enum HistoryColumns {
    /// The entity's stored properties in bitmap order.
    static func properties(of entity: NSEntityDescription) -> [NSPropertyDescription] {
        (entity.layout?.properties ?? entity.properties).filter { !$0.isTransient && ($0 is NSAttributeDescription || $0 is NSRelationshipDescription) }
            .sorted { $0.name < $1.name }
    }

    /// The attributes whose values a deletion's change keeps, in `ZTOMBSTONE<n>` order.
    static func tombstoneAttributes(of entity: NSEntityDescription) -> [NSAttributeDescription] {
        (entity.layout?.properties ?? entity.properties).compactMap { $0 as? NSAttributeDescription }
            .filter { $0.preservesValueInHistoryOnDeletion && !$0.isTransient }.sorted { $0.name < $1.name }
    }

    /// The bitmap of the properties in `slots` (the entity's layout slots).
    static func encode(_ slots: [Int], of entity: NSEntityDescription) -> Data? {
        guard let layout = entity.layout, !slots.isEmpty else { return nil }
        let ordered = properties(of: entity)
        var bytes = [UInt8](repeating: 0, count: (ordered.count + 7) / 8)
        let names = Set(slots.compactMap { $0 < layout.properties.count ? layout.properties[$0].name : nil })
        for (i, property) in ordered.enumerated() where names.contains(property.name) { bytes[i / 8] |= 0x80 >> UInt8(i % 8) }
        return Data(bytes)
    }

    /// The properties a bitmap names (bits past the entity's properties are ignored).
    static func decode(_ data: Data, of entity: NSEntityDescription) -> [NSPropertyDescription] {
        let ordered = properties(of: entity)
        var result: [NSPropertyDescription] = []
        for (i, byte) in data.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                let index = i * 8 + bit
                if index < ordered.count { result.append(ordered[index]) }
            }
        }
        return result
    }
}
