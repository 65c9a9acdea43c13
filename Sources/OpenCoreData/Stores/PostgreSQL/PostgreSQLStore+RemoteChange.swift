import Foundation

// Remote-change notifications (NSPersistentStoreRemoteChangeNotificationPostOptionKey) for the
// PostgreSQL store: every save ends with `NOTIFY "OCD_<store UUID>", '<history number>'`,
// which PostgreSQL delivers at COMMIT to every connection listening on the channel, on any
// server. A coordinator whose store was added with the option keeps one listening connection
// and posts `.NSPersistentStoreRemoteChange` for each notification, its own saves' included
// (as the SQLite store and Apple's option do: "every write to the store").
//
// When the listening connection ends (the server restarted, `pg_terminate_backend`, a
// network failure) the listener reconnects, listens again, and then posts one notification
// with the store's last history number: whatever committed while nobody listened is after
// the token the app processed last, so fetching history after that token catches up on it.
extension PostgreSQLStore {
    func startListening(for coordinator: NSPersistentStoreCoordinator) {
        guard postsRemoteChangeNotifications else { return }
        lock.lock(); defer { lock.unlock() }
        guard let driver = Self.registration.withLock({ $0?.driver }), let url, let identifier,
              let settings = try? urlSettings() else { return }
        remoteChangeListener?.cancel()
        let storeURL = url
        remoteChangeListener = PostgreSQLRemoteChangeListener(driver: driver, settings: settings, channel: notificationChannel) { [weak coordinator] number in
            guard let coordinator else { return }
            Self.postRemoteChange(to: coordinator, historyNumber: number, url: storeURL, identifier: identifier)
        }
    }

    func stopListeningAndDisconnect() {
        lock.lock(); defer { lock.unlock() }
        remoteChangeListener?.cancel()
        remoteChangeListener = nil
        if isInTransaction { _ = try? query("ROLLBACK") }
        isInTransaction = false
        connection?.close()
        connection = nil
    }
}

/// One listening connection of a coordinator's PostgreSQL store: posts a remote change for each
/// `NOTIFY` of the store's channel, and reconnects when the connection ends. Everything runs on
/// its private queue.
final class PostgreSQLRemoteChangeListener: @unchecked Sendable {
    // @unchecked Sendable: `connection`, `isCancelled` and `hasListened` are used on `queue` only.
    private let queue = DispatchQueue(label: "OpenCoreData.PostgreSQLRemoteChange")
    private let driver: any PostgreSQLDriver
    private let settings: PostgreSQLStore.Settings
    private let channel: String
    private let post: @Sendable (_ historyNumber: Int64?) -> Void
    private var connection: (any PostgreSQLDriverConnection)?
    private var isCancelled = false
    private var hasListened = false
    /// How long the listener waits before connecting again after a failure.
    static let reconnectDelay: DispatchTimeInterval = .milliseconds(200)

    init(driver: any PostgreSQLDriver, settings: PostgreSQLStore.Settings, channel: String, post: @escaping @Sendable (Int64?) -> Void) {
        self.driver = driver
        self.settings = settings
        self.channel = channel
        self.post = post
        queue.async { self.connect() }
    }

    /// Stops listening; never waits (a notification's observers may hold locks the caller needs).
    func cancel() {
        queue.async {
            self.isCancelled = true
            self.connection?.close()
            self.connection = nil
        }
    }

    private func connect() {
        guard !isCancelled, connection == nil else { return }
        do {
            let connection = try driver.connect(to: settings.serverURL)
            _ = try connection.query("SET application_name = 'OpenCoreData remote-change listener'", [])
            if let schema = settings.schemaName { _ = try connection.query("SET search_path TO \(StoreSchema.quoted(schema))", []) }
            let listened = ObjectIdentifier(connection)
            try connection.listen(channel, notification: { [weak self] payload in
                guard let self else { return }
                self.queue.async { self.received(payload) }
            }, closed: { [weak self] in
                guard let self else { return }
                self.queue.async { self.lost(listened) }
            })
            self.connection = connection
            if hasListened {
                // Catch up: saves may have committed while nobody listened.
                post(try lastHistoryNumber(on: connection))
            }
            hasListened = true
        } catch {
            connection?.close()
            connection = nil
            queue.asyncAfter(deadline: .now() + Self.reconnectDelay) { self.connect() }
        }
    }

    private func received(_ payload: String) {
        guard !isCancelled else { return }
        post(Int64(payload))
    }

    private func lost(_ closed: ObjectIdentifier) {
        guard !isCancelled, let current = connection, ObjectIdentifier(current) == closed else { return }
        connection = nil
        hasListened = true
        queue.asyncAfter(deadline: .now() + Self.reconnectDelay) { self.connect() }
    }

    /// The store's last history transaction number; nil when it keeps no history.
    private func lastHistoryNumber(on connection: any PostgreSQLDriverConnection) throws -> Int64? {
        let rows = try connection.query("SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = $1", [.integer(PostgreSQLStore.historyTransactionEntity)])
        if case .integer(let number)? = rows.first?.first { return number }
        return nil
    }
}
