import Foundation

/// Carries a value across a concurrency boundary the compiler cannot see is safe.
///
/// ```swift
/// let box = UncheckedSendableBox(block)
/// queue.async { box.value() }   // the block runs only there
/// ```
///
/// Each use states why it is safe: the value is used on one queue only (a context's), or under
/// one lock (the coordinator's), never on two threads at once.
struct UncheckedSendableBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
