import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Calls a handler when any of a few files in one directory is written, created, deleted or
/// renamed: inotify on Linux, so an idle watcher costs no wake-ups.
///
/// ```swift
/// let watcher = FileChangeWatcher(directory: "/data", names: ["Shop.sqlite", "Shop.sqlite-wal"], queue: queue) {
///     checkForNewCommits()
/// }
/// // … later
/// watcher?.cancel()
/// ```
///
/// The directory is watched, not the files: SQLite creates and deletes `-wal` and `-journal`
/// files as connections come and go, and a watch on a deleted file would go quiet. Events on
/// other names in the directory are read and dropped. Several events read together call the
/// handler once; the handler runs on `queue`, one call at a time.
///
/// The watcher tells that a file changed, not that a change is complete: a writer's `write(2)`
/// is reported as it happens, before the writer has finished its transaction. Callers check the
/// state they care about, and check again a little later when it has not moved yet.
final class FileChangeWatcher: @unchecked Sendable {
    // @unchecked Sendable: `source` is set once in init and only cancelled after; the
    // descriptor is owned by the source (closed by its cancel handler).
    private let source: DispatchSourceRead

    /// Nil when the system has no inotify or refuses another instance or watch (the per-user
    /// limits, `fs.inotify.max_user_instances` and `max_user_watches`): callers poll instead.
    init?(directory: String, names: Set<String>, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            if Self.drainEvents(descriptor, mentioning: names) { handler() }
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
    /// file of `names`. An event is a `struct inotify_event` (four 32-bit fields, the last the
    /// length of the NUL-padded name that follows it).
    private static func drainEvents(_ descriptor: Int32, mentioning names: Set<String>) -> Bool {
        let headerSize = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var mentioned = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return mentioned }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + headerSize <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
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
