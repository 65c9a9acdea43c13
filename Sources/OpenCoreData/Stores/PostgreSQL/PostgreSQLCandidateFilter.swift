import Foundation

/// A WHERE clause that narrows a fetch to rows its predicate may match, so that a fetch by key
/// or range reads those rows rather than the whole table; the context still evaluates the
/// whole predicate on them, so the answer is the in-memory evaluator's.
///
/// ```swift
/// let p = NSPredicate(format: "age >= 30 AND name CONTAINS 'x' AND salary == 5")
/// let filter = PostgreSQLCandidateFilter(p, plan: employeePlan, firstParameter: 1)
/// filter?.sql      // ("ZAGE" >= $1)       — the AND stops at the part it can't translate
/// filter?.values   // [.integer(30)]
/// ```
///
/// A part is translated only where PostgreSQL keeps every row the evaluator would: an
/// attribute of the fetched entity (Integer, Double, Float, Date; Boolean for `==`/`!=`)
/// compared by `==`, `!=`, `<`, `<=`, `>`, `>=` with a constant of its kind or nil (`nil !=
/// 5` is true in memory: `!=` keeps NULLs). An AND narrows by its parts up to the first it
/// can't translate (the evaluator stops at the first false part, so a later part must not hide
/// a row on which an untranslated one throws); an OR only when every part translates.
/// Anything else keeps every row. Strings are left to memory: the evaluator compares them by
/// canonical equivalence, which PostgreSQL's collations do not.
struct PostgreSQLCandidateFilter {
    let sql: String
    let values: [PostgreSQLValue]
    /// Whether the clause keeps exactly the rows the evaluator would, no more: the whole
    /// predicate translated (a comparison of Doubles, Floats or dates — stored as seconds —
    /// spells out the evaluator's rule for a stored NaN).
    let isExact: Bool

    /// nil when no part of `predicate` narrows.
    init?(_ predicate: NSPredicate, plan: PostgreSQLEntityPlan, firstParameter: Int) {
        var values: [PostgreSQLValue] = []
        guard let (sql, complete) = Self.translate(predicate, plan, &values, firstParameter) else { return nil }
        self.sql = sql
        self.values = values
        isExact = complete
    }

    /// The clause for `predicate` and whether it decides all of it (else it keeps more rows);
    /// nil when nothing of it translates.
    private static func translate(_ predicate: NSPredicate, _ plan: PostgreSQLEntityPlan, _ values: inout [PostgreSQLValue], _ first: Int) -> (String, complete: Bool)? {
        if let compound = predicate as? NSCompoundPredicate {
            switch compound.compoundPredicateType {
            case .and:
                var parts: [String] = []
                var complete = true
                for subpredicate in compound.predicates {
                    guard let (part, whole) = translate(subpredicate, plan, &values, first) else { complete = false; break }
                    parts.append(part)
                    guard whole else { complete = false; break }
                }
                return parts.isEmpty ? nil : ("(" + parts.joined(separator: " AND ") + ")", complete)
            case .or:
                var parts: [String] = []
                let before = values
                for subpredicate in compound.predicates {
                    guard case let (part, true)? = translate(subpredicate, plan, &values, first) else { values = before; return nil }
                    parts.append(part)
                }
                return parts.isEmpty ? nil : ("(" + parts.joined(separator: " OR ") + ")", true)
            case .not:
                return nil
            }
        }
        guard let c = predicate as? NSComparisonPredicate, c.comparisonPredicateModifier == .direct, c.options.isEmpty,
              case let .keyPath(nil, components) = c.leftExpression.node, components.count == 1,
              case .constant(let boxed) = c.rightExpression.node,
              let attribute = plan.entity.propertiesByName[components[0]] as? NSAttributeDescription,
              let column = plan.table.columnIndex(for: attribute) else { return nil }
        let name = plan.table.columns[column].sqlName
        let op: String
        switch c.predicateOperatorType {
        case .equalTo: op = "="
        case .notEqualTo: op = "<>"
        case .lessThan: op = "<"
        case .lessThanOrEqualTo: op = "<="
        case .greaterThan: op = ">"
        case .greaterThanOrEqualTo: op = ">="
        default: return nil
        }
        let constant = KVCValueKinds.unwrap(boxed)
        if constant == nil || constant is NSNull {
            switch op {
            case "=": return ("\(name) IS NULL", true)
            case "<>": return ("\(name) IS NOT NULL", true)
            default: return nil
            }
        }
        let value: PostgreSQLValue
        switch (attribute.attributeType, constant.flatMap(NumericValue.init)) {
        case (.integer16AttributeType, .int(let i)?), (.integer32AttributeType, .int(let i)?), (.integer64AttributeType, .int(let i)?):
            value = .integer(i)
        case (.doubleAttributeType, .int(let i)?), (.floatAttributeType, .int(let i)?):
            value = .double(Double(i))
        case (.doubleAttributeType, .double(let d)?), (.floatAttributeType, .double(let d)?):
            // NaN equals nothing in memory and itself in PostgreSQL.
            guard !d.isNaN else { return nil }
            value = .double(d)
        case (.booleanAttributeType, .int(let i)?) where (op == "=" || op == "<>") && (i == 0 || i == 1):
            value = .bool(i == 1)
        case (.dateAttributeType, _):
            guard let date = constant as? Date else { return nil }
            value = .double(date.timeIntervalSinceReferenceDate)
        default:
            return nil
        }
        values.append(value)
        let parameter = "$\(first + values.count - 1)"
        guard case .double = value else {
            if op == "<>" { return ("(\(name) IS NULL OR \(name) <> \(parameter))", true) }
            return ("\(name) \(op) \(parameter)", true)
        }
        // A stored NaN (a Double, Float or date column) is neither smaller nor larger than
        // anything in memory (`ValueComparison.compare` says "same"), so it matches `<=` and
        // `>=` and no `<` or `>`; PostgreSQL orders it above every number, which gives `>=` and
        // `<` and needs `<=` and `>` spelt out. Equality differs by kind: numbers are equal
        // when they compare the same (a NaN equals every number), dates by `Date.==` (a NaN
        // date equals none), which is PostgreSQL's answer too.
        let nan = "'NaN'::float8"
        let isNumber = attribute.attributeType != .dateAttributeType
        switch op {
        case "<=": return ("(\(name) <= \(parameter) OR \(name) = \(nan))", true)
        case ">": return ("(\(name) > \(parameter) AND \(name) <> \(nan))", true)
        case "=" where isNumber: return ("(\(name) = \(parameter) OR \(name) = \(nan))", true)
        case "<>" where isNumber: return ("(\(name) IS NULL OR (\(name) <> \(parameter) AND \(name) <> \(nan)))", true)
        case "<>": return ("(\(name) IS NULL OR \(name) <> \(parameter))", true)
        default: return ("\(name) \(op) \(parameter)", true)
        }
    }
}
