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
/// attribute of the fetched entity (Integer, Double, Date; Boolean for `==`/`!=`)
/// compared by `==`, `!=`, `<`, `<=`, `>`, `>=` with a constant of its kind or nil (`nil !=
/// 5` is true in memory: `!=` keeps NULLs), `IN` a collection of such constants or
/// `BETWEEN` two of them; a to-one
/// relationship `==`/`!=` nil, an object ID or an object of the fetching context
/// (`department == %@`), by its foreign key; and such comparisons of an attribute at the end
/// of to-one relationships (`department.name`), or of a to-many's `@count`; `ANY`/`ALL` a
/// member's attribute (`ANY projects.title == 'x'`); `SUBQUERY(toMany, $x, predicate).@count`
/// where the predicate compares only the member's own attributes. An AND narrows by its parts up to the first it
/// can't translate (the evaluator stops at the first false part, so a later part must not hide
/// a row on which an untranslated one throws); an OR only when every part translates, a NOT
/// only when its inside does.
/// String attributes `==`/`!=`/`IN` string constants compare by canonical equivalence, as the
/// evaluator does, through `normalize(..., NFC)` where the database has it (UTF-8, PostgreSQL
/// 13+); other string comparisons are left to memory. Anything else keeps every row.
/// A Float attribute compares as the Float its object answers (``floatValue(of:)``), not the
/// Double its column keeps (0.3 reads as 0.30000001192...).
struct PostgreSQLCandidateFilter {
    let sql: String
    let values: [PostgreSQLValue]
    /// Whether the clause keeps exactly the rows the evaluator would, no more: the whole
    /// predicate translated (a comparison of Doubles or dates — stored as seconds —
    /// spells out the evaluator's rule for a stored NaN).
    let isExact: Bool

    /// What a translation needs besides the predicate.
    private struct Scope {
        /// The entity and table of the row a clause tests: the fetched row's, or inside a
        /// `SUBQUERY` the member's.
        let entity: NSEntityDescription
        let table: StoreEntityTable
        /// The alias of a `SUBQUERY`'s member row, whose columns are qualified with it; nil for
        /// the fetched row, whose columns go unqualified.
        var member: String? = nil
        /// The `SUBQUERY`'s variable, which names the member row as plain key paths do.
        var variable: String? = nil
        /// The SQL of the row's `Z_PK`.
        var rowKey: String { "\(member ?? table.sqlName).\"Z_PK\"" }
        /// The number of the first parameter (`$n`) the clause binds.
        let first: Int
        /// The store's token, when relationships may be compared (nil while the context
        /// corrects the answer with its unsaved changes, as the SQLite store's filter does).
        let storeToken: Int32?
        /// The fetching context, whose objects stand for their IDs.
        weak var context: (any RequestingContext)?
        /// Whether the database can `normalize()` text (``PostgreSQLStore/comparesStringsInSQL``).
        let comparesStrings: Bool
        /// The store's tables, for key paths through relationships.
        let schema: StoreSchema?
    }

    /// nil when no part of `predicate` narrows. `storeToken` (the store's) lets a to-one
    /// relationship be compared with nil, an object ID or an object of `context` by its key,
    /// and with `schema` key paths through to-one relationships be followed; without it
    /// relationship comparisons keep every row.
    init?(_ predicate: NSPredicate, plan: PostgreSQLEntityPlan, firstParameter: Int, storeToken: Int32? = nil, context: (any RequestingContext)? = nil,
          comparesStrings: Bool = false, schema: StoreSchema? = nil) {
        var values: [PostgreSQLValue] = []
        let scope = Scope(entity: plan.entity, table: plan.table, first: firstParameter, storeToken: storeToken, context: context, comparesStrings: comparesStrings, schema: schema)
        // Past 60,000 parameters the statement (at most 65,535 with the entity numbers and a
        // page's limits) would fail: the evaluator decides instead.
        guard let (sql, complete) = Self.translate(predicate, scope, &values), values.count <= 60_000 else { return nil }
        self.sql = sql
        self.values = values
        isExact = complete
    }

