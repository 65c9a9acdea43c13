import Foundation

/// Where a composite attribute's value lives in its table: one column per leaf element (Apple's
/// layout: `location.latitude` in `ZLATITUDE`), read back into the dictionary the object holds.
/// The SQLite and PostgreSQL stores share the layout; each codes the leaves' column values its
/// own way, around ``value(_:)`` and ``leafValue(of:leaf:)``.
///
/// ```swift
/// let columns = StoreCompositeColumns(location, leaves: [(latitude, 6), (longitude, 7)])   // SELECT-list columns
/// columns.value { leaf in rowValue(at: columns.columns[leaf]) }   // .boxed(["latitude": 48.85, "longitude": 2.35])
/// try columns.leafValue(of: stored, leaf: 0)                       // 48.85
/// ```
///
/// A row whose leaf columns are all NULL holds no value (nil), as does an object whose
/// composite is nil; an element missing from the dictionary is a NULL column.
final class StoreCompositeColumns {
    let attribute: NSCompositeAttributeDescription
    let leaves: [CompositeLeaf]
    /// The SELECT-list column of each leaf (after `Z_PK, Z_ENT, Z_OPT`), in `leaves` order.
    let columns: [Int]

    /// `leaves`: each leaf element (in `leafElements` order) with its SELECT-list column, as
    /// the table laid them out.
    init(_ attribute: NSCompositeAttributeDescription, leaves: [(leaf: CompositeLeaf, column: Int)]) {
        self.attribute = attribute
        self.leaves = leaves.map(\.leaf)
        columns = leaves.map(\.column)
    }

    /// The composite's value from its leaves' values in a row (`leafValue(i)` is leaf `i`'s).
    func value(_ leafValue: (_ leaf: Int) -> StoredValue) -> StoredValue {
        var dictionary: [String: Any] = [:]
        for (i, leaf) in leaves.enumerated() {
            guard let value = leafValue(i).publicValue(for: leaf.attribute) else { continue }
            NSCompositeAttributeDescription.set(value, in: &dictionary, at: leaf.path[...])
        }
        return dictionary.isEmpty ? .null : .boxed(AnyBox(dictionary))
    }

    /// The value of leaf `leaf` in the composite value `stored`, for its column. A value that
    /// is not a dictionary (validation reports it before a save reaches the store) is refused
    /// here too.
    func leafValue(of stored: StoredValue, leaf: Int) throws -> StoredValue {
        guard case .boxed(let box) = stored else {
            if stored.isNull { return .null }
            throw notADictionary(stored)
        }
        guard let dictionary = box.value as? [String: Any] else { throw notADictionary(stored) }
        let element = leaves[leaf]
        return StoredValue(NSCompositeAttributeDescription.value(in: dictionary, at: element.path[...]), for: element.attribute)
    }

    private func notADictionary(_ stored: StoredValue) -> StoreCodingError {
        StoreCodingError("composite attribute '\(attribute.name)' holds a \(stored.publicValue(for: attribute).map { "\(type(of: $0))" } ?? "value"), not a dictionary keyed by its element names")
    }
}
