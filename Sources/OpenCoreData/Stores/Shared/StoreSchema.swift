import Foundation

/// Apple's table layout for a model: which table and column holds each entity and property.
/// The SQLite store writes it as Apple's framework does (`SQLiteSchema.swift` has its DDL);
/// the PostgreSQL store keeps the same names in PostgreSQL's types.
///
/// ```swift
/// let schema = try StoreSchema(model: model, entityNumbers: nil, existingTables: [])
/// schema.table(for: employee).name                  // "ZEMPLOYEE" (also holds Manager rows)
/// schema.table(for: employee).columns.map(\.name)   // ["ZSALARY", "ZDEPARTMENT", ..., "ZFIRSTNAME"]
/// schema.createStatements                          // CREATE TABLE / CREATE INDEX, Apple's names
/// ```
///
/// The names follow `docs/sqlite-format.md` (checked against stores Apple's framework wrote):
/// one table `Z<ROOT>` per inheritance hierarchy with `Z_PK`, `Z_ENT`, `Z_OPT`; a column
/// `Z<NAME>` per attribute and to-one relationship; a `Z<n>_<NAME>` companion holding the
/// target's `Z_ENT` when the destination has subentities; `Z_FOK_<NAME>` for the order of an
/// ordered one-to-many; a join table `Z_<n><NAME>` per many-to-many.
///
/// Entity numbers (`Z_ENT`) come from the file's `Z_PRIMARYKEY` when the store exists (Apple's
/// framework numbers history entities 16001+, and an older model may number differently), and
/// from the model (Apple's order) for a new store.
final class StoreSchema {
    let tables: [StoreEntityTable]
    let joinTables: [StoreJoinTable]
    /// Entity number (`Z_ENT`) by entity.
    private let numbers: [ObjectIdentifier: Int]
    private let entitiesByNumber: [Int: NSEntityDescription]
    private let tableByRoot: [ObjectIdentifier: StoreEntityTable]
    private let toManySources: [ObjectIdentifier: StoreToManySource]
    /// The entities stored, in entity-number order.
    let entities: [NSEntityDescription]

