import Foundation

/// The SQL of a dictionary fetch (`.dictionaryResultType`): the fetched columns, DISTINCT,
/// GROUP BY with aggregates, HAVING, order and limits — built only when SQL gives exactly the
/// answer the context's in-memory evaluation gives (`NSManagedObjectContext+DictionaryFetch`);
/// otherwise the initializer returns nil and the context computes the dictionaries.
///
/// ```swift
/// // propertiesToFetch ["department", sum:(salary) AS total], propertiesToGroupBy ["department"],
/// // havingPredicate "total > 1000", sorted by nothing:
/// SQLiteDictionaryQuery(plan, dictionaryPlan, table: table, entityNumbers: [1, 2], schema: schema)?.sql
/// // SELECT C0_K, C0_E, ZTOTAL FROM (SELECT ZEMPLOYEE.ZDEPARTMENT AS C0_K, NULL AS C0_E,
/// //   SUM(ZEMPLOYEE.ZSALARY) AS ZTOTAL, MIN(ZEMPLOYEE.Z_PK) AS C_FIRST
/// //   FROM ZEMPLOYEE WHERE Z_ENT IN (?, ?) GROUP BY ZEMPLOYEE.ZDEPARTMENT)
/// //   WHERE (ZTOTAL IS NOT NULL AND ZTOTAL > ?) ORDER BY C_FIRST
/// ```
///
/// How the parts map:
/// - the WHERE clause is ``SQLiteFetchQuery``'s (so ``SQLitePredicateFilter`` decides
///   exactness); a value through to-one relationships (`department.name`) is a correlated
///   scalar subquery per step, which gives NULL where the in-memory key path gives nil;
/// - a plain fetch is `SELECT <columns>` with the object fetch's ORDER BY (plus `Z_PK`, the
///   in-memory evaluator's tie order) and LIMIT;
/// - GROUP BY, DISTINCT (grouping by every column) and aggregates-only fetches run as an inner
///   query whose columns are named after a synthetic entity — one attribute per result name,
///   typed like the result — so that HAVING and ORDER BY in the outer query are translated by
///   ``SQLitePredicateFilter`` and ``SQLiteFetchQuery/orderTerm`` exactly as for an entity.
///   Groups and distinct rows come in the order of their first row: `ORDER BY <sort keys>,
///   MIN(Z_PK)`; a sort key must then be a grouped (or, for DISTINCT, fetched) attribute;
/// - aggregates: `COUNT(x)` (non-nil values), `SUM`, `AVG`, `MIN`, `MAX` (strings through the
///   `OCD_UNICODE` collation, the evaluator's `<`), cast to the result type when it differs.
///
/// Not translated (the context answers): DISTINCT together with GROUP BY, Float and Decimal
/// aggregates, group keys other than integers, Booleans, Doubles, dates, strings and to-one
/// relationships, decimal result types, and whatever the predicate filter or sort translation
/// leaves inexact.
struct SQLiteDictionaryQuery {
    /// How one dictionary entry is read from the statement.
    enum Output {
        case attribute(name: String, column: Int32, NSAttributeDescription)
        /// A to-one target: its `Z_PK` and, when the destination has subentities, its `Z_ENT`.
        case toOne(name: String, key: Int32, entity: Int32?, destination: NSEntityDescription)
        /// An aggregate, read as `decoding` (its result type) and converted to `aggregate.resultType`.
        case aggregate(name: String, column: Int32, DictionaryResultPlan.Aggregate, decoding: NSAttributeDescription)
    }

    let sql: String
    let bindings: [SQLiteValue]
    let outputs: [Output]

