import Foundation
import OCDBenchKit
import OpenCoreData

// ocd-bench: each workload through OpenCoreData (SQLite store) and through raw SQLite C calls in
// the same process, printed as `ratio <name> <ocd seconds> <raw seconds> <ocd/raw>`.
//
//   swift run -c release ocd-bench            full sizes
//   swift run -c release ocd-bench --quick    small sizes, under a minute
//   --repeat N                                 runs per workload and side (default 3)
//   --only NAME                                one workload (W2) or group (W7, B, H)
//   --postgresql [URL]                         only P1–P4: the PostgreSQL store against postgres-nio,
//                                              on the server at URL (default: $OCD_POSTGRESQL_URL)
//
// The workloads both this program and `ocd-bench-peers` (Benchmarks/Peers) run — W1–W5, W7–W10 —
// live in OCDBenchKit; how runs are measured is `BenchRun`'s documentation.

let arguments = CommandLine.arguments
let bench = try BenchRun(arguments: arguments, program: "ocd-bench")
let sizes = bench.sizes
let only = bench.only

// W6 runs in a child process so its peak memory is its own: `--w6-child <rows> <path> lazy`
// iterates `fetchBatched(_:)`'s lazy collection (the one the target is for), `array` the `[T]`
// of `fetch(_:)`, which holds every object.
if let index = arguments.firstIndex(of: "--w6-child"), index + 2 < arguments.count, let count = Int(arguments[index + 1]) {
    let path = arguments[index + 2]
    let lazy = index + 3 >= arguments.count || arguments[index + 3] == "lazy"
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BenchModel.model)
    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: URL(fileURLWithPath: path))
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    var sum: Int64 = 0
    let seconds = try time {
        try context.performAndWait {
            let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
            request.fetchBatchSize = 500
            if lazy {
                for row in try context.fetchBatched(request) { sum &+= row.a1 }
            } else {
                for row in try context.fetch(request) { sum &+= row.a1 }
            }
        }
    }
    print(String(format: "w6 %d %.4f %.1f %lld", count, seconds, Double(residentBytes(peak: true)) / 1_048_576, sum))
    bench.finish()
}

// `--migration-store <rows> <directory>`: only writes the input of the migration memory
// measurement (MigrationStore.swift) and exits.
if let index = arguments.firstIndex(of: "--migration-store"), index + 2 < arguments.count, let count = Int(arguments[index + 1]) {
    try MigrationStore.make(rows: count, in: URL(fileURLWithPath: arguments[index + 2]))
    bench.finish()
}

if let index = arguments.firstIndex(of: "--postgresql") {
    let given = index + 1 < arguments.count && arguments[index + 1].hasPrefix("postgres") ? arguments[index + 1] : nil
    guard let text = given ?? ProcessInfo.processInfo.environment["OCD_POSTGRESQL_URL"], let url = URL(string: text) else {
        print("ocd-bench --postgresql needs a server: --postgresql postgresql://user@host:port/database, or OCD_POSTGRESQL_URL (Scripts/postgresql-test-cluster starts one)")
        bench.finish(2)
    }
    print("ocd-bench --postgresql (\(bench.quick ? "quick" : "full") sizes, fastest of \(bench.repetitions) runs per side)")
    try PostgreSQLWorkloads(bench: bench, url: url).run { bench.runs($0) || only == "P" }
    bench.finish()
}

print("ocd-bench (\(bench.quick ? "quick" : "full") sizes, fastest of \(bench.repetitions) runs per side): insert \(sizes.insert), read \(sizes.read), saves \(sizes.saves), iterate \(sizes.iterate)")

// W1–W5: ten Integer 64 attributes, no relationships.
try RowWorkloads(bench: bench).run(bench.runs)

// W6: iterate many rows with fetchBatchSize 500, in a child process; report its peak memory.
if bench.runs("W6") {
    let path = bench.path("w6.sqlite")
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BenchModel.model)
    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: path)
    let seedContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    seedContext.persistentStoreCoordinator = coordinator
    for chunk in stride(from: 0, to: sizes.iterate, by: 100_000) {
        try BenchModel.insertRows(min(100_000, sizes.iterate - chunk), into: seedContext)
    }
    try coordinator.remove(coordinator.persistentStores[0])

    /// Runs the child for one mode: (seconds, peak RSS in MiB), nil if it failed.
    func runChild(_ mode: String) throws -> (Double, Double)? {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--w6-child", String(sizes.iterate), path.path, mode]
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let fields = output.split(separator: " ")
        guard fields.count >= 4, let seconds = Double(fields[2]), let rss = Double(fields[3]) else {
            print("W6 child (\(mode)) failed: \(output)")
            return nil
        }
        return (seconds, rss)
    }
    let lazy = try runChild("lazy")
    let array = try runChild("array")
    let raw = try RawSQLite(path: bench.path("w6-raw.sqlite").path)
    try raw.createTable()
    try raw.insert(count: sizes.iterate)
    let rawTime = try time { _ = try raw.scan() }
    if let lazy {
        report("W6_iterate_\(sizes.iterate)_batch500", lazy.0, rawTime)
        if let array { report("W6_fetch_array_iterate_\(sizes.iterate)_batch500", array.0, rawTime) }
        let arrayRSS = array.map { String(format: "%.1f", $0.1) } ?? "failed"
        print(String(format: "peak_rss W6 %.1f MiB (target < 64 MiB); fetch(_:) [T]: %@ MiB", lazy.1, arrayRSS))
    }
}

// W7–W9: relationships, many changes, many deletions; W10: rows of realistic types.
if RelationshipWorkloads.keys.contains(where: bench.runsInGroup) { try RelationshipWorkloads(bench: bench).run(bench.runsInGroup) }
if MixedWorkloads.keys.contains(where: bench.runsInGroup) { try MixedWorkloads(bench: bench).run(bench.runsInGroup) }

// B1–B3: batch insert, delete and update requests against the same SQL.
if ["B1", "B1h", "B2", "B3"].contains(where: bench.runs) || only == "B" {
    try BatchWorkloads(rows: bench.quick ? 100_000 : 1_000_000, bench: bench).run { only == "B" || bench.runs($0) }
}

// H1–H2: persistent history: the cost of recording it, and reading it back.
if ["H1", "H2"].contains(where: bench.runs) || only == "H" {
    try HistoryWorkloads(saves: bench.quick ? 200 : 1_000, transactions: bench.quick ? 2_000 : 10_000, bench: bench).run { only == "H" || bench.runs($0) }
}

// H3: remote-change notifications: latency and idle cost.
if bench.runs("H3") || only == "H" {
    try RemoteChangeWorkload(saves: bench.quick ? 100 : 500, stores: 10, directory: bench.directory).run()
}

// R1: an NSFetchedResultsController kept current, per merged single-object save, at two
// result sizes; the controller's work per change must not grow with the size.
if bench.runs("R1") {
    let changes = bench.quick ? 200 : 1_000
    for rows in bench.quick ? [2_000, 10_000] : [10_000, 100_000] {
        let r = try ResultsControllerWorkload(rows: rows, changes: changes).run(in: bench.directory)
        report("R1_frc_change_vs_refetch_\(rows)", r.perChangeTracking, r.refetch)
        print(String(format: "frc R1 %d rows: per change %.1f µs tracking, %.1f µs merge alone (controller %.1f µs); re-fetch %.1f ms",
                     rows, r.perChangeTracking * 1e6, r.perChangeNotTracking * 1e6,
                     (r.perChangeTracking - r.perChangeNotTracking) * 1e6, r.refetch * 1e3))
    }
}

bench.finish()