    /// The clause for `predicate` and whether it decides all of it (else it keeps more rows);
    /// nil when nothing of it translates.
    private static func translate(_ predicate: NSPredicate, _ scope: Scope, _ values: inout [PostgreSQLValue]) -> (String, complete: Bool)? {
        if let compound = predicate as? NSCompoundPredicate {
            switch compound.compoundPredicateType {
            case .and:
                var parts: [String] = []
                var complete = true
                for subpredicate in compound.predicates {
                    guard let (part, whole) = translate(subpredicate, scope, &values) else { complete = false; break }
                    parts.append(part)
                    guard whole else { complete = false; break }
                }
                return parts.isEmpty ? nil : ("(" + parts.joined(separator: " AND ") + ")", complete)
            case .or:
                var parts: [String] = []
                let before = values
                for subpredicate in compound.predicates {
                    guard case let (part, true)? = translate(subpredicate, scope, &values) else { values = before; return nil }
                    parts.append(part)
                }
                return parts.isEmpty ? nil : ("(" + parts.joined(separator: " OR ") + ")", true)
            case .not:
                // Only a whole inside: a part keeps more rows than match, and its negation
                // fewer. An exact clause is TRUE exactly where the evaluator says true; where
                // it is NULL (a comparison with a NULL column) the evaluator says false, so NOT
                // must read NULL as FALSE before negating.
                let before = values
                guard compound.predicates.count == 1, case let (inside, true)? = translate(compound.predicates[0], scope, &values) else {
                    values = before  // a partly translated inside bound values its clause is not used for
                    return nil
                }
                return ("NOT COALESCE(\(inside), FALSE)", true)
            }
        }
        guard let c = predicate as? NSComparisonPredicate, c.options.isEmpty else { return nil }
        if case let .keyPath(operand?, components) = c.leftExpression.node, case let .subquery(collection, variable, inner) = operand.node {
            let before = values
            guard components == ["@count"], c.comparisonPredicateModifier == .direct,
                  let count = subqueryCount(collection, variable, inner, scope, &values),
                  let clause = clause(c, integerAggregate, "ocd_once.v", scope, &values) else { values = before; return nil }
            return (computedOnce(count, in: clause), true)
        }
        guard case let .keyPath(operand, components) = c.leftExpression.node, !components.isEmpty else { return nil }
        switch operand?.node {
        case nil: break
        case .variable(let name)? where name == scope.variable: break  // `$x.age` inside a SUBQUERY
        default: return nil
        }
        guard c.comparisonPredicateModifier == .direct else { return quantified(c, components, scope, &values).map { ($0, true) } }
        if components.count == 1, let relationship = scope.entity.propertiesByName[components[0]] as? NSRelationshipDescription {
            guard case .constant(let boxed) = c.rightExpression.node else { return nil }
            return relationshipComparison(relationship, c.predicateOperatorType, KVCValueKinds.unwrap(boxed), scope, &values).map { ($0, true) }
        }
        guard let (attribute, value) = value(at: components, scope) else { return nil }
        guard components.count > 1 else { return clause(c, attribute, value, scope, &values).map { ($0, true) } }
        return clause(c, attribute, "ocd_once.v", scope, &values).map { (computedOnce(value, in: $0), true) }
    }

    /// The clause of comparison `c` for a value `name` of `attribute`'s kind.
    private static func clause(_ c: NSComparisonPredicate, _ attribute: NSAttributeDescription, _ name: String, _ scope: Scope, _ values: inout [PostgreSQLValue]) -> String? {
        switch c.predicateOperatorType {
        case .in: return membership(attribute, name, c.rightExpression, scope, &values)
        case .between: return between(attribute, name, c.rightExpression, scope, &values)
        default:
            guard case .constant(let boxed) = c.rightExpression.node else { return nil }
            return comparison(attribute, name, c.predicateOperatorType, KVCValueKinds.unwrap(boxed), scope, &values)
        }
    }

