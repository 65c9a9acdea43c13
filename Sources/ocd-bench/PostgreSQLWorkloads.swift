import Foundation
import Logging
import NIOPosix
import OCDBenchKit
@_spi(Tooling) import OpenCoreDataPostgreSQL
import PostgresNIO

/// P1–P4 (`ocd-bench --postgresql <url>`): the PostgreSQL store against postgres-nio doing the
/// same work on the same server in the same run — inserting with one save, fetching every row
/// as realized objects, saving one changed object many times, an indexed fetch of 1%.
///
/// Each side has a PostgreSQL schema of its own (`ocd_bench_<pid>_…`), dropped at the end. The
/// raw side is postgres-nio's own API on a connection of its own: multi-row `INSERT`s in one
/// transaction, rows decoded into tuples of `Int64`, one `UPDATE` (with the version check a
/// save makes) per save. The sums of every attribute read must agree on both sides.
struct PostgreSQLWorkloads {
    let bench: BenchRun
    let url: URL
    let insertCount: Int
    let readCount: Int
    let saveCount: Int

    init(bench: BenchRun, url: URL) {
        self.bench = bench
        self.url = url
        insertCount = bench.quick ? 5_000 : 50_000
        readCount = bench.quick ? 20_000 : 200_000
        saveCount = bench.quick ? 200 : 1_000
    }

    private var schemaPrefix: String { "ocd_bench_\(ProcessInfo.processInfo.processIdentifier)" }

    /// The store URL with `schema=<prefix>_<name>`.
    private func storeURL(_ name: String) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "schema" } + [URLQueryItem(name: "schema", value: "\(schemaPrefix)_\(name)")]
        return components.url!
    }

    private func destroyStore(_ name: String) throws {
        try NSPersistentStoreCoordinator(managedObjectModel: BenchModel.model).destroyPersistentStore(at: storeURL(name), type: .postgreSQL)
    }

    /// A private-queue context on a new, empty PostgreSQL store named `name`.
    private func freshContext(_ name: String) throws -> NSManagedObjectContext {
        let url = storeURL(name)
        try destroyStore(name)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BenchModel.model)
        try coordinator.addPersistentStore(type: .postgreSQL, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    func run(_ selected: (String) -> Bool) throws {
        print("postgresql: \(url.host ?? "?"):\(url.port ?? 5432), insert \(insertCount), read \(readCount), saves \(saveCount)")
        let raw = try RawPostgres(url: url, schema: "\(schemaPrefix)_raw")
        defer {
            raw.dropSchema()
            for name in ["p1", "read", "p3"] { try? destroyStore(name) }
        }

        // P1: insert N objects with one save (the store sends multi-row INSERTs).
        if selected("P1") {
            try bench.measure("P1_pg_insert_\(insertCount)", ocd: { _ in
                let context = try freshContext("p1")
                return try time { try BenchModel.insertRows(insertCount, into: context) }
            }, raw: { _ in
                try raw.createTable("scratch")
                return try time { try raw.insert(count: insertCount, into: "scratch") }
            })
        }

        let needsReadData = selected("P2") || selected("P4")
        let readContext = try freshContext("read")
        if needsReadData {
            for start in stride(from: 0, to: readCount, by: 50_000) {
                try readContext.performAndWait {
                    for i in start..<min(start + 50_000, readCount) { BenchRow(context: readContext).fill(i) }
                    try readContext.save()
                    readContext.reset()
                }
            }
            try raw.createTable("benchrow")
            try raw.insert(count: readCount, into: "benchrow")
        }

        // P2: fetch every row as realized objects and read every attribute.
        if selected("P2") {
            var ocdSum: Int64 = 0
            try bench.measure("P2_pg_fetch_objects_\(readCount)", ocd: { _ in
                ocdSum = 0
                return try time {
                    try readContext.performAndWait {
                        let request = NSFetchRequest<BenchRow>(entityName: "BenchRow")
                        request.returnsObjectsAsFaults = false
                        for row in try readContext.fetch(request) { ocdSum &+= row.sum }
                        readContext.reset()
                    }
                }
            }, raw: { _ in
                var rawSum: Int64 = 0
                let seconds = try time { rawSum = try raw.scan("benchrow") }
                precondition(ocdSum == rawSum, "P2: checksums differ: \(ocdSum) vs \(rawSum)")
                return seconds
            })
        }

        // P3: many saves of one changed object, each its own transaction.
        if selected("P3") {
            try bench.measure("P3_pg_saves_\(saveCount)", ocd: { _ in
                let context = try freshContext("p3")
                try BenchModel.insertRows(10, into: context)
                return try time { try BenchModel.saveOneRow(times: saveCount, in: context) }
            }, raw: { _ in
                try raw.createTable("scratch")
                try raw.insert(count: 10, into: "scratch")
                return try time { try raw.updateOneRow(in: "scratch", times: saveCount) }
            })
        }

        // P4: indexed predicate fetch of 1% of the rows (a0 = 10 * i).
        if selected("P4") {
            let limit = Int64(readCount / 100 * 10)
            var ocdSum: Int64 = 0
            try bench.measure("P4_pg_indexed_1pct_of_\(readCount)", ocd: { _ in
                var count = 0
                let seconds = try time { (count, ocdSum) = try BenchModel.fetchRows(below: limit, in: readContext) }
                precondition(count == readCount / 100, "P4 returned \(count) rows")
                return seconds
            }, raw: { _ in
                var rawSum: Int64 = 0
                let seconds = try time { rawSum = try raw.scan("benchrow", below: limit) }
                precondition(ocdSum == rawSum, "P4: checksums differ: \(ocdSum) vs \(rawSum)")
                return seconds
            })
        }
    }
}

