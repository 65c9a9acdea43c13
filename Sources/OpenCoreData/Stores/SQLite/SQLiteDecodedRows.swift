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

    /// Steps `statement` to its end, decoding each row.
    ///
    /// Rows of a table of one entity share its plan, taken once here: looked up row by row,
    /// it was a reference count taken and given back per row.
    mutating func appendRows(of statement: SQLiteStatement, from store: SQLiteStore) throws {
        guard let plan = soleEntityPlan else {
            while try statement.step() { try append(statement, from: store) }
            return
        }
        let first = rows.count
        while try statement.step() {
            let pk = statement.int64(at: 0)
            let values = store.decodeValues(statement, plan: plan)
            rows.append(StoreRow(identity: .stored(plan.origin, primaryKey: pk), values: values, version: statement.int64(at: 2)))
        }
        if !plan.toManySlots.isEmpty { toManyOwners += (first..<rows.count).map { ($0, plan) } }
    }

    /// Decodes the statement's current row. `reusing` is the ID the caller asked for, kept when
    /// the row is of its entity (no second ID object for one record).
    mutating func append(_ statement: SQLiteStatement, from store: SQLiteStore, reusing id: ObjectIdentity? = nil) throws {
        let plan = try store.plan(ofCurrentRow: statement, soleEntityPlan: soleEntityPlan)
        let pk = statement.int64(at: 0)
        let values = store.decodeValues(statement, plan: plan)
        let version = statement.int64(at: 2)
        if !plan.toManySlots.isEmpty { toManyOwners.append((rows.count, plan)) }
        // A new row names its record without an ID object (made only if something asks).
        let identity: ObjectIdentity = id.flatMap { $0.entity === plan.entity && $0.primaryKey == pk ? $0 : nil }
            ?? .stored(plan.origin, primaryKey: pk)
        rows.append(StoreRow(identity: identity, values: values, version: version))
    }
}
