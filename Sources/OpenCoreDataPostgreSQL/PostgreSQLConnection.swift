import Foundation
import Logging
import NIOCore
import NIOPosix
@_spi(PostgreSQLDriver) import OpenCoreData
import PostgresNIO

/// One connection to a PostgreSQL server, used synchronously: Core Data's API is synchronous on
/// a context's queue, and postgres-nio's is asynchronous on SwiftNIO event loops.
///
/// ```swift
/// let connection = try PostgreSQLConnection.connect(to: location)
/// let rows = try connection.query("SELECT Z_PK, ZNAME FROM ZEMPLOYEE WHERE Z_PK = $1", [.integer(7)])
/// connection.close()
/// ```
///
/// **Never blocking an event loop.** The connections run on the store's own event loop thread
/// (``eventLoops``), which nothing else in the process uses, and a call waits for its answer on
/// the calling thread — a context's queue, never an event loop. A call made on a SwiftNIO event
/// loop thread (`NIOPosix`'s, which Vapor's and Hummingbird's request handlers run on) throws
/// instead of waiting, because
/// waiting there would stall every other connection of that loop, or deadlock if the answer had
/// to come through it. Such code reaches the store through `await context.perform { ... }`,
/// which runs on the context's queue.
///
/// Errors are `NSError`s in `NSCocoaErrorDomain`: `NSPersistentStoreOpenError` (134080) when the
/// server cannot be reached or refuses the login, `NSPersistentStoreOperationError` (134070) when
/// a statement fails; the server's message and SQLSTATE are in the description and in
/// ``sqlStateKey``.
final class PostgreSQLConnection: PostgreSQLDriverConnection {
    /// The event loop group of every PostgreSQL store of the process: one thread, private to
    /// the stores, so that their waits never hold up a loop the app serves requests on.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// The `userInfo` key of a failed statement's SQLSTATE (`"23505"`: unique violation).
    static let sqlStateKey = OCDPostgreSQLSQLStateKey

    private static let logger = Logger(label: "OpenCoreDataPostgreSQL")
    private let connection: PostgresConnection
    let location: PostgreSQLStoreLocation

    private init(connection: PostgresConnection, location: PostgreSQLStoreLocation) {
        self.connection = connection
        self.location = location
        let pending = self.pending
        connection.closeFuture.whenComplete { _ in pending.close() }
    }

    /// Connects to `location`'s server and database, waiting at most `timeout` seconds.
    static func connect(to location: PostgreSQLStoreLocation, timeout: TimeInterval = 10) throws -> PostgreSQLConnection {
        try refuseOnEventLoop("connect to \(location)")
        var configuration = PostgresConnection.Configuration(host: location.host, port: location.port, username: location.user,
                                                             password: location.password, database: location.database, tls: .disable)
        configuration.options.connectTimeout = .milliseconds(Int64(timeout * 1000))
        let future = PostgresConnection.connect(on: eventLoops.next(), configuration: configuration, id: 1, logger: logger)
        do {
            return PostgreSQLConnection(connection: try future.wait(), location: location)
        } catch {
            throw Self.error(NSPersistentStoreOpenError, "Cannot connect to the PostgreSQL store at \(location)", error)
        }
    }

