import Foundation

/// One run of a benchmark program: its temporary folder, how often each workload repeats, and
/// the measurements so far.
///
/// ```swift
/// let bench = try BenchRun(arguments: CommandLine.arguments, program: "ocd-bench")
/// try bench.measure("W1_insert_50000", ocd: { run in ... }, raw: { run in ... })
/// bench.finish()
/// ```
///
/// Each workload runs `repetitions` times on each side, the sides alternating, and each side
/// reports its fastest run. On a shared machine other load only ever slows a run down, so the
/// fastest is the closest to the work's own cost, and alternating exposes every side to the same
/// load. (With one run each, the raw baselines alone varied by up to 1.9× between runs.)
public final class BenchRun {
    /// This run's folder for stores, removed by ``finish(_:)``.
    public let directory: URL
    public let repetitions: Int
    public let quick: Bool
    public let sizes: BenchSizes
    /// `--only W2` runs one workload (for profiling), `--only W7` one group.
    public let only: String?

    /// Another library doing a workload's work (`ocd-bench-peers`): by workload key, a closure
    /// like the `ocd` and `raw` ones of ``measure(_:key:ocd:raw:)``, run alternating with them.
    public var peers: [String: (_ run: Int) throws -> Double] = [:]

    /// A workload's fastest times: OpenCoreData, raw SQLite and (when one ran) the peer.
    public struct Measurement {
        public let name: String
        public let ocd: Double
        public let raw: Double
        public let peer: Double?
    }
    public private(set) var measurements: [Measurement] = []

    private let stopSources: [any DispatchSourceSignal]