    /// `SUBQUERY(toMany, $x, predicate).@count` of the fetched row: its members for which the
    /// predicate holds, counted. Only where the predicate translates whole and reads nothing
    /// but the member's own attributes (`$x.age`, or `age`: inside, both name the member, as
    /// in the evaluator), compared with constants; and only while the store's answer is
    /// final, as `@count`.
    ///
    ///     SUBQUERY(employees, $e, $e.age > 30).@count
    ///       → (SELECT count(*) FROM "ZEMPLOYEE" m WHERE m."ZDEPARTMENT" = "ZDEPARTMENT"."Z_PK" AND m."ZAGE" > $1)
    ///
    /// The member's scope has no store token, so nothing in it follows a relationship (and no
    /// `SUBQUERY` nests): those stay with the evaluator.
    private static func subqueryCount(_ collection: NSExpression, _ variable: String, _ predicate: NSPredicate, _ scope: Scope, _ values: inout [PostgreSQLValue]) -> String? {
        guard scope.storeToken != nil, scope.member == nil, let schema = scope.schema,
              case let .keyPath(nil, components) = collection.node, components.count == 1,
              let relationship = scope.entity.propertiesByName[components[0]] as? NSRelationshipDescription,
              relationship.isToMany, !relationship.isTransient, let destination = relationship.destinationEntity,
              let (members, table) = members(of: relationship, owner: scope.rowKey, schema) else { return nil }
        let member = Scope(entity: destination, table: table, member: "m", variable: variable, first: scope.first, storeToken: nil,
                           context: scope.context, comparesStrings: scope.comparesStrings, schema: nil)
        guard case let (clause, true)? = translate(predicate, member, &values) else { return nil }
        return "(SELECT count(*) \(members) AND \(clause))"
    }

    /// `clause` (which names the value `ocd_once.v`) of a value that is a correlated subquery
    /// (a key path's, an `@count`), with the subquery run once per row. A clause names its
    /// value up to six times (a Float's rounding, a NaN's rule, each element of `IN`), and
    /// PostgreSQL would run the subquery for each; `OFFSET 0` keeps the planner from pulling
    /// the one-row subquery up and copying the value back in. The result is the clause's:
    /// TRUE, FALSE or NULL.
    private static func computedOnce(_ value: String, in clause: String) -> String {
        "(SELECT \(clause) FROM (SELECT \(value) AS v OFFSET 0) ocd_once)"
    }

    /// `x BETWEEN {low, high}`: the evaluator's `x >= low AND x <= high` (each side ordered
    /// by the comparison rules, nil never in range); nil unless both bounds translate.
    private static func between(_ attribute: NSAttributeDescription, _ name: String, _ bounds: NSExpression, _ scope: Scope, _ values: inout [PostgreSQLValue]) -> String? {
        guard let pair = constants(of: bounds), pair.count == 2 else { return nil }
        let before = values
        guard let low = comparison(attribute, name, .greaterThanOrEqualTo, pair[0], scope, &values),
              let high = comparison(attribute, name, .lessThanOrEqualTo, pair[1], scope, &values) else { values = before; return nil }
        return "(\(low) AND \(high))"
    }

    /// The attribute at the end of `components` and the SQL of its value: the fetched table's
    /// column (`"ZAGE"`), or through to-one relationships a correlated scalar subquery on the
    /// foreign keys, NULL where a relationship is nil as the key path's value is nil in memory:
    ///
    ///     department.name → (SELECT a1."ZNAME" FROM "ZDEPARTMENT" a1 WHERE a1."Z_PK" = "ZEMPLOYEE"."ZDEPARTMENT")
    ///
    /// (`Z_PK` is unique in a destination's root table, so a destination with subentities needs
    /// no `Z_ENT` check.) Relationship steps only while the store's answer is final
    /// (``Scope/storeToken``): an unsaved change of a related object is seen in memory only.
    private static func value(at components: [String], _ scope: Scope) -> (NSAttributeDescription, String)? {
        if let at = components.firstIndex(where: { $0.hasPrefix("@") }) {
            // An aggregate of the to-many at `at - 1`, of the fetched row or of the object at
            // the end of to-one relationships (`department.employees.@count`).
            guard at >= 1, let (entity, _, key) = toOneEnd(of: components[..<(at - 1)], scope) else { return nil }
            let owner = key ?? scope.rowKey
            let aggregate: (NSAttributeDescription, String)?
            switch components.count - at {
            case 1 where components[at] == "@count": aggregate = memberCount(of: components[at - 1], in: entity, owner: owner, scope)
            case 2: aggregate = memberAggregate(components[at], of: components[at + 1], in: components[at - 1], of: entity, owner: owner, scope)
            default: return nil
            }
            guard let (attribute, sql) = aggregate else { return nil }
            // Through a nil to-one the evaluator's path is nil, not an aggregate of no members.
            return (attribute, key.map { "(CASE WHEN \($0) IS NULL THEN NULL ELSE \(sql) END)" } ?? sql)
        }
        guard let (entity, table, key) = toOneEnd(of: components.dropLast(), scope),
              let attribute = entity.propertiesByName[components[components.count - 1]] as? NSAttributeDescription, !attribute.isTransient,
              let column = table.columnIndex(for: attribute) else { return nil }
        let name = table.columns[column].sqlName
        guard let key else { return (attribute, scope.member.map { "\($0).\(name)" } ?? name) }
        let qualifier = "a\(components.count - 1)"
        return (attribute, "(SELECT \(qualifier).\(name) FROM \(table.sqlName) \(qualifier) WHERE \(qualifier).\"Z_PK\" = \(key))")
    }

