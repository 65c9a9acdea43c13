import Foundation

/// The SQL of one fetch: which rows of the entity's table (`Z_ENT`, predicate), in which order,
/// and how many — and whether SQL decides all of it exactly.
///
/// ```swift
/// let query = SQLiteFetchQuery(plan, table: table, entityNumbers: [3], schema: schema)
/// query.isExact        // true: predicate and sort descriptors translate exactly
/// query.select("Z_PK, Z_ENT")   // Item has subentities (a table of one entity has no Z_ENT test)
/// // SELECT Z_PK, Z_ENT FROM ZITEM WHERE Z_ENT IN (?) AND (ZITEM.ZN IS NOT NULL AND ZITEM.ZN > ?)
/// //   ORDER BY ZNAME COLLATE OCD_COMPARE ASC, Z_PK LIMIT ? OFFSET ?
/// query.count          // SELECT COUNT(*) FROM (SELECT Z_PK FROM ZITEM WHERE ... LIMIT ? OFFSET ?)
/// ```
///
/// When the query is exact, the store answers the fetch itself (`isExact` of its prepared fetch): rows come back
/// filtered, in the order `SortEvaluation` would give, limited, and counts are `COUNT(*)`. When
/// it is not, the WHERE clause only narrows the rows (``SQLitePredicateFilter``), the order is
/// `Z_PK` (the order the in-memory evaluator's stable sort starts from) and nothing is limited:
/// the context evaluates predicate, sort and limits in memory.
///
/// Sort descriptors translate exactly when, for every one of them, SQL orders as
/// `NSSortDescriptor.compareValues` does:
/// - the key is one attribute of the entity with a column (no key paths, no comparator);
/// - its type orders the same in SQL: integers and Booleans (integer order), Doubles and dates
///   (real order), strings through the `OCD_COMPARE` collation (`String.compare(_:)`, the
///   function `compareValues` calls) or `OCD_COMPARE_CI` for `caseInsensitiveCompare:`;
///   localized selectors, Float, Decimal, UUID, URI and data attributes are not translated;
/// - nil first when ascending, last when descending: SQLite's NULL order, Apple's rule;
/// - ties keep the store's order (`Z_PK`), as the stable in-memory sort does.
///
/// Values — entity numbers, predicate constants, limit and offset — are always bound.
struct SQLiteFetchQuery {
    let table: StoreEntityTable
    /// `WHERE ...` (without the word; empty for every row of the table), its bindings.
    let condition: String
    let conditionBindings: [SQLiteValue]
    /// `ORDER BY` terms, ending in `Z_PK`; nil for an exact fetch without sort descriptors and
    /// limits, whose order is unspecified: `ORDER BY Z_PK` would make SQLite scan the table in
    /// key order instead of searching an index for the predicate.
    let order: String?
    /// `LIMIT ? OFFSET ?` and its two bindings, or empty.
    let limit: String
    let limitBindings: [SQLiteValue]
    /// Whether SQL decides predicate, order and limits exactly as the in-memory evaluator would.
    let isExact: Bool

