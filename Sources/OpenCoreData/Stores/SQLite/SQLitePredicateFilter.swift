import Foundation

/// A WHERE clause that narrows a fetch to the rows a predicate can match, so the context
/// materialises and evaluates only those.
///
/// ```swift
/// let p = NSPredicate(format: "salary >= %d AND department.name BEGINSWITH[c] %@", 1000, "sa")
/// let filter = SQLitePredicateFilter(p, entity: employee, table: table, schema: schema)
/// filter?.sql       // "((ZEMPLOYEE.ZSALARY IS NOT NULL AND ZEMPLOYEE.ZSALARY >= ?) AND
///                   //   ocd_match(8, 1, (SELECT t1.ZNAME FROM ZDEPARTMENT t1 WHERE t1.Z_PK = ZEMPLOYEE.ZDEPARTMENT), ?))"
/// filter?.bindings  // [.integer(1000), .text("sa")]
/// filter?.isExact   // true
/// ```
///
/// Each part of the predicate is translated either *exactly* (SQL decides it the way the
/// in-memory evaluator does, including nil: `nil != 5` is true, `nil < 5` is false) or not at
/// all (“keep every row”). An AND narrows by its translatable parts up to the first one that is
/// not exact and could fail in memory (the evaluator stops at the first false part, so a later
/// part must not hide a row on which an untranslated part throws); an OR narrows only when each
/// of its parts does, and a NOT only when its inside is exact. When the whole predicate is exact
/// (``isExact``) the store answers the fetch in SQL (``SQLiteFetchQuery``); otherwise the clause
/// only narrows the rows, never fewer than match, and the context evaluates the whole predicate
/// in memory. Either way the answer is the in-memory evaluator's.
///
/// What is exact today (a key path's last step is an attribute with a column: integers,
/// Booleans, Doubles, dates, strings, and UUIDs for `==`/`!=`/`IN` against `UUID` constants;
/// Float, Decimal, URI, data are left to memory):
/// - `==`, `!=`, `<`, `<=`, `>`, `>=`, `IN` a constant collection and `BETWEEN` two constants,
///   against constants — numbers against numbers (an integer against a Double is compared as
///   Doubles on both sides, as `NumericValue` does: `CAST(x AS REAL)`), dates against dates,
///   strings against strings (through the `OCD_UNICODE` collation, Swift's canonical-equivalence
///   order, and `ocd_fold` for `[c]`/`[d]`, which folds with `PredicateStringFolding`);
/// - `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES` with `[c]`, `[d]`, `[n]` on strings,
///   against a constant string or nil, through `ocd_match`, which runs the evaluator's own
///   `ComparisonEvaluator.perform` (an invalid `MATCHES` pattern is left to memory, which throws);
/// - key paths through to-one relationships (`department.name`, `manager.department.budget`):
///   correlated scalar subqueries on the foreign key (`Z_PK` is unique in the destination's
///   root table, so sub-entity destinations need no `Z_ENT` check); a nil relationship gives nil;
///   a to-one path compared with nil, an object ID of this store or an object of the fetching
///   context (`manager.department == nil`, `department == %@`) compares the key;
/// - `ANY`/`SOME`/`ALL`/`NONE` over one unordered to-many step (`ANY projects.title == 'X'`,
///   `ALL department.employees.salary > 10`): `EXISTS`/`NOT EXISTS` over the members — the
///   destination's foreign key (one-to-many) or the join table `Z_<n><R>` (many-to-many). Like
///   the evaluator's set of values, nil values are no elements;
/// - `@count` of a to-many, `@sum`/`@avg` of an integer attribute (`ocd_sum`, the evaluator's
///   overflow rule; `@avg` of nothing is 0) and `@min`/`@max` of a number or date attribute of
///   its members, and `SUBQUERY(toMany, $x, exact predicate).@count`, as correlated `COUNT`s;
/// - TRUE/FALSEPREDICATE, AND, OR, NOT of exact parts.
///
/// Relationship steps are translated only when the store's answer is final
/// (`followsRelationships`): while the context evaluates its unsaved changes in memory, an
/// unsaved change of a *related* object could make a row match that SQL would drop, so every
/// part that follows a relationship keeps all rows then. Values are bound, never spliced into
/// the SQL.
struct SQLitePredicateFilter {
    let sql: String
    let bindings: [SQLiteValue]
    /// Whether the clause decides the whole predicate (true exactly when the predicate is), so
    /// the store may answer the fetch without the in-memory evaluator.
    let isExact: Bool