    /// Reads `--quick`, `--repeat N` and `--only NAME` from `arguments`, removes the folders of
    /// earlier runs of `program` that were killed, and makes this run's folder (after SIGINT and
    /// SIGTERM are routed to ``finish(_:)``, so an interruption removes it).
    public init(arguments: [String], program: String) throws {
        func value(after flag: String) -> String? {
            arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        quick = arguments.contains("--quick")
        sizes = BenchSizes(quick: quick)
        only = value(after: "--only")
        repetitions = value(after: "--repeat").flatMap(Int.init).map { max(1, $0) } ?? 3

        let temporary = FileManager.default.temporaryDirectory
        let ownPID = ProcessInfo.processInfo.processIdentifier
        let directory = temporary.appendingPathComponent("\(program)-\(ownPID)")
        self.directory = directory
        // Folders of earlier runs that were killed before they could clean up: their process is gone.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix("\(program)-") {
            // Only `<program>-<pid>`: another program's folder (`ocd-bench-peers-<pid>`) is not ours.
            guard let pid = Int32(name.dropFirst(program.count + 1)), pid != ownPID, kill(pid, 0) != 0 else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
        // Interrupted or terminated: clean up first.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        stopSources = [SIGINT, SIGTERM].map { signalNumber in
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { BenchRun.remove(directory, thenExit: 128 + signalNumber) }
            source.resume()
            return source
        }
        // Made only now that an interruption removes it.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Whether `workload` runs: every workload without `--only`, else the one named.
    public func runs(_ workload: String) -> Bool { only == nil || only == workload }

    /// Whether `workload` runs: by its name, or all of its group (`--only W7`).
    public func runsInGroup(_ workload: String) -> Bool {
        guard let only else { return true }
        return workload == only || workload.hasPrefix(only + "_")
    }

    /// A file name in this run's folder.
    public func path(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Runs a workload `repetitions` times on each side, alternating (with the peer registered
    /// for `key`, if any), prints each side's fastest and returns OpenCoreData's and raw SQLite's.
    /// Each closure does its own setup and returns the seconds of the measured part; `run` is the
    /// repetition's number, for fresh file names.
    @discardableResult
    public func measure(_ name: String, key: String? = nil, ocd: (_ run: Int) throws -> Double,
                        raw: (_ run: Int) throws -> Double) throws -> (ocd: Double, raw: Double) {
        let peer = key.flatMap { peers[$0] }
        var best = (ocd: Double.infinity, raw: Double.infinity, peer: Double.infinity)
        for run in 0..<repetitions {
            best.ocd = min(best.ocd, try ocd(run))
            if let peer { best.peer = min(best.peer, try peer(run)) }
            best.raw = min(best.raw, try raw(run))
        }
        report(name, best.ocd, best.raw)
        if peer != nil { print(String(format: "peer %@ %.4f %.4f %.2f", name, best.peer, best.raw, best.peer / best.raw)) }
        measurements.append(Measurement(name: name, ocd: best.ocd, raw: best.raw, peer: peer == nil ? nil : best.peer))
        return (best.ocd, best.raw)
    }

    /// Removes this run's folder and ends the process: every way out goes through here (a
    /// top-level `defer` does not run on `exit`).
    public func finish(_ status: Int32 = 0) -> Never {
        BenchRun.remove(directory, thenExit: status)
    }

    private static func remove(_ directory: URL, thenExit status: Int32) -> Never {
        // On a signal the main thread may still be writing into the folder while it is removed:
        // try again until the folder is gone.
        for _ in 0..<50 where FileManager.default.fileExists(atPath: directory.path) {
            try? FileManager.default.removeItem(at: directory)
            if FileManager.default.fileExists(atPath: directory.path) { usleep(10_000) }
        }
        exit(status)
    }
}

/// The workloads' sizes: full, or `--quick` (the whole of `ocd-bench --quick` runs in well under
/// a minute).
public struct BenchSizes: Sendable {
    /// W1 objects inserted; W2–W5 rows read; W4 saves; W6 rows iterated.
    public let insert, read, saves, iterate: Int
    /// W7: departments × employees per department. W8: employees changed in one save. W9:
    /// employees in the store and how many a predicate selects for deletion.
    public let departments, perDepartment, updates, deleteFrom, deletions: Int
    /// W10: rows inserted with one save, and rows fetched.
    public let mixedInserts, mixedReads: Int

    public init(quick: Bool) {
        insert = quick ? 5_000 : 50_000
        read = quick ? 20_000 : 200_000
        saves = quick ? 100 : 1_000
        iterate = quick ? 50_000 : 1_000_000
        departments = quick ? 200 : 2_000
        perDepartment = 50
        updates = quick ? 10_000 : 100_000
        deleteFrom = quick ? 20_000 : 200_000
        deletions = quick ? 5_000 : 50_000
        mixedInserts = quick ? 5_000 : 50_000
        mixedReads = quick ? 20_000 : 200_000
    }
}

/// Seconds `body` takes.
public func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Prints `ratio <name> <ocd seconds> <raw seconds> <ocd/raw>`.
public func report(_ name: String, _ ocd: Double, _ raw: Double) {
    print(String(format: "ratio %@ %.4f %.4f %.2f", name, ocd, raw, ocd / raw))
}

/// Resident memory of this process, in bytes: now (`VmRSS`) or at its peak (`VmHWM`); -1 if
/// `/proc` cannot tell.
public func residentBytes(peak: Bool = false) -> Int {
    let field = peak ? "VmHWM:" : "VmRSS:"
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
          let kb = Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "") else { return -1 }
    return kb * 1024
}

/// Resident bytes per fetched object, above what the process held once `warmUp` had run
/// (a library's connection opened, as every side's is before the first measurement): while
/// the objects `fetch` returns are held, and at the peak (the fetch's passing buffers too).
/// `check` reads every object, so lazily filled values count. Run it in a fresh process:
/// `ocd-bench-peers` does, one child per library.
public func residentBytesPerFetchedObject<Object>(rows: Int, warmUp: () throws -> Void, fetch: () throws -> [Object],
                                                  check: ([Object]) -> Bool) throws -> (held: Double, peak: Double) {
    try warmUp()
    let before = residentBytes()
    guard before >= 0 else { throw BenchError("resident memory is read from /proc/self/status, which this system has not") }
    let objects = try fetch()
    guard objects.count == rows, check(objects) else {
        throw BenchError("the fetch returned \(objects.count) objects of \(rows), or their checksum is wrong")
    }
    let held = residentBytes()
    let peak = residentBytes(peak: true)
    withExtendedLifetime(objects) {}
    return (Double(held - before) / Double(rows), Double(peak - before) / Double(rows))
}
