import Foundation

// To-many key paths: ANY/ALL (NONE is NOT ANY), collection operators and SUBQUERY(...).@count,
// as correlated subqueries over the members of one to-many relationship.
//
// `ANY projects.title BEGINSWITH 'A'` from ZEMPLOYEE (many-to-many, join table Z_1PROJECTS):
//   EXISTS (SELECT 1 FROM Z_1PROJECTS t1 JOIN ZPROJECT t2 ON t2.Z_PK = t1.Z_5PROJECTS
//           WHERE t1.Z_1MEMBERS = ZEMPLOYEE.Z_PK AND t2.ZTITLE IS NOT NULL AND ocd_match(8, 0, t2.ZTITLE, ?))
// `directReports.@count > 2` (one-to-many, the members' foreign key):
//   ((SELECT COUNT(*) FROM ZEMPLOYEE t1 WHERE t1.ZMANAGER = ZEMPLOYEE.Z_PK) > ?)
extension SQLitePredicateTranslator {
    /// The members of a to-many relationship of the object whose `Z_PK` is `owner`: the
    /// `FROM` clause, the condition tying them to the owner, and the member row.
    struct Members {
        let from: String
        let condition: String
        let row: Row
    }

    /// The members of `property` (a to-many relationship) of the object keyed `owner`; nil
    /// for anything else, or when relationships are not followed.
    func members(_ property: NSPropertyDescription?, owner: String) -> Members? {
        guard followsRelationships, let schema, let relationship = property as? NSRelationshipDescription,
              relationship.isToMany, !relationship.isTransient, let destination = relationship.destinationEntity,
              let source = schema.toManySource(for: relationship) else { return nil }
        switch source {
        case let .foreignKey(table, column, _):
            let member = nextAlias()
            return Members(from: "\(table.sqlName) \(member)", condition: "\(member).\(table.columns[column].sqlName) = \(owner)",
                           row: Row(entity: destination, table: table, qualifier: member))
        case let .joinTable(join, ownerColumn, targetColumn, _, targetTable):
            let pair = nextAlias(), member = nextAlias()
            return Members(from: "\(join.sqlName) \(pair) JOIN \(targetTable.sqlName) \(member) ON \(member).Z_PK = \(pair).\(targetColumn)",
                           condition: "\(pair).\(ownerColumn) = \(owner)",
                           row: Row(entity: destination, table: targetTable, qualifier: member))
        }
    }

    /// The members of the to-many relationship at the end of `components` (to-one
    /// relationships, then the to-many) from `row`. No members where a to-one is nil.
    private func members(at components: ArraySlice<String>, from row: Row) -> (Members, NSRelationshipDescription)? {
        guard let name = components.last, let owner = key(components.dropLast(), from: row),
              let relationship = owner.entity.propertiesByName[name] as? NSRelationshipDescription,
              let members = members(relationship, owner: owner.sql) else { return nil }
        return (members, relationship)
    }

    /// Where the first to-many relationship of `components` is, walking to-one relationships
    /// from `entity`; nil when there is none before an attribute or the end.
    private func toManyIndex(_ components: [String], from entity: NSEntityDescription) -> Int? {
        var entity = entity
        for (i, name) in components.enumerated() {
            guard let relationship = entity.propertiesByName[name] as? NSRelationshipDescription,
                  let destination = relationship.destinationEntity else { return nil }
            if relationship.isToMany { return i }
            entity = destination
        }
        return nil
    }

    /// `ANY`/`ALL path <op> constant` where the path crosses one unordered to-many
    /// relationship: EXISTS a member whose value matches / NOT EXISTS one whose value does not.
    /// The evaluator iterates the *set* of values, which holds no nil, so members with a nil
    /// value (or a nil to-one on the way) take no part, and no members means ANY is false and
    /// ALL is true.
    func quantified(_ p: NSComparisonPredicate, _ constant: Any?, _ row: Row, variables: [String: Row]) -> Translation {
        guard let (base, components) = keyPathStart(p.leftExpression, row, variables: variables),
              !components.contains(where: { $0.hasPrefix("@") }) else { return .keepAll }
        guard let split = toManyIndex(components, from: base.entity), split + 1 < components.count,
              let (members, relationship) = members(at: components[...split], from: base), !relationship.isOrdered,
              let element = scalar(components[(split + 1)...], from: members.row), element.bindings.isEmpty,
              case let .filter(matches, bindings, true) = condition(element, p.predicateOperatorType, constant, p.options)
        else { return .keepAll }
        let scope = "FROM \(members.from) WHERE \(members.condition) AND \(element.sql) IS NOT NULL"
        if p.comparisonPredicateModifier == .any {
            return .filter("EXISTS (SELECT 1 \(scope) AND \(matches))", bindings, exact: true)
        }
        return .filter("NOT EXISTS (SELECT 1 \(scope) AND NOT \(matches))", bindings, exact: true)
    }

