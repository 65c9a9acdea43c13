import OpenCoreData
import OpenCoreDataTestSupport
import TortureKit
import XCTest

/// The harnesses of docs/RELIABILITY.md that need other processes: a process killed with
/// SIGKILL at random points of its saves and of a migration, and several processes saving to
/// one store under each merge policy. Each round ends with a full check of the store
/// (``StoreConsistency``). `OCD_CRASH_ROUNDS` and `OCD_STRESS_SAVES` run longer than CI's
/// defaults.
final class ReliabilityTests: XCTestCase {
    private var crashRounds: Int { Int(ProcessInfo.processInfo.environment["OCD_CRASH_ROUNDS"] ?? "") ?? 12 }
    private var stressSaves: Int { Int(ProcessInfo.processInfo.environment["OCD_STRESS_SAVES"] ?? "") ?? 15 }

    /// Starts `ocd-torture` with `arguments`; its standard output is collected.
    private func torture(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = try builtExecutable("ocd-torture")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let child = process
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        return (process, output)
    }

    private func lines(_ pipe: Pipe) -> [String] {
        String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    // MARK: Killed during saves

    /// Each round lets the save loop run for a random time, kills it with SIGKILL, and checks
    /// the store: every save it reported is whole, no save is partial (its department, its
    /// employees, their photo files, the cascade of the department it deleted, its counter),
    /// integrity_check passes and the key counters are ahead of the keys. The next round goes
    /// on from the same store.
    func testAProcessKilledDuringSavesLeavesEveryReportedSaveWholeAndNoPartialOne() throws {
        let store = try makeTemporaryDirectory("ocd-crash").appendingPathComponent("Torture.sqlite")
        var rng = SplitMix64(seed: 0x5EED)
        var lastReported = 0, kills = 0
        for round in 0..<crashRounds {
            let (process, output) = try torture(["save-loop", store.path])
            usleep(UInt32(50_000 + rng.next() % 450_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { kills += 1 }
            let reported = lines(output).compactMap { $0.hasPrefix("saved ") ? Int($0.dropFirst(6)) : nil }
            lastReported = reported.last ?? lastReported
            let problems = try StoreConsistency.problems(ofStoreAt: store, lastReportedSave: lastReported)
            XCTAssertEqual(problems, [], "round \(round), last reported save \(lastReported)")
            if !problems.isEmpty { break }
        }
        XCTAssertGreaterThan(kills, crashRounds / 2, "most rounds must end in the middle of the loop")
        XCTAssertGreaterThan(lastReported, crashRounds, "the loop must make progress between kills")
    }

    // MARK: Killed during a migration

    /// A store of a few thousand rows, migrated from version 1 to 2 of the model by a process
    /// killed at a random point: after the kill the store is whole at version 1 or whole at
    /// version 2, never in between, and a second migration finishes the work.
    func testAProcessKilledDuringAMigrationLeavesTheStoreWholeAtOneVersion() throws {
        var rng = SplitMix64(seed: 0x316)
        var sawVersion = [1: 0, 2: 0]
        // One version-1 store, copied for each round (its photo files too).
        let template = try makeTemporaryDirectory("ocd-crash-migration")
        do {
            let (coordinator, context) = try TortureModel.open(template.appendingPathComponent("Torture.sqlite"))
            try context.performAndWait { for n in 1...300 { try TortureModel.save(n, in: context) } }
            for added in coordinator.persistentStores { try coordinator.remove(added) }
        }
        for round in 0..<max(3, crashRounds / 2) {
            let folder = try makeTemporaryDirectory("ocd-crash-migration")
            for name in try FileManager.default.contentsOfDirectory(atPath: template.path) {
                try FileManager.default.copyItem(at: template.appendingPathComponent(name), to: folder.appendingPathComponent(name))
            }
            let store = folder.appendingPathComponent("Torture.sqlite")

            let (process, _) = try torture(["migrate", store.path])
            usleep(UInt32(rng.next() % 400_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)
            let version = TortureModel.make(version: 2).isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) ? 2 : 1
            sawVersion[version, default: 0] += 1
            XCTAssertEqual(try StoreConsistency.problems(ofStoreAt: store, lastReportedSave: 300, version: version), [], "round \(round), after the kill, at version \(version)")
            if version == 1 {
                let (finisher, output) = try torture(["migrate", store.path])
                finisher.waitUntilExit()
                XCTAssertEqual(lines(output), ["migrated"], "round \(round)")
                XCTAssertEqual(try StoreConsistency.problems(ofStoreAt: store, lastReportedSave: 300, version: 2), [], "round \(round), migrated")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: store.path + ".migrating"), "round \(round): the copy is gone")
        }
        XCTAssertGreaterThan(sawVersion[1] ?? 0, 0, "some kills must land inside the migration")
    }

    // MARK: Several processes on one store

    /// Two and four processes save to one store at once, each adding 1 to its own property of
    /// one shared object, inserting items, and inserting tags whose unique names all processes
    /// share. No save may fail that the merge policy should resolve (a conflict another process
    /// commits between the policy's check and the write included), no insert may be lost, each
    /// tag name is stored once, and where the policy merges by property (or reports the conflict
    /// for the process to start over) no update may be lost either.
    func testSeveralProcessesSavingToOneStoreLoseNoUpdateTheirMergePolicyKeeps() throws {
        for workers in [2, 4] {
            for policy in ["error", "objectTrump", "storeTrump", "overwrite", "rollback"] {
                let store = try makeTemporaryDirectory("ocd-stress").appendingPathComponent("Torture.sqlite")
                let (coordinator, context) = try TortureModel.open(store)
                try context.performAndWait {
                    let shared = NSEntityDescription.insertNewObject(forEntityName: "Shared", into: context)
                    for k in 0..<4 { shared.setValue(0, forKey: "w\(k)") }
                    try context.save()
                }
                for added in coordinator.persistentStores { try coordinator.remove(added) }

                let runs = try (0..<workers).map { try torture(["stress", store.path, policy, String($0), String(stressSaves)]) }
                var outputs: [[String]] = []
                for (process, output) in runs {
                    outputs.append(lines(output))
                    process.waitUntilExit()
                    XCTAssertEqual(process.terminationStatus, 0, "\(workers) workers, \(policy): a save failed")
                }
                XCTAssertTrue(outputs.allSatisfy { $0.last?.hasPrefix("done") ?? false }, "\(workers) workers, \(policy): \(outputs)")

                let items = try SQLiteInspector.rows(at: store.path, "SELECT COUNT(*), COUNT(DISTINCT ZWORKER * 1000000 + ZSEQUENCE) FROM ZITEM")
                XCTAssertEqual(items, [[String(workers * stressSaves), String(workers * stressSaves)]], "\(workers) workers, \(policy): lost inserts")
                let tags = try SQLiteInspector.rows(at: store.path, "SELECT COUNT(*), COUNT(DISTINCT ZNAME) FROM ZTAG")
                XCTAssertEqual(tags, [[String(stressSaves), String(stressSaves)]], "\(workers) workers, \(policy): each unique tag exactly once")
                let counts = try SQLiteInspector.rows(at: store.path, "SELECT ZW0, ZW1, ZW2, ZW3 FROM ZSHARED").first ?? []
                if ["error", "objectTrump", "storeTrump"].contains(policy) {
                    XCTAssertEqual(counts.prefix(workers).map { $0 ?? "" }, Array(repeating: String(stressSaves), count: workers), "\(workers) workers, \(policy): lost updates")
                }
                XCTAssertEqual(try SQLiteInspector.rows(at: store.path, "PRAGMA integrity_check"), [["ok"]])
            }
        }
    }
}