/// postgres-nio with nothing above it: a connection on an event loop of its own, used through
/// its futures from the benchmark's thread. Its tables mirror ``BenchRow``'s: a key, a version
/// and `a0`…`a9`, `a0` indexed.
final class RawPostgres {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let connection: PostgresConnection
    private let logger = Logger(label: "ocd-bench.raw-postgres")
    private let schema: String

    init(url: URL, schema: String) throws {
        // Where the store connects, PG* variables included.
        let location = try PostgreSQLStoreLocation(url: url)
        let configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        connection = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 2, logger: logger).wait()
        self.schema = schema
        // Schemas of earlier runs that were killed before they could drop them: their process is gone.
        for row in try run("SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'ocd\\_bench\\_%'").rows {
            let name = try row.decode(String.self)
            guard let pid = Int32(name.split(separator: "_").dropFirst(2).first ?? ""), kill(pid, 0) != 0 else { continue }
            try run("DROP SCHEMA IF EXISTS \(name) CASCADE")
        }
        try run("DROP SCHEMA IF EXISTS \(schema) CASCADE")
        try run("CREATE SCHEMA \(schema)")
        try run("SET search_path TO \(schema)")
    }

    @discardableResult
    private func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> PostgresQueryResult {
        try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
    }

    /// A new, empty table `name` (dropped first if it exists).
    func createTable(_ name: String) throws {
        try run("DROP TABLE IF EXISTS \(name)")
        try run("CREATE TABLE \(name) (id bigint PRIMARY KEY, opt bigint NOT NULL, a0 bigint NOT NULL, a1 bigint NOT NULL, a2 bigint NOT NULL, a3 bigint NOT NULL, a4 bigint NOT NULL, a5 bigint NOT NULL, a6 bigint NOT NULL, a7 bigint NOT NULL, a8 bigint NOT NULL, a9 bigint NOT NULL)")
        try run("CREATE INDEX \(name)_a0 ON \(name) (a0)")
    }

    /// Rows `0 ..< count` as ``BenchRow/fill(_:)`` sets them, in one transaction of multi-row
    /// INSERTs of 2,000 rows (24,000 parameters; PostgreSQL allows 65,535).
    func insert(count: Int, into table: String) throws {
        try run("BEGIN")
        for start in stride(from: 0, to: count, by: 2_000) {
            let end = min(start + 2_000, count)
            var binds = PostgresBindings(capacity: (end - start) * 12)
            var tuples: [String] = []
            tuples.reserveCapacity(end - start)
            for i in start..<end {
                let p = (i - start) * 12
                tuples.append("(" + (1...12).map { "$\(p + $0)" }.joined(separator: ",") + ")")
                binds.append(Int64(i + 1))
                binds.append(Int64(1))
                for a in 0..<10 { binds.append(Int64(i * 10 + a)) }
            }
            try run("INSERT INTO \(table) (id, opt, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) VALUES " + tuples.joined(separator: ","), binds)
        }
        try run("COMMIT")
    }

    /// The sum of every attribute of the rows whose `a0` is below `limit` (every row: nil).
    func scan(_ table: String, below limit: Int64? = nil) throws -> Int64 {
        var binds = PostgresBindings()
        var sql = "SELECT id, opt, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 FROM \(table)"
        if let limit {
            sql += " WHERE a0 < $1"
            binds.append(limit)
        }
        var sum: Int64 = 0
        for row in try run(sql, binds).rows {
            let (_, _, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) = try row.decode((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self)
            sum &+= a0 &+ a1 &+ a2 &+ a3 &+ a4 &+ a5 &+ a6 &+ a7 &+ a8 &+ a9
        }
        return sum
    }

    /// `times` autocommitted updates of row 1's `a1`, each checking and raising its version as
    /// a save does.
    func updateOneRow(in table: String, times: Int) throws {
        var version: Int64 = 1
        for i in 0..<times {
            var binds = PostgresBindings(capacity: 3)
            binds.append(Int64(i))
            binds.append(version)
            let rows = try run("UPDATE \(table) SET a1 = $1, opt = opt + 1 WHERE id = 1 AND opt = $2 RETURNING opt", binds).rows
            guard let row = rows.first else { fatalError("P3: the raw row's version moved") }
            version = try row.decode(Int64.self)
        }
    }

    func dropSchema() {
        _ = try? run("DROP SCHEMA IF EXISTS \(schema) CASCADE")
        try? connection.close().wait()
        try? group.syncShutdownGracefully()
    }
}
