import Foundation

/// Where a composite attribute's value lives in its table: one column per leaf element (Apple's
/// layout: `location.latitude` in `ZLATITUDE`), read back into the dictionary the object holds.
///
/// ```swift
/// let columns = SQLiteCompositeColumns(location, leaves: [(latitude, 6), (longitude, 7)])   // SELECT-list columns
/// columns.value(from: statement)                  // .boxed(["latitude": 48.85, "longitude": 2.35])
/// try columns.columnValue(of: stored, leaf: 0)    // .real(48.85)
/// ```
///
/// A row whose leaf columns are all NULL holds no value (nil), as does an object whose
/// composite is nil; an element missing from the dictionary is a NULL column.
final class SQLiteCompositeColumns {
    let attribute: NSCompositeAttributeDescription
    let leaves: [CompositeLeaf]
    /// The SELECT-list column of each leaf (after `Z_PK, Z_ENT, Z_OPT`), in `leaves` order.
    let columns: [Int32]

    /// `leaves`: each leaf element (in `leafElements` order) with its SELECT-list column, as
    /// the table laid them out.
    init(_ attribute: NSCompositeAttributeDescription, leaves: [(leaf: CompositeLeaf, column: Int32)]) {
        self.attribute = attribute
        self.leaves = leaves.map(\.leaf)
        columns = leaves.map(\.column)
    }

    /// The composite's value in the statement's current row.
    func value(from statement: SQLiteStatement) -> StoredValue {
        var dictionary: [String: Any] = [:]
        for (leaf, column) in zip(leaves, columns) {
            guard let value = SQLiteValueCoding.storedValue(from: statement, at: column, for: leaf.attribute).publicValue(for: leaf.attribute) else { continue }
            NSCompositeAttributeDescription.set(value, in: &dictionary, at: leaf.path[...])
        }
        return dictionary.isEmpty ? .null : .boxed(AnyBox(dictionary))
    }

    /// The column value of leaf `leaf` of the composite value `stored`. A value that is not a
    /// dictionary (validation reports it before a save reaches the store) is refused here too.
    func columnValue(of stored: StoredValue, leaf: Int) throws -> SQLiteValue {
        guard case .boxed(let box) = stored else {
            if stored.isNull { return .null }
            throw notADictionary(stored)
        }
        guard let dictionary = box.value as? [String: Any] else { throw notADictionary(stored) }
        let element = leaves[leaf]
        let value = NSCompositeAttributeDescription.value(in: dictionary, at: element.path[...])
        return try SQLiteValueCoding.columnValue(StoredValue(value, for: element.attribute), for: element.attribute)
    }

    private func notADictionary(_ stored: StoredValue) -> StoreCodingError {
        StoreCodingError("composite attribute '\(attribute.name)' holds a \(stored.publicValue(for: attribute).map { "\(type(of: $0))" } ?? "value"), not a dictionary keyed by its element names")
    }
}
