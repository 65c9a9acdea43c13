import Foundation
import OpenCoreData

// ocd-bench: each workload through OpenCoreData (SQLite store) and through raw SQLite C calls in
// the same process, printed as `ratio <name> <ocd seconds> <raw seconds> <ocd/raw>`.
//
//   swift run -c release ocd-bench            full sizes
//   swift run -c release ocd-bench --quick    small sizes, under a minute
//   --repeat N                                 runs per workload and side (default 3)
//
// W1–W5 run `--repeat` times, OpenCoreData and raw SQLite alternating, and report each side's
// fastest run. On a shared machine other load only ever slows a run down, so the fastest is the
// closest to the work's own cost, and alternating exposes both sides to the same load. (With one
// run each, the raw baselines alone varied by up to 1.9× between runs.)

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
/// `--only W2` runs one workload (for profiling); W2–W5 share seeded data.
let only: String? = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
func runs(_ workload: String) -> Bool { only == nil || only == workload }

struct Sizes {
    let insert: Int, read: Int, saves: Int, iterate: Int
}
let sizes = quick ? Sizes(insert: 5_000, read: 20_000, saves: 100, iterate: 50_000)
                  : Sizes(insert: 50_000, read: 200_000, saves: 1_000, iterate: 1_000_000)

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-\(ProcessInfo.processInfo.processIdentifier)")
// Folders of earlier runs that were killed before they could clean up: their process is gone.
for name in (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
where name.hasPrefix("ocd-bench-") {
    if let pid = Int32(name.dropFirst("ocd-bench-".count)), pid != ProcessInfo.processInfo.processIdentifier, kill(pid, 0) == 0 { continue }
    try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent(name))
}

/// Removes this run's folder and ends the process: every way out goes through here (a
/// top-level `defer` does not run on `exit`).
func finish(_ status: Int32 = 0) -> Never {
    // On a signal the main thread may still be writing into the folder while it is removed:
    // try again until the folder is gone.
    for _ in 0..<50 where FileManager.default.fileExists(atPath: directory.path) {
        try? FileManager.default.removeItem(at: directory)
        if FileManager.default.fileExists(atPath: directory.path) { usleep(10_000) }
    }
    exit(status)
}
// Interrupted or terminated: clean up first.
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let stopSources = [SIGINT, SIGTERM].map { signalNumber in
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
    source.setEventHandler { finish(128 + signalNumber) }
    source.resume()
    return source
}
// Made only now that an interruption removes it.
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func report(_ name: String, _ ocd: Double, _ raw: Double) {
    print(String(format: "ratio %@ %.4f %.4f %.2f", name, ocd, raw, ocd / raw))
}

let repetitions = arguments.firstIndex(of: "--repeat").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }.map { max(1, $0) } ?? 3

/// Runs a workload `repetitions` times on each side, alternating, and reports the fastest of
/// each (and returns them). Each closure does its own setup and returns the seconds of the
/// measured part; `run` is the repetition's number, for fresh file names.
@discardableResult
func measure(_ name: String, ocd: (_ run: Int) throws -> Double, raw: (_ run: Int) throws -> Double) rethrows -> (ocd: Double, raw: Double) {
    var best = (ocd: Double.infinity, raw: Double.infinity)
    for run in 0..<repetitions {
        best.ocd = min(best.ocd, try ocd(run))
        best.raw = min(best.raw, try raw(run))
    }
    report(name, best.ocd, best.raw)
    return best
}

/// A fresh OpenCoreData stack on a new SQLite file.
func openStack(_ name: String) throws -> NSManagedObjectContext {
    try BenchModel.context(at: directory.appendingPathComponent("\(name).sqlite"))
}

func insertRows(_ count: Int, into context: NSManagedObjectContext) throws {
    try context.performAndWait {
        for i in 0..<count { BenchRow(context: context).fill(i) }
        try context.save()
        context.reset()
    }
}

/// Peak resident memory of this process, in MiB (VmHWM).
func peakRSS() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kb = Double(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "") else { return -1 }
    return kb / 1024
}

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
    print(String(format: "w6 %d %.4f %.1f %lld", count, seconds, peakRSS(), sum))
    finish()
}

// `--migration-store <rows> <directory>`: only writes the input of the migration memory
// measurement (MigrationStore.swift) and exits.
if let index = arguments.firstIndex(of: "--migration-store"), index + 2 < arguments.count, let count = Int(arguments[index + 1]) {
    try MigrationStore.make(rows: count, in: URL(fileURLWithPath: arguments[index + 2]))
    finish()
}

print("ocd-bench (\(quick ? "quick" : "full") sizes, fastest of \(repetitions) runs per side): insert \(sizes.insert), read \(sizes.read), saves \(sizes.saves), iterate \(sizes.iterate)")

// W1: insert N objects of 10 Integer 64 attributes with one save.
if runs("W1") {
    try measure("W1_insert_\(sizes.insert)", ocd: { run in
        let context = try openStack("w1-\(run)")
        return try time { try insertRows(sizes.insert, into: context) }
    }, raw: { run in
        let raw = try RawSQLite(path: directory.appendingPathComponent("w1-raw-\(run).sqlite").path)
        try raw.createTable()
        return try time { try raw.insert(count: sizes.insert) }
    })
}

// Shared data for the read workloads.
let needsReadData = ["W2", "W3", "W5"].contains(where: runs)
let readContext = try openStack("read")
if needsReadData { try insertRows(sizes.read, into: readContext) }
let rawRead = try RawSQLite(path: directory.appendingPathComponent("read-raw.sqlite").path)
try rawRead.createTable()
if needsReadData { try rawRead.insert(count: sizes.read) }