    /// `schema` lets the predicate follow relationships (``SQLitePredicateFilter``), which it
    /// does only when no unsaved change is evaluated on top of the store's answer.
    init(_ plan: FetchPlan, table: StoreEntityTable, entityNumbers: [Int], schema: StoreSchema? = nil, storeToken: Int32? = nil) {
        self.table = table
        var conjuncts: [String] = []
        var bindings: [SQLiteValue] = []
        if let entityTest = table.entityTest(entityNumbers) {
            conjuncts.append(entityTest)
            bindings = entityNumbers.map { SQLiteValue.integer(Int64($0)) }
        }
        var exact = true
        if let predicate = plan.predicate {
            if let filter = SQLitePredicateFilter(predicate, entity: plan.entity, table: table, schema: schema,
                                                  followsRelationships: !plan.evaluatesPendingChanges,
                                                  storeToken: storeToken, context: plan.context) {
                conjuncts.append(filter.sql)
                bindings += filter.bindings
                exact = filter.isExact
            } else {
                exact = false
            }
        }
        var terms: [String] = []
        for descriptor in plan.sortDescriptors {
            guard let term = Self.orderTerm(descriptor, entity: plan.entity, table: table) else { exact = false; break }
            terms.append(term)
        }
        condition = conjuncts.joined(separator: " AND ")
        conditionBindings = bindings
        isExact = exact
        let limited = plan.fetchLimit > 0 || plan.fetchOffset > 0
        // In memory the context sorts stably from the store's order, so a fetch it evaluates
        // (or re-sorts: inKeyOrder) needs Z_PK order; so does a page of an unsorted fetch.
        let ordered = !exact || plan.inKeyOrder || !terms.isEmpty || limited
        order = ordered ? ((exact ? terms : []) + ["Z_PK"]).joined(separator: ", ") : nil
        if exact && limited {
            limit = " LIMIT ? OFFSET ?"
            limitBindings = [.integer(plan.fetchLimit > 0 ? Int64(plan.fetchLimit) : -1), .integer(Int64(max(0, plan.fetchOffset)))]
        } else {
            limit = ""
            limitBindings = []
        }
    }

    /// `SELECT <columns> FROM <table> WHERE ... ORDER BY ... [LIMIT ? OFFSET ?]`.
    func select(_ columns: String) -> String {
        "SELECT \(columns) FROM \(table.sqlName)\(whereClause)\(order.map { " ORDER BY " + $0 } ?? "")\(limit)"
    }

    /// `SELECT <columns> FROM <table> WHERE ... ORDER BY Z_PK`: the rows that may match, with
    /// the predicate (exact or narrowing) and nothing else, in the key order the context's
    /// stable sort starts from. Bound with ``conditionBindings``.
    func selectCandidates(_ columns: String) -> String {
        "SELECT \(columns) FROM \(table.sqlName)\(whereClause) ORDER BY Z_PK"
    }

    /// ` WHERE <condition>`, or nothing when every row is read.
    var whereClause: String { condition.isEmpty ? "" : " WHERE \(condition)" }

    var bindings: [SQLiteValue] { conditionBindings + limitBindings }

    /// The number of rows `select` returns. Only meaningful when `isExact`.
    var count: String {
        limit.isEmpty ? "SELECT COUNT(*) FROM \(table.sqlName)\(whereClause)"
                      : "SELECT COUNT(*) FROM (\(select("Z_PK")))"
    }

    /// The ORDER BY term for `descriptor`, or nil when SQL would not order exactly like it.
    static func orderTerm(_ descriptor: NSSortDescriptor, entity: NSEntityDescription, table: StoreEntityTable) -> String? {
        // A plain attribute, or an element of a composite attribute (`location.latitude`).
        guard descriptor.comparator == nil, let key = descriptor.key, !key.hasPrefix("@"),
              let (attribute, c) = table.attributeColumn(forKeyPath: KeyPathEvaluator.components(of: key)[...], of: entity) else { return nil }
        let selector = descriptor.selector?.name ?? "compare:"
        let column = table.columns[c].sqlName
        let direction = descriptor.ascending ? "ASC" : "DESC"
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .dateAttributeType:
            // compareValues sends only strings to the selector; other values use ValueComparison.
            return "\(column) \(direction)"
        case .stringAttributeType:
            switch selector {
            case "caseInsensitiveCompare:": return "\(column) COLLATE OCD_COMPARE_CI \(direction)"
            case "localizedCompare:", "localizedCaseInsensitiveCompare:", "localizedStandardCompare:": return nil
            default: return "\(column) COLLATE OCD_COMPARE \(direction)"  // compareValues: any other selector is compare:
            }
        default:
            return nil
        }
    }
}
