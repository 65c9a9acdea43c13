/// The persistent values of one record in slot order: a store row's values, a row-cache
/// snapshot, an object's committed values.
///
/// ```swift
/// let values = RowValues(count: layout.properties.count) { slot in .integer(Int64(slot)) }
/// if case .integer(let n) = values[3] { print(n) }   // 3
/// ```
///
/// A copy-on-write array of ``StoredValue``, like `[StoredValue]`, with one thing `Array`
/// cannot know: whether any of its values holds a reference (a string, data, an object ID).
/// A fetched row of numbers, dates and nulls then frees its storage without destroying each
/// value, which `Array` does through the value witness table, about 30 instructions a value
/// and a tenth of what freeing a fetched object costs. It is also made in place
/// (``init(unsafeUninitializedCount:initializingWith:)``): the row decoder writes each value once, where
/// `Array.append` checks capacity and uniqueness for each.
struct RowValues: @unchecked Sendable {
    // @unchecked Sendable as `Array` is: the storage is shared only while nobody writes to it
    // (every write goes through `makeUnique()`), and `StoredValue` is Sendable.
    private var storage: RowValuesStorage

    /// Values made by `body`, which must initialize `count` values from the pointer it gets and
    /// return whether any of them holds a reference (``StoredValue/holdsReference``); `false`
    /// where one does leaks that reference when the storage is freed.
    @inline(__always)
    init(unsafeUninitializedCount count: Int, initializingWith body: (UnsafeMutablePointer<StoredValue>) -> Bool) {
        if count == 0 { storage = emptyRowValuesStorage; return }
        storage = RowValuesStorage.make(capacity: count)
        let holdsReferences = storage.withUnsafeMutablePointerToElements(body)
        storage.withUnsafeMutablePointerToHeader { $0.pointee = RowValuesHeader(count: count, holdsReferences: holdsReferences) }
    }

    /// Values `element(slot)` for slots `0..<count`.
    @inline(__always)
    init(count: Int, _ element: (Int) -> StoredValue) {
        self.init(unsafeUninitializedCount: count) { base in
            var holdsReferences = false
            for slot in 0..<count {
                let value = element(slot)
                holdsReferences = holdsReferences || value.holdsReference
                (base + slot).initialize(to: value)
            }
            return holdsReferences
        }
    }

    init<C: Collection<StoredValue>>(_ values: C) {
        var iterator = values.makeIterator()
        self.init(count: values.count) { _ in iterator.next().unsafelyUnwrapped }
    }

    /// No values: the row of a fault, or of a store that has none to give.
    init() { storage = emptyRowValuesStorage }

    var count: Int { @inline(__always) get { storage.count } }

    /// The values as an array, for the few callers that keep them apart from a row.
    var array: [StoredValue] { Array(self) }

    /// Gives the storage to this value alone before a write, copying it if it is shared.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Calls `body` with the values in place, without copying or retaining each.
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<StoredValue>) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointerToElements { try body(UnsafeBufferPointer(start: $0, count: storage.count)) }
    }
}

extension RowValues: RandomAccessCollection, MutableCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(slot: Int) -> StoredValue {
        @inline(__always) get {
            precondition(UInt(bitPattern: slot) < UInt(bitPattern: count), "RowValues: slot out of range")
            return storage.withUnsafeMutablePointerToElements { $0[slot] }
        }
        set {
            precondition(UInt(bitPattern: slot) < UInt(bitPattern: count), "RowValues: slot out of range")
            makeUnique()
            if newValue.holdsReference { storage.withUnsafeMutablePointerToHeader { $0.pointee.holdsReferences = true } }
            storage.withUnsafeMutablePointerToElements { $0[slot] = newValue }
        }
    }
}

extension RowValues: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: StoredValue...) { self.init(elements) }
}

extension StoredValue {
    /// Whether the value holds a reference that freeing it must release. The cases that don't
    /// are the ones a numeric or date column decodes to, and null.
    @inline(__always)
    var holdsReference: Bool {
        switch self {
        case .null, .integer, .double, .bool, .date, .decimal, .uuid: return false
        case .string, .data, .url, .objectID, .objectIDs, .boxed: return true
        }
    }
}

struct RowValuesHeader {
    var count: Int
    /// Whether a value may hold a reference; once true it stays true (a write of a number over
    /// a string leaves it set, which costs only the destroys this saves).
    var holdsReferences: Bool
}

/// The storage of every empty ``RowValues`` (a fault's, or a row whose values moved away):
/// none of them allocates, as an empty `Array` doesn't. `nonisolated(unsafe)` because it is never
/// written (a write needs a slot), which the compiler cannot see.
nonisolated(unsafe) private let emptyRowValuesStorage = RowValuesStorage.make(capacity: 0)

/// The storage of ``RowValues``: a header and the values, in one allocation.
///
/// The header is read through `withUnsafeMutablePointerToHeader`, never `header`:
/// `ManagedBuffer.header` is a class's stored property, and Swift checks each access to it
/// for exclusivity at run time (`swift_beginAccess`, about 60 instructions a read).
final class RowValuesStorage: ManagedBuffer<RowValuesHeader, StoredValue> {
    var count: Int { @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee.count } } }

    @inline(__always)
    static func make(capacity: Int) -> RowValuesStorage {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in RowValuesHeader(count: 0, holdsReferences: false) },
                       to: RowValuesStorage.self)
    }

    func copy() -> RowValuesStorage {
        let header = withUnsafeMutablePointerToHeader { $0.pointee }
        let copy = RowValuesStorage.make(capacity: header.count)
        withUnsafeMutablePointerToElements { source in
            copy.withUnsafeMutablePointerToElements { $0.initialize(from: source, count: header.count) }
        }
        copy.withUnsafeMutablePointerToHeader { $0.pointee = header }
        return copy
    }

    deinit {
        // Values without references have nothing to release: skip the destroy of each.
        let header = withUnsafeMutablePointerToHeader { $0.pointee }
        if header.holdsReferences {
            _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: header.count) }
        }
    }
}