    init?(_ plan: FetchPlan, _ request: DictionaryResultPlan, table: StoreEntityTable, entityNumbers: [Int], schema: StoreSchema) {
        // SQL expressions of values, built as correlated subqueries through to-one steps.
        var aliasCount = 0
        func expressions(_ value: DictionaryResultPlan.Value) -> (value: String, entity: String?)? {
            var current = table
            var key: String? = nil  // the Z_PK of the row being read; nil: the fetched row
            func read(_ column: String) -> String {
                guard let key else { return "\(table.sqlName).\(column)" }
                aliasCount += 1
                let alias = "t\(aliasCount)"
                return "(SELECT \(alias).\(column) FROM \(current.sqlName) \(alias) WHERE \(alias).Z_PK = \(key))"
            }
            for relationship in value.path {
                guard let c = current.columnIndex(for: relationship), let destination = relationship.destinationEntity else { return nil }
                key = read(current.columns[c].sqlName)
                guard let next = schema.tableIfPresent(for: destination) else { return nil }
                current = next
            }
            // The row's object ID: its key and entity number.
            if value.isObjectID { return (read("Z_PK"), read("Z_ENT")) }
            // An external-storage column holds a marker and maybe a file name, not the value:
            // such attributes are read through the rows (in memory), which resolve them.
            if let attribute = value.property as? NSAttributeDescription, attribute.storesExternally { return nil }
            guard let c = current.columnIndex(for: value.property) else { return nil }
            let valueSQL = read(current.columns[c].sqlName)
            if let relationship = value.property as? NSRelationshipDescription {
                return (valueSQL, current.companionIndex(for: relationship).map { read(current.columns[$0].sqlName) })
            }
            return (valueSQL, nil)
        }
        /// Types whose SQL equality (GROUP BY, DISTINCT) is the in-memory key's
        /// (`DictionaryGroupKey`): numbers by value, strings by bytes, to-one targets by key.
        func groupable(_ value: DictionaryResultPlan.Value) -> Bool {
            guard let attribute = value.attribute else { return true }
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
                 .doubleAttributeType, .dateAttributeType, .stringAttributeType: return true
            default: return false
            }
        }

        // A plain fetch: the object fetch's query, selecting the columns instead of rows.
        if !request.isGrouped && !request.isSingleRow && !request.distinct {
            var keyOrdered = plan
            keyOrdered.inKeyOrder = true  // ties (and an unsorted fetch) in Z_PK order, as in memory
            let query = SQLiteFetchQuery(keyOrdered, table: table, entityNumbers: entityNumbers)
            guard query.isExact else { return nil }
            var items: [String] = []
            var outputs: [Output] = []
            for case let .value(v) in request.columns {
                guard let (valueSQL, entitySQL) = expressions(v) else { return nil }
                if let attribute = v.attribute {
                    outputs.append(.attribute(name: v.name, column: Int32(items.count), attribute))
                    items.append(valueSQL)
                } else if let destination = (v.property as? NSRelationshipDescription)?.destinationEntity {
                    outputs.append(.toOne(name: v.name, key: Int32(items.count), entity: entitySQL == nil ? nil : Int32(items.count + 1), destination: destination))
                    items.append(valueSQL)
                    if let entitySQL { items.append(entitySQL) }
                } else {
                    return nil
                }
            }
            guard !items.isEmpty else { return nil }
            sql = query.select(items.joined(separator: ", "))
            bindings = query.bindings
            self.outputs = outputs
            return
        }
        if request.isGrouped && request.distinct { return nil }

        // WHERE: the predicate alone (sorts and limits go to the outer query).
        let filterPlan = FetchPlan(entity: plan.entity, predicate: plan.predicate, sortDescriptors: [], includesSubentities: plan.includesSubentities,
                                   fetchLimit: 0, fetchOffset: 0, affectedStores: plan.affectedStores)
        let base = SQLiteFetchQuery(filterPlan, table: table, entityNumbers: entityNumbers)
        guard base.isExact else { return nil }

