import Foundation

/// Rows read from a `SELECT` of entity tables, as store rows, with the rows whose to-many
/// slots are still empty (their members come from other tables, in one query per
/// relationship: ``SQLiteStore/completeToMany(_:in:byOwner:skipping:)``).
///
/// Rows go straight into their final array: an entity without to-many relationships — the
/// common case of a large fetch — costs one `StoreRow` per row and nothing else.
struct DecodedRows {
    var rows: [StoreRow] = []
    /// Indexes into `rows` of the rows whose plan has to-many slots, with that plan.
    var toManyOwners: [(index: Int, plan: SQLiteEntityPlan)] = []
    /// The plan of every row when the table holds one entity: its `Z_ENT` is not read
    /// (``SQLiteEntityPlan/selectList(of:)`` selects `0` for it).
    let soleEntityPlan: SQLiteEntityPlan?

    /// Rows of a `SELECT` of ``SQLiteEntityPlan/selectList(of:)`` from `table`.
    init(of table: SQLiteEntityTable, in store: SQLiteStore) {
        soleEntityPlan = store.soleEntityPlan(of: table)
    }

    /// Decodes the statement's current row. `reusing` is the ID the caller asked for, kept when
    /// the row is of its entity (no second ID object for one record).
    mutating func append(_ statement: SQLiteStatement, from store: SQLiteStore, reusing id: ObjectIdentity? = nil) throws {
        let (plan, pk, version, values) = try store.decode(statement, soleEntityPlan: soleEntityPlan)
        if !plan.toManySlots.isEmpty { toManyOwners.append((rows.count, plan)) }
        // A new row names its record without an ID object (made only if something asks).
        let identity: ObjectIdentity = id.flatMap { $0.entity === plan.entity && $0.primaryKey == pk ? $0 : nil }
            ?? .stored(plan.origin, primaryKey: pk)
        rows.append(StoreRow(identity: identity, values: values, version: version))
    }
}
