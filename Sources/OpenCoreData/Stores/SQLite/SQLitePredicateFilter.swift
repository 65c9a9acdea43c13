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
/// Each part of the predicate is translated either *exactly* (SQL decides it the way
/// `ValueComparison` does, including nil: `nil != 5` is true, `nil < 5` is false) or not at all
/// (“keep every row”). An AND keeps the translatable parts; an OR or NOT is translated only when
/// all of it is exact. When the whole predicate is exact (``isExact``) the store answers the
/// fetch in SQL (``SQLiteFetchQuery``); otherwise the clause only narrows the rows, never fewer
/// than match, and the context evaluates the whole predicate in memory. Either way the answer
/// is the in-memory evaluator's.
///
/// What is exact today: `==`, `!=`, `<`, `<=`, `>`, `>=`, `IN` a constant collection and
/// `BETWEEN` two constants, between an attribute of the fetched entity and constants —
/// integers, Booleans and Doubles against numbers (an integer against a Double is compared as
/// Doubles on both sides, as `NumericValue` does: `CAST(column AS REAL)`), dates against dates,
/// strings against strings (through the `OCD_UNICODE` collation, which compares with Swift's
/// canonical-equivalence order like the evaluator, and the `ocd_fold` function for `[c]`/`[d]`,
/// which folds with `PredicateStringFolding`); and TRUE/FALSEPREDICATE.
/// Values are bound, never spliced into the SQL.
struct SQLitePredicateFilter {
    let sql: String
    let bindings: [SQLiteValue]
    /// Whether the clause decides the whole predicate (true exactly when the predicate is), so
    /// the store may answer the fetch without the in-memory evaluator.
    let isExact: Bool

    /// The filter for `predicate` on rows of `entity` in `table`, or nil when no part of it
    /// can be decided in SQL (then every row of the entity is read).
    init?(_ predicate: NSPredicate, entity: NSEntityDescription, table: SQLiteEntityTable) {
        guard case let .filter(sql, bindings, exact) = Self.translate(predicate, entity, table) else { return nil }
        self.sql = sql
        self.bindings = bindings
        isExact = exact
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
        let constant = KVCValueKinds.unwrap(rawConstant)
        switch p.predicateOperatorType {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return compare(column, attribute, p.predicateOperatorType, constant, p.options)
        case .in:
            // `x IN {a, b}` is `x == a OR x == b` (ValueComparison.isEqual per element); a
            // dictionary's values and a string (substring test) are left to the evaluator.
            guard let constant, !KVCValueKinds.isDictionary(constant), KVCValueKinds.string(constant) == nil,
                  let (elements, _) = KVCValueKinds.collection(constant) else { return .keepAll }
            var sql: [String] = [], bindings: [SQLiteValue] = []
            for element in elements {
                guard case let .filter(s, b, true) = compare(column, attribute, .equalTo, KVCValueKinds.unwrap(element), p.options) else { return .keepAll }
                sql.append(s); bindings += b
            }
            return sql.isEmpty ? .filter("0", [], exact: true) : .filter("(" + sql.joined(separator: " OR ") + ")", bindings, exact: true)
        case .between:
            // The evaluator: both bounds ordered against x, low <= x <= high; nil never orders.
            guard let constant, let (bounds, _) = KVCValueKinds.collection(constant), bounds.count == 2,
                  case let .filter(low, lowBindings, true) = compare(column, attribute, .greaterThanOrEqualTo, KVCValueKinds.unwrap(bounds[0]), p.options),
                  case let .filter(high, highBindings, true) = compare(column, attribute, .lessThanOrEqualTo, KVCValueKinds.unwrap(bounds[1]), p.options)
            else { return .keepAll }
            return .filter("(\(low) AND \(high))", lowBindings + highBindings, exact: true)
        default:
            return .keepAll
        }
    }

    /// `column <op> constant` decided as `ValueComparison` decides it, or `.keepAll`.
    private static func compare(_ column: String, _ attribute: NSAttributeDescription, _ type: NSComparisonPredicate.Operator,
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
        if constant == nil || constant is NSNull {
            // nil equals only nil and is never ordered.
            switch type {
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
            guard options.isEmpty, !(constant is String), !(constant is NSString) else { return .keepAll }
            let isInteger = attribute.attributeType != .doubleAttributeType
            // NumericValue compares two integers exactly and anything else as Doubles
            // (Double(i) rounds above 2^53). SQLite compares an integer with a real exactly, so
            // a mixed comparison is made real on both sides, rounded as Swift rounds.
            switch NumericValue(constant) {
            case .int(let i)?:
                value = isInteger ? .integer(i) : .real(Double(i))
            case .double(let d)? where !d.isNaN:
                value = .real(d)
                if isInteger { subject = "CAST(\(column) AS REAL)" }
            default: return .keepAll
            }
        case .dateAttributeType:
            guard let date = constant as? Date else { return .keepAll }
            value = .real(date.timeIntervalSinceReferenceDate)
        case .stringAttributeType:
            guard let string = KVCValueKinds.string(constant) else { return .keepAll }
            let folding = options.intersection([.caseInsensitive, .diacriticInsensitive])
            guard options.subtracting([.caseInsensitive, .diacriticInsensitive]).isEmpty else { return .keepAll }
            if folding.isEmpty {
                value = .text(string)
            } else {
                subject = "ocd_fold(\(column), \(folding.rawValue))"
                value = .text(PredicateStringFolding.fold(string, options: folding))
            }
            suffix = " COLLATE OCD_UNICODE"
        default:
            return .keepAll
        }
        // Two-valued like the evaluator: a NULL column is unequal to every constant and unordered.
        if type == .notEqualTo {
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
        // Sorting (SQLiteFetchQuery): NSSortDescriptor.compareValues orders strings with
        // String.compare(_:) (options .caseInsensitive for caseInsensitiveCompare:), a different
        // function than the predicate evaluator's `<`; these collations call exactly that.
        rc = sqlite3_create_collation_v2(handle, "OCD_COMPARE", SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self)
            return Int32(a.compare(b).rawValue)
        }, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, extendedCode: rc, message: "can't register collation OCD_COMPARE", sql: nil) }
        rc = sqlite3_create_collation_v2(handle, "OCD_COMPARE_CI", SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self)
            return Int32(a.compare(b, options: .caseInsensitive).rawValue)
        }, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, extendedCode: rc, message: "can't register collation OCD_COMPARE_CI", sql: nil) }
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
