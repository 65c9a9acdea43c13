import Foundation

extension PostgreSQLStore {
    /// Translates `plan` once: its entities and the part of its predicate SQL can decide.
    func prepareFetch(_ plan: FetchPlan) throws -> any PreparedStoreFetch {
        lock.lock(); defer { lock.unlock() }
        return PostgreSQLFetch(plan: plan, store: self)
    }

    /// The rows `fetch` selects: its answer (ordered and limited in SQL), or its candidates.
    fileprivate func rows(of fetch: PostgreSQLFetch, _ form: FetchForm) throws -> [StoreRow] {
        lock.lock(); defer { lock.unlock() }
        guard let table = fetch.table, let whereClause = fetch.whereClause else { return [] }
        var sql = "SELECT \(selectList(of: table)) FROM \(table.sqlName)\(whereClause)"
        var values = fetch.values
        if form == .answer, let (orderAndLimit, limitValues) = fetch.orderAndLimit {
            sql += orderAndLimit
            values += limitValues
            return try query(sql, values).map { try decode($0, from: table) }
        }
        // Otherwise ordered here, not by an ORDER BY: with one, the planner may walk the whole
        // primary-key index to skip a sort rather than use the index of the filter (it did on a
        // table not yet analyzed: 15 ms for 2,000 of 200,000 rows, against 1 ms). Rows mostly
        // arrive in key order already, and then the check is all the sorting costs.
        var rows = try query(sql, values).map { try decode($0, from: table) }
        if form == .candidates || fetch.inKeyOrder,
           rows.indices.dropFirst().contains(where: { rows[$0 - 1].key.primaryKey > rows[$0].key.primaryKey }) {
            rows.sort { $0.key.primaryKey < $1.key.primaryKey }
        }
        return rows
    }

    fileprivate func count(of fetch: PostgreSQLFetch) throws -> Int {
        lock.lock(); defer { lock.unlock() }
        guard let table = fetch.table, let whereClause = fetch.whereClause else { return 0 }
        var sql = "SELECT count(*) FROM \(table.sqlName)\(whereClause)"
        var values = fetch.values
        if let (orderAndLimit, limitValues) = fetch.orderAndLimit, !limitValues.isEmpty {
            sql = "SELECT count(*) FROM (SELECT \"Z_PK\" FROM \(table.sqlName)\(whereClause)\(orderAndLimit)) AS page"
            values += limitValues
        }
        guard case .integer(let count)? = try query(sql, values).first?.first else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The PostgreSQL store at \(describedURL) answered a count without a number.")
        }
        return Int(count)
    }
}

/// A fetch of the PostgreSQL store: the rows of the plan's entities that its predicate may
/// match (``PostgreSQLCandidateFilter``). Exact — the context takes the rows as the answer — when
/// the SQL decides the whole predicate (or there is none) and every sort descriptor (see
/// ``orderTerm(_:entity:table:)``); then offset and limit are SQL's too. Otherwise the context
/// evaluates the rest in memory.
///
/// ```swift
/// let fetch = try store.prepareFetch(plan)   // "age > 20", sorted by age, limit 10:
/// let rows = try fetch.rows(.answer)         // ... WHERE "ZAGE" > $1
///                                            //     ORDER BY "ZAGE" ASC NULLS FIRST, "Z_PK" LIMIT $2 OFFSET $3
/// ```
final class PostgreSQLFetch: PreparedStoreFetch {
    private let store: PostgreSQLStore
    /// The plan's table; nil when its entity has none in this store.
    let table: StoreEntityTable?
    /// ` WHERE ...` (or nothing) for the plan's entities and predicate; nil when no entity of
    /// the table is fetched.
    let whereClause: String?
    let values: [PostgreSQLValue]
    /// ` ORDER BY ... [LIMIT ... OFFSET ...]` and the limit's values, for the answer of an
    /// exact fetch that is sorted or limited; nil when the answer's order is the store's.
    let orderAndLimit: (String, [PostgreSQLValue])?
    /// Whether the answer must come in primary-key order (``FetchPlan/inKeyOrder``).
    fileprivate let inKeyOrder: Bool
    let isExact: Bool

