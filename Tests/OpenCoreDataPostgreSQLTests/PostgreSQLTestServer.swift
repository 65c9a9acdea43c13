import Foundation
import OpenCoreData
@_spi(Tooling) @testable import OpenCoreDataPostgreSQL
import XCTest

// The test server every PostgreSQL test uses: `OCD_POSTGRESQL_URL`, which
// `Scripts/postgresql-test-cluster start` prints (CI always starts one, and fails on a skipped
// test).
extension XCTestCase {
    /// The test server's URL; skips the test when there is none.
    func testServerURL() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["OCD_POSTGRESQL_URL"], let url = URL(string: text) else {
            throw XCTSkip("No PostgreSQL server: run `eval \"$(Scripts/postgresql-test-cluster start)\"` first.")
        }
        return url
    }

    /// A store URL naming a new PostgreSQL schema `<prefix>_<8 hex digits>` on the test server,
    /// so that tests never share a store; the schema is dropped (`destroyPersistentStore`) when
    /// the test ends, whether or not a store was made in it.
    func newTestStoreURL(prefix: String) throws -> URL {
        var components = URLComponents(url: try testServerURL(), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "schema", value: "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())")]
        let url = components.url!
        addTeardownBlock {
            try NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel()).destroyPersistentStore(at: url, ofType: OCDPostgreSQLStoreType)
        }
        return url
    }

    /// A connection of the test's own to the test server (another session, as a database
    /// administrator or another program would have), closed when the test ends.
    func testServerConnection() throws -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection.connect(to: PostgreSQLStoreLocation(url: try testServerURL(), environment: [:]))
        addTeardownBlock { connection.close() }
        return connection
    }
}
