import Foundation

// Remote-change notifications (NSPersistentStoreRemoteChangeNotificationPostOptionKey) for the
// SQLite store. Apple's framework tells processes through Darwin notifications, which Linux
// lacks; here each store watches its file instead:
// - inotify on the store's directory wakes the observer when the store file, its `-wal` or its
//   `-journal` is written, created or deleted (an idle store costs no wake-ups);
// - the observer's own read-only connection then asks `PRAGMA data_version`, which changes
//   exactly when another connection — this store's own, another coordinator's, another
//   process's — has committed, so checkpoints and reads post nothing;
// - a write is seen by inotify before its commit is visible (the WAL index is updated through
//   shared memory, which inotify does not report), so the observer checks again 20 ms and
//   100 ms after each wake-up;
// - without inotify (the per-user limit reached) it polls `data_version` every 100 ms.
// Writes by this coordinator are posted too, as Apple's option documents ("every write to the
// store, including writes by other processes").
extension SQLiteStore {
    /// Starts the remote-change observer when the store was added with the option.
    func startRemoteChangeObserver() {
        guard postsRemoteChangeNotifications, !isInMemory, let path = url?.path else { return }
        do {
            let observer = try SQLiteRemoteChangeObserver(path: path, readsHistory: tracksHistory) { [weak self] number in
                self?.postRemoteChange(historyNumber: number)
            }
            lock.lock(); defer { lock.unlock() }
            remoteChangeObserver = observer
        } catch {
            // The store works without notifications; say why there are none.
            FileHandle.standardError.write(Data("OpenCoreData: no remote-change notifications for \(path): \(error)\n".utf8))
        }
    }

    /// Stops the remote-change observer (when the store leaves its coordinator).
    func stopRemoteChangeObserver() {
        lock.lock()
        let observer = remoteChangeObserver
        remoteChangeObserver = nil
        lock.unlock()
        observer?.cancel()
    }
}

/// Watches one SQLite file for commits and reports each change of its `data_version` (with the
/// store's last history transaction number, when it keeps history) on a private queue.
final class SQLiteRemoteChangeObserver: @unchecked Sendable {
    // @unchecked Sendable: everything below `queue` is touched only on `queue`.
    private let queue = DispatchQueue(label: "OpenCoreData.SQLiteStore.remoteChange")
    private var connection: SQLiteConnection?
    private var lastVersion: Int64 = 0
    private var lastTransaction: Int64?
    private var pendingRechecks = 0
    private var watcher: FileChangeWatcher?
    private var pollTimer: DispatchSourceTimer?
    private let readsHistory: Bool
    private let report: @Sendable (Int64?) -> Void

    /// Opens the observer's connection and starts watching; `report` is called on the
    /// observer's queue after each commit it notices. `watchesFiles` false polls (for tests of
    /// the fallback).
    init(path: String, readsHistory: Bool, watchesFiles: Bool = true, report: @escaping @Sendable (Int64?) -> Void) throws {
        self.readsHistory = readsHistory
        self.report = report
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        let connection = try SQLiteConnection(path: path, readOnly: true)
        lastVersion = try Self.dataVersion(connection)
        lastTransaction = readsHistory ? Self.lastTransaction(connection) : nil
        self.connection = connection
        let file = URL(fileURLWithPath: path)
        let name = file.lastPathComponent
        queue.sync {
            watcher = !watchesFiles ? nil : FileChangeWatcher(directory: file.deletingLastPathComponent().path, names: [name, name + "-wal", name + "-journal"], queue: queue) { [weak self] in
                self?.fileChanged()
            }
            if watcher == nil {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
                timer.setEventHandler { [weak self] in self?.check() }
                timer.resume()
                pollTimer = timer
            }
        }
    }

    /// Stops watching and closes the connection; nothing is reported after it returns. Safe to
    /// call from a notification's observer, which runs on the observer's own queue (an app that
    /// removes the store when told it changed).
    func cancel() {
        let stop = {
            self.watcher?.cancel()
            self.watcher = nil
            self.pollTimer?.cancel()
            self.pollTimer = nil
            self.connection?.close()
            self.connection = nil
        }
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { stop() } else { queue.sync(execute: stop) }
    }

    /// Marks `queue`, so that `cancel()` knows when it already runs there.
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    deinit {
        watcher?.cancel()
        pollTimer?.cancel()
    }

    /// Whether the observer is woken by the file system (not polling): for tests and `ocd-bench`.
    var isWatchingFiles: Bool { queue.sync { watcher != nil } }

    private func fileChanged() {
        check()
        // The last commit the events announce may not be visible yet: look again shortly, twice.
        guard pendingRechecks == 0 else { return }
        pendingRechecks = 2
        for delay in [20, 100] {
            queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [weak self] in
                guard let self else { return }
                self.pendingRechecks -= 1
                self.check()
            }
        }
    }

    /// Reports a commit if `data_version` moved since the last check — with history, only a
    /// commit that recorded a transaction: a save also commits on its own when it reserves
    /// primary keys, and that commit has nothing to catch up on.
    private func check() {
        guard let connection, let version = try? Self.dataVersion(connection), version != lastVersion else { return }
        lastVersion = version
        guard readsHistory else { return report(nil) }
        let number = Self.lastTransaction(connection)
        guard number != lastTransaction else { return }
        lastTransaction = number
        report(number)
    }

    private static func dataVersion(_ connection: SQLiteConnection) throws -> Int64 {
        try connection.query("PRAGMA data_version", []) { $0.int64(at: 0) }.first ?? 0
    }

    /// The number of the store's last history transaction (nil before history has a table).
    private static func lastTransaction(_ connection: SQLiteConnection) -> Int64? {
        (try? connection.query("SELECT IFNULL(Z_MAX, 0) FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(SQLiteStore.historyTransactionEntity)]) { $0.int64(at: 0) })?.first
    }
}