    /// The filter for `predicate` on rows of `entity` in `table`, or nil when no part of it
    /// can be decided in SQL (then every row of the entity is read). `schema` finds the
    /// tables behind relationships; without it, or with `followsRelationships` false, parts
    /// that follow a relationship keep every row.
    ///
    /// `storeToken` and `context` (the store's and the fetching context's) let a to-one path be
    /// compared with an object ID of this store, or an object of that context, by key.
    init?(_ predicate: NSPredicate, entity: NSEntityDescription, table: StoreEntityTable,
          schema: StoreSchema? = nil, followsRelationships: Bool = true,
          storeToken: Int32? = nil, context: (any RequestingContext)? = nil) {
        let translator = SQLitePredicateTranslator(schema: schema, followsRelationships: followsRelationships && schema != nil,
                                                   storeToken: storeToken, context: context)
        let row = SQLitePredicateTranslator.Row(entity: entity, table: table, qualifier: table.sqlName)
        guard case let .filter(sql, bindings, exact) = translator.translate(predicate, row, variables: [:]) else { return nil }
        self.sql = sql
        self.bindings = bindings
        isExact = exact
    }
}

/// Turns predicates into SQL conditions for ``SQLitePredicateFilter``. One translator per
/// predicate: it numbers the table aliases of the subqueries it writes (`t1`, `t2`, ...).
final class SQLitePredicateTranslator {
    let schema: StoreSchema?
    let followsRelationships: Bool
    /// The store's token (in its object IDs' keys) and the fetching context: an ID constant
    /// of this store, or an object of this context, names a row by its key.
    let storeToken: Int32?
    private weak var context: (any RequestingContext)?
    private var aliasCount = 0

    init(schema: StoreSchema?, followsRelationships: Bool, storeToken: Int32? = nil, context: (any RequestingContext)? = nil) {
        self.schema = schema
        self.followsRelationships = followsRelationships
        self.storeToken = storeToken
        self.context = context
    }

    /// A fresh table alias. Table names start with `Z`, so `t<n>` never shadows one.
    func nextAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    enum Translation {
        /// `exact`: the SQL is true exactly when the predicate is; otherwise it is true at
        /// least whenever the predicate is. Never NULL, so it can be negated.
        case filter(String, [SQLiteValue], exact: Bool)
        /// Not decidable in SQL: keep every row.
        case keepAll
    }

    /// A row key paths start from: the fetched row (qualified by its table's name) or a row a
    /// subquery reads (qualified by its alias).
    struct Row {
        let entity: NSEntityDescription
        let table: StoreEntityTable
        let qualifier: String

        func column(_ index: Int) -> String { "\(qualifier).\(table.columns[index].sqlName)" }
    }

    /// How a value's SQL compares with constants.
    enum ValueType {
        case integer, real, date, string
        /// Equality only, against a `UUID` constant.
        case uuid

