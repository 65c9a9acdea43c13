/// A reference that neither retains its object nor keeps a weak reference to it: for the few
/// hot paths where a strong reference (two atomic operations per copy) or a weak one (a side
/// table, and atomic operations on every read) costs more than the work around it.
///
/// ```swift
/// var context: UnretainedReference<NSManagedObjectContext>? = UnretainedReference(context)
/// context?.object                             // the context, at +0
/// context?.withObject { $0.objectDidChange() } // borrowed: no retain, no release
/// context?.refers(to: other)                  // identity, without touching the object
/// ```
///
/// The holder must guarantee that the object outlives the reference, and says how where it
/// declares one (the three uses: an object's context, which clears it before it goes; a
/// context's identity map, whose objects remove themselves in `deinit`; a context's own
/// coordinator, which the context also holds strongly). Debug builds keep a weak shadow of the
/// object and stop with a message when ``object`` or ``withObject(_:)`` is used after the
/// object was freed (or while it is being freed), instead of reading freed memory.
struct UnretainedReference<Object: AnyObject> {
    private let unmanaged: Unmanaged<Object>
    #if DEBUG
    private weak var shadow: Object?
    #endif

    @inline(__always) init(_ object: Object) {
        unmanaged = .passUnretained(object)
        #if DEBUG
        shadow = object
        #endif
    }

    /// The object, not retained by this reference.
    @inline(__always) var object: Object {
        checkAlive()
        return unmanaged.takeUnretainedValue()
    }

    /// Calls `body` with the object, borrowed: neither retained nor released around the call.
    /// `body` must not end the object's life.
    @inline(__always) func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        checkAlive()
        return try unmanaged._withUnsafeGuaranteedRef(body)
    }

    /// Whether this refers to `other`. Compares addresses only, so it may be asked while the
    /// object is being freed (an object removing its own entry from a table in `deinit`).
    @inline(__always) func refers(to other: Object) -> Bool {
        unmanaged.toOpaque() == Unmanaged.passUnretained(other).toOpaque()
    }

    /// Whether both refer to the same object (addresses only, as ``refers(to:)``).
    @inline(__always) func refers(toSameObjectAs other: UnretainedReference) -> Bool {
        unmanaged.toOpaque() == other.unmanaged.toOpaque()
    }

    @inline(__always) private func checkAlive() {
        #if DEBUG
        precondition(shadow != nil, "An unretained \(Object.self) was used after it was freed: its holder broke the rule that keeps it alive (see UnretainedReference).")
        #endif
    }
}
