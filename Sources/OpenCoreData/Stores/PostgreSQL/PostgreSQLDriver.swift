import Foundation

/// What the PostgreSQL store needs from a PostgreSQL client: connections that run one
/// statement at a time and wait for the answer. `OpenCoreDataPostgreSQL` implements it on
/// postgres-nio and registers it (``registerPostgreSQLStore(storeType:driver:)``) the first time
/// a program names `OCDPostgreSQLStoreType`; the store itself lives here, beside the SQLite
/// store, so that both share Core Data's table layout (`StoreSchema`) and the core library
/// builds without SwiftNIO.
///
/// ```swift
/// struct MyDriver: PostgreSQLDriver {
///     func connect(to url: URL) throws -> any PostgreSQLDriverConnection { ... }
/// }
/// registerPostgreSQLStore(storeType: "PostgreSQL", driver: MyDriver())
/// ```
///
/// Not API for applications (`@_spi(PostgreSQLDriver)`): the one driver is the product's.
@_spi(PostgreSQLDriver)
public protocol PostgreSQLDriver: Sendable {
    /// A connection to the database `url` names (`postgresql://user@host:port/database`; the
    /// store has removed its own query items). Throws `NSPersistentStoreOpenError` (134080)
    /// when the server cannot be reached or refuses.
    func connect(to url: URL) throws -> any PostgreSQLDriverConnection
}

/// One connection of a ``PostgreSQLDriver``: statements run in order, each waiting for its
/// result on the calling thread. The store calls one connection from one thread at a time.
@_spi(PostgreSQLDriver)
public protocol PostgreSQLDriverConnection: AnyObject, Sendable {
    /// Runs `sql` with `$1`, `$2`, ... bound to `values` and returns every row's values.
    /// Throws `NSPersistentStoreOperationError` (134070) when the statement fails (with the
    /// server's SQLSTATE under ``OCDPostgreSQLSQLStateKey``), when its result cannot be read,
    /// or when the connection is lost (then ``isClosed`` is true).
    func query(_ sql: String, _ values: [PostgreSQLValue]) throws -> [[PostgreSQLValue]]
    /// Whether the connection has ended. After a query threw: true when the connection was
    /// lost (the statement may or may not have run), false when the statement failed and the
    /// connection can run the next one.
    var isClosed: Bool { get }
    /// Starts delivering the payloads of `NOTIFY` on `channel` (an unquoted identifier) to
    /// `notification`, and calls `closed` once when the connection ends, for whatever reason
    /// (the server terminated it, the network failed, ``close()``). Returns once the server
    /// listens: a `NOTIFY` committed after the call is delivered. Both closures run on the
    /// driver's own thread: hand the work on, never wait there.
    func listen(_ channel: String, notification: @escaping @Sendable (String) -> Void, closed: @escaping @Sendable () -> Void) throws
    /// Closes the connection; later queries throw.
    func close()
}

/// The `userInfo` key of a failed PostgreSQL statement's SQLSTATE (`"23505"`: unique violation).
public let OCDPostgreSQLSQLStateKey = "OCDPostgreSQLSQLState"

/// A value sent to or read from PostgreSQL: the column types the store creates.
///
/// Integers of every width read as ``integer(_:)``, `real` and `double precision` as
/// ``double(_:)``, `text`, `varchar` and `name` as ``text(_:)``, `bytea` as ``bytes(_:)``. The
/// store reads `numeric` and `uuid` columns as text (it casts them in its SELECT lists) and
/// writes them from text (`$1::numeric`).
@_spi(PostgreSQLDriver)
public enum PostgreSQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case text(String)
    case bytes(Data)
}

/// Makes the PostgreSQL store available as `storeType`, talking to servers through `driver`.
/// Registering again replaces the driver.
@_spi(PostgreSQLDriver)
public func registerPostgreSQLStore(storeType: String, driver: any PostgreSQLDriver) {
    PostgreSQLStore.registration.withLock { $0 = (storeType, driver) }
    NSPersistentStoreCoordinator.registerStoreClass(PostgreSQLStore.self, forStoreType: storeType)
}