    /// The entity and table at the end of the to-one relationships `path` from the scope's row,
    /// and the SQL of its `Z_PK` (nil for an empty path: the scope's row itself; NULL where a
    /// relationship is nil). Step `n` reads its row as `a<n>`. Only while the store's answer
    /// is final.
    private static func toOneEnd(of path: ArraySlice<String>, _ scope: Scope) -> (entity: NSEntityDescription, table: StoreEntityTable, key: String?)? {
        var entity = scope.entity
        var table = scope.table
        var key: String?
        for (step, name) in path.enumerated() {
            let qualifier = key == nil ? scope.member ?? table.sqlName : "a\(step)"
            guard scope.storeToken != nil, let schema = scope.schema, let relationship = entity.propertiesByName[name] as? NSRelationshipDescription,
                  !relationship.isToMany, !relationship.isTransient, let destination = relationship.destinationEntity,
                  let column = table.columnIndex(for: relationship), let destinationTable = schema.tableIfPresent(for: destination) else { return nil }
            let foreignKey = "\(qualifier).\(table.columns[column].sqlName)"
            key = key.map { "(SELECT \(foreignKey) FROM \(table.sqlName) \(qualifier) WHERE \(qualifier).\"Z_PK\" = \($0))" } ?? foreignKey
            (entity, table) = (destination, destinationTable)
        }
        return (entity, table, key)
    }

    /// `ANY`/`ALL toMany.attribute <op> constant` over a to-many relationship of the fetched
    /// row: EXISTS a member whose value matches / NOT EXISTS one whose value does not (NULL, a
    /// comparison with a NULL value, read as not matching first). No members makes ANY false
    /// and ALL true. The evaluator iterates the members' values: of an unordered to-many a
    /// *set*, which holds no nil, so members with a nil value take no part; of an ordered one
    /// an array, in which a nil value (`NSNull`) is compared like any other, as the clause
    /// compares a NULL column. Only while the store's answer is final.
    private static func quantified(_ c: NSComparisonPredicate, _ components: [String], _ scope: Scope, _ values: inout [PostgreSQLValue]) -> String? {
        guard components.count == 2, scope.storeToken != nil, let schema = scope.schema,
              let relationship = scope.entity.propertiesByName[components[0]] as? NSRelationshipDescription,
              relationship.isToMany, !relationship.isTransient, let destination = relationship.destinationEntity,
              let attribute = destination.propertiesByName[components[1]] as? NSAttributeDescription, !attribute.isTransient,
              let (members, memberTable) = members(of: relationship, owner: scope.rowKey, schema) else { return nil }
        guard let column = memberTable.columnIndex(for: attribute) else { return nil }
        let value = "m.\(memberTable.columns[column].sqlName)"
        let before = values
        let matches: String?
        switch c.predicateOperatorType {
        case .in: matches = membership(attribute, value, c.rightExpression, scope, &values)
        default:
            guard case .constant(let boxed) = c.rightExpression.node else { return nil }
            matches = comparison(attribute, value, c.predicateOperatorType, KVCValueKinds.unwrap(boxed), scope, &values)
        }
        guard let matches else { values = before; return nil }
        let taking = relationship.isOrdered ? "" : " AND \(value) IS NOT NULL"
        return c.comparisonPredicateModifier == .any
            ? "EXISTS (SELECT 1 \(members)\(taking) AND \(matches))"
            : "NOT EXISTS (SELECT 1 \(members)\(taking) AND NOT COALESCE(\(matches), FALSE))"
    }

    /// `toMany.@count` of the fetched row, as a count of its members' rows (the destination's
    /// foreign key, or the join table's pairs), with an Integer 64 attribute standing for it.
    /// Only while the store's answer is final: unsaved members are counted in memory only.
    private static func memberCount(of name: String, in entity: NSEntityDescription, owner: String, _ scope: Scope) -> (NSAttributeDescription, String)? {
        guard scope.storeToken != nil, let schema = scope.schema,
              let relationship = entity.propertiesByName[name] as? NSRelationshipDescription,
              relationship.isToMany, !relationship.isTransient, let (members, _) = members(of: relationship, owner: owner, schema) else { return nil }
        return (integerAggregate, "(SELECT count(*) \(members))")
    }

