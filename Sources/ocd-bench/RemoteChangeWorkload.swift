import Foundation
import OCDBenchKit
import OpenCoreData

/// H3: remote-change notifications (#26): how soon a save by another coordinator on the same
/// file is posted to a watching one, and what watching costs while nothing is written.
///
/// Latency is from the writer's `save()` returning to the watcher's notification, one save at a
/// time (the next save waits for the notification), reported as median and 99th percentile.
/// Idle cost is this process's CPU time over two quiet seconds with `stores` stores watching.
struct RemoteChangeWorkload {
    let saves: Int
    let stores: Int
    let directory: URL

    private func coordinator(_ url: URL, watching: Bool) throws -> NSPersistentStoreCoordinator {
        var options: [AnyHashable: Any] = [NSPersistentHistoryTrackingKey: true]
        if watching { options[NSPersistentStoreRemoteChangeNotificationPostOptionKey] = true }
        return try BenchModel.coordinator(at: url, options: options)
    }

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    func run() throws {
        let url = directory.appendingPathComponent("h3.sqlite")
        let writer = try coordinator(url, watching: false)
        let watcher = try coordinator(url, watching: true)
        let arrived = DispatchSemaphore(value: 0)
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: watcher, queue: nil) { _ in arrived.signal() }
        defer { NotificationCenter.default.removeObserver(observer) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = writer
        // Opening the second coordinator may itself be posted: let it pass.
        Thread.sleep(forTimeInterval: 0.2)
        while arrived.wait(timeout: .now()) == .success {}
        var latencies: [Double] = []
        var missed = 0
        for i in 0..<saves {
            let saved: UInt64 = try context.performAndWait {
                BenchRow(context: context).fill(i)
                try context.save()
                return DispatchTime.now().uptimeNanoseconds
            }
            if arrived.wait(timeout: .now() + 1) == .timedOut { missed += 1; continue }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - saved) / 1e9)
            Thread.sleep(forTimeInterval: 0.003)
            while arrived.wait(timeout: .now()) == .success {}
        }
        latencies.sort()
        let median = latencies.isEmpty ? .nan : latencies[latencies.count / 2]
        let p99 = latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        print(String(format: "remote H3 latency over %d saves: median %.2f ms, p99 %.2f ms, max %.2f ms, missed %d",
                     saves, median * 1e3, p99 * 1e3, (latencies.last ?? .nan) * 1e3, missed))

        var idle: [NSPersistentStoreCoordinator] = []
        for n in 0..<stores { idle.append(try coordinator(directory.appendingPathComponent("h3-idle-\(n).sqlite"), watching: true)) }
        // Past the checks that follow a file event (the last 2 s after it, see the SQLite
        // store's remote-change observer): what an idle store costs from then on.
        Thread.sleep(forTimeInterval: 2.3)
        let before = Self.cpuSeconds()
        Thread.sleep(forTimeInterval: 2)
        let spent = Self.cpuSeconds() - before
        print(String(format: "remote H3 idle: %.2f ms CPU over 2 s with %d stores watching", spent * 1e3, stores + 1))
        withExtendedLifetime((writer, watcher, idle)) {}
    }
}