    /// Derives the layout of `model`.
    /// - Parameters:
    ///   - entityNumbers: `Z_ENT` by entity name, as read from an existing store's
    ///     `Z_PRIMARYKEY`; nil for a new store (then the model's own numbering is used).
    ///   - existingTables: the tables already in the file; used only to pick between the two
    ///     possible names of a reflexive many-to-many join table, for which Apple's choice
    ///     follows no documented rule.
    init(model: NSManagedObjectModel, entityNumbers: [String: Int]?, existingTables: Set<String>) throws {
        let all = model.entities
        // Table, column and index names are built from these names unquoted, as Apple's are (its
        // schema text is kept byte for byte). A model that reached here without validation (one
        // recovered from a file, or a migration's source) must not carry SQL in a name.
        for e in all {
            let name = e.name ?? ""
            guard NSManagedObjectModel.isIdentifier(name) else { throw StoreSchemaError("entity name '\(name)' is not allowed. \(NSManagedObjectModel.identifierRule)") }
            for p in e.properties where !NSManagedObjectModel.isIdentifier(p.name) {
                throw StoreSchemaError("property name '\(name).\(p.name)' is not allowed. \(NSManagedObjectModel.identifierRule)")
            }
            for index in e.indexes where !NSManagedObjectModel.isIdentifier(index.name) {
                throw StoreSchemaError("fetch index name '\(index.name)' of entity '\(name)' is not allowed. \(NSManagedObjectModel.identifierRule)")
            }
        }
        var numbers: [ObjectIdentifier: Int] = [:]
        for e in all {
            let name = e.name ?? ""
            if let entityNumbers {
                // Apple's lightweight migration keeps an entity's old name in Z_PRIMARYKEY when
                // it renames it (SampleModel_V2: "ExpensiveSportCar" for LuxuryCar), so the
                // renaming identifier finds the row too.
                guard let n = entityNumbers[name] ?? e.renamingIdentifier.flatMap({ entityNumbers[$0] }) else {
                    throw StoreSchemaError("the store has no entity '\(name)' (its Z_PRIMARYKEY lists \(entityNumbers.keys.sorted().joined(separator: ", ")))")
                }
                numbers[ObjectIdentifier(e)] = n
            } else {
                numbers[ObjectIdentifier(e)] = e.entityNumber
            }
        }
        self.numbers = numbers
        entities = all.sorted { numbers[ObjectIdentifier($0)]! < numbers[ObjectIdentifier($1)]! }
        // Two entities can meet on one Z_ENT when a model's renaming identifier names another
        // entity the store lists (Dictionary(uniqueKeysWithValues:) would trap): a store this
        // model cannot open, not a crash.
        var entitiesByNumber: [Int: NSEntityDescription] = [:]
        for e in all {
            let n = numbers[ObjectIdentifier(e)]!
            if let other = entitiesByNumber[n] {
                throw StoreSchemaError("the entities '\(other.name ?? "")' and '\(e.name ?? "")' both map to the store's entity \(n) (Z_PRIMARYKEY); a renaming identifier names an entity the model still has")
            }
            entitiesByNumber[n] = e
        }
        self.entitiesByNumber = entitiesByNumber
        func number(_ e: NSEntityDescription) -> Int { numbers[ObjectIdentifier(e)]! }

        // Entity tables, one per root, holding the columns of every entity in the hierarchy.
        var tables: [StoreEntityTable] = []
        var tableByRoot: [ObjectIdentifier: StoreEntityTable] = [:]
        for root in entities where root.superentity == nil {
            let hierarchy = entities.filter { $0.rootEntity === root }
            let table = StoreEntityTable(name: "Z" + (root.name ?? "").uppercased(), rootEntity: root, entities: hierarchy)
            try table.addColumns(of: hierarchy, number: number)
            tables.append(table)
            tableByRoot[ObjectIdentifier(root)] = table
        }
        self.tables = tables
        self.tableByRoot = tableByRoot

        // Many-to-many join tables, one per relationship pair, and where each to-many reads from.
        var joinTables: [StoreJoinTable] = []
        var sources: [ObjectIdentifier: StoreToManySource] = [:]
        for e in entities {
            for case let r as NSRelationshipDescription in e.properties where r.isToMany && !r.isTransient {
                guard let destination = r.destinationEntity, let destinationTable = tableByRoot[ObjectIdentifier(destination.rootEntity)] else {
                    throw StoreSchemaError("to-many relationship '\(e.name ?? "?").\(r.name)' has no destination entity")
                }
                guard let inverse = r.inverseRelationship else {
                    throw StoreSchemaError("to-many relationship '\(e.name ?? "?").\(r.name)' has no inverse; the stores do not support one-way to-many relationships yet. Add an inverse relationship")
                }
                if !inverse.isToMany {
                    guard let fk = destinationTable.columnIndex(for: inverse) else {
                        throw StoreSchemaError("no foreign key column for '\(destination.name ?? "?").\(inverse.name)'")
                    }
                    let order = r.isOrdered ? destinationTable.orderColumnIndex(for: inverse) : nil
                    sources[ObjectIdentifier(r)] = .foreignKey(table: destinationTable, column: fk, orderColumn: order)
                    continue
                }
                guard inverse !== r else {
                    throw StoreSchemaError("'\(e.name ?? "?").\(r.name)' is its own inverse; the stores do not support that yet")
                }
                let join: StoreJoinTable
                if let existing = joinTables.first(where: { $0.primary === inverse }) {
                    join = existing
                } else {
                    guard let inverseOwner = inverse.entity else { throw StoreSchemaError("relationship '\(inverse.name)' belongs to no entity") }
                    let n = number(e), m = number(inverseOwner)
                    var primary = r
                    if m < n { primary = inverse }
                    if m == n {
                        // Reflexive: Apple's file says which relationship names the table.
                        let (first, second) = r.name < inverse.name ? (r, inverse) : (inverse, r)
                        primary = existingTables.contains("Z_\(n)\(second.name.uppercased())") && !existingTables.contains("Z_\(n)\(first.name.uppercased())") ? second : first
                    }
                    let secondary = primary === r ? inverse : r
                    join = StoreJoinTable(primary: primary, secondary: secondary,
                                           primaryOwnerNumber: number(primary === r ? e : inverseOwner), secondaryOwnerNumber: number(primary === r ? inverseOwner : e))
                    joinTables.append(join)
                }
                let targetTable = destinationTable
                if join.primary === r {
                    sources[ObjectIdentifier(r)] = .joinTable(join, ownerColumn: join.primaryOwnerSQL, targetColumn: join.secondaryOwnerSQL,
                                                              orderColumn: join.primaryOrderColumn.map(StoreSchema.quoted), targetTable: targetTable)
                } else {
                    sources[ObjectIdentifier(r)] = .joinTable(join, ownerColumn: join.secondaryOwnerSQL, targetColumn: join.primaryOwnerSQL,
                                                              orderColumn: join.secondaryOrderColumn.map(StoreSchema.quoted), targetTable: targetTable)
                }
            }
        }
        self.joinTables = joinTables
        self.toManySources = sources
    }

