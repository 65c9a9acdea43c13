import Foundation
import Synchronization

// Remote-change notifications (NSPersistentStoreRemoteChangeNotificationPostOptionKey) for the
// PostgreSQL store: every save ends with `NOTIFY "OCD_<store UUID>", '<notice>'` (the history
// number and the changed records: ``PostgreSQLChangeNotice``),
// which PostgreSQL delivers at COMMIT to every connection listening on the channel, on any
// server. A coordinator whose store was added with the option keeps one listening connection
// and posts `.NSPersistentStoreRemoteChange` for each notification, its own saves' included
// (as the SQLite store and Apple's option do: "every write to the store").
//
// When the listening connection ends (the server restarted, `pg_terminate_backend`, a
// network failure) the listener reconnects, listens again, and then posts one notification
// with the store's last history number: whatever committed while nobody listened is after
// the token the app processed last, so fetching history after that token catches up on it.
// Its first connection does the same when a save committed between opening the store and the
// first `LISTEN` (a store keeping history: the number it had when opened tells).
//
// Each notification also names the records the save changed (``PostgreSQLChangeNotice``), and
// the listener invalidates the coordinator's cached rows of them before posting, so that a
// fault fired afterwards reads what the other server saved. After a reconnect every cached
// row of the store is invalidated: what changed meanwhile is unknown.
extension PostgreSQLStore {
    func startListening(for coordinator: NSPersistentStoreCoordinator) {
        guard postsRemoteChangeNotifications else { return }
        lock.lock(); defer { lock.unlock() }
        guard let driver = Self.registration.withLock({ $0?.driver }), let url, let identifier,
              let settings = try? urlSettings() else { return }
        remoteChangeListener?.cancel()
        let storeURL = url
        let ownSaver = saverID
        remoteChangeListener = PostgreSQLRemoteChangeListener(driver: driver, settings: settings, channel: notificationChannel, historyNumberAtOpen: historyNumberAtOpen, received: { [weak coordinator, weak self] notice, posts in
            guard let coordinator, let self else { return }
            if notice.saver != ownSaver {
                // A record of an entity this model does not know has no cached row.
                let changed = notice.records.map { records in
                    self.lock.withLock {
                        records.compactMap { record in self.planByNumber(record.entity).map { ($0.origin.objectID(record.key), record.version) } }
                    }
                }
                coordinator.invalidateCachedRows(changed, of: self)
            }
            if posts { Self.postRemoteChange(to: coordinator, historyNumber: notice.historyNumber, url: storeURL, identifier: identifier) }
        })
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
    /// Called with each notice, and whether to post it (false for a save a catch-up posted).
    private let received: @Sendable (PostgreSQLChangeNotice, _ posts: Bool) -> Void
    private var connection: (any PostgreSQLDriverConnection)?
    private var isCancelled = false
    private var hasListened = false
    /// The history number of the last catch-up posted: a notification of a save it covered
    /// (one committed after the `LISTEN` and before the catch-up read) is not posted again.
    private var caughtUpTo: Int64?
    /// The store's history number when it was opened; nil when it keeps no history.
    private let historyNumberAtOpen: Int64?
    /// How long the listener waits before connecting again after a failure.
    static let reconnectDelay: DispatchTimeInterval = .milliseconds(200)

    /// `received` is called on the listener's queue with each notification, and after a
    /// reconnect with one naming every record (saved by nobody) and the last history number —
    /// after the first connection too, when that number moved past `historyNumberAtOpen`. A
    /// notification of a save that catch-up covered comes with `posts` false: its records
    /// still name the versions cached rows must reach, but it was posted already.
    init(driver: any PostgreSQLDriver, settings: PostgreSQLStore.Settings, channel: String, historyNumberAtOpen: Int64?,
         received: @escaping @Sendable (PostgreSQLChangeNotice, _ posts: Bool) -> Void) {
        self.driver = driver
        self.settings = settings
        self.channel = channel
        self.historyNumberAtOpen = historyNumberAtOpen
        self.received = received
        let delay = Self.firstConnectionDelayForTesting.withLock { $0 }
        queue.asyncAfter(deadline: .now() + delay) { self.connect() }
    }

    /// Seconds the first connection waits, so that a test can save before the listener listens.
    static let firstConnectionDelayForTesting = Mutex<Double>(0)

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
                self.queue.async { self.deliver(payload) }
            }, closed: { [weak self] in
                guard let self else { return }
                self.queue.async { self.lost(listened) }
            })
            self.connection = connection
            if hasListened {
                // Catch up: saves may have committed while nobody listened.
                let last = try PostgreSQLStore.lastTransactionNumber(query: connection.query)
                caughtUpTo = last
                received(PostgreSQLChangeNotice(historyNumber: last, saver: "", records: nil), true)
            } else if let opened = historyNumberAtOpen, let last = try PostgreSQLStore.lastTransactionNumber(query: connection.query), last > opened {
                // Saves committed between opening the store and listening.
                caughtUpTo = last
                received(PostgreSQLChangeNotice(historyNumber: last, saver: "", records: nil), true)
            }
            hasListened = true
        } catch {
            connection?.close()
            connection = nil
            queue.asyncAfter(deadline: .now() + Self.reconnectDelay) { self.connect() }
        }
    }

    private func deliver(_ payload: String) {
        guard !isCancelled else { return }
        let notice = PostgreSQLChangeNotice(payload: payload)
        // Delivered after the catch-up (both run on `queue`, the catch-up first), which was
        // posted for it; its records still go to the row cache, which the catch-up's "every
        // record" does not tell which versions are stale.
        if let number = notice.historyNumber, let caughtUpTo, number <= caughtUpTo {
            received(notice, false)
        } else {
            received(notice, true)
        }
    }

    private func lost(_ closed: ObjectIdentifier) {
        guard !isCancelled, let current = connection, ObjectIdentifier(current) == closed else { return }
        connection = nil
        hasListened = true
        queue.asyncAfter(deadline: .now() + Self.reconnectDelay) { self.connect() }
    }
}

