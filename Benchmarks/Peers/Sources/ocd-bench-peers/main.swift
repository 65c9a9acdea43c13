import Foundation
import GRDB
import OCDBenchKit

// ocd-bench-peers: the workloads of `ocd-bench` another library can do too — W1, W2, W4, W5,
// W7–W10 — through OpenCoreData, GRDB's records and raw SQLite C calls, alternating in one
// process, then one table of ratios to raw SQLite and the memory each library's fetched objects
// take. The OpenCoreData and raw sides are `ocd-bench`'s own (OCDBenchKit).
//
//   swift run -c release ocd-bench-peers [--quick] [--repeat N] [--only W7]

let bench = try BenchRun(arguments: CommandLine.arguments, program: "ocd-bench-peers")

// `--memory-child <library> <workload> <rows> <path>`: in a fresh process, fetch every row of the
// store at `path` and hold it; print the resident bytes per object above the process's before,
// while held and at the peak.
if let index = CommandLine.arguments.firstIndex(of: "--memory-child"), index + 4 < CommandLine.arguments.count,
   let rows = Int(CommandLine.arguments[index + 3]) {
    let (library, workload, url) = (CommandLine.arguments[index + 1], CommandLine.arguments[index + 2], URL(fileURLWithPath: CommandLine.arguments[index + 4]))
    let bytes: (held: Double, peak: Double)
    switch (library, workload) {
    case ("ocd", "W2"): bytes = try RowWorkloads.residentBytesPerFetchedObject(storeAt: url, rows: rows)
    case ("ocd", "W10"): bytes = try MixedWorkloads.residentBytesPerFetchedObject(storeAt: url, rows: rows)
    case ("grdb", "W2"): bytes = try GRDBMemory.residentBytesPerFetchedRecord(RowRecord.self, at: url, rows: rows) { $0.sum != 0 }
    case ("grdb", "W10"): bytes = try GRDBMemory.residentBytesPerFetchedRecord(MixedRecord.self, at: url, rows: rows) { $0.checksum != 0 }
    default: throw BenchError("no memory measurement for \(library) \(workload)")
    }
    print(String(format: "memory %.1f %.1f", bytes.held, bytes.peak))
    bench.finish()
}

/// Writes the store a memory child of `library` reads for `workload` (W2 or W10).
func writeStore(_ library: String, _ workload: String, rows: Int, at url: URL) throws {
    switch (library, workload) {
    case ("ocd", "W2"): try RowWorkloads.writeStore(rows: rows, at: url)
    case ("ocd", "W10"): try MixedWorkloads.writeStore(rows: rows, at: url)
    case ("grdb", "W2"): try GRDBWorkloads.writeRows(rows, to: GRDBWorkloads.pool(at: url))
    case ("grdb", "W10"): try GRDBWorkloads.writeMixed(rows, to: GRDBWorkloads.pool(at: url))
    default: throw BenchError("no store for \(library) \(workload)")
    }
}

// `--write-store <library> <workload> <rows> <path>`: only writes a memory child's store (to
// profile the child on its own, say under valgrind's massif).
if let index = CommandLine.arguments.firstIndex(of: "--write-store"), index + 4 < CommandLine.arguments.count,
   let rows = Int(CommandLine.arguments[index + 3]) {
    try writeStore(CommandLine.arguments[index + 1], CommandLine.arguments[index + 2], rows: rows,
                   at: URL(fileURLWithPath: CommandLine.arguments[index + 4]))
    bench.finish()
}

let sizes = bench.sizes
print("ocd-bench-peers (\(bench.quick ? "quick" : "full") sizes, fastest of \(bench.repetitions) runs per side), \(Date())")

GRDBWorkloads(bench: bench).register()
try RowWorkloads(bench: bench).run { $0 != "W3" && bench.runs($0) }
if RelationshipWorkloads.keys.contains(where: bench.runsInGroup) { try RelationshipWorkloads(bench: bench).run(bench.runsInGroup) }
if MixedWorkloads.keys.contains(where: bench.runsInGroup) { try MixedWorkloads(bench: bench).run(bench.runsInGroup) }

/// Runs a memory child and returns its bytes per object, held and at the peak.
func memoryChild(_ library: String, _ workload: String, rows: Int, store: URL) throws -> (held: Double, peak: Double) {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--memory-child", library, workload, String(rows), store.path]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    guard child.terminationStatus == 0, let line = output.split(separator: "\n").last(where: { $0.hasPrefix("memory ") }),
          case let fields = line.split(separator: " "), fields.count == 3, let held = Double(fields[1]), let peak = Double(fields[2]) else {
        throw BenchError("memory child \(library) \(workload) failed: \(output)")
    }
    return (held, peak)
}

// Memory: resident bytes per fetched object, each library in a fresh process.
var memory: [(workload: String, ocd: (held: Double, peak: Double), grdb: (held: Double, peak: Double))] = []
@MainActor func compareMemory(_ workload: String, _ name: String, rows: Int) throws {
    let ocdStore = bench.path("memory-ocd-\(workload).sqlite"), grdbStore = bench.path("memory-grdb-\(workload).sqlite")
    try writeStore("ocd", workload, rows: rows, at: ocdStore)
    try writeStore("grdb", workload, rows: rows, at: grdbStore)
    memory.append(("\(name) (\(rows) rows)", try memoryChild("ocd", workload, rows: rows, store: ocdStore),
                   try memoryChild("grdb", workload, rows: rows, store: grdbStore)))
}
if bench.runs("W2") || bench.only == "memory" { try compareMemory("W2", "W2", rows: sizes.read) }
if bench.runsInGroup("W10_mixed_fetch") || bench.only == "memory" { try compareMemory("W10", "W10_mixed_fetch", rows: sizes.mixedReads) }

// The table (Markdown, as the README shows it).
print("\n| workload | OpenCoreData | GRDB records | raw SQLite |")
print("|---|---|---|---|")
for m in bench.measurements {
    let peer = m.peer.map { String(format: "%.2f×", $0 / m.raw) } ?? "—"
    print(String(format: "| %@ | %.2f× | %@ | %.1f ms |", m.name, m.ocd / m.raw, peer, m.raw * 1000))
}
if !memory.isEmpty {
    print("\n| resident bytes per fetched object, peak (held) | OpenCoreData | GRDB records | OpenCoreData / GRDB |")
    print("|---|---|---|---|")
    for m in memory {
        print(String(format: "| %@ | %.0f (%.0f) | %.0f (%.0f) | %.2f (%.2f) |", m.workload, m.ocd.peak, m.ocd.held, m.grdb.peak, m.grdb.held,
                     m.ocd.peak / m.grdb.peak, m.ocd.held / m.grdb.held))
    }
}
bench.finish()

/// GRDB's side of the memory measurement.
enum GRDBMemory {
    static func residentBytesPerFetchedRecord<Record: FetchableRecord & TableRecord>(_ type: Record.Type, at url: URL, rows: Int,
                                                                                    check: (Record) -> Bool) throws -> (held: Double, peak: Double) {
        let pool = try GRDBWorkloads.pool(at: url)
        return try residentBytesPerFetchedObject(rows: rows, warmUp: {
            _ = try pool.read { try Record.fetchCount($0) }
        }, fetch: {
            try pool.read { try Record.fetchAll($0) }
        }, check: { $0.allSatisfy(check) })
    }
}
