import Foundation

// A lightweight migration converts each row of the source store into a row of the
// destination model, one batch at a time (the SQLite store's SQLiteMigrator.writeMigratedStore,
// the PostgreSQL store's migration in place).

/// Rebuilds one source row as a row of the destination model, slot by slot, through the
/// entity and property mappings.
struct RowConverter {
    let mapping: NSMappingModel
    let destination: NSManagedObjectModel
    let store: NSPersistentStore
    let path: String
    /// Destination entity by source entity name (absent: removed).
    let entities: [String: NSEntityDescription]
    /// Per destination entity name: the source property name of each destination property.
    let sourceNames: [String: [String: String]]

    init(mapping: NSMappingModel, destination: NSManagedObjectModel, store: NSPersistentStore, path: String) {
        self.mapping = mapping
        self.destination = destination
        self.store = store
        self.path = path
        var entities: [String: NSEntityDescription] = [:]
        var sourceNames: [String: [String: String]] = [:]
        for m in mapping.entityMappings {
            guard let d = m.destinationEntityName, let entity = destination.entitiesByName[d] else { continue }
            if let s = m.sourceEntityName { entities[s] = entity }
            var names: [String: String] = [:]
            for p in (m.attributeMappings ?? []) + (m.relationshipMappings ?? []) {
                if let name = p.name, let sourceName = p.sourceName { names[name] = sourceName }
            }
            sourceNames[d] = names
        }
        self.entities = entities
        self.sourceNames = sourceNames
    }

    func id(for sourceID: NSManagedObjectID) -> NSManagedObjectID? {
        guard let entity = entities[sourceID.entity.name ?? ""] else { return nil }
        return NSManagedObjectID(entity: entity, store: store, primaryKey: sourceID.primaryKey)
    }

    func convert(_ row: StoreRow) throws -> StoreRow? {
        guard let newID = id(for: row.objectID), let layout = newID.entity.layout, let sourceLayout = row.entity.layout else { return nil }
        let entityName = newID.entity.name ?? "?"
        let names = sourceNames[entityName] ?? [:]
        let record = "\(row.entity.name ?? "?") \(row.key.primaryKey)"
        var values: [StoredValue] = []
        values.reserveCapacity(layout.properties.count)
        for property in layout.properties {
            let old: StoredValue? = names[property.name].flatMap { sourceLayout.indexByName[$0] }.map { row.values[$0] }
            if let attribute = property as? NSAttributeDescription {
                if attribute.isTransient || old == nil { values.append(attribute.defaultStoredValue); continue }
                var value = old!
                if value.isNull && !attribute.isOptional {
                    guard !attribute.defaultStoredValue.isNull else {
                        throw Self.migrationError(path, "'\(entityName).\(attribute.name)' is no longer optional and has no default value, but record \(record) has no value for it. Give the attribute a default value, or fill in the missing values before migrating")
                    }
                    value = attribute.defaultStoredValue
                }
                if case .integer(let i) = value, !Self.fits(i, attribute.attributeType) {
                    throw Self.migrationError(path, "record \(record) holds \(i) in '\(entityName).\(attribute.name)', which does not fit its new type \(attribute.attributeType)")
                }
                values.append(value)
            } else if let relationship = property as? NSRelationshipDescription {
                var members: [NSManagedObjectID] = []
                if !relationship.isTransient, let old {
                    switch old {
                    case .objectID(let id): members = [id]
                    case .objectIDs(let ids): members = ids
                    default: members = []
                    }
                }
                let mapped = members.compactMap(id(for:))
                if relationship.isToMany {
                    values.append(.objectIDs(mapped))
                } else {
                    guard mapped.count <= 1 else {
                        throw Self.migrationError(path, "'\(entityName).\(relationship.name)' became to-one, but record \(record) has \(mapped.count) related objects in it. Reduce them to one before migrating, or keep the relationship to-many")
                    }
                    values.append(mapped.first.map { .objectID($0) } ?? .null)
                }
            } else {
                values.append(.null)   // fetched properties: not stored
            }
        }
        return StoreRow(objectID: newID, values: RowValues(values), version: row.version)
    }

    /// A failed migration's error (134110), naming the store.
    static func migrationError(_ path: String, _ reason: String) -> NSError {
        CoreDataError.make(NSMigrationError, "Migrating the store at \(path) failed: \(reason). The original store was left unchanged.", [NSFilePathErrorKey: path])
    }

    static func fits(_ value: Int64, _ type: NSAttributeType) -> Bool {
        switch type {
        case .integer16AttributeType: return Int64(Int16.min)...Int64(Int16.max) ~= value
        case .integer32AttributeType: return Int64(Int32.min)...Int64(Int32.max) ~= value
        default: return true
        }
    }
}