/// What a save's `NOTIFY` says: `<history number>;<saver>;<records>`. The history number is
/// empty when the store keeps no history; the saver is the saving store's ``PostgreSQLStore/saverID``
/// (a listener ignores its own coordinator's saves, whose rows its cache has); the records are
/// the updated, deleted and locked ones as `<entity number>.<primary key>.<version>` separated
/// by spaces — the version the save left, the largest integer for a deleted record — or `*`
/// when they would not fit in PostgreSQL's 8,000-byte payload.
struct PostgreSQLChangeNotice: Sendable, Equatable {
    var historyNumber: Int64?
    var saver: String
    /// nil: possibly every record.
    var records: [Record]?

    struct Record: Sendable, Equatable {
        var entity: Int
        var key: Int64
        /// The first version that is current: rows of older versions are stale.
        var version: Int64
    }

    /// The most bytes of records a payload carries; PostgreSQL refuses payloads of 8,000.
    static let recordBytesLimit = 7_800

    init(historyNumber: Int64?, saver: String, records: [Record]?) {
        self.historyNumber = historyNumber
        self.saver = saver
        self.records = records
    }

    /// The notice of `payload`; a payload it cannot read (a server of an earlier version sends
    /// only the number) names every record.
    init(payload: String) {
        let fields = payload.split(separator: ";", maxSplits: 2, omittingEmptySubsequences: false)
        historyNumber = fields.first.flatMap { Int64($0) }
        saver = fields.count == 3 ? String(fields[1]) : ""
        guard fields.count == 3, fields[2] != "*" else { records = nil; return }
        var records: [Record] = []
        for item in fields[2].split(separator: " ") {
            let parts = item.split(separator: ".")
            guard parts.count == 3, let entity = Int(parts[0]), let key = Int64(parts[1]), let version = Int64(parts[2]) else { self.records = nil; return }
            records.append(Record(entity: entity, key: key, version: version))
        }
        self.records = records
    }

    /// The `NOTIFY` payload: only digits, letters and `; . *`, so it needs no quoting.
    var payload: String {
        var text = "\(historyNumber.map(String.init) ?? "");\(saver);"
        guard let records else { return text + "*" }
        let start = text.utf8.count
        for (i, record) in records.enumerated() {
            text += (i == 0 ? "" : " ") + "\(record.entity).\(record.key).\(record.version)"
            if text.utf8.count - start > Self.recordBytesLimit { return String(text.utf8.prefix(start))! + "*" }
        }
        return text
    }
}
