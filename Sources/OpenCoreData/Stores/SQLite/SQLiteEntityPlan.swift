import Foundation

/// How rows of one entity are read from and written to its table, computed once when the store
/// opens: for each value slot, the column (or relationship source) it comes from, and the SQL
/// of the entity's INSERT and UPDATE.
///
/// ```swift
/// let plan = SQLiteEntityPlan(entity: manager, schema: schema, store: store)
/// plan.insertSQL   // INSERT INTO ZEMPLOYEE (Z_PK, Z_ENT, Z_OPT, ZSALARY, ..., ZBONUS) VALUES (?, ...)
/// plan.slots[3]    // .attribute(column: 6, salary)
/// ```
///
/// Decoding goes slot by slot with typed column reads, so a row costs no `Any` boxing.
final class SQLiteEntityPlan {
    enum Slot {
        /// An attribute in the SELECT list's column `column`.
        case attribute(column: Int32, NSAttributeDescription)
        /// A Binary attribute that allows external storage: a marker byte, then the bytes or
        /// the name of their file (``SQLiteExternalData``).
        case externalData(column: Int32)
        /// A composite attribute: its leaf elements' columns, read into one dictionary.
        case composite(StoreCompositeColumns)
        /// A to-one: the target's `Z_PK` in `foreignKey`, its `Z_ENT` in `companion` if the
        /// destination has subentities (otherwise the target is of the destination entity).
        case toOne(foreignKey: Int32, companion: Int32?, destination: NSEntityDescription)
        /// A to-many, loaded by a second query (``StoreToManySource``).
        case toMany(NSRelationshipDescription)
        /// Transient and fetched properties: not stored; a fetched row carries this value.
        case notStored(StoredValue)
    }

    /// A bound parameter of INSERT and UPDATE, after the leading `Z_PK, Z_ENT, Z_OPT` ones.
    enum Write {
        /// An Integer, Double, Float or Boolean attribute stored in its column: bound straight
        /// from the stored value (no description to retain per row; other values go through
        /// `slots`, as `attribute` does).
        case scalar(slot: Int)
        case attribute(slot: Int, NSAttributeDescription)
        /// One leaf element of a composite attribute's dictionary.
        case compositeLeaf(slot: Int, StoreCompositeColumns, leaf: Int)
        case foreignKey(slot: Int)
        case foreignEntity(slot: Int)
    }

    let entity: NSEntityDescription
    /// What the IDs of this entity's records in the store share; decoded rows carry it.
    let origin: ObjectIDOrigin
    let table: StoreEntityTable
    let entityNumber: Int
    let slots: [Slot]
    let writes: [Write]
    let insertSQL: String
    /// `UPDATE ... SET Z_OPT = ?, ... WHERE Z_PK = ? AND Z_OPT = ?`: the optimistic-locking check
    /// and the write are one statement.
    let updateSQL: String
    /// How each slot is decoded, for the common scalar types without touching `slots`: its
    /// cases carry class references (attribute descriptions) that cost a retain and release
    /// per column of every fetched row.
    let reads: [ScalarRead]

    enum ScalarRead {
        case integer(column: Int32)
        case double(column: Int32)
        case bool(column: Int32)
        /// Anything else: decode through `slots`.
        case general
    }

    /// How many of a decoded row's values are expected not to fit a ``RowValues`` cell (text,
    /// data, object IDs, ...): the places its storage is made with.
    let placesForOtherValues: Int

    /// The relationships of `slots` that are to-many, with their slot index.
    let toManySlots: [(slot: Int, relationship: NSRelationshipDescription)]
    /// Binary attributes that allow external storage, with their slot and column: a save
    /// reads their old columns first, to know which files it replaces (``SQLiteExternalDataSave``).
    let externalDataSlots: [(slot: Int, column: String)]

