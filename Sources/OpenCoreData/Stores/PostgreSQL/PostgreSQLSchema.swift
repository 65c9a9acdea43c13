import Foundation

/// Core Data's table layout (``StoreSchema``: Apple's table, column and join-table names and
/// entity numbers) in PostgreSQL's types, and the bookkeeping tables of a store.
///
/// ```swift
/// let ddl = try PostgreSQLSchema.createStatements(for: schema)
/// // CREATE TABLE "ZEMPLOYEE" ("Z_PK" bigint PRIMARY KEY, "Z_ENT" integer NOT NULL, "Z_OPT" bigint NOT NULL,
/// //                           "ZSALARY" numeric, "ZDEPARTMENT" bigint, ..., "ZNAME" text)
/// ```
///
/// | attribute | column |
/// |---|---|
/// | Integer 16, 32, 64 | `smallint`, `integer`, `bigint` |
/// | Boolean | `boolean` |
/// | Double, Float | `double precision` (a Float attribute's value is a `Double` in Core Data too) |
/// | Date | `double precision`: seconds since 2001-01-01, as the SQLite store keeps them (`timestamptz` holds microseconds only) |
/// | Decimal | `numeric`: every digit (the SQLite store keeps a Double) |
/// | String, URI | `text` |
/// | UUID | `uuid` |
/// | Binary, Transformable | `bytea` (external storage is ignored: the bytes live in the row) |
/// | Composite | a column per leaf element, of the element's type (`ZLATITUDE` of `location.latitude`), as in Apple's SQLite stores |
///
/// Names are quoted in every statement, so PostgreSQL keeps Apple's upper case.
enum PostgreSQLSchema {
    /// The PostgreSQL type of `column`.
    static func type(of column: StoreColumn) throws -> String {
        switch column.kind {
        case .attribute(let attribute): return try type(of: attribute)
        case .foreignKey, .order: return "bigint"
        case .foreignEntity: return "integer"
        case .compositeLeaf(let composite, let leaf): return try type(of: composite.leafElements[leaf].attribute)
        }
    }

    /// The attribute whose values `column` holds: an attribute's, or a composite's leaf element's.
    static func attribute(of column: StoreColumn) -> NSAttributeDescription? {
        switch column.kind {
        case .attribute(let attribute): attribute
        case .compositeLeaf(let composite, let leaf): composite.leafElements[leaf].attribute
        case .foreignKey, .foreignEntity, .order: nil
        }
    }

    static func type(of attribute: NSAttributeDescription) throws -> String {
        switch attribute.attributeType {
        case .integer16AttributeType: return "smallint"
        case .integer32AttributeType: return "integer"
        case .integer64AttributeType: return "bigint"
        case .booleanAttributeType: return "boolean"
        case .doubleAttributeType, .floatAttributeType, .dateAttributeType: return "double precision"
        case .decimalAttributeType: return "numeric"
        case .stringAttributeType, .URIAttributeType: return "text"
        case .UUIDAttributeType: return "uuid"
        case .binaryDataAttributeType, .transformableAttributeType: return "bytea"
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            throw StoreSchemaError("attribute '\(attribute.entity?.name ?? "?").\(attribute.name)' has type \(attribute.attributeType), which a store can't persist; make it transient or change its type")
        }
    }

    /// What a column's values travel as: `numeric` and `uuid` as text, cast on both ways.
    static func cast(of column: StoreColumn) -> String {
        guard let attribute = attribute(of: column) else { return "" }
        switch attribute.attributeType {
        case .decimalAttributeType: return "::numeric"
        case .UUIDAttributeType: return "::uuid"
        default: return ""
        }
    }

    /// The SELECT list of a table: `Z_PK, Z_ENT, Z_OPT`, then every column (text for the
    /// columns ``cast(of:)`` converts).
    static func selectList(of table: StoreEntityTable) -> String {
        (["\"Z_PK\"", "\"Z_ENT\"", "\"Z_OPT\""] + table.columns.map { cast(of: $0).isEmpty ? $0.sqlName : "\($0.sqlName)::text" })
            .joined(separator: ", ")
    }

