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
    init(of table: StoreEntityTable, in store: SQLiteStore) {
        soleEntityPlan = store.soleEntityPlan(of: table)
    }

    /// Steps `statement` to its end, decoding each row. `requested`, in key order, are the
    /// identities the caller asked for (``SQLiteStore/rows(for:)``): a row keeps the ID object
    /// of its record if it was asked for by one, instead of making a second.
    ///
    /// Rows of a table of one entity share its plan, taken once here: looked up row by row,
    /// it was a reference count taken and given back per row.
    mutating func appendRows(of statement: SQLiteStatement, from store: SQLiteStore, reusing requested: ArraySlice<ObjectIdentity> = []) throws {
        var cursor = requested.startIndex
        /// The identity asked for the record with `pk`, if any: rows come in key order too.
        func requestedIdentity(_ pk: Int64) -> ObjectIdentity? {
            while cursor < requested.endIndex, requested[cursor].primaryKey < pk { cursor += 1 }
            return cursor < requested.endIndex ? requested[cursor] : nil
        }
        guard let plan = soleEntityPlan else {
            while try statement.step() { try append(statement, from: store, reusing: requestedIdentity(statement.int64(at: 0))) }
            return
        }
        let first = rows.count
        if requested.isEmpty {
            // Two loops rather than a test per row: with the test, the compiler took and gave
            // back one more reference count per row.
            while try statement.step() {
                let pk = statement.int64(at: 0)
                let values = store.decodeValues(statement, plan: plan)
                rows.append(StoreRow(identity: .stored(plan.origin, primaryKey: pk), values: values, version: statement.int64(at: 2)))
            }
        } else {
            while try statement.step() {
                let pk = statement.int64(at: 0)
                let values = store.decodeValues(statement, plan: plan)
                rows.append(StoreRow(identity: Self.identity(pk, of: plan, requested: requestedIdentity(pk)), values: values, version: statement.int64(at: 2)))
            }
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
        rows.append(StoreRow(identity: Self.identity(pk, of: plan, requested: id), values: values, version: version))
    }

    /// The identity of the row with `pk`, of `plan`'s entity: `requested` when it names that
    /// record (an ID object asked with is kept: no second one for the record), else the plan's
    /// origin and the key, without an ID object (made only if something asks).
    private static func identity(_ pk: Int64, of plan: SQLiteEntityPlan, requested: ObjectIdentity?) -> ObjectIdentity {
        if let requested, requested.entity === plan.entity, requested.primaryKey == pk { return requested }
        return .stored(plan.origin, primaryKey: pk)
    }
}