        init?(_ attribute: NSAttributeDescription) {
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: self = .integer
            // Float attributes are left out: the evaluator compares their Float value, the
            // column holds it widened to Double.
            case .doubleAttributeType: self = .real
            case .dateAttributeType: self = .date
            case .stringAttributeType: self = .string
            case .UUIDAttributeType: self = .uuid
            default: return nil
            }
        }
    }

    /// An SQL expression for a value, with the bindings it contains (in text order).
    struct Scalar {
        let sql: String
        let bindings: [SQLiteValue]
        let type: ValueType
        /// Whether the expression is never NULL (a `COUNT`), so comparisons may use it once.
        let nonNull: Bool

        init(_ sql: String, _ type: ValueType, bindings: [SQLiteValue] = [], nonNull: Bool = false) {
            self.sql = sql
            self.type = type
            self.bindings = bindings
            self.nonNull = nonNull
        }
    }

    func translate(_ predicate: NSPredicate, _ row: Row, variables: [String: Row]) -> Translation {
        if case .value(let value) = predicate.kind { return .filter(value ? "1" : "0", [], exact: true) }
        if let compound = predicate as? NSCompoundPredicate {
            switch compound.compoundPredicateType {
            case .and:
                // The evaluator goes left to right and stops at the first false part, so a part
                // after one it could fail on (an invalid regex, an unknown key: anything not
                // translated) must not narrow: it would drop rows on which memory throws.
                var sql: [String] = [], bindings: [SQLiteValue] = [], exact = true
                for subpredicate in compound.predicates {
                    let part = translate(subpredicate, row, variables: variables)
                    if case let .filter(s, b, e) = part {
                        sql.append(s); bindings += b; exact = exact && e
                        if e { continue }
                    } else {
                        exact = false
                    }
                    guard cannotFail(subpredicate, row, variables: variables) else { break }
                }
                return sql.isEmpty ? (exact ? .filter("1", [], exact: true) : .keepAll) : .filter("(" + sql.joined(separator: " AND ") + ")", bindings, exact: exact)
            case .or:
                let parts = compound.predicates.map { translate($0, row, variables: variables) }
                var sql: [String] = [], bindings: [SQLiteValue] = [], exact = true
                for part in parts {
                    guard case let .filter(s, b, e) = part else { return .keepAll }
                    sql.append(s); bindings += b; exact = exact && e
                }
                return sql.isEmpty ? .filter("0", [], exact: true) : .filter("(" + sql.joined(separator: " OR ") + ")", bindings, exact: exact)
            case .not:
                // NOT negates the AND of its subpredicates; only an exact inner part may be negated.
                guard case let .filter(s, b, true) = translate(NSCompoundPredicate(andPredicateWithSubpredicates: compound.predicates), row, variables: variables) else { return .keepAll }
                return .filter("(NOT \(s))", b, exact: true)
            }
        }
        guard let comparison = predicate as? NSComparisonPredicate else { return .keepAll }
        return translate(comparison, row, variables: variables)
    }

    /// Whether the evaluator cannot fail on `predicate`: an attribute of the row compared with
    /// a constant by an operator that never throws (all but MATCHES, BETWEEN and custom
    /// selectors: `ComparisonEvaluator.perform`), TRUE/FALSEPREDICATE, compounds of those; or a
    /// predicate that would translate exactly if relationships were followed (they are not
    /// while pending changes are evaluated).
    private func cannotFail(_ predicate: NSPredicate, _ row: Row, variables: [String: Row]) -> Bool {
        if case .value = predicate.kind { return true }
        if let compound = predicate as? NSCompoundPredicate {
            return compound.predicates.allSatisfy { cannotFail($0, row, variables: variables) }
        }
        if let c = predicate as? NSComparisonPredicate, c.comparisonPredicateModifier == .direct,
           case let .keyPath(nil, components) = c.leftExpression.node, components.count == 1,
           row.entity.propertiesByName[components[0]] is NSAttributeDescription,
           case .constant = c.rightExpression.node,
           ![.matches, .between, .customSelector].contains(c.predicateOperatorType) {
            return true
        }
        guard !followsRelationships, schema != nil else { return false }
        let full = SQLitePredicateTranslator(schema: schema, followsRelationships: true, storeToken: storeToken, context: context)
        if case .filter(_, _, true) = full.translate(predicate, row, variables: variables) { return true }
        return false
    }

    private func translate(_ p: NSComparisonPredicate, _ row: Row, variables: [String: Row]) -> Translation {
        let constant: Any?
        switch p.rightExpression.node {
        case .constant(let value):
            constant = KVCValueKinds.unwrap(value)
        case .aggregate(let elements):
            // `{1, 2}` in a format: evaluated to an array, nil elements as NSNull.
            var values: [Any] = []
            for element in elements {
                guard case .constant(let value) = element.node else { return .keepAll }
                values.append(KVCValueKinds.unwrap(value) ?? NSNull())
            }
            constant = values
        default:
            return .keepAll
        }
        switch p.comparisonPredicateModifier {
        case .direct:
            if let subject = scalar(p.leftExpression, row, variables: variables) {
                return condition(subject, p.predicateOperatorType, constant, p.options)
            }
            return relationshipComparison(p, constant, row, variables: variables)
        case .any, .all:
            return quantified(p, constant, row, variables: variables)
        }
    }

    /// Where a key path expression starts — the fetched row, or the row a SUBQUERY variable
    /// (`$x.name`) is bound to — and its components; nil for any other operand.
    func keyPathStart(_ expression: NSExpression, _ row: Row, variables: [String: Row]) -> (base: Row, components: [String])? {
        guard case let .keyPath(operand, components) = expression.node else { return nil }
        switch operand?.node {
        case nil: return (row, components)
        case .variable(let name)?: return variables[name].map { ($0, components) }
        default: return nil
        }
    }

    /// The value of a left-hand expression as SQL: a key path through to-one relationships
    /// (``scalar(_:from:)``), a to-many aggregate or a `SUBQUERY(...).@count`; nil otherwise.
    private func scalar(_ expression: NSExpression, _ row: Row, variables: [String: Row]) -> Scalar? {
        if case let .keyPath(operand, components) = expression.node,
           case .subquery(let collection, let variable, let predicate)? = operand?.node {
            guard components == ["@count"] else { return nil }
            return subqueryCount(collection, variable, predicate, row, variables: variables)
        }
        guard let (base, components) = keyPathStart(expression, row, variables: variables) else { return nil }
        if let at = components.firstIndex(where: { $0.hasPrefix("@") }) {
            return aggregate(components[..<at], components[at], components[(at + 1)...], from: base)
        }
        return scalar(components[...], from: base)
    }

    /// A to-one path (`department`, `manager.department`) `==`/`!=` nil, an object ID or an
    /// object, decided by the key of the object at its end (``StoreRelationshipOperand`` says
    /// which key a constant stands for).
    private func relationshipComparison(_ p: NSComparisonPredicate, _ constant: Any?, _ row: Row, variables: [String: Row]) -> Translation {
        guard p.predicateOperatorType == .equalTo || p.predicateOperatorType == .notEqualTo,
              let (base, components) = keyPathStart(p.leftExpression, row, variables: variables), !components.isEmpty,
              let key = key(components[...], from: base),
              let operand = StoreRelationshipOperand(constant, destination: key.entity, storeToken: storeToken, context: context) else { return .keepAll }
        let equal = p.predicateOperatorType == .equalTo
        switch operand {
        case .null:
            return .filter("\(key.sql) \(equal ? "IS NULL" : "IS NOT NULL")", [], exact: true)
        case .noRow:
            return .filter(equal ? "0" : "1", [], exact: true)
        case .key(let primaryKey):
            let value = SQLiteValue.integer(primaryKey)
            return equal ? .filter("(\(key.sql) IS NOT NULL AND \(key.sql) = ?)", [value], exact: true)
                         : .filter("(\(key.sql) IS NULL OR \(key.sql) <> ?)", [value], exact: true)
        }
    }

    /// `subject <type>[options] constant` decided as the evaluator decides it, or `.keepAll`.
    func condition(_ subject: Scalar, _ type: NSComparisonPredicate.Operator, _ constant: Any?, _ options: NSComparisonPredicate.Options) -> Translation {
        switch type {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return compare(subject, type, constant, options)
        case .in:
            // `x IN {a, b}` is `x == a OR x == b` (ValueComparison.isEqual per element); a
            // dictionary's values and a string (substring test) are left to the evaluator.
            guard let constant, !KVCValueKinds.isDictionary(constant), KVCValueKinds.string(constant) == nil,
                  let (elements, _) = KVCValueKinds.collection(constant) else { return .keepAll }
            var sql: [String] = [], bindings: [SQLiteValue] = []
            for element in elements {
                guard case let .filter(s, b, true) = compare(subject, .equalTo, KVCValueKinds.unwrap(element), options) else { return .keepAll }
                sql.append(s); bindings += b
            }
            return sql.isEmpty ? .filter("0", [], exact: true) : .filter("(" + sql.joined(separator: " OR ") + ")", bindings, exact: true)
        case .between:
            // The evaluator: both bounds ordered against x, low <= x <= high; nil never orders.
            guard let constant, let (bounds, _) = KVCValueKinds.collection(constant), bounds.count == 2,
                  case let .filter(low, lowBindings, true) = compare(subject, .greaterThanOrEqualTo, KVCValueKinds.unwrap(bounds[0]), options),
                  case let .filter(high, highBindings, true) = compare(subject, .lessThanOrEqualTo, KVCValueKinds.unwrap(bounds[1]), options)
            else { return .keepAll }
            return .filter("(\(low) AND \(high))", lowBindings + highBindings, exact: true)
        case .beginsWith, .endsWith, .contains, .like, .matches:
            return stringOperator(subject, type, constant, options)
        case .customSelector:
            return .keepAll
        }
    }

    /// `subject <type> constant` for the comparison operators, decided as `ValueComparison`
    /// decides it, or `.keepAll`.
    private func compare(_ subject: Scalar, _ type: NSComparisonPredicate.Operator,
                         _ constant: Any?, _ options: NSComparisonPredicate.Options) -> Translation {
        let op: String
        switch type {
        case .equalTo: op = "="
        case .notEqualTo: op = "<>"
        case .lessThan: op = "<"
        case .lessThanOrEqualTo: op = "<="
        case .greaterThan: op = ">"
        case .greaterThanOrEqualTo: op = ">="
        default: return .keepAll
        }
        // The two-valued forms below name the subject twice; one with bindings may appear only once.
        guard subject.bindings.isEmpty || subject.nonNull else { return .keepAll }
        let value0 = subject.sql
        if constant == nil || constant is NSNull {
            // nil equals only nil and is never ordered.
            switch type {
            case .equalTo: return .filter("\(value0) IS NULL", subject.bindings, exact: true)
            case .notEqualTo: return .filter("\(value0) IS NOT NULL", subject.bindings, exact: true)
            default: return .filter("0", [], exact: true)
            }
        }
        guard let constant else { return .keepAll }
        if subject.type == .uuid { return uuidEquality(value0, subject, type, constant, options) }

        var operand = value0
        var suffix = ""
        let value: SQLiteValue
        switch subject.type {
        case .integer, .real:
            guard options.isEmpty, !(constant is String), !(constant is NSString) else { return .keepAll }
            let isInteger = subject.type == .integer
            // NumericValue compares two integers exactly and anything else as Doubles
            // (Double(i) rounds above 2^53). SQLite compares an integer with a real exactly, so
            // a mixed comparison is made real on both sides, rounded as Swift rounds.
            switch NumericValue(constant) {
            case .int(let i)?:
                value = isInteger ? .integer(i) : .real(Double(i))
            case .double(let d)? where !d.isNaN:
                value = .real(d)
                if isInteger { operand = "CAST(\(value0) AS REAL)" }
            default: return .keepAll
            }
        case .date:
            guard let date = constant as? Date else { return .keepAll }
            value = .real(date.timeIntervalSinceReferenceDate)
        case .string:
            guard let string = KVCValueKinds.string(constant) else { return .keepAll }
            let folding = options.intersection([.caseInsensitive, .diacriticInsensitive])
            guard options.subtracting([.caseInsensitive, .diacriticInsensitive]).isEmpty else { return .keepAll }
            if folding.isEmpty {
                value = .text(string)
            } else {
                operand = "ocd_fold(\(value0), \(folding.rawValue))"
                value = .text(PredicateStringFolding.fold(string, options: folding))
            }
            suffix = " COLLATE OCD_UNICODE"
        case .uuid:
            return .keepAll  // answered above
        }
        if subject.nonNull {
            return .filter("(\(operand) \(op) ?\(suffix))", subject.bindings + [value], exact: true)
        }
        // Two-valued like the evaluator: a NULL value is unequal to every constant and unordered.
        if type == .notEqualTo {
            return .filter("(\(value0) IS NULL OR \(operand) <> ?\(suffix))", [value], exact: true)
        }
        return .filter("(\(value0) IS NOT NULL AND \(operand) \(op) ?\(suffix))", [value], exact: true)
    }

    /// `uuid ==/!= constant`. The store writes a UUID as its 16 bytes; a column that holds its
    /// text instead (another writer's) reads as that UUID when the text parses, which
    /// `UUID(uuidString:)` does for the canonical form in either case: so the row matches
    /// when the column is the bytes, or its text in upper case is the constant's. Nil matches
    /// nothing and differs from everything, as in the evaluator.
    private func uuidEquality(_ column: String, _ subject: Scalar, _ type: NSComparisonPredicate.Operator,
                              _ constant: Any, _ options: NSComparisonPredicate.Options) -> Translation {
        guard type == .equalTo || type == .notEqualTo, options.isEmpty, subject.bindings.isEmpty,
              Swift.type(of: constant) == UUID.self, let uuid = constant as? UUID else { return .keepAll }  // NSUUID: left to memory
        let bytes = SQLiteValue.blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        let matches = "(\(column) = ? OR upper(CAST(\(column) AS TEXT)) = ?)"
        let bindings = [bytes, SQLiteValue.text(uuid.uuidString)]
        return type == .equalTo
            ? .filter("(\(column) IS NOT NULL AND \(matches))", bindings, exact: true)
            : .filter("(\(column) IS NULL OR NOT \(matches))", bindings, exact: true)
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES of a string value against a constant
    /// string or nil: `ocd_match`, which calls the evaluator's `ComparisonEvaluator.perform`.
    private func stringOperator(_ subject: Scalar, _ type: NSComparisonPredicate.Operator,
                                _ constant: Any?, _ options: NSComparisonPredicate.Options) -> Translation {
        guard subject.type == .string,
              options.subtracting([.caseInsensitive, .diacriticInsensitive, .normalized]).isEmpty else { return .keepAll }
        let pattern: SQLiteValue
        if constant == nil || constant is NSNull {
            pattern = .null
        } else if let string = KVCValueKinds.string(constant) {
            // An invalid regular expression throws in memory; leave it there to throw.
            if type == .matches, case .failure = ComparisonEvaluator.compileRegex(string, options) { return .keepAll }
            pattern = .text(string)
        } else {
            return .keepAll
        }
        return .filter("ocd_match(\(type.rawValue), \(options.rawValue), \(subject.sql), ?)", subject.bindings + [pattern], exact: true)
    }
}
