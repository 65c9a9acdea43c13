import Foundation
import Synchronization

// Remote-change notifications (NSPersistentStoreRemoteChangeNotificationPostOptionKey) for the
// SQLite store. Apple's framework tells processes through Darwin notifications, which Linux
// lacks; here each store watches its file instead:
// - inotify on the store's directory wakes the observer when the store file, its `-wal` or its
//   `-journal` is written, created or deleted (an idle store costs no wake-ups);
// - the observer's own read-only connection then asks `PRAGMA data_version`, which changes
//   exactly when another connection — this store's own, another coordinator's, another
//   process's — has committed, so checkpoints and reads post nothing;
// - a write is seen by inotify before its commit is visible (the WAL index is updated through
//   shared memory, which inotify does not report), so the observer checks again 2 ms, 20 ms,
//   100 ms, 500 ms and 2 s after the last wake-up (each event starts the series again);
// - when inotify reports lost events (its queue overflowed), that counts as a change;
// - without inotify (the per-user limit reached), or when the watch ends (its file system
//   unmounted), it polls `data_version` every 100 ms.
// Writes by this coordinator are posted too, as Apple's option documents ("every write to the
// store, including writes by other processes").
extension SQLiteStore {
    /// Starts the remote-change observer when the store was added with the option, on the
    /// file the store has open; its notifications name `coordinator`.
    func startRemoteChangeObserver(for coordinator: NSPersistentStoreCoordinator) {
        guard postsRemoteChangeNotifications, !isInMemory else { return }
        lock.lock()
        let file = url, identifier = self.identifier
        lock.unlock()
        guard let file else { return }
        let path = file.path
        do {
            let observer = try SQLiteRemoteChangeObserver(path: path, readsHistory: tracksHistory, busyTimeout: Self.timeout(from: options)) { [weak coordinator] number in
                guard let coordinator else { return }
                Self.postRemoteChange(to: coordinator, historyNumber: number, url: file, identifier: identifier)
            }
            lock.lock()
            let replaced = remoteChangeObserver
            remoteChangeObserver = observer
            lock.unlock()
            replaced?.cancel()
        } catch {
            // The store works without notifications; say why there are none.
            FileHandle.standardError.write(Data("OpenCoreData: no remote-change notifications for \(path): \(error)\n".utf8))
        }
    }

    /// Stops the remote-change observer (when the store leaves its coordinator, or moves to
    /// another file). Never waits for the observer's queue: its notification's observers may
    /// be waiting for the coordinator, whose lock the caller may hold.
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
///
/// ```swift
/// let observer = try SQLiteRemoteChangeObserver(path: path, readsHistory: true, busyTimeout: 5) { number in
///     post(number)          // on the observer's queue
/// }
/// // … later, from any thread, holding any lock:
/// observer.cancel()
/// ```
final class SQLiteRemoteChangeObserver: @unchecked Sendable {
    // @unchecked Sendable: everything below `queue` is touched only on `queue`; `cancelled`
    // is atomic.
    private let queue = DispatchQueue(label: "OpenCoreData.SQLiteStore.remoteChange")
    private let cancelled = Atomic<Bool>(false)
    private var connection: SQLiteConnection?
    private var lastVersion: Int64 = 0
    private var lastTransaction: Int64?
    private var watcher: FileChangeWatcher?
    private var pollTimer: DispatchSourceTimer?
    /// Checks after the last wake-up (see ``recheckDelays``); `recheckStep` is the next one.
    private let recheckTimer: DispatchSourceTimer
    private var recheckStep = 0
    private var lastWakeUp = DispatchTime.now()
    private let readsHistory: Bool
    private let report: @Sendable (Int64?) -> Void

    /// How long after the last file event the observer looks again, in milliseconds: a commit
    /// becomes visible after its last write to the WAL (a large one, or a busy machine, takes
    /// longer), and nothing else wakes the observer then.
    static let recheckDelays = [2, 20, 100, 500, 2000]

    /// How the observer is woken.
    enum WakeUps {
        /// inotify on the store's directory (polling when the system refuses a watch).
        case fileEvents
        /// `data_version` every 100 ms.
        case polling
        /// Only by ``handle(_:)``: for tests that stage events.
        case manual
    }

