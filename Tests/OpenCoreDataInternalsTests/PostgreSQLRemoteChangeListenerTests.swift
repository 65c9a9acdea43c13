@_spi(PostgreSQLDriver) @testable import OpenCoreData
import Synchronization
import XCTest

/// The remote-change listener's catch-up, against a scripted connection: a save that commits
/// after the `LISTEN` and before the catch-up read is in both, and is posted once.
final class PostgreSQLRemoteChangeListenerTests: XCTestCase {
    /// A connection whose history read delivers a save's `NOTIFY` first, as a save committing
    /// between the `LISTEN` and the read would be delivered; the read then sees that save.
    private final class ScriptedConnection: PostgreSQLDriverConnection {
        let lastNumber: Int64
        let savePayload: String
        private let notification = Mutex<(@Sendable (String) -> Void)?>(nil)
        private let closed = Mutex(false)
        var isClosed: Bool { closed.withLock { $0 } }

        init(lastNumber: Int64, savePayload: String) {
            self.lastNumber = lastNumber
            self.savePayload = savePayload
        }

        func query(_ sql: String, _ values: [PostgreSQLValue]) throws -> [[PostgreSQLValue]] {
            guard sql.contains("Z_PRIMARYKEY") else { return [] }
            deliverForTesting(savePayload)
            return [[.integer(lastNumber)]]
        }

        func listen(_ channel: String, notification: @escaping @Sendable (String) -> Void, closed: @escaping @Sendable () -> Void) throws {
            self.notification.withLock { $0 = notification }
        }

        /// Delivers `payload` as the server delivers a `NOTIFY` to a listening connection.
        func deliverForTesting(_ payload: String) {
            notification.withLock { $0 }?(payload)
        }

        func close() { closed.withLock { $0 = true } }
    }

    private struct ScriptedDriver: PostgreSQLDriver {
        let connection: ScriptedConnection
        func connect(to url: URL) throws -> any PostgreSQLDriverConnection { connection }
    }

    func testASaveCommittedBetweenListenAndTheCatchUpReadIsPostedOnce() throws {
        let settings = try PostgreSQLStore.Settings(url: XCTUnwrap(URL(string: "postgresql://localhost/test")))
        let connection = ScriptedConnection(lastNumber: 5, savePayload: PostgreSQLChangeNotice(historyNumber: 5, saver: "other", records: []).payload)
        let received = Mutex<[String]>([])
        let later = expectation(description: "a later save is posted")
        let listener = PostgreSQLRemoteChangeListener(driver: ScriptedDriver(connection: connection), settings: settings, channel: "OCD_test", historyNumberAtOpen: 4) { notice, posts in
            received.withLock { $0.append("\(notice.historyNumber ?? -1)\(notice.records == nil ? " every record" : "")\(posts ? " posted" : "")") }
            if notice.historyNumber == 6 { later.fulfill() }
        }
        // A save after the catch-up is posted as itself.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            connection.deliverForTesting(PostgreSQLChangeNotice(historyNumber: 6, saver: "other", records: []).payload)
        }
        wait(for: [later], timeout: 10)
        listener.cancel()
        XCTAssertEqual(received.withLock { $0 }, ["5 every record posted", "5", "6 posted"],
                       "the catch-up covers save 5, whose own notification is not posted again but still names its records for the row cache")
    }
}
