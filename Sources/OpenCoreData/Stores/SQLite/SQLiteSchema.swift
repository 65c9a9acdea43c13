import Foundation

// The SQLite store's statements for Core Data's layout (`StoreSchema`, shared with the
// PostgreSQL store): the DDL Apple's framework writes, with its column types, and the check of
// an existing file against the layout.

extension StoreSchema {
    // MARK: DDL

    /// Every statement that creates a new store's schema, bookkeeping tables included.
    var createStatements: [String] {
        var sql: [String] = []
        for table in tables {
            let columns = (["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + table.columns.map { "\($0.name) \($0.type)" }).joined(separator: ", ")
            sql.append("CREATE TABLE \(table.name) ( \(columns) )")
        }
        for join in joinTables {
            var columns = ["\(join.primaryOwnerColumn) INTEGER", "\(join.secondaryOwnerColumn) INTEGER"]
            if let c = join.primaryOrderColumn { columns.append("\(c) INTEGER") }
            if let c = join.secondaryOrderColumn { columns.append("\(c) INTEGER") }
            columns.append("PRIMARY KEY (\(join.primaryOwnerColumn), \(join.secondaryOwnerColumn))")
            sql.append("CREATE TABLE \(join.name) ( \(columns.joined(separator: ", ")) )")
        }
        for table in tables {
            for column in table.columns {
                if case .foreignKey = column.kind { sql.append("CREATE INDEX \(table.name)_\(column.name)_INDEX ON \(table.name) (\(column.name))") }
            }
            if table.entities.count > 1 { sql.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)") }
            for e in table.entities {
                for constraint in e.uniquenessConstraints {
                    let names = constraint.compactMap { $0 as? String }
                    let columns = names.compactMap { name in e.propertiesByName[name].flatMap { table.columnIndex(for: $0) }.map { table.columns[$0].name } }
                    guard !names.isEmpty, columns.count == names.count else { continue }
                    sql.append("CREATE UNIQUE INDEX Z_\(e.name ?? "")_UNIQUE_\(names.joined(separator: "_")) ON \(table.name) (\(columns.map { "\($0) COLLATE BINARY ASC" }.joined(separator: ", ")))")
                }
            }
            sql += Self.fetchIndexStatements(of: table)
        }
        for join in joinTables {
            sql.append("CREATE INDEX \(join.name)_\(join.secondaryOwnerColumn)_INDEX ON \(join.name) (\(join.secondaryOwnerColumn), \(join.primaryOwnerColumn))")
        }
        sql.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        sql.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        return sql
    }

    /// The indexes that make fetches by attribute fast, named as Apple names them (seen in its
    /// stores): `<TABLE>_<COLUMN>_INDEX` for an attribute marked `isIndexed`
    /// (`ZKIKMESSAGE_ZTIMESTAMP_INDEX`), `Z_<Entity>_<name>` for a fetch index
    /// (`CREATE INDEX Z_Car_byMakerAndNumberPlate ON ZCAR (ZMAKER COLLATE BINARY ASC, ...)`).
    ///
    /// Each property is indexed by the entity that declares it, so an inherited attribute gets
    /// one index. R-tree elements, expression elements and names that are not plain identifiers
    /// (they would have to be spliced into the DDL) are left out; a partial index predicate is
    /// not translated, so such an index covers every row — larger, never wrong.
    static func fetchIndexStatements(of table: StoreEntityTable) -> [String] {
        func isIdentifier(_ name: String) -> Bool {
            !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
        }
        var sql: [String] = []
        var names = Set<String>()
        for e in table.entities {
            for case let attribute as NSAttributeDescription in e.properties where attribute.isIndexed && !attribute.isTransient {
                guard let c = table.columnIndex(for: attribute) else { continue }
                let column = table.columns[c].name
                let name = "\(table.name)_\(column)_INDEX"
                if names.insert(name).inserted { sql.append("CREATE INDEX \(name) ON \(table.name) (\(column))") }
            }
            for index in e.indexes {
                guard let entityName = e.name, isIdentifier(entityName), isIdentifier(index.name), !index.elements.isEmpty else { continue }
                var columns: [String] = []
                for element in index.elements {
                    guard element.collationType == .binary, element.expression == nil,
                          let property = element.property, let c = table.columnIndex(for: property) else { columns = []; break }
                    columns.append("\(table.columns[c].name) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")")
                }
                let name = "Z_\(entityName)_\(index.name)"
                if !columns.isEmpty, names.insert(name).inserted {
                    sql.append("CREATE INDEX \(name) ON \(table.name) (\(columns.joined(separator: ", ")))")
                }
            }
        }
        return sql
    }

    /// Tables and columns this layout needs that `connection`'s file lacks (empty: compatible).
    func missingNames(in connection: SQLiteConnection) throws -> [String] {
        let existing = try connection.tableNames()
        var missing: [String] = []
        for table in tables {
            guard existing.contains(table.name) else { missing.append(table.name); continue }
            let columns = Set(try connection.columnNames(of: table.name))
            for column in table.columns where !columns.contains(column.name) { missing.append("\(table.name).\(column.name)") }
        }
        for join in joinTables {
            guard existing.contains(join.name) else { missing.append(join.name); continue }
            let columns = Set(try connection.columnNames(of: join.name))
            for name in [join.primaryOwnerColumn, join.secondaryOwnerColumn] + [join.primaryOrderColumn, join.secondaryOrderColumn].compactMap({ $0 })
            where !columns.contains(name) { missing.append("\(join.name).\(name)") }
        }
        return missing
    }
}

extension StoreSchema {
    /// How the store on `connection` differs from the layout this schema gives `model`, one
    /// phrase per difference (empty when they agree exactly): entities the store lists that the
    /// model lacks, and tables or columns missing on either side. For a store Apple's framework
    /// wrote, whose version hashes OpenCoreData can't compute without the model's
    /// `VersionInfo.plist`, this tells which model version made it.
    static func differences(between model: NSManagedObjectModel, and connection: SQLiteConnection) throws -> [String] {
        let tables = try connection.tableNames()
        let numbers = Dictionary(try connection.query("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
            ($0.text(at: 0) ?? "", Int($0.int64(at: 1)))
        }, uniquingKeysWith: { a, _ in a })
        let schema: StoreSchema
        do { schema = try StoreSchema(model: model, entityNumbers: numbers, existingTables: tables) } catch let error as StoreSchemaError {
            return [error.message]
        }
        var differences = try schema.missingNames(in: connection).map { "the store lacks \($0)" }
        let modelNames = Set(model.entities.flatMap { [$0.name ?? "", $0.renamingIdentifier ?? ""] })
        differences += numbers.keys.sorted().filter { !modelNames.contains($0) }.map { "the model lacks entity \($0)" }
        for table in schema.tables where tables.contains(table.name) {
            let known = Set(["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name))
            differences += try connection.columnNames(of: table.name).filter { !known.contains($0) }.map { "the model lacks \(table.name).\($0)" }
        }
        return differences
    }
}

