import Foundation

/// How rows of one entity are read from and written to its PostgreSQL table, computed once
/// when the store opens: where each value slot comes from, and the entity's INSERT and UPDATE.
///
/// ```swift
/// let plan = try PostgreSQLEntityPlan(entity: manager, schema: schema, store: store)
/// plan.insertColumns   // "Z_PK", "Z_ENT", "Z_OPT", "ZSALARY", ..., "ZBONUS"
/// plan.slots[3]        // .attribute(column: 6, salary): the 7th value of a row of the SELECT list
/// ```
///
/// Rows are read with ``PostgreSQLSchema/selectList(of:)``: `Z_PK, Z_ENT, Z_OPT`, then every
/// column of the table, so a column's value is at `3 + ` its index in the table.
final class PostgreSQLEntityPlan {
    enum Slot {
        case attribute(column: Int, NSAttributeDescription)
        /// A composite attribute: its leaf elements' columns, read into one dictionary.
        case composite(StoreCompositeColumns)
        /// The target's `Z_PK` in `foreignKey`, its `Z_ENT` in `companion` when the
        /// destination has subentities.
        case toOne(foreignKey: Int, companion: Int?, destination: NSEntityDescription)
        /// Loaded when first read (`relationshipValue`), as Apple's stores fault to-many
        /// relationships separately.
        case toMany(NSRelationshipDescription)
        /// Transient and fetched properties: not stored.
        case notStored(StoredValue)
    }

    /// A parameter of INSERT and UPDATE after `Z_PK, Z_ENT, Z_OPT`.
    enum Write {
        case attribute(slot: Int, NSAttributeDescription)
        /// One leaf element of a composite attribute's dictionary.
        case compositeLeaf(slot: Int, StoreCompositeColumns, leaf: Int)
        case foreignKey(slot: Int)
        case foreignEntity(slot: Int)
    }

    let entity: NSEntityDescription
    let origin: ObjectIDOrigin
    let table: StoreEntityTable
    let entityNumber: Int
    let slots: [Slot]
    let writes: [Write]
    /// `$n` with the column's cast (`$4::numeric`), per write.
    let writeCasts: [String]
    /// The quoted columns of INSERT: `Z_PK, Z_ENT, Z_OPT`, then those of `writes`.
    let insertColumns: [String]
    /// `UPDATE ... SET "Z_OPT" = $1, ... WHERE "Z_PK" = $n AND "Z_OPT" = $n+1 RETURNING "Z_PK"`:
    /// the optimistic-locking check and the write are one statement.
    let updateSQL: String
    /// The to-many relationships of `slots`, with their slot.
    let toManySlots: [(slot: Int, relationship: NSRelationshipDescription)]

    init(entity: NSEntityDescription, schema: StoreSchema, store: NSPersistentStore) throws {
        self.entity = entity
        origin = ObjectIDOrigin(entity: entity, store: store)
        table = schema.table(for: entity)
        entityNumber = schema.number(of: entity)
        var slots: [Slot] = [], writes: [Write] = [], columns: [StoreColumn] = [], toMany: [(Int, NSRelationshipDescription)] = []
        for (i, property) in (entity.layout?.properties ?? entity.allProperties).enumerated() {
            if property.isTransient || property is NSFetchedPropertyDescription {
                if let a = property as? NSAttributeDescription { slots.append(.notStored(a.defaultStoredValue)) }
                else if let r = property as? NSRelationshipDescription, r.isToMany { slots.append(.notStored(.objectIDs([]))) }
                else { slots.append(.notStored(.null)) }
            } else if let composite = property as? NSCompositeAttributeDescription, let leafColumns = table.leafColumns(for: composite) {
                let composite = StoreCompositeColumns(composite, leaves: leafColumns.map { ($0.leaf, 3 + $0.column) })
                slots.append(.composite(composite))
                for (leaf, entry) in leafColumns.enumerated() {
                    writes.append(.compositeLeaf(slot: i, composite, leaf: leaf))
                    columns.append(table.columns[entry.column])
                }
            } else if let attribute = property as? NSAttributeDescription, let c = table.columnIndex(for: attribute) {
                slots.append(.attribute(column: 3 + c, attribute))
                writes.append(.attribute(slot: i, attribute))
                columns.append(table.columns[c])
            } else if let r = property as? NSRelationshipDescription, !r.isToMany, let c = table.columnIndex(for: r), let destination = r.destinationEntity {
                let companion = table.companionIndex(for: r)
                slots.append(.toOne(foreignKey: 3 + c, companion: companion.map { 3 + $0 }, destination: destination))
                writes.append(.foreignKey(slot: i))
                columns.append(table.columns[c])
                if let companion {
                    writes.append(.foreignEntity(slot: i))
                    columns.append(table.columns[companion])
                }
            } else if let r = property as? NSRelationshipDescription, r.isToMany {
                slots.append(.toMany(r))
                toMany.append((i, r))
            } else {
                slots.append(.notStored(.null))
            }
        }
        self.slots = slots
        self.writes = writes
        toManySlots = toMany
        let casts = columns.map { PostgreSQLSchema.cast(of: $0) }
        writeCasts = casts
        insertColumns = ["\"Z_PK\"", "\"Z_ENT\"", "\"Z_OPT\""] + columns.map(\.sqlName)
        var sets = ["\"Z_OPT\" = $1"]
        for (i, column) in columns.enumerated() { sets.append("\(column.sqlName) = $\(i + 2)\(casts[i])") }
        updateSQL = "UPDATE \(table.sqlName) SET \(sets.joined(separator: ", ")) WHERE \"Z_PK\" = $\(columns.count + 2) AND \"Z_OPT\" = $\(columns.count + 3) RETURNING \"Z_PK\""
    }

    /// `($1, $2, ...), ($n, ...)`: the VALUES of an INSERT of `rows` rows.
    func insertValues(rows: Int) -> String {
        let width = insertColumns.count
        var tuples: [String] = []
        tuples.reserveCapacity(rows)
        for row in 0..<rows {
            var parameters: [String] = []
            for c in 0..<width {
                let cast = c < 3 ? "" : writeCasts[c - 3]
                parameters.append("$\(row * width + c + 1)\(cast)")
            }
            tuples.append("(" + parameters.joined(separator: ", ") + ")")
        }
        return tuples.joined(separator: ", ")
    }
}
