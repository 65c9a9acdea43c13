import CSQLite
import Foundation

/// A WHERE clause that narrows a fetch to the rows a predicate can match, so the context
/// materialises and evaluates only those.
///
/// ```swift
/// let p = NSPredicate(format: "salary >= %d AND lastName == %@", 1000, "Ng")
/// let filter = SQLitePredicateFilter(p, entity: employee, table: table)
/// filter?.sql       // "((ZSALARY IS NOT NULL AND ZSALARY >= ?) AND (ZLASTNAME IS NOT NULL AND ZLASTNAME = ? COLLATE OCD_UNICODE))"
/// filter?.bindings  // [.integer(1000), .text("Ng")]
/// ```
///
/// The clause is allowed to keep more rows than the predicate matches, never fewer: the context
/// still evaluates the whole predicate in memory on what comes back (the store does not claim
/// `evaluatesFetchPlans`), so any answer is exactly the in-memory evaluator's. Each part of the
/// predicate is translated either *exactly* (SQL decides it the way `ValueComparison` does,
/// including nil: `nil != 5` is true, `nil < 5` is false) or not at all (“keep every row”).
/// An AND keeps the translatable parts; an OR or NOT is translated only when all of it is
/// exact. What is exact today: `==`, `!=`, `<`, `<=`, `>`, `>=` between an attribute of the
/// fetched entity and a constant — integers, Booleans and Doubles against numbers, dates against
/// dates, strings against strings (through the `OCD_UNICODE` collation, which compares with
/// Swift's canonical-equivalence order like the evaluator, and the `ocd_fold` function for
/// `[c]`/`[d]`, which folds with `PredicateStringFolding`); and TRUE/FALSEPREDICATE.
/// Values are bound, never spliced into the SQL.
struct SQLitePredicateFilter {
    let sql: String
    let bindings: [SQLiteValue]

    /// The filter for `predicate` on rows of `entity` in `table`, or nil when no part of it
    /// can be decided in SQL (then every row of the entity is read).
    init?(_ predicate: NSPredicate, entity: NSEntityDescription, table: SQLiteEntityTable) {
        guard case let .filter(sql, bindings, _) = Self.translate(predicate, entity, table) else { return nil }
        self.sql = sql
        self.bindings = bindings
    }

    private enum Translation {
        /// `exact`: the SQL is true exactly when the predicate is; otherwise it is true at
        /// least whenever the predicate is.
        case filter(String, [SQLiteValue], exact: Bool)
        /// Not decidable in SQL: keep every row.
        case keepAll
    }

    private static func translate(_ predicate: NSPredicate, _ entity: NSEntityDescription, _ table: SQLiteEntityTable) -> Translation {
        if case .value(let value) = predicate.kind { return .filter(value ? "1" : "0", [], exact: true) }
        if let compound = predicate as? NSCompoundPredicate {
            let parts = compound.predicates.map { translate($0, entity, table) }
            switch compound.compoundPredicateType {
            case .and:
                var sql: [String] = [], bindings: [SQLiteValue] = [], exact = true
                for part in parts {
                    guard case let .filter(s, b, e) = part else { exact = false; continue }
                    sql.append(s); bindings += b; exact = exact && e
                }
                return sql.isEmpty ? (exact ? .filter("1", [], exact: true) : .keepAll) : .filter("(" + sql.joined(separator: " AND ") + ")", bindings, exact: exact)
            case .or:
                var sql: [String] = [], bindings: [SQLiteValue] = [], exact = true
                for part in parts {
                    guard case let .filter(s, b, e) = part else { return .keepAll }
                    sql.append(s); bindings += b; exact = exact && e
                }
                return sql.isEmpty ? .filter("0", [], exact: true) : .filter("(" + sql.joined(separator: " OR ") + ")", bindings, exact: exact)
            case .not:
                // NOT negates the AND of its subpredicates; only an exact inner part may be negated.
                guard case let .filter(s, b, true) = translate(NSCompoundPredicate(andPredicateWithSubpredicates: compound.predicates), entity, table) else { return .keepAll }
                return .filter("(NOT \(s))", b, exact: true)
            }
        }
        guard let comparison = predicate as? NSComparisonPredicate else { return .keepAll }
        return translate(comparison, entity, table)
    }

