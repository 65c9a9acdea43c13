import Foundation

// Key paths through to-one relationships, as correlated scalar subqueries; a key path into a
// composite attribute (`location.latitude`) is its leaf element's column.
//
// `manager.department.budget` from ZEMPLOYEE:
//   (SELECT (SELECT t2.ZBUDGET FROM ZDEPARTMENT t2 WHERE t2.Z_PK = t1.ZDEPARTMENT)
//      FROM ZEMPLOYEE t1 WHERE t1.Z_PK = ZEMPLOYEE.ZMANAGER)
// A NULL foreign key finds no row, so the value is NULL: the evaluator's nil for a path
// through a nil relationship. The foreign key is the destination's Z_PK in its root table,
// where Z_PK is unique, so a destination with sub-entities needs no Z_ENT check; an attribute
// only a sub-entity has is not in the destination's properties and is left to memory (which
// throws for the rows whose destination lacks it).
extension SQLitePredicateTranslator {
    /// The value at `components` (to-one relationships, then an attribute) from `row`, or nil
    /// when that is not exactly expressible.
    func scalar(_ components: ArraySlice<String>, from row: Row) -> Scalar? {
        guard let name = components.first, let property = row.entity.propertiesByName[name], !property.isTransient else { return nil }
        if components.count == 1 || property is NSCompositeAttributeDescription {
            // An attribute, or an element of a composite (`location.latitude`), which has a column.
            guard let (attribute, index) = row.table.attributeColumn(forKeyPath: components, of: row.entity),
                  let type = ValueType(attribute) else { return nil }
            return Scalar(row.column(index), type)
        }
        guard let (destination, foreignKey) = toOneStep(property, from: row),
              let inner = scalar(components.dropFirst(), from: destination) else { return nil }
        return Scalar("(SELECT \(inner.sql) FROM \(destination.table.sqlName) \(destination.qualifier) WHERE \(destination.qualifier).Z_PK = \(foreignKey))",
                      inner.type, bindings: inner.bindings)
    }

    /// The `Z_PK` of the object at the end of the to-one relationships `components` from `row`
    /// (`row`'s own key when empty), NULL where a relationship is nil, and that object's entity.
    func key(_ components: ArraySlice<String>, from row: Row) -> (sql: String, entity: NSEntityDescription)? {
        guard let name = components.first else { return ("\(row.qualifier).Z_PK", row.entity) }
        guard let property = row.entity.propertiesByName[name], let (destination, foreignKey) = toOneStep(property, from: row) else { return nil }
        if components.count == 1 { return (foreignKey, destination.entity) }
        guard let inner = key(components.dropFirst(), from: destination) else { return nil }
        return ("(SELECT \(inner.sql) FROM \(destination.table.sqlName) \(destination.qualifier) WHERE \(destination.qualifier).Z_PK = \(foreignKey))", inner.entity)
    }

    /// The row a to-one relationship leads to (under a fresh alias) and the foreign-key column
    /// of `row` that names it; nil for anything else, or when relationships are not followed.
    func toOneStep(_ property: NSPropertyDescription, from row: Row) -> (Row, String)? {
        guard followsRelationships, let schema, let relationship = property as? NSRelationshipDescription,
              !relationship.isToMany, !relationship.isTransient, let destination = relationship.destinationEntity,
              let index = row.table.columnIndex(for: relationship), let table = schema.tableIfPresent(for: destination) else { return nil }
        return (Row(entity: destination, table: table, qualifier: nextAlias()), row.column(index))
    }
}
