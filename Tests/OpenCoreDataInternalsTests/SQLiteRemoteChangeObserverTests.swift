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
                                                      watchesFiles: watchesFiles) { reports.add($0) }
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
