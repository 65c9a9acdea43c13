@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The SQLite store's remote-change observer: woken by inotify, or polling `data_version`
/// when the system refuses a watch; either way it reports each commit by another connection
/// once, with the store's last history transaction number, and nothing after it is cancelled.
final class SQLiteRemoteChangeObserverTests: XCTestCase {
    private func check(watchesFiles: Bool) throws {
        let directory = try makeTemporaryDirectory("ocd-remote-observer")
        let stack = try TestStack(sqliteAt: directory.appendingPathComponent("Company.sqlite"), options: [NSPersistentHistoryTrackingKey: true])
        try stack.context.performAndWait { _ = stack.employee("Ann"); try stack.context.save() }
        let reports = Reports()
        let observer = try SQLiteRemoteChangeObserver(path: directory.appendingPathComponent("Company.sqlite").path, readsHistory: true,
                                                      busyTimeout: 5, wakeUps: watchesFiles ? .fileEvents : .polling) { reports.add($0) }
        XCTAssertEqual(observer.isWatchingFiles, watchesFiles)
        XCTAssertTrue(reports.wait(count: 1, timeout: 0.3).isEmpty, "nothing was committed after the observer started")
        try stack.context.performAndWait { _ = stack.employee("Bob"); try stack.context.save() }
        XCTAssertEqual(reports.wait(count: 1, timeout: 2), [2], "the second history transaction")
        observer.cancel()
        try stack.context.performAndWait { _ = stack.employee("Cy"); try stack.context.save() }
        XCTAssertEqual(reports.wait(count: 2, timeout: 0.3), [2], "nothing after cancel")
    }

    func testAWatchingObserverReportsACommit() throws { try check(watchesFiles: true) }

    func testAPollingObserverReportsACommit() throws { try check(watchesFiles: false) }

    /// A file event comes before the commit it announces is visible, and a commit can take a
    /// while to finish its last write: every event starts the checks again, and they go on
    /// for two seconds. Staged: events at 0 and 80 ms, the commit at 130 ms with no event of
    /// its own — past the last check of a series started at 0 ms (100 ms), not of one
    /// started again at 80 ms.
    func testEveryWakeUpStartsTheChecksAgain() throws {
        let directory = try makeTemporaryDirectory("ocd-remote-observer-rearm")
        let url = directory.appendingPathComponent("Company.sqlite")
        let stack = try TestStack(sqliteAt: url, options: [NSPersistentHistoryTrackingKey: true])
        try stack.context.performAndWait { _ = stack.employee("Ann"); try stack.context.save() }
        let reports = Reports()
        let observer = try SQLiteRemoteChangeObserver(path: url.path, readsHistory: true, busyTimeout: 5, wakeUps: .manual) { reports.add($0) }
        defer { observer.cancel() }
        observer.handle(.filesChanged)
        Thread.sleep(forTimeInterval: 0.08)
        observer.handle(.filesChanged)
        Thread.sleep(forTimeInterval: 0.05)
        try stack.context.performAndWait { _ = stack.employee("Bob"); try stack.context.save() }
        XCTAssertEqual(reports.wait(count: 1, timeout: 3), [2], "the commit after the last event, seen by a later check")
    }

    /// cancel() returns at once, also while a report is running on the observer's queue and
    /// waits for the caller (the store's removal holds the coordinator's lock; an observer of
    /// the notification may wait for it), and nothing is reported after.
    func testCancelNeverWaitsForTheObserversQueue() throws {
        let directory = try makeTemporaryDirectory("ocd-remote-observer-cancel")
        let url = directory.appendingPathComponent("Company.sqlite")
        let stack = try TestStack(sqliteAt: url, options: [NSPersistentHistoryTrackingKey: true])
        let callerLock = NSLock()
        let reports = Reports()
        let observer = try SQLiteRemoteChangeObserver(path: url.path, readsHistory: true, busyTimeout: 5) { number in
            reports.add(number)
            callerLock.lock(); callerLock.unlock()   // as an observer waiting for the coordinator
        }
        callerLock.lock()
        try stack.context.performAndWait { _ = stack.employee("Ann"); try stack.context.save() }
        XCTAssertEqual(reports.wait(count: 1, timeout: 2).count, 1, "a report, now waiting for the caller's lock")
        let cancelled = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { observer.cancel(); cancelled.signal() }
        let returned = cancelled.wait(timeout: .now() + 2)
        callerLock.unlock()
        XCTAssertEqual(returned, .success, "cancel() waited for the report, which waited for the caller")
        try stack.context.performAndWait { _ = stack.employee("Bob"); try stack.context.save() }
        XCTAssertEqual(reports.wait(count: 2, timeout: 0.3).count, 1, "nothing after cancel")
    }
}

