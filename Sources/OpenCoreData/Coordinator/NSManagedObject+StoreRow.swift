import Foundation

/// A fetched object takes its values from the store's row. Here, with the row type, because
/// objects sit below the coordinator and its store contract (docs/ARCHITECTURE.md, "Layers").
///
/// ```swift
/// object.takeValues(of: row)   // committed values = current values = row.values
/// ```
extension NSManagedObject {
    /// Sets the values of a fetched object: the row's values are both its committed and (until
    /// it changes) its current values.
    func takeValues(of row: StoreRow) {
        withUnsafePointer(to: row) { takeValues(ofRowAt: $0) }
    }

    /// ``takeValues(of:)`` for a row read where it lies (a fetch's rows): taken as a value,
    /// the row's values were retained twice and released once on the way in.
    func takeValues(ofRowAt row: UnsafePointer<StoreRow>) {
        committedStorage = row.pointee.values
        ownSlots = []
        flags.insert(.slotsFollowCommitted)
        version = row.pointee.version
    }
}
