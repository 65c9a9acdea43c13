import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Calls a handler when any of a few files in one directory is written, created, deleted or
/// renamed: inotify on Linux, so an idle watcher costs no wake-ups.
///
/// ```swift
/// let watcher = FileChangeWatcher(directory: "/data", names: ["Shop.sqlite", "Shop.sqlite-wal"], queue: queue) { event in
///     switch event {
///     case .filesChanged: checkForNewCommits()
///     case .watchEnded: startPolling()      // the directory was deleted or unmounted
///     }
/// }
/// // … later
/// watcher?.cancel()
/// ```
///
/// The directory is watched, not the files: SQLite creates and deletes `-wal` and `-journal`
/// files as connections come and go, and a watch on a deleted file would go quiet. Events on
/// other names in the directory are read and dropped. Several events read together call the
/// handler once; the handler runs on `queue`, one call at a time. When the kernel's event queue
/// overflows (`fs.inotify.max_queued_events`), events were lost, so the handler is told the
/// files changed. When the watch ends (the directory deleted, its file system unmounted), the
/// handler is told so once and never called again.
///
/// The watcher tells that a file changed, not that a change is complete: a writer's `write(2)`
/// is reported as it happens, before the writer has finished its transaction. Callers check the
/// state they care about, and check again a little later when it has not moved yet.
final class FileChangeWatcher: @unchecked Sendable {
    // @unchecked Sendable: `source` is set once in init and only cancelled after; the
    // descriptor is owned by the source (closed by its cancel handler).
    private let source: DispatchSourceRead

    /// What the handler is told.
    enum Event: Sendable {
        /// One of the files was written, created, deleted or renamed — or events were lost, so
        /// any of them may have been.
        case filesChanged
        /// The watch ended: the directory is gone or its file system was unmounted. Nothing
        /// more will be reported; watch another way.
        case watchEnded
    }

    /// Nil when the system has no inotify or refuses another instance or watch (the per-user
    /// limits, `fs.inotify.max_user_instances` and `max_user_watches`): callers poll instead.
    init?(directory: String, names: Set<String>, queue: DispatchQueue, handler: @escaping @Sendable (Event) -> Void) {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        self.source = source
        source.setEventHandler {
            guard !source.isCancelled else { return }
            let read = Self.drainEvents(descriptor, mentioning: names)
            if read.mentioned { handler(.filesChanged) }
            if read.watchEnded {
                source.cancel()
                handler(.watchEnded)
            }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        #else
        return nil
        #endif
    }

    deinit { source.cancel() }

    /// Stops watching; the handler is not called after the current call, if any, returns.
    func cancel() { source.cancel() }

    #if os(Linux)
    /// Reads every pending event (the descriptor is non-blocking) and says whether one names a
    /// file of `names` (an overflow counts: the lost events may have), and whether the watch
    /// ended (`IN_IGNORED`: the kernel removed it). An event is a `struct inotify_event` (four
    /// 32-bit fields, the last the length of the NUL-padded name that follows it).
    private static func drainEvents(_ descriptor: Int32, mentioning names: Set<String>) -> (mentioned: Bool, watchEnded: Bool) {
        let headerSize = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var mentioned = false, watchEnded = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return (mentioned, watchEnded) }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + headerSize <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { mentioned = true }
                    if event.mask & UInt32(IN_IGNORED) != 0 { watchEnded = true }
                    let nameStart = offset + headerSize, nameLength = Int(event.len)
                    if nameLength > 0, nameStart + nameLength <= count {
                        let raw = bytes[nameStart..<(nameStart + nameLength)]
                        let name = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                        if names.contains(name) { mentioned = true }
                    }
                    offset = nameStart + nameLength
                }
            }
        }
    }
    #endif
}