    /// The members of a to-many relationship as rows of owner key, member `Z_PK` and member
    /// `Z_ENT`, ordered by owner, then the relationship's order column, then the member's key:
    /// of the owners in the SQL list `owners` (`$1, $2`), from tables named with `tablePrefix`
    /// (`"schema".`, or nothing for the store's schema).
    static func membersSQL(of source: StoreToManySource, owners: String, tablePrefix: String = "") -> String {
        switch source {
        case let .foreignKey(table, column, orderColumn):
            let owner = table.columns[column].sqlName
            let order = orderColumn.map { "\(table.columns[$0].sqlName), " } ?? ""
            return "SELECT \(owner), \"Z_PK\", \"Z_ENT\" FROM \(tablePrefix)\(table.sqlName) WHERE \(owner) IN (\(owners)) ORDER BY \(owner), \(order)\"Z_PK\""
        case let .joinTable(join, ownerColumn, targetColumn, orderColumn, targetTable):
            let order = orderColumn.map { "j.\($0), " } ?? ""
            return "SELECT j.\(ownerColumn), t.\"Z_PK\", t.\"Z_ENT\" FROM \(tablePrefix)\(join.sqlName) j JOIN \(tablePrefix)\(targetTable.sqlName) t ON t.\"Z_PK\" = j.\(targetColumn) WHERE j.\(ownerColumn) IN (\(owners)) ORDER BY j.\(ownerColumn), \(order)t.\"Z_PK\""
        }
    }

    /// Every statement that creates a new store's tables and indexes, and with `bookkeeping`
    /// its `Z_PRIMARYKEY` and `Z_METADATA` (a migration keeps those).
    static func createStatements(for schema: StoreSchema, bookkeeping: Bool = true) throws -> [String] {
        let q = StoreSchema.quoted
        var sql: [String] = []
        for table in schema.tables {
            let columns = try ["\"Z_PK\" bigint PRIMARY KEY", "\"Z_ENT\" integer NOT NULL", "\"Z_OPT\" bigint NOT NULL"]
                + table.columns.map { "\($0.sqlName) \(try type(of: $0))" }
            sql.append("CREATE TABLE \(table.sqlName) (\(columns.joined(separator: ", ")))")
            for column in table.columns {
                if case .foreignKey = column.kind { sql.append("CREATE INDEX \(q("\(table.name)_\(column.name)_INDEX")) ON \(table.sqlName) (\(column.sqlName))") }
            }
            if table.entities.count > 1 { sql.append("CREATE INDEX \(q("\(table.name)_Z_ENT_INDEX")) ON \(table.sqlName) (\"Z_ENT\")") }
            var indexNames = Set<String>()
            for e in table.entities {
                for constraint in e.uniquenessConstraints {
                    let names = constraint.compactMap { $0 as? String }
                    let columns = names.compactMap { name in e.propertiesByName[name].flatMap { table.columnIndex(for: $0) }.map { table.columns[$0].sqlName } }
                    guard !names.isEmpty, columns.count == names.count else { continue }
                    sql.append("CREATE UNIQUE INDEX \(q("Z_\(e.name ?? "")_UNIQUE_\(names.joined(separator: "_"))")) ON \(table.sqlName) (\(columns.joined(separator: ", ")))")
                }
                for case let attribute as NSAttributeDescription in e.properties where attribute.isIndexed && !attribute.isTransient {
                    guard let c = table.columnIndex(for: attribute) else { continue }
                    let name = "\(table.name)_\(table.columns[c].name)_INDEX"
                    if indexNames.insert(name).inserted { sql.append("CREATE INDEX \(q(name)) ON \(table.sqlName) (\(table.columns[c].sqlName))") }
                }
            }
        }
        for join in schema.joinTables {
            var columns = ["\(join.primaryOwnerSQL) bigint NOT NULL", "\(join.secondaryOwnerSQL) bigint NOT NULL"]
            if let c = join.primaryOrderColumn { columns.append("\(q(c)) bigint") }
            if let c = join.secondaryOrderColumn { columns.append("\(q(c)) bigint") }
            columns.append("PRIMARY KEY (\(join.primaryOwnerSQL), \(join.secondaryOwnerSQL))")
            sql.append("CREATE TABLE \(join.sqlName) (\(columns.joined(separator: ", ")))")
            sql.append("CREATE INDEX \(q("\(join.name)_\(join.secondaryOwnerColumn)_INDEX")) ON \(join.sqlName) (\(join.secondaryOwnerSQL), \(join.primaryOwnerSQL))")
        }
        guard bookkeeping else { return sql }
        sql.append("CREATE TABLE \"Z_PRIMARYKEY\" (\"Z_ENT\" integer PRIMARY KEY, \"Z_NAME\" text NOT NULL, \"Z_SUPER\" integer NOT NULL, \"Z_MAX\" bigint NOT NULL)")
        sql.append("CREATE TABLE \"Z_METADATA\" (\"Z_VERSION\" integer PRIMARY KEY, \"Z_UUID\" text NOT NULL, \"Z_PLIST\" bytea NOT NULL)")
        return sql
    }
}
