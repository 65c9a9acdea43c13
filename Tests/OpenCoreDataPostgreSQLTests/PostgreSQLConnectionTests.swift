import Foundation
import NIOCore
import NIOPosix
@_spi(PostgreSQLDriver) import OpenCoreData
@_spi(Tooling) @testable import OpenCoreDataPostgreSQL
import XCTest

/// The PostgreSQL store's connection to its server: where the store URL points, values both
/// ways, errors as Core Data's, and never blocking an event loop. Against a real server, which
/// `Scripts/postgresql-test-cluster start` starts (CI always does; a test without one is skipped,
/// and CI fails on a skipped test).
final class PostgreSQLConnectionTests: XCTestCase {
    /// The test server's location, from `OCD_POSTGRESQL_URL`.
    private func serverLocation() throws -> PostgreSQLStoreLocation {
        guard let text = ProcessInfo.processInfo.environment["OCD_POSTGRESQL_URL"], let url = URL(string: text) else {
            throw XCTSkip("No PostgreSQL server: run `eval \"$(Scripts/postgresql-test-cluster start)\"` first.")
        }
        return try PostgreSQLStoreLocation(url: url, environment: [:])
    }

    private func connect() throws -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection.connect(to: try serverLocation())
        addTeardownBlock { connection.close() }
        return connection
    }

    // MARK: The store URL

    func testTheStoreURLNamesServerUserAndDatabase() throws {
        let location = try PostgreSQLStoreLocation(url: URL(string: "postgresql://app:secret@db.internal:6543/shop")!, environment: [:])
        XCTAssertEqual(location.host, "db.internal")
        XCTAssertEqual(location.port, 6543)
        XCTAssertEqual(location.user, "app")
        XCTAssertEqual(location.password, "secret")
        XCTAssertEqual(location.database, "shop")
        XCTAssertEqual(location.description, "postgresql://app@db.internal:6543/shop", "the password is never printed")
    }

    func testWhatTheURLLeavesOutComesFromThePGVariablesThenTheDefaults() throws {
        let environment = ["PGHOST": "pg.example", "PGPORT": "5433", "PGUSER": "svc", "PGPASSWORD": "pw", "PGDATABASE": "orders"]
        let filled = try PostgreSQLStoreLocation(url: URL(string: "postgresql://")!, environment: environment)
        XCTAssertEqual(filled, try PostgreSQLStoreLocation(url: URL(string: "postgresql://svc:pw@pg.example:5433/orders")!, environment: [:]))
        let url = try PostgreSQLStoreLocation(url: URL(string: "postgres://me@here/db")!, environment: environment)
        XCTAssertEqual([url.host, url.user, url.database], ["here", "me", "db"], "the URL's parts win")
        XCTAssertEqual(url.port, 5433)
        let defaults = try PostgreSQLStoreLocation(url: URL(string: "postgresql://")!, environment: [:])
        XCTAssertEqual(defaults, try PostgreSQLStoreLocation(url: URL(string: "postgresql://postgres@localhost:5432/postgres")!, environment: [:]))
        XCTAssertNil(defaults.password)
        let namedAfterUser = try PostgreSQLStoreLocation(url: URL(string: "postgresql://alice@localhost")!, environment: [:])
        XCTAssertEqual(namedAfterUser.database, "alice", "as psql does, the database is named after the user")
    }

    func testErrorsAboutTheURLNeverShowItsPassword() {
        XCTAssertThrowsError(try PostgreSQLStoreLocation(url: URL(string: "postgre://app:secret@db/shop")!, environment: [:])) { error in
            XCTAssertFalse((error as NSError).localizedDescription.contains("secret"), (error as NSError).localizedDescription)
            XCTAssertTrue((error as NSError).localizedDescription.contains("app@db/shop"), (error as NSError).localizedDescription)
        }
    }

    func testASocketFolderAsPGHOSTThrowsTheOpenError() {
        XCTAssertThrowsError(try PostgreSQLStoreLocation(url: URL(string: "postgresql:///shop")!, environment: ["PGHOST": "/var/run/postgresql"])) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreOpenError)
        }
    }

    func testAURLOfAnotherKindOrABadPortThrowsTheOpenError() {
        for (text, environment) in [("file:///tmp/store.sqlite", [:]), ("postgresql://host:0/db", [:]),
                                    ("postgresql://host/db", ["PGPORT": "fifty"])] as [(String, [String: String])] {
            XCTAssertThrowsError(try PostgreSQLStoreLocation(url: URL(string: text)!, environment: environment), text) { error in
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
                XCTAssertEqual((error as NSError).code, NSPersistentStoreOpenError, text)
            }
        }
    }

    // MARK: Values

    func testEveryValueKindMakesTheRoundTrip() throws {
        let connection = try connect()
        let values: [PostgreSQLValue] = [.integer(-9_007_199_254_740_993), .double(2.5), .bool(true), .text("Zoë — ünïcode"),
                                         .bytes(Data([0, 1, 2, 255])), .null]
        let rows = try connection.query("SELECT $1::bigint, $2::float8, $3::bool, $4::text, $5::bytea, $6::text", values)
        XCTAssertEqual(rows, [values])
        XCTAssertEqual(try connection.query("SELECT 7::int2, 8::int4, 1.5::float4, 'x'::varchar"),
                       [[.integer(7), .integer(8), .double(1.5), .text("x")]], "narrower columns read as the store's kinds")
    }

    func testAColumnTypeTheStoreDoesNotReadThrowsNamingIt() throws {
        let connection = try connect()
        XCTAssertThrowsError(try connection.query("SELECT now() AS stamp")) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreOperationError)
            XCTAssertTrue((error as NSError).localizedDescription.contains("stamp"), (error as NSError).localizedDescription)
        }
    }

    // MARK: Errors

    func testAFailingStatementThrowsTheOperationErrorWithTheServersMessageAndState() throws {
        let connection = try connect()
        XCTAssertThrowsError(try connection.query("SELEC 1")) { error in
            let error = error as NSError
            XCTAssertEqual(error.domain, NSCocoaErrorDomain)
            XCTAssertEqual(error.code, NSPersistentStoreOperationError)
            XCTAssertEqual(error.userInfo[PostgreSQLConnection.sqlStateKey] as? String, "42601", "syntax_error")
            XCTAssertTrue(error.localizedDescription.contains("syntax error"), "the server's message: \(error.localizedDescription)")
        }
        try connection.query("CREATE TEMPORARY TABLE unique_names (name text UNIQUE)")
        try connection.query("INSERT INTO unique_names VALUES ($1)", [.text("a")])
        XCTAssertThrowsError(try connection.query("INSERT INTO unique_names VALUES ($1)", [.text("a")])) { error in
            XCTAssertEqual((error as NSError).userInfo[PostgreSQLConnection.sqlStateKey] as? String, "23505", "unique_violation")
        }
        XCTAssertEqual(try connection.query("SELECT count(*) FROM unique_names"), [[.integer(1)]], "the connection goes on after an error")
    }

    func testAServerThatIsNotThereOrADatabaseThatIsNotThrowsTheOpenError() throws {
        var location = try serverLocation()
        location.database = "no_such_database_\(UInt32.random(in: 0 ... .max))"
        XCTAssertThrowsError(try PostgreSQLConnection.connect(to: location)) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreOpenError)
            XCTAssertEqual((error as NSError).userInfo[PostgreSQLConnection.sqlStateKey] as? String, "3D000", "the server's invalid_catalog_name")
        }
        // A port nothing listens on: one a listener had, closed again.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let listener = try ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).wait()
        let port = try XCTUnwrap(listener.localAddress?.port)
        try listener.close().wait()
        location = try serverLocation()
        location.port = port
        let started = Date()
        XCTAssertThrowsError(try PostgreSQLConnection.connect(to: location, timeout: 5)) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreOpenError)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "a refused connection fails at once")
    }

    func testAConnectionLetGoWithoutClosingClosesItself() throws {
        // postgres-nio stops a debug build when a connection is freed open.
        for _ in 0..<3 { _ = try PostgreSQLConnection.connect(to: try serverLocation()) }
        XCTAssertEqual(try connect().query("SELECT 1"), [[.integer(1)]])
    }

    // MARK: Event loops

    func testACallOnAnEventLoopThreadThrowsInsteadOfBlockingTheLoop() throws {
        let location = try serverLocation()
        let connection = try connect()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let outcomes = try group.next().submit { () -> [Int] in
            var codes: [Int] = []
            do { _ = try PostgreSQLConnection.connect(to: location) } catch { codes.append((error as NSError).code) }
            do { try connection.query("SELECT 1") } catch { codes.append((error as NSError).code) }
            return codes
        }.wait()
        XCTAssertEqual(outcomes, [NSPersistentStoreOperationError, NSPersistentStoreOperationError])
        XCTAssertEqual(try connection.query("SELECT 1"), [[.integer(1)]], "off the loop, the same connection works")
    }

    func testAQueryWaitingForTheServerDoesNotHoldUpTheStoresOtherConnections() throws {
        let slow = try connect(), quick = try connect()
        let slowDone = expectation(description: "the slow query returned")
        let started = Date()
        DispatchQueue.global().async {
            _ = try? slow.query("SELECT pg_sleep(1)")
            slowDone.fulfill()
        }
        usleep(100_000)  // the slow query is on its way
        XCTAssertEqual(try quick.query("SELECT 1"), [[.integer(1)]])
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.8, "the other connection answered while the first one waited")
        wait(for: [slowDone], timeout: 10)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1)
    }
}