    /// `name` as a quoted SQL identifier (SQLite and PostgreSQL quote alike): generated SQL
    /// quotes every name, so that no name is ever read as SQL or, in PostgreSQL, folded to
    /// lower case.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: Lookup

    /// The `Z_ENT` of `entity` in this store.
    func number(of entity: NSEntityDescription) -> Int { numbers[ObjectIdentifier(entity)] ?? 0 }
    func entity(number: Int) -> NSEntityDescription? { entitiesByNumber[number] }
    /// The table holding rows of `entity` (its root's table).
    func table(for entity: NSEntityDescription) -> StoreEntityTable { tableByRoot[ObjectIdentifier(entity.rootEntity)]! }
    /// The table holding rows of `entity`, or nil when `entity` is not one of this schema's.
    func tableIfPresent(for entity: NSEntityDescription) -> StoreEntityTable? { tableByRoot[ObjectIdentifier(entity.rootEntity)] }
    /// Where the members of to-many relationship `relationship` are recorded.
    func toManySource(for relationship: NSRelationshipDescription) -> StoreToManySource? { toManySources[ObjectIdentifier(relationship)] }
}

/// The table of one inheritance hierarchy (`ZEMPLOYEE` holds Employee and Manager rows).
final class StoreEntityTable {
    /// `Z<ROOT>`, as it appears in `sqlite_master` and in the `CREATE` statements (unquoted,
    /// as Apple's are).
    let name: String
    /// `name` quoted, for the statements the store generates. A validated name needs no
    /// quoting; generated SQL quotes it anyway, so that no name can ever be read as SQL.
    let sqlName: String
    let rootEntity: NSEntityDescription
    /// The entities whose rows live here, in entity-number order.
    let entities: [NSEntityDescription]
    /// Whether every row is of one entity (no inheritance): its fetches need not test or read
    /// `Z_ENT`.
    var holdsOneEntity: Bool { entities.count == 1 }

    /// `Z_ENT IN (?, ...)`, to bind with `numbers`, for rows of those entities; nil for a table
    /// of one entity, whose rows are all of it (Apple's SQL has no test there either: SQLite
    /// would read the column from every row to compare it with the only number there is).
    func entityTest(_ numbers: [Int]) -> String? {
        holdsOneEntity ? nil : "Z_ENT IN (\(numbers.map { _ in "?" }.joined(separator: ", ")))"
    }
    /// The columns after `Z_PK, Z_ENT, Z_OPT`, in Apple's order.
    private(set) var columns: [StoreColumn] = []
    private var columnByProperty: [ObjectIdentifier: Int] = [:]
    private var companionByProperty: [ObjectIdentifier: Int] = [:]
    private var orderByProperty: [ObjectIdentifier: Int] = [:]
    /// Each composite attribute's leaf elements with their columns, in `leafElements` order.
    private var compositeLeavesByProperty: [ObjectIdentifier: [(leaf: CompositeLeaf, column: Int)]] = [:]