    /// Opens the observer's connection and starts watching; `report` is called on the
    /// observer's queue after each commit it notices.
    init(path: String, readsHistory: Bool, busyTimeout: Double, wakeUps: WakeUps = .fileEvents, report: @escaping @Sendable (Int64?) -> Void) throws {
        self.readsHistory = readsHistory
        self.report = report
        let connection = try SQLiteConnection(path: path, readOnly: true)
        connection.setBusyTimeout(busyTimeout)
        lastVersion = try Self.dataVersion(connection)
        lastTransaction = readsHistory ? try Self.lastTransaction(connection) : nil
        self.connection = connection
        recheckTimer = DispatchSource.makeTimerSource(queue: queue)
        let file = URL(fileURLWithPath: path)
        let name = file.lastPathComponent
        queue.sync {
            recheckTimer.setEventHandler { [weak self] in self?.recheck() }
            recheckTimer.resume()
            switch wakeUps {
            case .fileEvents:
                watcher = FileChangeWatcher(directory: file.deletingLastPathComponent().path, names: [name, name + "-wal", name + "-journal"], queue: queue) { [weak self] event in
                    self?.respond(to: event)
                }
                if watcher == nil { startPolling() }
            case .polling: startPolling()
            case .manual: break
            }
        }
    }

    /// Stops watching and closes the connection; nothing is reported after it returns (a
    /// check already reporting finishes). Never waits: callable from any thread, holding any
    /// lock, and from the report itself.
    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { self.stop() }
    }

    private func stop() {
        watcher?.cancel()
        watcher = nil
        pollTimer?.cancel()
        pollTimer = nil
        recheckTimer.cancel()
        connection?.close()
        connection = nil
    }

    deinit {
        watcher?.cancel()
        pollTimer?.cancel()
        recheckTimer.cancel()
    }

    /// Whether the observer is woken by the file system (not polling): for tests and `ocd-bench`.
    var isWatchingFiles: Bool { queue.sync { watcher != nil } }

    /// Responds to `event` as to one of the file watcher's, on the observer's queue: for
    /// tests that stage events.
    func handle(_ event: FileChangeWatcher.Event) {
        queue.sync { respond(to: event) }
    }

    /// A file changed: looks for a commit now and again after each of ``recheckDelays``. An
    /// event during the series starts it again: the commit its writes announce may not be
    /// visible yet. The watch ended: polls from now on.
    private func respond(to event: FileChangeWatcher.Event) {
        switch event {
        case .filesChanged:
            check()
            lastWakeUp = .now()
            recheckStep = 0
            recheckTimer.schedule(deadline: lastWakeUp + .milliseconds(Self.recheckDelays[0]))
        case .watchEnded:
            startPolling()
        }
    }

    private func recheck() {
        check()
        recheckStep += 1
        guard recheckStep < Self.recheckDelays.count else { return }
        recheckTimer.schedule(deadline: lastWakeUp + .milliseconds(Self.recheckDelays[recheckStep]))
    }

    /// Polls every 100 ms from now on (no inotify, or the watch ended).
    private func startPolling() {
        watcher = nil
        guard pollTimer == nil, !cancelled.load(ordering: .acquiring) else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.check() }
        timer.resume()
        pollTimer = timer
    }

    /// Reports a commit if `data_version` moved since the last check — with history, only a
    /// commit that recorded a transaction: a save also commits on its own when it reserves
    /// primary keys, and that commit has nothing to catch up on. A read that fails (the file
    /// busy past the timeout) changes nothing, so the next check reports the commit.
    private func check() {
        guard !cancelled.load(ordering: .acquiring), let connection,
              let version = try? Self.dataVersion(connection), version != lastVersion else { return }
        guard readsHistory else {
            lastVersion = version
            return report(nil)
        }
        let number: Int64?
        do { number = try Self.lastTransaction(connection) } catch { return }
        lastVersion = version
        guard number != lastTransaction else { return }
        lastTransaction = number
        report(number)
    }

    private static func dataVersion(_ connection: SQLiteConnection) throws -> Int64 {
        try connection.query("PRAGMA data_version", []) { $0.int64(at: 0) }.first ?? 0
    }

    /// The number of the store's last history transaction (nil before the first). The store
    /// made `Z_PRIMARYKEY` when it was added, before the observer started.
    private static func lastTransaction(_ connection: SQLiteConnection) throws -> Int64? {
        try connection.query("SELECT IFNULL(Z_MAX, 0) FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(SQLiteStore.historyTransactionEntity)]) { $0.int64(at: 0) }.first
    }
}
