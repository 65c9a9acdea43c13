import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `ocd-bench` leaves no temporary folders behind: not when it is interrupted, and not those of
/// earlier runs that were killed outright.
final class BenchmarkToolTests: XCTestCase {
    private var benchFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []).filter { $0.hasPrefix("ocd-bench-") }
    }

    func testAnInterruptedRunRemovesItsFolderAndThoseOfKilledRuns() throws {
        // A folder of a run killed with SIGKILL: no process has that number (above pid_max).
        let stale = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-99999999")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        // Another program's folder (`ocd-bench-peers` names its own so) is not this program's to remove.
        let peers = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-peers-99999999")
        try FileManager.default.createDirectory(at: peers, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: peers) }
        let process = Process()
        process.executableURL = try builtExecutable("ocd-bench")
        process.arguments = ["--quick"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let own = "ocd-bench-\(process.processIdentifier)"
        let deadline = Date(timeIntervalSinceNow: 30)
        while !benchFolders.contains(own), Date() < deadline { usleep(20_000) }
        XCTAssertTrue(benchFolders.contains(own), "the run makes its folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path), "a killed run's folder is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: peers.path), "another program's folder stays")
        // The folder appears once the signal sources are resumed; dispatch registers them with
        // the kernel a moment later (under a sanitizer, a longer moment).
        usleep(300_000)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 128 + SIGINT)
        XCTAssertFalse(benchFolders.contains(own), "the interrupted run removed its folder")
    }
}