    init(name: String, rootEntity: NSEntityDescription, entities: [NSEntityDescription]) {
        self.name = name
        sqlName = StoreSchema.quoted(name)
        self.rootEntity = rootEntity
        self.entities = entities
    }

    /// The column of an attribute or the foreign key of a to-one relationship.
    func columnIndex(for property: NSPropertyDescription) -> Int? { columnByProperty[ObjectIdentifier(property)] }
    /// A composite attribute's leaf elements and their columns, in `leafElements` order.
    func leafColumns(for composite: NSCompositeAttributeDescription) -> [(leaf: CompositeLeaf, column: Int)]? {
        compositeLeavesByProperty[ObjectIdentifier(composite)]
    }
    /// The attribute at `keyPath` of `entity` and its column: a stored attribute (`name`) or a
    /// composite's leaf element (`location.latitude`); nil for anything else.
    func attributeColumn(forKeyPath keyPath: ArraySlice<String>, of entity: NSEntityDescription) -> (attribute: NSAttributeDescription, column: Int)? {
        guard let name = keyPath.first, let attribute = entity.propertiesByName[name] as? NSAttributeDescription, !attribute.isTransient else { return nil }
        if keyPath.count == 1 { return columnIndex(for: attribute).map { (attribute, $0) } }
        guard let composite = attribute as? NSCompositeAttributeDescription,
              let entry = leafColumns(for: composite)?.first(where: { $0.leaf.path[...] == keyPath.dropFirst() }) else { return nil }
        return (entry.leaf.attribute, entry.column)
    }
    /// The `Z<n>_<NAME>` column holding a to-one target's `Z_ENT`, when its destination has subentities.
    func companionIndex(for relationship: NSRelationshipDescription) -> Int? { companionByProperty[ObjectIdentifier(relationship)] }
    /// The `Z_FOK_<NAME>` column ordering the rows in their ordered to-many inverse.
    func orderColumnIndex(for relationship: NSRelationshipDescription) -> Int? { orderByProperty[ObjectIdentifier(relationship)] }

    /// Adds the columns of the properties each entity of `hierarchy` declares, in the order
    /// Apple's framework uses, so a table we create looks like one Apple creates. Seen in its
    /// stores (ZCAR: `ZOWNER` of Car, `ZISLIMITEDEDITION` of a subentity, then Car's date and
    /// strings): columns come in type classes — integers, booleans and foreign keys; dates and
    /// floats; decimals; strings; UUIDs; other blobs — each class entity by entity in
    /// entity-number order, and by name within an entity (integers before foreign keys before
    /// `Z_FOK_` order columns in the first class).
    func addColumns(of hierarchy: [NSEntityDescription], number: (NSEntityDescription) -> Int) throws {
        enum Item {
            case attribute(NSAttributeDescription, type: String)
            /// A leaf element of a composite attribute, by its index in `leafElements`.
            case compositeLeaf(NSCompositeAttributeDescription, leaf: Int, type: String)
            case toOne(NSRelationshipDescription)
            case order(NSRelationshipDescription)
        }
        // groups[entity][group]: 0 integers, 1 foreign keys, 2 order keys, 3 dates and floats,
        // 4 decimals, 5 strings, 6 UUIDs, 7 other blobs.
        var groups: [[[(name: String, item: Item)]]] = []
        for entity in hierarchy {
            var mine: [[(name: String, item: Item)]] = Array(repeating: [], count: 8)
            for property in entity.properties where !property.isTransient {
                if let composite = property as? NSCompositeAttributeDescription {
                    // No column of its own: each leaf element gets one, named and ordered as
                    // an attribute of the leaf's name and type would be (Apple's layout).
                    let leaves = composite.leafElements
                    compositeLeavesByProperty[ObjectIdentifier(composite)] = leaves.map { ($0, -1) }  // columns below
                    for (i, leaf) in leaves.enumerated() {
                        let (type, group) = try Self.columnType(of: leaf.attribute, entity: entity, keyPath: leaf.keyPath(in: composite))
                        mine[group].append((leaf.attribute.name.uppercased(), .compositeLeaf(composite, leaf: i, type: type)))
                    }
                } else if let attribute = property as? NSAttributeDescription {
                    let (type, group) = try Self.columnType(of: attribute, entity: entity)
                    mine[group].append((attribute.name.uppercased(), .attribute(attribute, type: type)))
                } else if let relationship = property as? NSRelationshipDescription, !relationship.isToMany {
                    mine[1].append((relationship.name.uppercased(), .toOne(relationship)))
                    if let inverse = relationship.inverseRelationship, inverse.isToMany, inverse.isOrdered {
                        mine[2].append((relationship.name.uppercased(), .order(relationship)))
                    }
                }
            }
            groups.append(mine.map { $0.sorted { $0.name < $1.name } })
        }
        for typeClass in [[0, 1, 2], [3], [4], [5], [6], [7]] {
            for mine in groups {
                for (upper, item) in typeClass.flatMap({ mine[$0] }) {
                    switch item {
                    case let .attribute(attribute, type):
                        columnByProperty[ObjectIdentifier(attribute)] = append("Z" + upper, type, .attribute(attribute))
                    case let .compositeLeaf(composite, leaf, type):
                        compositeLeavesByProperty[ObjectIdentifier(composite)]![leaf].column = append("Z" + upper, type, .compositeLeaf(composite, leaf: leaf))
                    case let .toOne(relationship):
                        columnByProperty[ObjectIdentifier(relationship)] = append("Z" + upper, "INTEGER", .foreignKey(relationship))
                        if let destination = relationship.destinationEntity, !destination.subentities.isEmpty {
                            companionByProperty[ObjectIdentifier(relationship)] = append("Z\(number(destination))_\(upper)", "INTEGER", .foreignEntity(relationship))
                        }
                    case let .order(relationship):
                        orderByProperty[ObjectIdentifier(relationship)] = append("Z_FOK_" + upper, "INTEGER", .order(relationship))
                    }
                }
            }
        }
    }