/// W2 and W3: every row of the read store through a fetch `configure` sets up, reading every
/// attribute, against a raw scan; the sums of all attributes must agree.
@MainActor func measureFullRead(_ name: String, _ configure: @escaping (NSFetchRequest<BenchRow>) -> Void) throws {
    var ocdSum: Int64 = 0
    try measure(name, ocd: { _ in
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
if runs("W2") {
    try measureFullRead("W2_fetch_objects_\(sizes.read)") { $0.returnsObjectsAsFaults = false }
}

// W3: fetch as faults, then fire every fault.
if runs("W3") {
    try measureFullRead("W3_fetch_faults_\(sizes.read)") { request in
        request.returnsObjectsAsFaults = true
        request.fetchBatchSize = 500
    }
}

// W4: many saves of one changed object.
if runs("W4") {
    try measure("W4_saves_\(sizes.saves)", ocd: { run in
        let context = try openStack("w4-\(run)")
        try insertRows(10, into: context)
        return try time {
            try context.performAndWait {
                let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
                request.predicate = NSPredicate(format: "a0 == 0")
                let row = try context.fetch(request)[0]
                for i in 0..<sizes.saves {
                    row.a1 = Int64(i)
                    try context.save()
                }
            }
        }
    }, raw: { run in
        let raw = try RawSQLite(path: directory.appendingPathComponent("w4-raw-\(run).sqlite").path)
        try raw.createTable()
        try raw.insert(count: 10)
        return try time { try raw.updateOneRow(times: sizes.saves) }
    })
}

// W5: indexed predicate fetch of 1% of the rows.
if runs("W5") {
    let limit = Int64(sizes.read / 100 * 10)  // a0 = 10 * i, so this selects 1% of rows
    try measure("W5_indexed_1pct_of_\(sizes.read)", ocd: { _ in
        var count = 0
        let seconds = try time {
            try readContext.performAndWait {
                let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
                request.predicate = NSPredicate(format: "a0 < %lld", limit)
                request.returnsObjectsAsFaults = false
                let rows = try readContext.fetch(request)
                count = rows.count
                for row in rows { _ = row.sum }
                readContext.reset()
            }
        }
        precondition(count == sizes.read / 100, "W5 returned \(count) rows")
        return seconds
    }, raw: { _ in
        try time { _ = try rawRead.scan(where: "WHERE A0 < ?", bind: limit) }
    })
}

// W6: iterate many rows with fetchBatchSize 500, in a child process; report its peak memory.
if runs("W6") {
    let path = directory.appendingPathComponent("w6.sqlite")
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BenchModel.model)
    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: path)
    let seedContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    seedContext.persistentStoreCoordinator = coordinator
    for chunk in stride(from: 0, to: sizes.iterate, by: 100_000) {
        try insertRows(min(100_000, sizes.iterate - chunk), into: seedContext)
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
    let raw = try RawSQLite(path: directory.appendingPathComponent("w6-raw.sqlite").path)
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
/// Whether `workload` runs: by its name, or all of its group (`--only W7`).
func runsInGroup(_ workload: String) -> Bool {
    guard let only else { return true }
    return workload == only || workload.hasPrefix(only + "_")
}
if ["W7_tomany_faults", "W7_tomany_prefetch", "W7_toone_keypath", "W8_update", "W9_delete"].contains(where: runsInGroup) {
    try RelationshipWorkloads(departments: quick ? 200 : 2_000, perDepartment: 50, updates: quick ? 10_000 : 100_000,
                              deleteFrom: quick ? 20_000 : 200_000, deletions: quick ? 5_000 : 50_000, directory: directory).run(runsInGroup)
}
if ["W10_mixed_insert", "W10_mixed_fetch"].contains(where: runsInGroup) {
    try MixedWorkloads(inserts: quick ? 5_000 : 50_000, reads: quick ? 20_000 : 200_000, directory: directory).run(runsInGroup)
}

// B1–B3: batch insert, delete and update requests against the same SQL.
if ["B1", "B1h", "B2", "B3"].contains(where: runs) || only == "B" {
    try BatchWorkloads(rows: quick ? 100_000 : 1_000_000, directory: directory).run { only == "B" || runs($0) }
}

// H1–H2: persistent history: the cost of recording it, and reading it back.
if ["H1", "H2"].contains(where: runs) || only == "H" {
    try HistoryWorkloads(saves: quick ? 200 : 1_000, transactions: quick ? 2_000 : 10_000, directory: directory).run { only == "H" || runs($0) }
}

// H3: remote-change notifications: latency and idle cost.
if runs("H3") || only == "H" {
    try RemoteChangeWorkload(saves: quick ? 100 : 500, stores: 10, directory: directory).run()
}

// R1: an NSFetchedResultsController kept current, per merged single-object save, at two
// result sizes; the controller's work per change must not grow with the size.
if runs("R1") {
    let changes = quick ? 200 : 1_000
    for rows in quick ? [2_000, 10_000] : [10_000, 100_000] {
        let r = try ResultsControllerWorkload(rows: rows, changes: changes).run(in: directory)
        report("R1_frc_change_vs_refetch_\(rows)", r.perChangeTracking, r.refetch)
        print(String(format: "frc R1 %d rows: per change %.1f µs tracking, %.1f µs merge alone (controller %.1f µs); re-fetch %.1f ms",
                     rows, r.perChangeTracking * 1e6, r.perChangeNotTracking * 1e6,
                     (r.perChangeTracking - r.perChangeNotTracking) * 1e6, r.refetch * 1e3))
    }
}

finish()
