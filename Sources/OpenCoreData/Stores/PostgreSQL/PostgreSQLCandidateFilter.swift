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
    /// predicate translated, and only comparisons of integers, Booleans and nil (a comparison
    /// of Doubles, Floats or dates — stored as seconds — keeps stored NaNs, which PostgreSQL and
    /// the evaluator order differently, for the evaluator to decide).
    let isExact: Bool

    /// nil when no part of `predicate` narrows.
    init?(_ predicate: NSPredicate, plan: PostgreSQLEntityPlan, firstParameter: Int) {
        var values: [PostgreSQLValue] = []
        var approximate = false
        guard let (sql, complete) = Self.translate(predicate, plan, &values, &approximate, firstParameter) else { return nil }
        self.sql = sql
        self.values = values
        isExact = complete && !approximate
    }

    /// The clause for `predicate` and whether it decides all of it (else it keeps more rows);
    /// nil when nothing of it translates.
    /// `approximate` is set when a translated part may keep more rows than it decides.
    private static func translate(_ predicate: NSPredicate, _ plan: PostgreSQLEntityPlan, _ values: inout [PostgreSQLValue], _ approximate: inout Bool, _ first: Int) -> (String, complete: Bool)? {
        if let compound = predicate as? NSCompoundPredicate {
            switch compound.compoundPredicateType {
            case .and:
                var parts: [String] = []
                var complete = true
                for subpredicate in compound.predicates {
                    guard let (part, whole) = translate(subpredicate, plan, &values, &approximate, first) else { complete = false; break }
                    parts.append(part)
                    guard whole else { complete = false; break }
                }
                return parts.isEmpty ? nil : ("(" + parts.joined(separator: " AND ") + ")", complete)
            case .or:
                var parts: [String] = []
                let before = values
                for subpredicate in compound.predicates {
                    guard case let (part, true)? = translate(subpredicate, plan, &values, &approximate, first) else { values = before; return nil }
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
        if case .double = value { approximate = true }
        let parameter = "$\(first + values.count - 1)"
        if op == "<>" { return ("(\(name) IS NULL OR \(name) <> \(parameter))", true) }
        if case .double = value, op == "=" || op == "<=" || op == "<" {
            // A stored NaN compares as equal to any number in memory (`NumericValue`), while
            // PostgreSQL orders it above every number: keep it for `=` and `<=` (and `<`, to
            // stay clear of either side's order).
            return ("(\(name) \(op) \(parameter) OR \(name) = 'NaN'::float8)", true)
        }
        return ("\(name) \(op) \(parameter)", true)
    }
}