    /// Runs `sql` with `$1`, `$2`, ... bound to `values` and returns every row's values.
    @discardableResult
    func query(_ sql: String, _ values: [PostgreSQLValue] = []) throws -> [[PostgreSQLValue]] {
        try Self.refuseOnEventLoop("run a query on \(location)")
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { value.bind(to: &bindings) }
        let result: PostgresQueryResult
        do {
            guard !connection.isClosed else { throw ConnectionClosed() }
            result = try waitUnlessClosed(connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: Self.logger))
        } catch {
            // postgres-nio fails the waiting query before it closes the channel: say it now.
            if Self.endsConnection(error) { pending.close() }
            throw Self.error(NSPersistentStoreOperationError, "The PostgreSQL store at \(location) failed to run \(sql)", error)
        }
        var rows: [[PostgreSQLValue]] = []
        for row in result.rows {
            rows.append(try row.map(PostgreSQLValue.init(cell:)))
        }
        return rows
    }

    /// Whether `error` of a query means the connection is gone or unusable: everything but the
    /// server's refusal of the statement (or its cancellation, or too many parameters), after
    /// which the connection runs the next one.
    private static func endsConnection(_ error: any Error) -> Bool {
        guard let psql = error as? PSQLError else { return true }
        return ![PSQLError.Code.server, .queryCancelled, .tooManyParameters].contains(psql.code)
    }

    /// Whether the connection ended (postgres-nio saw its channel close, a query failed with
    /// the connection, or the close callback ran).
    var isClosed: Bool { connection.isClosed || pending.hasClosed }

    /// Delivers the payloads of `NOTIFY` on `channel` to `notification` and reports the
    /// connection's end to `closed`, both on the store's event loop (see
    /// `PostgreSQLDriverConnection.listen`).
    func listen(_ channel: String, notification: @escaping @Sendable (String) -> Void, closed: @escaping @Sendable () -> Void) throws {
        connection.addListener(channel: channel) { _, message in notification(message.payload) }
        connection.closeFuture.whenComplete { _ in closed() }
        // postgres-nio sends its own LISTEN; this one returns only once the server listens.
        try query("LISTEN \"\(channel.replacingOccurrences(of: "\"", with: "\"\""))\"")
    }

    /// The connection ended (the server terminated it, the network failed, `close()`).
    struct ConnectionClosed: Error, CustomStringConvertible {
        var description: String { "the connection to the server was closed" }
    }

    /// `future`'s value, or ``ConnectionClosed`` as soon as the connection ends first: a query
    /// sent as the server terminates the connection may otherwise never complete (the
    /// terminated-connection test hung on one). The one close callback of the connection
    /// (``pending``) fails the waiting promise; a callback per query would keep every result
    /// alive until the connection closes.
    private func waitUnlessClosed<Value: Sendable>(_ future: EventLoopFuture<Value>) throws -> Value {
        let promise = future.eventLoop.makePromise(of: Value.self)
        let failure: @Sendable () -> Void = { promise.fail(ConnectionClosed()) }
        let pending = self.pending
        guard pending.begin(failure) else {
            // Closed already: a promise left incomplete is a leak SwiftNIO traps on.
            failure()
            throw ConnectionClosed()
        }
        future.whenComplete { result in
            if pending.end() { promise.completeWith(result) }
        }
        return try promise.futureResult.wait()
    }

    /// The failure of the query being waited for, which the connection's close callback
    /// calls; at most one, as the store calls a connection from one thread at a time.
    private final class PendingQuery: @unchecked Sendable {
        // @unchecked Sendable: both properties are guarded by `lock`.
        private let lock = NSLock()
        private var failure: (@Sendable () -> Void)?
        private var isClosed = false
        /// Registers the waiting query's failure; false when the connection has closed.
        func begin(_ failure: @escaping @Sendable () -> Void) -> Bool {
            lock.withLock {
                guard !isClosed else { return false }
                self.failure = failure
                return true
            }
        }
        /// Whether the connection's close callback has run.
        var hasClosed: Bool { lock.withLock { isClosed } }
        /// The query completed: true unless the close callback failed it first.
        func end() -> Bool { lock.withLock { defer { failure = nil }; return failure != nil } }
        /// The connection closed: fails the waiting query, if any.
        func close() {
            let waiting = lock.withLock { () -> (@Sendable () -> Void)? in
                isClosed = true
                defer { failure = nil }
                return failure
            }
            waiting?()
        }
    }
    private let pending = PendingQuery()

    /// Closes the connection: waits for the socket to close, or on an event loop thread keeps
    /// the connection alive until it has (postgres-nio requires a connection to be closed
    /// before it is freed). Closing twice does nothing more.
    func close() {
        let connection = self.connection
        if Self.isOnEventLoop {
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        } else {
            try? connection.close().wait()
        }
    }

    deinit { close() }

    /// Whether this thread is a SwiftNIO event loop's (`NIOPosix`'s), where waiting blocks the loop.
    private static var isOnEventLoop: Bool { MultiThreadedEventLoopGroup.currentEventLoop != nil }

    /// Throws when called on a SwiftNIO event loop thread, where waiting would block the loop.
    private static func refuseOnEventLoop(_ what: String) throws {
        guard isOnEventLoop else { return }
        throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError, userInfo: [
            NSLocalizedDescriptionKey: "Cannot \(what) from a SwiftNIO event loop thread: the call would block the loop. Call the context from its own queue, with `await context.perform { ... }`.",
        ])
    }

    /// `error` (postgres-nio's) as an `NSError` with `code`, the server's message and SQLSTATE.
    private static func error(_ code: Int, _ message: String, _ error: any Error) -> NSError {
        var userInfo: [String: Any] = [NSUnderlyingErrorKey: error]
        var detail = String(describing: error)
        if let psql = error as? PSQLError {
            if let info = psql.serverInfo {
                detail = [info[.message], info[.detail], info[.hint]].compactMap { $0 }.joined(separator: " ")
                userInfo[sqlStateKey] = info[.sqlState]
            } else {
                detail = psql.underlying.map { "\(psql.code): \($0)" } ?? "\(psql.code)"
            }
        }
        userInfo[NSLocalizedDescriptionKey] = "\(message): \(detail)"
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: userInfo)
    }
}