    /// The attribute an integer aggregate (`@count`, `@sum`, `@min`, `@max`) compares as.
    private static let integerAggregate = NSAttributeDescription(name: "@count", type: .integer64AttributeType)

    /// `toMany.@sum.attribute` (also `@avg`, `@min`, `@max`) of the fetched row, as an
    /// aggregate over its members' rows, with the attribute it compares as; nil where SQL
    /// would answer differently from the evaluator, which skips nil values and adds in the
    /// set's order:
    /// - `@sum` and `@avg` of Integer 16 and 32 attributes: PostgreSQL adds them in `bigint`,
    ///   exactly as the evaluator's `Int` does (no sum of 32-bit values reaches 2⁶³); Integer 64
    ///   sums could overflow, where the evaluator goes on in Double in the set's order. The sum
    ///   of no values is 0, and so is their average (the evaluator's rule); an average is the
    ///   sum's Double divided by the number of values, as in memory.
    /// - `@min` and `@max` of integer attributes; NULL (nil) when there is no value. Doubles
    ///   and dates are left out: a stored NaN is neither smaller nor larger than anything in
    ///   memory, so which value wins would depend on the set's order.
    /// Only while the store's answer is final, as `@count`.
    private static func memberAggregate(_ op: String, of attributeName: String, in name: String, of entity: NSEntityDescription, owner: String,
                                        _ scope: Scope) -> (NSAttributeDescription, String)? {
        guard scope.storeToken != nil, let schema = scope.schema,
              let relationship = entity.propertiesByName[name] as? NSRelationshipDescription,
              relationship.isToMany, !relationship.isTransient, let (members, table) = members(of: relationship, owner: owner, schema),
              let attribute = relationship.destinationEntity?.propertiesByName[attributeName] as? NSAttributeDescription, !attribute.isTransient,
              let column = table.columnIndex(for: attribute) else { return nil }
        let value = "m.\(table.columns[column].sqlName)"
        let isNarrowInteger = attribute.attributeType == .integer16AttributeType || attribute.attributeType == .integer32AttributeType
        switch op {
        case "@sum" where isNarrowInteger:
            return (integerAggregate, "(SELECT COALESCE(sum(\(value)), 0) \(members))")
        case "@avg" where isNarrowInteger:
            return (averageAggregate, "(SELECT COALESCE(sum(\(value))::float8 / count(\(value)), 0) \(members))")
        case "@min" where isNarrowInteger || attribute.attributeType == .integer64AttributeType,
             "@max" where isNarrowInteger || attribute.attributeType == .integer64AttributeType:
            return (integerAggregate, "(SELECT \(op == "@min" ? "min" : "max")(\(value)) \(members))")
        default:
            return nil
        }
    }

    /// The attribute an `@avg` compares as.
    private static let averageAggregate = NSAttributeDescription(name: "@avg", type: .doubleAttributeType)

    /// The rows of a to-many relationship's members of the object whose `Z_PK` is the SQL
    /// `owner`, as `FROM ... WHERE <owner's members>` with the members' table aliased `m`: the
    /// destination's rows by their foreign key, or the join table's pairs joined to the
    /// destination's rows.
    private static func members(of relationship: NSRelationshipDescription, owner: String, _ schema: StoreSchema) -> (from: String, table: StoreEntityTable)? {
        guard let source = schema.toManySource(for: relationship) else { return nil }
        switch source {
        case let .foreignKey(table, column, _):
            return ("FROM \(table.sqlName) m WHERE m.\(table.columns[column].sqlName) = \(owner)", table)
        case let .joinTable(join, ownerColumn, targetColumn, _, targetTable):
            return ("FROM \(join.sqlName) j JOIN \(targetTable.sqlName) m ON m.\"Z_PK\" = j.\(targetColumn) WHERE j.\(ownerColumn) = \(owner)", targetTable)
        }
    }

    /// The longest collection `IN` translates; a longer one keeps every row for the evaluator.
    static let maximumMembers = 10_000