    private static func translate(_ p: NSComparisonPredicate, _ entity: NSEntityDescription, _ table: SQLiteEntityTable) -> Translation {
        guard p.comparisonPredicateModifier == .direct,
              case let .keyPath(operand, components) = p.leftExpression.node, operand == nil, components.count == 1,
              case let .constant(rawConstant) = p.rightExpression.node,
              let attribute = entity.propertiesByName[components[0]] as? NSAttributeDescription, !attribute.isTransient,
              let index = table.columnIndex(for: attribute) else { return .keepAll }
        let column = table.columns[index].name
        let op: String
        switch p.predicateOperatorType {
        case .equalTo: op = "="
        case .notEqualTo: op = "<>"
        case .lessThan: op = "<"
        case .lessThanOrEqualTo: op = "<="
        case .greaterThan: op = ">"
        case .greaterThanOrEqualTo: op = ">="
        default: return .keepAll
        }
        let constant = KVCValueKinds.unwrap(rawConstant)
        if constant == nil || constant is NSNull {
            // nil equals only nil and is never ordered.
            switch p.predicateOperatorType {
            case .equalTo: return .filter("\(column) IS NULL", [], exact: true)
            case .notEqualTo: return .filter("\(column) IS NOT NULL", [], exact: true)
            default: return .filter("0", [], exact: true)
            }
        }
        guard let constant else { return .keepAll }

        var subject = column
        var suffix = ""
        let value: SQLiteValue
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType, .doubleAttributeType:
            // Float attributes are left out: the evaluator compares their Float value, the
            // column holds it widened to Double.
            guard p.options.isEmpty, !(constant is String), !(constant is NSString) else { return .keepAll }
            switch NumericValue(constant) {
            case .int(let i)?: value = .integer(i)
            case .double(let d)? where !d.isNaN: value = .real(d)
            default: return .keepAll
            }
        case .dateAttributeType:
            guard let date = constant as? Date else { return .keepAll }
            value = .real(date.timeIntervalSinceReferenceDate)
        case .stringAttributeType:
            guard let string = KVCValueKinds.string(constant) else { return .keepAll }
            let options = p.options.intersection([.caseInsensitive, .diacriticInsensitive])
            guard p.options.subtracting([.caseInsensitive, .diacriticInsensitive]).isEmpty else { return .keepAll }
            if options.isEmpty {
                value = .text(string)
            } else {
                subject = "ocd_fold(\(column), \(options.rawValue))"
                value = .text(PredicateStringFolding.fold(string, options: options))
            }
            suffix = " COLLATE OCD_UNICODE"
        default:
            return .keepAll
        }
        // Two-valued like the evaluator: a NULL column is unequal to every constant and unordered.
        if p.predicateOperatorType == .notEqualTo {
            return .filter("(\(column) IS NULL OR \(subject) <> ?\(suffix))", [value], exact: true)
        }
        return .filter("(\(column) IS NOT NULL AND \(subject) \(op) ?\(suffix))", [value], exact: true)
    }
}

extension SQLiteConnection {
    /// Registers what ``SQLitePredicateFilter`` uses: the `OCD_UNICODE` collation (Swift's
    /// string order, which respects canonical equivalence as the predicate evaluator does) and
    /// `ocd_fold(text, options)` (``PredicateStringFolding`` with `NSComparisonPredicate.Options`
    /// raw bits for `[c]` and `[d]`). Both are deterministic, so SQLite may use them freely.
    func registerPredicateFunctions() throws {
        var rc = sqlite3_create_collation_v2(handle, "OCD_UNICODE", SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self)
            return a < b ? -1 : (a == b ? 0 : 1)
        }, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, extendedCode: rc, message: "can't register collation OCD_UNICODE", sql: nil) }
        rc = sqlite3_create_function_v2(handle, "ocd_fold", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let text = sqlite3_value_text(arguments[0]) else { sqlite3_result_null(context); return }
            let string = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(arguments[0]))), as: UTF8.self)
            let options = NSComparisonPredicate.Options(rawValue: UInt(max(0, sqlite3_value_int64(arguments[1]))))
            let folded = PredicateStringFolding.fold(string, options: options)
            let count = folded.utf8.count
            folded.withCString { sqlite3_result_text(context, $0, Int32(count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
        }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, extendedCode: rc, message: "can't register function ocd_fold", sql: nil) }
    }
}
