import Foundation

/// A fetched object takes its values from the store's row. Here, with the row type, because
/// objects sit below the coordinator and its store contract (docs/ARCHITECTURE.md, "Layers").
///
/// ```swift
/// object.takeValues(of: row)   // committed values = current values = row.values
/// ```
extension NSManagedObject {
    /// Sets the values of a fetched object: the row's values are both its committed and (until
    /// it changes) its current values. Borrowed: callers pass a row where it lies
    /// (`pointer.pointee`), and only its values are retained, to be kept.
    func takeValues(of row: borrowing StoreRow) {
        committedStorage = row.values
        ownSlots = []
        flags.insert(.slotsFollowCommitted)
        version = row.version
    }
}