    /// `x IN {a, b}` (a constant collection, or `{...}` of constants in a format): `x == a OR
    /// x == b`, as the evaluator decides it (`ValueComparison.isEqual` per element); nil unless
    /// every element translates. An empty collection matches nothing. A dictionary's values and
    /// a string (a substring test) are left to memory.
    private static func membership(_ attribute: NSAttributeDescription, _ name: String, _ collection: NSExpression, _ scope: Scope, _ values: inout [PostgreSQLValue]) -> String? {
        // (``constants(of:)`` reads no dictionary or string as a collection.)
        guard let elements = constants(of: collection) else { return nil }
        // A parameter each: a statement takes at most 65,535, and the fetch's other parts and a
        // page's limits need some.
        guard elements.count <= maximumMembers else { return nil }
        let before = values
        var parts: [String] = []
        for element in elements {
            guard let part = comparison(attribute, name, .equalTo, element, scope, &values) else { values = before; return nil }
            parts.append(part)
        }
        return parts.isEmpty ? "FALSE" : "(" + parts.joined(separator: " OR ") + ")"
    }

    /// The elements of a constant collection, or of `{...}` of constant expressions in a
    /// format, unwrapped; nil for anything else.
    private static func constants(of expression: NSExpression) -> [Any?]? {
        switch expression.node {
        case .constant(let boxed):
            guard let (elements, _) = KVCValueKinds.collection(KVCValueKinds.unwrap(boxed)) else { return nil }
            return elements.map { KVCValueKinds.unwrap($0) }
        case .aggregate(let expressions):
            var elements: [Any?] = []
            for expression in expressions {
                guard case .constant(let boxed) = expression.node else { return nil }
                elements.append(KVCValueKinds.unwrap(boxed))
            }
            return elements
        default:
            return nil
        }
    }

    /// A to-one relationship of the fetched entity `==`/`!=` nil, an object ID or an object,
    /// decided by its foreign key as the evaluator decides it (``StoreRelationshipOperand``
    /// says which key a constant stands for). Only while the store's answer is final
    /// (``Scope/storeToken``).
    private static func relationshipComparison(_ relationship: NSRelationshipDescription, _ type: NSComparisonPredicate.Operator, _ constant: Any?,
                                               _ scope: Scope, _ values: inout [PostgreSQLValue]) -> String? {
        // `storeToken` is checked here, not only by `StoreRelationshipOperand` (which needs it
        // for IDs alone): `== nil` too is decided in SQL only while the answer is final.
        guard scope.storeToken != nil, type == .equalTo || type == .notEqualTo, !relationship.isToMany, !relationship.isTransient,
              let destination = relationship.destinationEntity, let column = scope.table.columnIndex(for: relationship),
              let operand = StoreRelationshipOperand(constant, destination: destination, storeToken: scope.storeToken, context: scope.context) else { return nil }
        let name = scope.member.map { "\($0).\(scope.table.columns[column].sqlName)" } ?? scope.table.columns[column].sqlName
        let equal = type == .equalTo
        switch operand {
        case .null:
            return "\(name) \(equal ? "IS NULL" : "IS NOT NULL")"
        case .noRow:
            return equal ? "FALSE" : "TRUE"
        case .key(let primaryKey):
            values.append(.integer(primaryKey))
            let parameter = "$\(scope.first + values.count - 1)"
            return equal ? "\(name) = \(parameter)" : "(\(name) IS NULL OR \(name) <> \(parameter))"
        }
    }

