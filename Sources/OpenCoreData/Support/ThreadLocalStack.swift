import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A stack of objects per thread: what a thread is inside of, innermost last.
///
/// ```swift
/// static let performing = ThreadLocalStack<NSManagedObjectContext>()
/// try performing.with(context) { try block() }     // performing.top === context inside
/// ```
///
/// Pushes and pops are balanced by ``with(_:_:)``, so an element is on the stack only while the
/// call that pushed it runs, and the caller keeps it alive meanwhile. Each thread's stack is a
/// POSIX thread-specific value (a load, not a dictionary lookup), freed when the thread ends.
final class ThreadLocalStack<Element: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: each thread reads and writes only its own storage.
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { storage in
            // The value arrives as an optional pointer on Glibc; binding it works either way.
            let pointer: UnsafeMutableRawPointer? = storage
            if let pointer { Unmanaged<ThreadStackStorage>.fromOpaque(pointer).release() }
        }
        precondition(created == 0, "pthread_key_create failed: the process is out of thread-specific keys")
        self.key = key
    }

    /// The innermost element on this thread, if any.
    var top: Element? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<ThreadStackStorage>.fromOpaque(pointer).takeUnretainedValue().items.last.map { unsafeDowncast($0, to: Element.self) }
    }

    /// Runs `body` with `element` on top of this thread's stack.
    func with<T>(_ element: Element, _ body: () throws -> T) rethrows -> T {
        let storage = self.storage()
        storage.items.append(element)
        defer { storage.items.removeLast() }
        return try body()
    }

    private func storage() -> ThreadStackStorage {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadStackStorage>.fromOpaque(pointer).takeUnretainedValue()
        }
        let storage = ThreadStackStorage()
        pthread_setspecific(key, Unmanaged.passRetained(storage).toOpaque())
        return storage
    }
}

/// One thread's stack (``ThreadLocalStack``); not generic, so the key's destructor can free it.
final class ThreadStackStorage {
    var items: [AnyObject] = []
}