        // The synthetic entity: one attribute per result name usable in HAVING and ORDER BY.
        let synthetic = NSEntityDescription(name: "OCDDictionaryResult")
        var syntheticAttributes: [String: NSAttributeDescription] = [:]
        func isIdentifier(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && CharacterSet.letters.contains(first)) else { return false }
            return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && CharacterSet.alphanumerics.contains($0)) }
        }
        func addSynthetic(_ name: String, _ type: NSAttributeType) {
            guard isIdentifier(name), syntheticAttributes[name] == nil, type != .undefinedAttributeType else { return }
            syntheticAttributes[name] = NSAttributeDescription(name: name, type: type)
        }
        for case let .value(v) in request.columns { if let a = v.attribute { addSynthetic(v.name, a.attributeType) } }
        for v in request.groupBy { if let a = v.attribute { addSynthetic(v.name, a.attributeType) } }
        for case let .aggregate(a) in request.columns { addSynthetic(a.name, a.resultType) }
        synthetic.properties = Array(syntheticAttributes.values).sorted { $0.name < $1.name }
        let syntheticTable = StoreEntityTable(name: "OCDDictionaryResult", rootEntity: synthetic, entities: [synthetic])
        do { try syntheticTable.addColumns(of: [synthetic], number: { _ in 1 }) } catch { return nil }
        var aliasIndex = 0
        /// The result column of `name`, unquoted: the synthetic table's column, or `C<n>`.
        func alias(_ name: String) -> String {
            if let attribute = syntheticAttributes[name], let c = syntheticTable.columnIndex(for: attribute) { return syntheticTable.columns[c].name }
            aliasIndex += 1
            return "C\(aliasIndex)"
        }

        var inner: [String] = []   // "expression AS alias"
        var outer: [String] = []   // aliases of the outputs, in order
        var outputs: [Output] = []
        var groupExpressions: [String] = []
        var named: Set<String> = []
        for column in request.columns {
            named.insert(column.name)
            switch column {
            case .value(let v):
                guard (request.isGrouped || groupable(v)), let (valueSQL, entitySQL) = expressions(v) else { return nil }
                if !request.isGrouped { groupExpressions.append(valueSQL) }  // DISTINCT
                let raw = alias(v.name), name = SQLiteConnection.quoted(raw)
                inner.append("\(valueSQL) AS \(name)")
                if let attribute = v.attribute {
                    outputs.append(.attribute(name: v.name, column: Int32(outer.count), attribute))
                    outer.append(name)
                } else if let destination = (v.property as? NSRelationshipDescription)?.destinationEntity {
                    outputs.append(.toOne(name: v.name, key: Int32(outer.count), entity: entitySQL == nil ? nil : Int32(outer.count + 1), destination: destination))
                    outer.append(name)
                    if let entitySQL {
                        let entityAlias = SQLiteConnection.quoted(raw + "_E")
                        inner.append("\(entitySQL) AS \(entityAlias)")
                        outer.append(entityAlias)
                    }
                } else {
                    return nil
                }
            case .aggregate(let a):
                guard let (argumentSQL, _) = expressions(a.argument), let aggregateSQL = Self.aggregateSQL(a, argumentSQL) else { return nil }
                let name = SQLiteConnection.quoted(alias(a.name))
                inner.append("\(aggregateSQL) AS \(name)")
                outputs.append(.aggregate(name: a.name, column: Int32(outer.count), a, decoding: NSAttributeDescription(name: a.name, type: a.resultType)))
                outer.append(name)
            }
        }
        for v in request.groupBy {
            guard groupable(v), let (valueSQL, _) = expressions(v) else { return nil }
            groupExpressions.append(valueSQL)
            // Grouped values that are not fetched still take part in HAVING.
            if !named.contains(v.name), v.attribute != nil { inner.append("\(valueSQL) AS \(SQLiteConnection.quoted(alias(v.name)))"); named.insert(v.name) }
        }
        inner.append("MIN(\(table.sqlName).Z_PK) AS C_FIRST")

        var sql = "SELECT \(outer.joined(separator: ", ")) FROM (SELECT \(inner.joined(separator: ", ")) FROM \(table.sqlName)\(base.whereClause)"
        if !groupExpressions.isEmpty { sql += " GROUP BY " + groupExpressions.joined(separator: ", ") }
        // Named like the synthetic table the HAVING clause is translated against: the filter
        // qualifies its columns with the table name.
        sql += ") AS \(syntheticTable.sqlName)"
        var bindings = base.conditionBindings
        if let having = request.having {
            guard let filter = SQLitePredicateFilter(having, entity: synthetic, table: syntheticTable), filter.isExact else { return nil }
            sql += " WHERE " + filter.sql
            bindings += filter.bindings
        }
        if !request.isSingleRow {
            // Sort keys must be constant within a group (a grouped, or for DISTINCT a fetched,
            // attribute of the entity itself); then MIN(Z_PK) orders as first rows do in memory.
            let keys = Set(request.isGrouped ? request.groupBy.filter { $0.path.isEmpty }.map(\.name)
                                              : request.columns.compactMap { if case let .value(v) = $0, v.path.isEmpty { return v.name } else { return nil } })
            var terms: [String] = []
            for descriptor in plan.sortDescriptors {
                guard let key = descriptor.key, keys.contains(key),
                      let term = SQLiteFetchQuery.orderTerm(descriptor, entity: synthetic, table: syntheticTable) else { return nil }
                terms.append(term)
            }
            sql += " ORDER BY " + (terms + ["C_FIRST"]).joined(separator: ", ")
        }
        if plan.fetchLimit > 0 || plan.fetchOffset > 0 {
            sql += " LIMIT ? OFFSET ?"
            bindings += [.integer(plan.fetchLimit > 0 ? Int64(plan.fetchLimit) : -1), .integer(Int64(max(0, plan.fetchOffset)))]
        }
        self.sql = sql
        self.bindings = bindings
        self.outputs = outputs
    }

    /// `COUNT`/`SUM`/`AVG`/`MIN`/`MAX` of `argument` as the in-memory aggregate computes it,
    /// cast to the result type; nil when SQL would differ (Float, Decimal).
    private static func aggregateSQL(_ aggregate: DictionaryResultPlan.Aggregate, _ argument: String) -> String? {
        let type = aggregate.argument.attribute?.attributeType
        let natural: NSAttributeType
        let sql: String
        switch aggregate.function {
        case .count:
            sql = "COUNT(\(argument))"
            natural = .integer64AttributeType
        case .sum, .average:
            switch type {
            case .integer16AttributeType?, .integer32AttributeType?, .integer64AttributeType?, .booleanAttributeType?:
                natural = aggregate.function == .sum ? .integer64AttributeType : .doubleAttributeType
            default:
                // Doubles too: a floating-point sum depends on the order of its terms, and SQLite's
                // (its scan order, compensated summation in newer versions) is not the in-memory
                // path's, so the last bits could differ.
                return nil
            }
            sql = aggregate.function == .sum ? "SUM(\(argument))" : "AVG(\(argument))"
        case .min, .max:
            let function = aggregate.function == .min ? "MIN" : "MAX"
            switch type {
            case .integer16AttributeType?, .integer32AttributeType?, .integer64AttributeType?, .booleanAttributeType?,
                 .doubleAttributeType?, .dateAttributeType?:
                sql = "\(function)(\(argument))"
            case .stringAttributeType?:
                sql = "\(function)(\(argument) COLLATE OCD_UNICODE)"
            default:
                return nil
            }
            natural = type!
        }
        if aggregate.resultType == natural { return sql }
        switch aggregate.resultType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            // Booleans and integers are integers already; a real truncates toward zero.
            return natural == .doubleAttributeType ? "CAST(\(sql) AS INTEGER)" : sql
        case .doubleAttributeType:
            return "CAST(\(sql) AS REAL)"
        case .booleanAttributeType:
            return "(\(sql) <> 0)"
        default:
            return nil
        }
    }
}