    /// `toMany.@count`, `toMany.@sum.attribute` (also `@avg`, `@min`, `@max`) from `row`,
    /// after any to-one relationships: a correlated aggregate over the members. nil for other
    /// operators and value types:
    /// - `@count` counts the members;
    /// - `@sum`/`@avg` of integer attributes only: the evaluator adds in the set's (arbitrary)
    ///   order, which only integers make irrelevant; `ocd_sum` is its overflow rule, and `@avg`
    ///   of no values is 0;
    /// - `@min`/`@max` of integers, Doubles and dates (not strings, whose SQL order would need
    ///   the collation, nor Booleans); NULL when there is no value, like the evaluator's nil.
    func aggregate(_ path: ArraySlice<String>, _ op: String, _ rest: ArraySlice<String>, from row: Row) -> Scalar? {
        guard !path.isEmpty, let (members, _) = members(at: path, from: row) else { return nil }
        let body: String
        let type: ValueType
        var nonNull = true
        if op == "@count" {
            guard rest.isEmpty else { return nil }
            body = "COUNT(*)"
            type = .integer
        } else {
            guard rest.count == 1, let attribute = members.row.entity.propertiesByName[rest[rest.startIndex]] as? NSAttributeDescription,
                  !attribute.isTransient, let index = members.row.table.columnIndex(for: attribute) else { return nil }
            let value = members.row.column(index)
            let isInteger = [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType].contains(attribute.attributeType)
            switch op {
            case "@sum" where isInteger:
                body = "ocd_sum(\(value))"
                type = .integer
            case "@avg" where isInteger:
                // Division by no values is NULL in SQL; the evaluator's average of nothing is 0.
                body = "COALESCE(CAST(ocd_sum(\(value)) AS REAL) / COUNT(\(value)), 0)"
                type = .real
            case "@min", "@max":
                switch attribute.attributeType {
                case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: type = .integer
                case .doubleAttributeType: type = .real
                case .dateAttributeType: type = .date
                default: return nil
                }
                body = "\(op == "@min" ? "MIN" : "MAX")(\(value))"
                nonNull = false
            default:
                return nil
            }
        }
        let sql = "(SELECT \(body) FROM \(members.from) WHERE \(members.condition))"
        guard path.count > 1 else { return Scalar(sql, type, nonNull: nonNull) }
        // Through a nil to-one the evaluator's path is nil, not an aggregate of nothing.
        guard let owner = key(path.dropLast(), from: row) else { return nil }
        return Scalar("(CASE WHEN \(owner.sql) IS NULL THEN NULL ELSE \(sql) END)", type)
    }

    /// `SUBQUERY(collection, $x, predicate).@count`: the members of the collection's to-many
    /// relationship for which the (exactly translated) predicate holds, counted. Inside, both
    /// `$x` and plain key paths name the member, as in the evaluator; a nil collection counts 0.
    func subqueryCount(_ collection: NSExpression, _ variable: String, _ predicate: NSPredicate, _ row: Row, variables: [String: Row]) -> Scalar? {
        guard let (base, components) = keyPathStart(collection, row, variables: variables),
              !components.contains(where: { $0.hasPrefix("@") }) else { return nil }
        guard let (members, _) = members(at: components[...], from: base) else { return nil }
        var inner = variables
        inner[variable] = members.row
        guard case let .filter(sql, bindings, true) = translate(predicate, members.row, variables: inner) else { return nil }
        return Scalar("(SELECT COUNT(*) FROM \(members.from) WHERE \(members.condition) AND \(sql))", .integer, bindings: bindings, nonNull: true)
    }
}
