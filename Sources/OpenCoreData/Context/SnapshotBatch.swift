import Foundation

/// The snapshot references a context takes while it materialises many rows at once, handed to
/// the coordinator's row cache in one locked call when the batch ends
/// (``NSManagedObjectContext/batchingSnapshots(of:_:)``).
///
/// A batch usually covers one array of rows (a fetch's result, a save's inserted rows): those
/// are recorded by position in `source`, so the batch copies no rows. A fetch hands its rows
/// over (`ownsSource`), and the row cache then moves their values out instead of taking a
/// reference: the values are out of the CPU caches by then, and each reference taken, and
/// given back when the rows are freed, stalled on memory. A copied row costs its
/// ID's and its values' reference counts twice over (taken now, given back at the end), which
/// a fetch of 200,000 objects pays 200,000 times. Rows from elsewhere (a fault fired by
/// `awakeFromFetch` inside the batch, a nested batch) are kept as copies in `others`.
struct SnapshotBatch {
    /// The array whose rows the batch mostly holds; empty when there is none.
    var source: [StoreRow]
    /// Whether the batch owns `source` alone (a fetch handed its rows over), so that the row
    /// cache may move the values out of them instead of taking a reference of its own.
    let ownsSource: Bool
    /// Positions in `source` of the rows held, ascending.
    private(set) var positions: [Int] = []
    /// Held rows that are not in `source` (or whose position was not given).
    var others: [StoreRow] = []

    init(source: [StoreRow], ownsSource: Bool = false) {
        self.source = source
        self.ownsSource = ownsSource
        positions.reserveCapacity(source.count)
    }

    var isEmpty: Bool { positions.isEmpty && others.isEmpty }

    /// Records a reference to `row`, by position when it is `source[position]`. Positions come
    /// in ascending order (a fetch holds its rows in order); one out of order is held as a copy,
    /// so no position is held twice: the values of a row the cache moved out are gone.
    mutating func hold(_ row: StoreRow, position: Int?) {
        if let position, position < source.count, (positions.last ?? -1) < position, source[position].identity.names(row.identity) {
            positions.append(position)
        } else {
            others.append(row)
        }
    }

    /// Records a reference to `source[position]`, a row the caller read in place: positions
    /// come in ascending order, each once.
    mutating func holdSourceRow(at position: Int) {
        assert(position < source.count && (positions.last ?? -1) < position, "a source row held out of order")
        positions.append(position)
    }
}