    /// Appends a column and returns its index.
    private func append(_ name: String, _ type: String, _ kind: StoreColumn.Kind) -> Int {
        // Two subentities may declare properties of the same name; Apple suffixes a number.
        var unique = name
        var suffix = 1
        while columns.contains(where: { $0.name == unique }) { unique = name + String(suffix); suffix += 1 }
        columns.append(StoreColumn(name: unique, type: type, kind: kind))
        return columns.count - 1
    }

    /// Apple's (SQLite) column type for an attribute, and its group in the column order.
    /// `keyPath`: the attribute's name in messages (a composite element's `location.latitude`).
    static func columnType(of attribute: NSAttributeDescription, entity: NSEntityDescription, keyPath: String? = nil) throws -> (String, Int) {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: return ("INTEGER", 0)
        case .doubleAttributeType, .floatAttributeType: return ("FLOAT", 3)
        case .dateAttributeType: return ("TIMESTAMP", 3)
        case .decimalAttributeType: return ("DECIMAL", 4)
        case .stringAttributeType, .URIAttributeType: return ("VARCHAR", 5)
        case .UUIDAttributeType: return ("BLOB", 6)
        case .binaryDataAttributeType, .transformableAttributeType: return ("BLOB", 7)
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            throw StoreSchemaError("attribute '\(entity.name ?? "?").\(keyPath ?? attribute.name)' has type \(attribute.attributeType), which a store can't persist; make it transient or change its type")
        }
    }
}

/// A column of an entity table.
struct StoreColumn {
    enum Kind {
        case attribute(NSAttributeDescription)
        /// A leaf element of a composite attribute, by its index in `leafElements`.
        case compositeLeaf(NSCompositeAttributeDescription, leaf: Int)
        /// The target's `Z_PK` of a to-one relationship.
        case foreignKey(NSRelationshipDescription)
        /// The target's `Z_ENT` of a to-one relationship whose destination has subentities.
        case foreignEntity(NSRelationshipDescription)
        /// The position of this row in the ordered to-many inverse of the to-one relationship.
        case order(NSRelationshipDescription)
    }
    let name: String
    /// `name` quoted, for generated statements (see ``StoreEntityTable/sqlName``).
    let sqlName: String
    /// Apple's SQLite column type (`INTEGER`, `VARCHAR`, ...); the PostgreSQL store picks its own from `kind`.
    let type: String
    let kind: Kind

