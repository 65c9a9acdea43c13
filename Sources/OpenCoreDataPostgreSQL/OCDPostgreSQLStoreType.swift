import Foundation
@_spi(PostgreSQLDriver) import OpenCoreData

/// The PostgreSQL store's type, for `addPersistentStore(ofType:configurationName:at:options:)`:
/// Core Data's tables in a PostgreSQL database that several app servers share.
///
/// ```swift
/// import OpenCoreDataPostgreSQL
///
/// let url = URL(string: "postgresql://app@db.internal:5432/shop")!
/// try coordinator.addPersistentStore(ofType: OCDPostgreSQLStoreType, configurationName: nil, at: url)
/// ```
///
/// Naming it registers the store with every coordinator (Swift runs no code when a module is
/// imported; a global constant is made the first time it is read). The URL and what the store
/// does are in `docs/POSTGRESQL.md`.
public let OCDPostgreSQLStoreType: String = {
    registerPostgreSQLStore(storeType: "PostgreSQL", driver: PostgresNIODriver())
    return "PostgreSQL"
}()

extension NSPersistentStore.StoreType {
    /// The PostgreSQL store (``OCDPostgreSQLStoreType``).
    public static var postgreSQL: NSPersistentStore.StoreType { NSPersistentStore.StoreType(rawValue: OCDPostgreSQLStoreType) }
}

/// The store's connections, on postgres-nio (``PostgreSQLConnection``).
struct PostgresNIODriver: PostgreSQLDriver {
    func connect(to url: URL) throws -> any PostgreSQLDriverConnection {
        try PostgreSQLConnection.connect(to: PostgreSQLStoreLocation(url: url))
    }
}