/// inotify's edge cases: lost events count as a change; a watch that ends says so.
final class FileChangeWatcherTests: XCTestCase {
    /// Over `fs.inotify.max_queued_events` (16,384 here) events pile up while the handler's
    /// queue is busy: the kernel drops the rest and queues `IN_Q_OVERFLOW`. The watched file may
    /// have changed among the lost ones, so the handler hears of a change.
    func testLostEventsCountAsAChange() throws {
        let directory = try makeTemporaryDirectory("ocd-watcher-overflow")
        let queue = DispatchQueue(label: "watcher-test")
        let events = WatcherEvents()
        let watcher = try XCTUnwrap(FileChangeWatcher(directory: directory.path, names: ["Watched.sqlite"], queue: queue) { events.add($0) })
        defer { watcher.cancel() }
        queue.suspend()
        // Two other files in turn (the kernel merges identical consecutive events).
        let files = ["a", "b"].map { name -> FileHandle in
            let path = directory.appendingPathComponent(name).path
            FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)!
        }
        for i in 0..<20_000 { files[i % 2].write(Data([1])) }
        files.forEach { $0.closeFile() }
        queue.resume()
        XCTAssertEqual(events.wait(count: 1, timeout: 2), [.filesChanged])
    }

    /// The directory is deleted: the handler is told the watch ended, once.
    func testAnEndedWatchIsReported() throws {
        let directory = try makeTemporaryDirectory("ocd-watcher-ended").appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let events = WatcherEvents()
        let watcher = try XCTUnwrap(FileChangeWatcher(directory: directory.path, names: ["Watched.sqlite"], queue: DispatchQueue(label: "watcher-test")) { events.add($0) })
        defer { watcher.cancel() }
        try FileManager.default.removeItem(at: directory)
        XCTAssertEqual(events.wait(count: 1, timeout: 2), [.watchEnded])
        XCTAssertEqual(events.wait(count: 2, timeout: 0.2), [.watchEnded], "nothing after the end")
    }

    /// A store's observer whose watch ends polls instead. (The kernel ends a watch when the
    /// file system is unmounted; a directory deleted while the observer's own connection
    /// holds a file in it stays alive until then, so the end is staged here.)
    func testAnObserverWhoseWatchEndsPolls() throws {
        let url = try makeTemporaryDirectory("ocd-watcher-observer").appendingPathComponent("Company.sqlite")
        let stack = try TestStack(sqliteAt: url, options: [NSPersistentHistoryTrackingKey: true])
        let reports = Reports()
        let observer = try SQLiteRemoteChangeObserver(path: url.path, readsHistory: true, busyTimeout: 5) { reports.add($0) }
        defer { observer.cancel() }
        XCTAssertTrue(observer.isWatchingFiles)
        observer.handle(.watchEnded)
        XCTAssertFalse(observer.isWatchingFiles, "polling after the watch ended")
        try stack.context.performAndWait { _ = stack.employee("Ann"); try stack.context.save() }
        XCTAssertEqual(reports.wait(count: 1, timeout: 2), [1], "a commit seen by polling")
    }
}

private final class WatcherEvents: @unchecked Sendable {
    // @unchecked Sendable: `events` is guarded by `condition`.
    private let condition = NSCondition()
    private var events: [FileChangeWatcher.Event] = []

    func add(_ event: FileChangeWatcher.Event) {
        condition.lock(); events.append(event); condition.broadcast(); condition.unlock()
    }

    func wait(count: Int, timeout: Double) -> [FileChangeWatcher.Event] {
        condition.lock(); defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while events.count < count, condition.wait(until: deadline) {}
        return events
    }
}

private final class Reports: @unchecked Sendable {
    // @unchecked Sendable: `numbers` is guarded by `condition`.
    private let condition = NSCondition()
    private var numbers: [Int64?] = []

    func add(_ number: Int64?) {
        condition.lock(); numbers.append(number); condition.broadcast(); condition.unlock()
    }

    /// The numbers reported so far, once there are `count` or `timeout` seconds have passed.
    func wait(count: Int, timeout: Double) -> [Int64?] {
        condition.lock(); defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while numbers.count < count, condition.wait(until: deadline) {}
        return numbers
    }
}
