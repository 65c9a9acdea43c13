import Foundation

// A composite attribute's leaf columns in SQLite's values (the layout is
// `StoreCompositeColumns`, which the PostgreSQL store shares).
extension StoreCompositeColumns {
    /// The composite's value in the statement's current row.
    func value(from statement: SQLiteStatement) -> StoredValue {
        value { leaf in SQLiteValueCoding.storedValue(from: statement, at: Int32(columns[leaf]), for: leaves[leaf].attribute) }
    }

    /// The SQLite value of leaf `leaf`'s column for the composite value `stored`.
    func columnValue(of stored: StoredValue, leaf: Int) throws -> SQLiteValue {
        try SQLiteValueCoding.columnValue(leafValue(of: stored, leaf: leaf), for: leaves[leaf].attribute)
    }
}
