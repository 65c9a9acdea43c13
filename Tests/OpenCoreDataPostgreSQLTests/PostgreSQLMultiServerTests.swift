import Foundation
import OpenCoreDataPostgreSQL
import OpenCoreDataTestSupport
import XCTest

/// Four app-server processes (`ocd-pg-appserver`, each its own coordinator) on one PostgreSQL
/// store at once: shared counters incremented under the error merge policy with retries,
/// tickets inserted under a uniqueness constraint, deleted and inserted again. No update may
/// be lost and no unique value stored twice; every server hears the others' saves.
/// `OCD_PG_PROOF_SECONDS` sets how long they run (10 s by default; the proof: 30).
final class PostgreSQLMultiServerTests: XCTestCase {
    func testFourServersLoseNoUpdateAndStoreNoDuplicateAndHearEachOther() throws {
        guard let text = ProcessInfo.processInfo.environment["OCD_POSTGRESQL_URL"], let server = URL(string: text) else {
            throw XCTSkip("No PostgreSQL server: run `eval \"$(Scripts/postgresql-test-cluster start)\"` first.")
        }
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "schema", value: "ocd_proof_\(UUID().uuidString.prefix(8).lowercased())")]
        let url = components.url!
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
        try coordinator.destroyPersistentStore(at: url, ofType: OCDPostgreSQLStoreType)
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