    private static func isScalar(_ attribute: NSAttributeDescription) -> Bool {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
            return !attribute.storesExternally
        default:
            return false
        }
    }

    /// Whether the attribute's values fit a ``RowValues`` cell (numbers, Booleans, dates).
    private static func decodesToCell(_ attribute: NSAttributeDescription) -> Bool {
        isScalar(attribute) || attribute.attributeType == .dateAttributeType
    }

    /// The SELECT list shared by every entity of a table: `Z_PK, Z_ENT, Z_OPT`, then all columns.
    /// A table of one entity selects `0` for `Z_ENT`, as Apple's fetches do: every row is of
    /// that entity, and ``DecodedRows`` does not read the column.
    static func selectList(of table: StoreEntityTable) -> String {
        (["Z_PK", table.holdsOneEntity ? "0" : "Z_ENT", "Z_OPT"] + table.columns.map(\.sqlName)).joined(separator: ", ")
    }

    init(entity: NSEntityDescription, schema: StoreSchema, store: NSPersistentStore) {
        self.entity = entity
        origin = ObjectIDOrigin(entity: entity, store: store)
        let table = schema.table(for: entity)
        self.table = table
        entityNumber = schema.number(of: entity)
        var slots: [Slot] = []
        var writes: [Write] = []
        var columnNames: [String] = []
        var toMany: [(Int, NSRelationshipDescription)] = []
        var external: [(Int, String)] = []
        for (i, property) in (entity.layout?.properties ?? entity.allProperties).enumerated() {
            if property.isTransient || property is NSFetchedPropertyDescription {
                let initial: StoredValue
                if let a = property as? NSAttributeDescription { initial = a.defaultStoredValue }
                else if let r = property as? NSRelationshipDescription, r.isToMany { initial = .objectIDs([]) }
                else { initial = .null }
                slots.append(.notStored(initial))
            } else if let composite = property as? NSCompositeAttributeDescription, let leafColumns = table.leafColumns(for: composite) {
                let columns = StoreCompositeColumns(composite, leaves: leafColumns.map { ($0.leaf, 3 + $0.column) })
                slots.append(.composite(columns))
                for (leaf, entry) in leafColumns.enumerated() {
                    writes.append(.compositeLeaf(slot: i, columns, leaf: leaf))
                    columnNames.append(table.columns[entry.column].sqlName)
                }
            } else if let attribute = property as? NSAttributeDescription, let c = table.columnIndex(for: attribute) {
                slots.append(attribute.storesExternally ? .externalData(column: Int32(3 + c)) : .attribute(column: Int32(3 + c), attribute))
                writes.append(Self.isScalar(attribute) ? .scalar(slot: i) : .attribute(slot: i, attribute))
                columnNames.append(table.columns[c].sqlName)
                if attribute.storesExternally { external.append((i, table.columns[c].sqlName)) }
            } else if let r = property as? NSRelationshipDescription, !r.isToMany, let c = table.columnIndex(for: r), let destination = r.destinationEntity {
                let companion = table.companionIndex(for: r)
                slots.append(.toOne(foreignKey: Int32(3 + c), companion: companion.map { Int32(3 + $0) }, destination: destination))
                writes.append(.foreignKey(slot: i))
                columnNames.append(table.columns[c].sqlName)
                if let companion {
                    writes.append(.foreignEntity(slot: i))
                    columnNames.append(table.columns[companion].sqlName)
                }
            } else if let r = property as? NSRelationshipDescription, r.isToMany {
                slots.append(.toMany(r))
                toMany.append((i, r))
            } else {
                slots.append(.notStored(.null))
            }
        }
        self.slots = slots
        reads = slots.map { slot in
            guard case let .attribute(column, attribute) = slot else { return .general }
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return .integer(column: column)
            case .doubleAttributeType, .floatAttributeType: return .double(column: column)
            case .booleanAttributeType: return .bool(column: column)
            default: return .general
            }
        }
        placesForOtherValues = slots.reduce(0) { count, slot in
            switch slot {
            case .attribute(_, let attribute): return count + (Self.decodesToCell(attribute) ? 0 : 1)
            case .notStored(let value): return count + (value.compactCell == nil ? 1 : 0)
            case .externalData, .composite, .toOne, .toMany: return count + 1
            }
        }
        self.writes = writes
        self.toManySlots = toMany
        self.externalDataSlots = external
        let insertColumns = ["Z_PK", "Z_ENT", "Z_OPT"] + columnNames
        insertSQL = "INSERT INTO \(table.sqlName) (\(insertColumns.joined(separator: ", "))) VALUES (\(insertColumns.map { _ in "?" }.joined(separator: ", ")))"
        updateSQL = Self.updateSQL(table: table.sqlName, columns: columnNames)
        self.columnNames = columnNames
    }

    /// The column of each of `writes`, quoted.
    private let columnNames: [String]
    /// UPDATEs of some columns, by ``changedWrites(from:to:)`` mask. Guarded by the store's lock,
    /// like every save. The same string for the same mask lets the connection find its prepared
    /// statement by a pointer compare.
    private var partialUpdateSQL: [UInt64: String] = [:]
    /// At most this many partial UPDATEs per entity: each is a prepared statement the
    /// connection keeps, and an entity of n columns has 2^n of them. Past it, the full UPDATE.
    static let partialUpdateLimit = 64

    private static func updateSQL(table: String, columns: [String]) -> String {
        "UPDATE \(table) SET \((["Z_OPT"] + columns).map { "\($0) = ?" }.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
    }

    /// Which of `writes` differ between a record's values `old` and `new`, one bit each (bit
    /// `w` for `writes[w]`); nil when all of them are written anyway: every one changed, or the
    /// entity has more than 64 columns.
    func changedWrites(from old: RowValues, to new: RowValues) -> UInt64? {
        guard writes.count <= 64, old.count == new.count else { return nil }
        var mask: UInt64 = 0
        for (w, write) in writes.enumerated() {
            let slot = write.slot
            if !new[slot].isSame(as: old[slot]) { mask |= 1 << UInt64(w) }
        }
        return mask == (writes.count == 64 ? ~0 : (1 << UInt64(writes.count)) - 1) ? nil : mask
    }

    /// `UPDATE ... SET Z_OPT = ?, <the masked columns> WHERE Z_PK = ? AND Z_OPT = ?`; nil once
    /// ``partialUpdateLimit`` other masks have one (then write every column).
    func updateSQL(writing mask: UInt64) -> String? {
        if let sql = partialUpdateSQL[mask] { return sql }
        guard partialUpdateSQL.count < Self.partialUpdateLimit else { return nil }
        let columns = columnNames.indices.filter { mask & (1 << UInt64($0)) != 0 }.map { columnNames[$0] }
        let sql = Self.updateSQL(table: table.sqlName, columns: columns)
        partialUpdateSQL[mask] = sql
        return sql
    }
}

extension SQLiteEntityPlan.Write {
    /// The value slot the parameter is bound from.
    var slot: Int {
        switch self {
        case let .scalar(slot), let .attribute(slot, _), let .compositeLeaf(slot, _, _), let .foreignKey(slot), let .foreignEntity(slot): return slot
        }
    }
}

extension NSAttributeDescription {
    /// A Binary attribute whose values the SQLite store may keep in files (Apple's store
    /// ignores the flag on other types).
    var storesExternally: Bool { allowsExternalBinaryDataStorage && attributeType == .binaryDataAttributeType }
}
