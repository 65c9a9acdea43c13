import Foundation
import OpenCoreData

/// Where a PostgreSQL store lives: a server, a user and a database, from the store's URL
/// `postgresql://user[:password]@host[:port]/database`, with what the URL leaves out taken from
/// the standard `PG*` environment variables, then from PostgreSQL's defaults.
///
/// ```swift
/// let location = try PostgreSQLStoreLocation(url: URL(string: "postgresql://app@db.internal/shop")!)
/// location.host       // "db.internal"
/// location.port       // 5432, or PGPORT
/// ```
///
/// As `psql` reads them: `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`. A host left
/// out is `localhost` over TCP (`psql` would use a Unix-domain socket; the store connects over
/// TCP only, and a `PGHOST` naming a socket folder throws). A user the URL
/// and `PGUSER` leave out is `postgres`; a database left out is named after the user. A
/// password belongs in `PGPASSWORD` (or a secret store) rather than in a URL that may be
/// logged; the URL's is accepted, and never printed (``description``).
///
/// For the project's tools (`@_spi(Tooling)`), which connect as the store does; not API.
@_spi(Tooling) public struct PostgreSQLStoreLocation: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String

    /// The location of `url`, completed from `environment` (the process's by default).
    ///
    /// Throws `NSPersistentStoreOpenError` (134080) in `NSCocoaErrorDomain` for a URL that
    /// is not `postgresql://` (or `postgres://`), or whose port is not a number from 1 to 65535.
    public init(url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgresql" || scheme == "postgres" else {
            throw Self.error("The store URL \(Self.withoutPassword(url)) is not a PostgreSQL URL. Write it as postgresql://user@host:port/database.")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw Self.error("The store URL \(Self.withoutPassword(url)) cannot be read. Write it as postgresql://user@host:port/database.")
        }
        func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
        host = nonEmpty(components.host) ?? nonEmpty(environment["PGHOST"]) ?? "localhost"
        guard !host.hasPrefix("/") else {
            throw Self.error("PGHOST is \(host), a Unix-domain socket folder; the PostgreSQL store connects over TCP. Set PGHOST to a host name or address (localhost for a local server).")
        }
        if let port = components.port {
            self.port = port
        } else if let text = nonEmpty(environment["PGPORT"]) {
            guard let port = Int(text) else { throw Self.error("PGPORT is \"\(text)\", not a port number.") }
            self.port = port
        } else {
            port = 5432
        }
        guard (1...65535).contains(port) else { throw Self.error("The port \(port) of the store URL is not a port number (1 to 65535).") }
        user = nonEmpty(components.user) ?? nonEmpty(environment["PGUSER"]) ?? "postgres"
        password = nonEmpty(components.password) ?? nonEmpty(environment["PGPASSWORD"])
        let path = components.path.drop { $0 == "/" }
        database = nonEmpty(String(path)) ?? nonEmpty(environment["PGDATABASE"]) ?? user
    }

    /// The URL without its password.
    public var description: String { "postgresql://\(user)@\(host):\(port)/\(database)" }

    /// `url` as text with its password (if any) left out: error messages may be logged.
    private static func withoutPassword(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil else { return url.absoluteString }
        components.password = nil
        return components.string ?? "(a URL)"
    }

    static func error(_ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreOpenError, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
