import Foundation
import OpenCoreData

/// W1–W5: rows of ten Integer 64 attributes (``BenchRow``), no relationships — inserts, full
/// reads as objects and as faults, many single-object saves, an indexed fetch of 1% — each
/// against raw SQLite doing the same work in the same run.
///
/// Workload keys for peers: `W1`, `W2`, `W4`, `W5` (W3's faults have no counterpart elsewhere).
public struct RowWorkloads {
    let bench: BenchRun

    public init(bench: BenchRun) { self.bench = bench }

    private var sizes: BenchSizes { bench.sizes }

    /// A fresh OpenCoreData stack on a new SQLite file.
    private func openStack(_ name: String) throws -> NSManagedObjectContext {
        try BenchModel.context(at: bench.path("\(name).sqlite"))
    }

    /// Runs the workloads `selected` names (`W1` … `W5`).
    public func run(_ selected: (String) -> Bool) throws {
        // W1: insert N objects of 10 Integer 64 attributes with one save.
        if selected("W1") {
            try bench.measure("W1_insert_\(sizes.insert)", key: "W1", ocd: { run in
                let context = try openStack("w1-\(run)")
                return try time { try BenchModel.insertRows(sizes.insert, into: context) }
            }, raw: { run in
                let raw = try RawSQLite(path: bench.path("w1-raw-\(run).sqlite").path)
                try raw.createTable()
                return try time { try raw.insert(count: sizes.insert) }
            })
        }

        // Shared data for the read workloads.
        let needsReadData = ["W2", "W3", "W5"].contains(where: selected)
        let readContext = try openStack("read")
        if needsReadData { try BenchModel.insertRows(sizes.read, into: readContext) }
        let rawRead = try RawSQLite(path: bench.path("read-raw.sqlite").path)
        try rawRead.createTable()
        if needsReadData { try rawRead.insert(count: sizes.read) }

        /// W2 and W3: every row of the read store through a fetch `configure` sets up, reading
        /// every attribute, against a raw scan; the sums of all attributes must agree.
        func measureFullRead(_ name: String, key: String?, _ configure: @escaping (NSFetchRequest<BenchRow>) -> Void) throws {
            var ocdSum: Int64 = 0
            try bench.measure(name, key: key, ocd: { _ in
                ocdSum = 0
                return try time {
                    try readContext.performAndWait {
                        let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
                        configure(request)
                        for row in try readContext.fetch(request) { ocdSum &+= row.sum }
                        readContext.reset()
                    }
                }
            }, raw: { _ in
                var rawSum: Int64 = 0
                let seconds = try time { rawSum = try rawRead.scan() }
                precondition(ocdSum == rawSum, "\(name): checksums differ: \(ocdSum) vs \(rawSum)")
                return seconds
            })
        }

        // W2: fetch all rows as fully realized objects and read every attribute.
        if selected("W2") {
            try measureFullRead("W2_fetch_objects_\(sizes.read)", key: "W2") { $0.returnsObjectsAsFaults = false }
        }

        // W3: fetch as faults, then fire every fault.
        if selected("W3") {
            try measureFullRead("W3_fetch_faults_\(sizes.read)", key: nil) { request in
                request.returnsObjectsAsFaults = true
                request.fetchBatchSize = 500
            }
        }

        // W4: many saves of one changed object.
        if selected("W4") {
            try bench.measure("W4_saves_\(sizes.saves)", key: "W4", ocd: { run in
                let context = try openStack("w4-\(run)")
                try BenchModel.insertRows(10, into: context)
                return try time { try BenchModel.saveOneRow(times: sizes.saves, in: context) }
            }, raw: { run in
                let raw = try RawSQLite(path: bench.path("w4-raw-\(run).sqlite").path)
                try raw.createTable()
                try raw.insert(count: 10)
                return try time { try raw.updateOneRow(times: sizes.saves) }
            })
        }

        // W5: indexed predicate fetch of 1% of the rows.
        if selected("W5") {
            let limit = Int64(sizes.read / 100 * 10)  // a0 = 10 * i, so this selects 1% of rows
            try bench.measure("W5_indexed_1pct_of_\(sizes.read)", key: "W5", ocd: { _ in
                var count = 0
                let seconds = try time { count = try BenchModel.fetchRows(below: limit, in: readContext).count }
                precondition(count == sizes.read / 100, "W5 returned \(count) rows")
                return seconds
            }, raw: { _ in
                try time { _ = try rawRead.scan(where: "WHERE A0 < ?", bind: limit) }
            })
        }
    }

    /// Resident bytes per object of W2's fetch, above what the process held before it: while
    /// the objects are held, and at the peak (the fetch's passing buffers too). Run it in a fresh
    /// process: `ocd-bench-peers` does, one child per library.
    /// The store at `url` holds `rows` rows, written by ``writeStore(rows:at:)``.
    public static func residentBytesPerFetchedObject(storeAt url: URL, rows: Int) throws -> (held: Double, peak: Double) {
        let context = try BenchModel.context(at: url)
        return try context.performAndWait {
            try OCDBenchKit.residentBytesPerFetchedObject(rows: rows, warmUp: {
                _ = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "BenchRow"))
            }, fetch: {
                let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
                request.returnsObjectsAsFaults = false
                return try context.fetch(request)
            }, check: { $0.reduce(Int64(0)) { $0 &+ $1.sum } != 0 })
        }
    }

    /// A store of `rows` BenchRows at `url`, as W2 reads them.
    public static func writeStore(rows: Int, at url: URL) throws {
        try BenchModel.insertRows(rows, into: BenchModel.context(at: url))
    }
}
