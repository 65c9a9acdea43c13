import Foundation

/// The snapshot references a context takes while it materialises many rows at once, handed to
/// the coordinator's row cache in one locked call when the batch ends
/// (``NSManagedObjectContext/batchingSnapshots(of:_:)``).
///
/// A batch usually covers one array of rows (a fetch's result, a save's inserted rows): those
/// are recorded by position in `source`, so the batch copies no rows. A copied row costs its
/// ID's and its values' reference counts twice over (taken now, given back at the end), which
/// a fetch of 200,000 objects pays 200,000 times. Rows from elsewhere (a fault fired by
/// `awakeFromFetch` inside the batch, a nested batch) are kept as copies in `others`.
struct SnapshotBatch {
    /// The array whose rows the batch mostly holds; empty when there is none.
    let source: [StoreRow]
    /// Positions in `source` of the rows held.
    private(set) var positions: [Int] = []
    /// Held rows that are not in `source` (or whose position was not given).
    var others: [StoreRow] = []

    init(source: [StoreRow]) {
        self.source = source
        positions.reserveCapacity(source.count)
    }

    var isEmpty: Bool { positions.isEmpty && others.isEmpty }

    /// Records a reference to `row`, by position when it is `source[position]`.
    mutating func hold(_ row: StoreRow, position: Int?) {
        if let position, position < source.count, source[position].identity.names(row.identity) {
            positions.append(position)
        } else {
            others.append(row)
        }
    }
}