    /// Called under the store's lock.
    fileprivate init(plan: FetchPlan, store: PostgreSQLStore) {
        self.store = store
        inKeyOrder = plan.inKeyOrder
        let table = store.schema.tableIfPresent(for: plan.entity)
        self.table = table
        let numbers = table?.entities.filter { plan.includes($0) }.map { Int64(store.schema.number(of: $0)) } ?? []
        guard let table, !numbers.isEmpty else {
            (whereClause, values, orderAndLimit, isExact) = (nil, [], nil, true)
            return
        }
        var conditions: [String] = []
        var values: [PostgreSQLValue] = []
        if !table.holdsOneEntity {
            conditions.append("\"Z_ENT\" IN (\(numbers.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))")
            values = numbers.map { .integer($0) }
        }
        var exact = plan.predicate == nil
        if let predicate = plan.predicate, let entityPlan = store.plan(for: plan.entity),
           let filter = PostgreSQLCandidateFilter(predicate, plan: entityPlan, firstParameter: values.count + 1,
                                                  storeToken: plan.evaluatesPendingChanges ? nil : store.token, context: plan.context,
                                                  comparesStrings: store.comparesStringsInSQL, schema: store.schema) {
            conditions.append(filter.sql)
            values += filter.values
            exact = filter.isExact
        }
        var terms: [String] = []
        for descriptor in plan.sortDescriptors where exact {
            guard let term = Self.orderTerm(descriptor, entity: plan.entity, table: table) else { exact = false; break }
            terms.append(term)
        }
        whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        self.values = values
        isExact = exact
        let limited = plan.fetchLimit > 0 || plan.fetchOffset > 0
        guard exact, !terms.isEmpty || limited else {
            orderAndLimit = nil
            return
        }
        // Ties in key order, as the in-memory sort is stable from the store's key order; a page
        // of an unsorted fetch is a page in key order.
        var clause = " ORDER BY " + (terms + ["\"Z_PK\""]).joined(separator: ", ")
        var limitValues: [PostgreSQLValue] = []
        if limited {
            let first = values.count + 1
            clause += plan.fetchLimit > 0 ? " LIMIT $\(first) OFFSET $\(first + 1)" : " OFFSET $\(first)"
            if plan.fetchLimit > 0 { limitValues.append(.integer(Int64(plan.fetchLimit))) }
            limitValues.append(.integer(Int64(max(0, plan.fetchOffset))))
        }
        orderAndLimit = (clause, limitValues)
    }

    /// The `ORDER BY` term for `descriptor`, or nil when PostgreSQL would not order as
    /// `NSSortDescriptor` does: only a plain integer, Double, Float, Boolean or date attribute
    /// of the entity with the default comparison, nil first when ascending and last when
    /// descending (Apple's rule). A Float sorts by the Float its objects answer
    /// (``PostgreSQLCandidateFilter/floatValue(of:)``), not the Double its column keeps. A
    /// stored NaN sorts as the largest value, where the
    /// in-memory sort has no place for it (it is neither smaller nor larger than anything, so
    /// its place depends on the sort's algorithm). Strings are left to memory (the evaluator
    /// compares by canonical equivalence, which collations do not).
    static func orderTerm(_ descriptor: NSSortDescriptor, entity: NSEntityDescription, table: StoreEntityTable) -> String? {
        guard descriptor.comparator == nil, let key = descriptor.key,
              let attribute = entity.propertiesByName[key] as? NSAttributeDescription,
              let column = table.columnIndex(for: attribute) else { return nil }
        let direction = descriptor.ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST"
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .dateAttributeType:
            return "\(table.columns[column].sqlName) " + direction
        case .floatAttributeType:
            // Sorted by the Float the objects answer: Doubles that round to one Float tie.
            return PostgreSQLCandidateFilter.floatValue(of: table.columns[column].sqlName) + " " + direction
        default:
            return nil
        }
    }

    func rows(_ form: FetchForm) throws -> [StoreRow] {
        precondition(form == .candidates || isExact, "only an exact fetch has an answer")
        return try store.rows(of: self, form)
    }

    func count() throws -> Int {
        precondition(isExact, "only an exact fetch has a count")
        return try store.count(of: self)
    }
}