    init(name: String, type: String, kind: Kind) {
        self.name = name
        sqlName = StoreSchema.quoted(name)
        self.type = type
        self.kind = kind
    }
}

/// The join table of a many-to-many relationship pair: `Z_<n(E)><R>` with columns
/// `Z_<n(E)><INVERSE>` (the `Z_PK`s of E's side) and `Z_<n(D)><R>` (the `Z_PK`s of D's side),
/// where R is the relationship declared on E that names the table.
final class StoreJoinTable {
    /// The relationship the table is named after, and its inverse.
    let primary: NSRelationshipDescription
    let secondary: NSRelationshipDescription
    let name: String
    /// Holds the `Z_PK`s of the objects that own `primary`.
    let primaryOwnerColumn: String
    /// Holds the `Z_PK`s of the objects that own `secondary` (the members of `primary`).
    let secondaryOwnerColumn: String
    /// Orders the members of `primary` when it is ordered (`Z_FOK_1FAVORITES`).
    let primaryOrderColumn: String?
    let secondaryOrderColumn: String?
    /// The names above quoted, for generated statements (see ``StoreEntityTable/sqlName``).
    let sqlName: String, primaryOwnerSQL: String, secondaryOwnerSQL: String

    init(primary: NSRelationshipDescription, secondary: NSRelationshipDescription, primaryOwnerNumber: Int, secondaryOwnerNumber: Int) {
        self.primary = primary
        self.secondary = secondary
        name = "Z_\(primaryOwnerNumber)\(primary.name.uppercased())"
        primaryOwnerColumn = "Z_\(primaryOwnerNumber)\(secondary.name.uppercased())"
        secondaryOwnerColumn = "Z_\(secondaryOwnerNumber)\(primary.name.uppercased())"
        primaryOrderColumn = primary.isOrdered ? "Z_FOK_" + secondaryOwnerColumn.dropFirst(2) : nil
        secondaryOrderColumn = secondary.isOrdered ? "Z_FOK_" + primaryOwnerColumn.dropFirst(2) : nil
        sqlName = StoreSchema.quoted(name)
        primaryOwnerSQL = StoreSchema.quoted(primaryOwnerColumn)
        secondaryOwnerSQL = StoreSchema.quoted(secondaryOwnerColumn)
    }

    /// The conflict clause of an `INSERT` of pairs into this table (SQLite and PostgreSQL
    /// spell it alike). Both sides of a many-to-many write the same pairs; a pair already
    /// there stays, and only the writing side's `orderColumn` (quoted), if it has one, takes
    /// the new position, so the other side's order survives.
    func onConflictClause(updating orderColumn: String?) -> String {
        let action = orderColumn.map { "DO UPDATE SET \($0) = excluded.\($0)" } ?? "DO NOTHING"
        return "ON CONFLICT (\(primaryOwnerSQL), \(secondaryOwnerSQL)) \(action)"
    }
}

/// Where the members of a to-many relationship are recorded.
enum StoreToManySource {
    /// One-to-many: the destination rows' foreign key `column` (an index into the table's columns).
    case foreignKey(table: StoreEntityTable, column: Int, orderColumn: Int?)
    /// Many-to-many: pairs in a join table; `targetTable` holds the members' rows (for their `Z_ENT`).
    /// The column names are quoted, ready for generated SQL.
    case joinTable(StoreJoinTable, ownerColumn: String, targetColumn: String, orderColumn: String?, targetTable: StoreEntityTable)

    /// Whether a save writes this relationship apart from the owner's and members' rows: a
    /// join table's pairs, or an ordered one-to-many's positions in its members' order
    /// column. An unordered one-to-many lives wholly in the members' foreign keys.
    var isWrittenApart: Bool {
        switch self {
        case .joinTable: return true
        case .foreignKey(_, _, let orderColumn): return orderColumn != nil
        }
    }
}

/// A model Core Data's table layout can't express; the store reports it as an NSError.
struct StoreSchemaError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