    /// `attribute` (its column `name`) `type` `constant`, or nil when SQL would decide it
    /// differently from the evaluator.
    private static func comparison(_ attribute: NSAttributeDescription, _ name: String, _ type: NSComparisonPredicate.Operator, _ constant: Any?,
                                   _ scope: Scope, _ values: inout [PostgreSQLValue]) -> String? {
        let op: String
        switch type {
        case .equalTo: op = "="
        case .notEqualTo: op = "<>"
        case .lessThan: op = "<"
        case .lessThanOrEqualTo: op = "<="
        case .greaterThan: op = ">"
        case .greaterThanOrEqualTo: op = ">="
        default: return nil
        }
        if constant == nil || constant is NSNull {
            switch op {
            case "=": return "\(name) IS NULL"
            case "<>": return "\(name) IS NOT NULL"
            default: return nil
            }
        }
        if attribute.attributeType == .stringAttributeType {
            // The evaluator's `==` on strings is Swift's: canonical equivalence ("é" precomposed
            // equals "e" and a combining acute; the Kelvin sign equals "K"). Both sides in NFC
            // compare so, by PostgreSQL's own normalization, where the database has it. Only
            // equality: the evaluator orders strings by another rule than any collation.
            guard scope.comparesStrings, op == "=" || op == "<>", let string = constant.flatMap(KVCValueKinds.string) else { return nil }
            values.append(.text(string))
            let parameter = "$\(scope.first + values.count - 1)"
            let equal = "normalize(\(name), NFC) = normalize(\(parameter)::text, NFC)"
            return op == "=" ? equal : "(\(name) IS NULL OR NOT \(equal))"
        }
        // A Float attribute answers the Float of its column's Double (`Float(0.3)` reads as
        // 0.30000001192...): compared so.
        let name = attribute.attributeType == .floatAttributeType ? floatValue(of: name) : name
        let value: PostgreSQLValue
        switch (attribute.attributeType, constant.flatMap(NumericValue.init)) {
        case (.integer16AttributeType, .int(let i)?), (.integer32AttributeType, .int(let i)?), (.integer64AttributeType, .int(let i)?):
            value = .integer(i)
        case (.doubleAttributeType, .int(let i)?), (.floatAttributeType, .int(let i)?):
            value = .double(Double(i))
        case (.doubleAttributeType, .double(let d)?), (.floatAttributeType, .double(let d)?):
            // A NaN constant is "the same" as every number in memory; PostgreSQL orders it.
            guard !d.isNaN else { return nil }
            value = .double(d)
        case (.booleanAttributeType, .int(let i)?) where (op == "=" || op == "<>") && (i == 0 || i == 1):
            value = .bool(i == 1)
        case (.dateAttributeType, _):
            // A NaN date equals nothing in memory (`Date.==`) and orders as "the same" as
            // everything; PostgreSQL's NaN equals itself and orders above every number.
            guard let date = constant as? Date, !date.timeIntervalSinceReferenceDate.isNaN else { return nil }
            value = .double(date.timeIntervalSinceReferenceDate)
        default:
            return nil
        }
        values.append(value)
        let parameter = "$\(scope.first + values.count - 1)"
        guard case .double = value else {
            if op == "<>" { return "(\(name) IS NULL OR \(name) <> \(parameter))" }
            return "\(name) \(op) \(parameter)"
        }
        // A stored NaN (a Double or date column) is neither smaller nor larger than
        // anything in memory (`ValueComparison.compare` says "same"), so it matches `<=` and
        // `>=` and no `<` or `>`; PostgreSQL orders it above every number, which gives `>=` and
        // `<` and needs `<=` and `>` spelt out. Equality differs by kind: numbers are equal
        // when they compare the same (a NaN equals every number), dates by `Date.==` (a NaN
        // date equals none), which is PostgreSQL's answer too.
        let nan = "'NaN'::float8"
        let isNumber = attribute.attributeType != .dateAttributeType
        switch op {
        case "<=": return "(\(name) <= \(parameter) OR \(name) = \(nan))"
        case ">": return "(\(name) > \(parameter) AND \(name) <> \(nan))"
        case "=" where isNumber: return "(\(name) = \(parameter) OR \(name) = \(nan))"
        case "<>" where isNumber: return "(\(name) IS NULL OR (\(name) <> \(parameter) AND \(name) <> \(nan)))"
        case "<>": return "(\(name) IS NULL OR \(name) <> \(parameter))"
        default: return "\(name) \(op) \(parameter)"
        }
    }

    /// The SQL of `Double(Float(x))` for a `double precision` value `x`: what a Float attribute
    /// answers for its column. PostgreSQL's `float4` cast rounds to nearest, ties to even, as
    /// Swift's `Float(_:)` does, but fails where Swift gives infinity (from the midpoint between
    /// `Float.greatestFiniteMagnitude` and 2¹²⁸ up) or zero (up to 2⁻¹⁵⁰, half the smallest
    /// subnormal); those are spelt out. NaN, infinities and NULL pass through.
    static func floatValue(of x: String) -> String {
        "(CASE WHEN abs(\(x)) >= 3.4028235677973366e+38 THEN \(x) * 'Infinity'::float8 WHEN abs(\(x)) <= 7.006492321624085e-46 THEN 0::float8 ELSE \(x)::float4::float8 END)"
    }
}
