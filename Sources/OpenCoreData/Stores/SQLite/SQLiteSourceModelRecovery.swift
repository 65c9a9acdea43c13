import Foundation

/// Rebuilds the model a store was made with from the new model and the store's own schema, for
/// migrating a store of ours when no model in `OCDMigrationSourceModelsOption` matches it.
///
/// ```swift
/// if let source = try SQLiteSourceModelRecovery.sourceModel(forStoreAt: path, destination: v2) {
///     let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: v2)
/// }
/// ```
///
/// The file keeps upper-cased column names and SQLite's type names only, so the source can't be
/// read from it alone; it is the destination model taken back to what the file shows:
/// - an entity whose `renamingIdentifier` names a store entity gets that name back; an entity
///   the store lacks is new (allowed only without relationships and inheritance); a store
///   entity the model lacks was removed (read as an entity without properties);
/// - an attribute whose column is in the file keeps it (under its `renamingIdentifier` when
///   that column exists) and must have the column type of its type; an attribute without a
///   column is new;
/// - relationships must be unchanged: same names, same layout in the file.
///
/// Anything else — a column or join table named like a property of the new model that the
/// rebuilt model does not explain, a type whose column type differs, a renamed or re-shaped
/// relationship, a changed hierarchy — gives nil: better no migration than a guessed one.
/// Optionality and defaults are not in the file; every rebuilt attribute is optional, so
/// required values are checked against the data during migration.
enum SQLiteSourceModelRecovery {
    static func sourceModel(forStoreAt path: String, destination: NSManagedObjectModel) throws -> NSManagedObjectModel? {
        let db = try SQLiteConnection(path: path, readOnly: true)
        defer { db.close() }
        let tables = try db.tableNames()
        let stored = try db.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT", []) {
            (number: Int($0.int64(at: 0)), name: $0.text(at: 1) ?? "", superNumber: Int($0.int64(at: 2)))
        }
        let storeNames = Set(stored.map(\.name))
        let nameByNumber = Dictionary(stored.map { ($0.number, $0.name) }, uniquingKeysWith: { a, _ in a })
        var columnTypes: [String: [String: String]] = [:]
        for table in tables {
            columnTypes[table] = Dictionary(try db.query("SELECT name, type FROM pragma_table_info(?)", [.text(table)]) { ($0.text(at: 0) ?? "", ($0.text(at: 1) ?? "").uppercased()) },
                                            uniquingKeysWith: { a, _ in a })
        }

        let model = destination.copy() as! NSManagedObjectModel
        // Entities: names back to the store's, new ones out, removed ones in as empty entities.
        var kept: [NSEntityDescription] = []
        for e in model.entities {
            let name = e.name ?? ""
            if let old = e.renamingIdentifier, old != name, storeNames.contains(old), !storeNames.contains(name) {
                e.name = old
                kept.append(e)
            } else if storeNames.contains(name) {
                kept.append(e)
            } else {
                let related = e.properties.contains { $0 is NSRelationshipDescription && !$0.isTransient }
                guard !related, e.superentity == nil, e.subentities.isEmpty else { return nil }
            }
        }
        let byName = Dictionary(kept.map { ($0.name ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        var removed: [String: NSEntityDescription] = [:]
        for s in stored where byName[s.name] == nil { removed[s.name] = NSEntityDescription(name: s.name) }
        for s in stored {
            let superName = s.superNumber == 0 ? nil : nameByNumber[s.superNumber]
            if let entity = byName[s.name] {
                guard entity.superentity?.name == superName else { return nil }   // hierarchy changed
            } else if let superName, let parent = byName[superName] ?? removed[superName] {
                guard parent.name.flatMap({ removed[$0] }) != nil else { return nil }  // a removed subentity of a kept entity
                parent.subentities.append(removed[s.name]!)
            }
        }
        // Properties of the kept entities.
        for e in kept {
            var root = e
            while let s = root.superentity { root = s }
            guard let columns = columnTypes["Z" + (root.name ?? "").uppercased()] else { return nil }
            var properties: [NSPropertyDescription] = []
            for p in e.properties {
                if p.isTransient || p is NSFetchedPropertyDescription { properties.append(p); continue }
                if let a = p as? NSAttributeDescription {
                    let old = a.renamingIdentifier.flatMap { columns["Z" + $0.uppercased()] != nil ? $0 : nil }
                    guard let name = old ?? (columns["Z" + a.name.uppercased()] != nil ? a.name : nil) else { continue }  // new
                    guard let (type, _) = try? StoreEntityTable.columnType(of: a, entity: e), columns["Z" + name.uppercased()] == type else { return nil }
                    a.name = name
                    a.isOptional = true
                    properties.append(a)
                } else if let r = p as? NSRelationshipDescription {
                    guard r.renamingIdentifier == nil || r.renamingIdentifier == r.name else { return nil }
                    properties.append(r)
                }
            }
            e.properties = properties
        }
        model.entities = kept + removed.values.sorted { ($0.name ?? "") < ($1.name ?? "") }

        // The rebuilt layout must be in the file, and the file must hold nothing named like a
        // property of the new model that the rebuilt model does not read.
        let numbers = Dictionary(stored.map { ($0.name, $0.number) }, uniquingKeysWith: { a, _ in a })
        guard let schema = try? StoreSchema(model: model, entityNumbers: numbers, existingTables: tables),
              (try? schema.missingNames(in: db))?.isEmpty == true else { return nil }
        var explained = Set(schema.joinTables.map(\.name))
        for table in schema.tables { for column in table.columns { explained.insert("\(table.name).\(column.name)") } }
        var wanted: Set<String> = []
        for e in destination.entities {
            for p in e.properties where !p.isTransient { wanted.insert("Z" + p.name.uppercased()); wanted.insert(p.name.uppercased()) }
        }
        for table in schema.tables {
            for column in columnTypes[table.name]?.keys ?? [:].keys where !explained.contains("\(table.name).\(column)") {
                if wanted.contains(column) { return nil }
            }
        }
        for table in tables where table.hasPrefix("Z_") && table.dropFirst(2).first?.isNumber == true && !explained.contains(table) {
            let relationshipName = String(table.dropFirst(2).drop { $0.isNumber })
            if wanted.contains(relationshipName) { return nil }
        }
        return model
    }
}
