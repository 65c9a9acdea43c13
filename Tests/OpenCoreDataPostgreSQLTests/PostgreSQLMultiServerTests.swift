import Foundation
@_spi(Tooling) @testable import OpenCoreDataPostgreSQL
import OpenCoreDataTestSupport
import XCTest

/// Four app-server processes (`ocd-pg-appserver`, each its own coordinator) on one PostgreSQL
/// store at once: shared counters incremented under the error merge policy with retries,
/// tickets inserted under a uniqueness constraint, deleted and inserted again. No update may
/// be lost and no unique value stored twice; every server hears the others' saves.
/// `OCD_PG_PROOF_SECONDS` sets how long they run (10 s by default; the proof: 30).
final class PostgreSQLMultiServerTests: XCTestCase {
    func testFourServersLoseNoUpdateAndStoreNoDuplicateAndHearEachOther() throws {
        let url = try newTestStoreURL(prefix: "ocd_proof")
        let seconds = Double(ProcessInfo.processInfo.environment["OCD_PG_PROOF_SECONDS"] ?? "") ?? 10
        let (status, _, errors) = try runBuiltExecutable("ocd-pg-appserver", [url.absoluteString, "setup"])
        XCTAssertEqual(status, 0, errors)

        // Four servers at once, each a process of its own.
        var processes: [(Process, Pipe)] = []
        for n in 0..<4 {
            let process = Process()
            process.executableURL = try builtExecutable("ocd-pg-appserver")
            process.arguments = [url.absoluteString, String(seconds), String(n)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            processes.append((process, output))
        }
        var results: [[String: Any]] = []
        for (process, output) in processes {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("RESULT ") }
            let json = try XCTUnwrap(line.map { Data($0.dropFirst(7).utf8) }, "a server printed no result")
            results.append(try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any]))
        }
        func total(_ key: String) -> Int { results.reduce(0) { $0 + (($1[key] as? Int) ?? 0) } }

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try Self.model(of: url))
        try coordinator.addPersistentStore(ofType: OCDPostgreSQLStoreType, configurationName: nil, at: url, options: [NSPersistentHistoryTrackingKey: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let (counted, codes): (Int64, [String]) = try context.performAndWait {
            let counters = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter"))
            let tickets = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Ticket"))
            return (counters.reduce(0) { $0 + (($1.value(forKey: "value") as? Int64) ?? 0) }, tickets.compactMap { $0.value(forKey: "code") as? String })
        }
        XCTAssertGreaterThan(total("increments"), 0)
        XCTAssertEqual(counted, Int64(total("increments")), "zero lost updates")
        XCTAssertEqual(Set(codes).count, codes.count, "zero duplicate unique values")
        XCTAssertEqual(codes.count, total("inserted") - total("deleted"), "every saved insert and delete is in the store")

        let delays = results.flatMap { ($0["delays"] as? [Double]) ?? [] }.sorted()
        for (n, result) in results.enumerated() {
            XCTAssertFalse((result["delays"] as? [Double] ?? []).isEmpty, "server \(n) heard the others")
        }
        func percentile(_ p: Double) -> Double { delays.isEmpty ? .nan : delays[min(delays.count - 1, Int(Double(delays.count) * p))] * 1000 }
        print(String(format: "proof %.0f s: %d increments, %d inserts, %d deletes, %d conflicts retried; remote changes heard after p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms (%d)",
                     seconds, total("increments"), total("inserted"), total("deleted"), total("conflicts"), percentile(0.5), percentile(0.95), percentile(0.99),
                     (delays.last ?? .nan) * 1000, delays.count))
        XCTAssertLessThan(percentile(0.5), 250, "most saves reach the other servers within 250 ms")
    }

    // MARK: Killed mid-save

    private func proofStore() throws -> URL {
        let url = try newTestStoreURL(prefix: "ocd_kill")
        let (status, _, errors) = try runBuiltExecutable("ocd-pg-appserver", [url.absoluteString, "setup"])
        XCTAssertEqual(status, 0, errors)
        return url
    }

    /// Batch tickets and the c0 counter agree, and every batch is whole: each save was all or
    /// nothing. Returns how many batches the store holds.
    @discardableResult
    private func checkBatches(in url: URL) throws -> Int {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try Self.model(of: url))
        try coordinator.addPersistentStore(ofType: OCDPostgreSQLStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Counter")
            request.predicate = NSPredicate(format: "name == 'c0'")
            let counted = try XCTUnwrap(try context.fetch(request).first?.value(forKey: "value") as? Int64)
            let tickets = NSFetchRequest<NSManagedObject>(entityName: "Ticket")
            tickets.predicate = NSPredicate(format: "server == -1")
            let codes = try context.fetch(tickets).compactMap { $0.value(forKey: "code") as? String }
            XCTAssertEqual(Int64(codes.count), counted, "the counter counts exactly the tickets saved with it")
            let batches = Dictionary(grouping: codes) { $0.split(separator: "-").dropLast().joined(separator: "-") }
            XCTAssertTrue(batches.values.allSatisfy { $0.count == 10 }, "every batch whole")
            return batches.count
        }
    }

    func testAConnectionTerminatedMidSaveLeavesAllOrNothingAndTheServerGoesOn() throws {
        let url = try proofStore()
        let admin = try testServerConnection()
        let process = Process()
        process.executableURL = try builtExecutable("ocd-pg-appserver")
        process.arguments = [url.absoluteString, "batches", "8"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        Thread.sleep(forTimeInterval: 0.3)
        // Twenty terminations at random moments (a moment when the server is reconnecting
        // finds no connection and does not count).
        var kills = 0
        while kills < 20 && process.isRunning {
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.08))
            kills += try admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'OpenCoreData store' AND pid <> pg_backend_pid()").count
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the server went on after losing its connection")
        XCTAssertGreaterThanOrEqual(kills, 20, "twenty terminations")
        let saved = try XCTUnwrap(text.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }, text)
        let batches = try checkBatches(in: url)
        XCTAssertGreaterThan(saved, 0)
        XCTAssertGreaterThanOrEqual(batches, saved, "every save reported saved is in the store (one whose COMMIT reply was lost may be too)")
        print("terminated the store's connection mid-save \(kills) times: \(saved) batches saved, \(batches) in the store, all whole")
    }

    func testAnAppServerKilledMidSaveLeavesAllOrNothingAndStartsAgain() throws {
        let url = try proofStore()
        for _ in 0..<20 {
            let process = Process()
            process.executableURL = try builtExecutable("ocd-pg-appserver")
            process.arguments = [url.absoluteString, "batches"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: Double.random(in: 0.15...0.4))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        }
        let before = try checkBatches(in: url)
        XCTAssertGreaterThan(before, 0, "the killed servers had saved batches")
        let (status, output, errors) = try runBuiltExecutable("ocd-pg-appserver", [url.absoluteString, "batches", "0.5"])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("SAVED"), output)
        XCTAssertGreaterThan(try checkBatches(in: url), before, "a restarted server saves again")
        print("killed an app server mid-save 20 times: \(before) whole batches in the store")
    }

    /// The model `ocd-pg-appserver` uses (the same entities; a different model would be refused).
    private static func model(of url: URL) throws -> NSManagedObjectModel {
        let counter = NSEntityDescription(), ticket = NSEntityDescription()
        counter.name = "Counter"
        ticket.name = "Ticket"
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let a = NSAttributeDescription()
            a.name = name
            a.attributeType = type
            return a
        }
        counter.properties = [attribute("name", .stringAttributeType), attribute("value", .integer64AttributeType)]
        counter.uniquenessConstraints = [["name"]]
        ticket.properties = [attribute("code", .stringAttributeType), attribute("server", .integer16AttributeType)]
        ticket.uniquenessConstraints = [["code"]]
        let model = NSManagedObjectModel()
        model.entities = [counter, ticket]
        return model
    }
}
