/// The persistent values of one record in slot order: a store row's values, a row-cache
/// snapshot, an object's committed values.
///
/// ```swift
/// let values = RowValues(count: layout.properties.count) { slot in .integer(Int64(slot)) }
/// if case .integer(let n) = values[3] { print(n) }   // 3
/// values.integer(at: 3)                              // 3, without making a StoredValue
/// ```
///
/// A copy-on-write collection of ``StoredValue`` like `[StoredValue]`, stored compactly: a
/// value that fits in eight bytes (null, an integer, a double, a Boolean, a date: what numeric
/// and date columns decode to) is kept as its bits in an 8-byte cell with a 1-byte tag; any
/// other value (text, data, an object ID, ...) in a `StoredValue` after the cells, its cell
/// holding its place. A row of ten integers takes 114 bytes instead of the 272 of an array
/// (a `StoredValue` is 24 bytes, for `Decimal`), and frees without destroying each value.
///
/// Why: a large fetch is bound by memory traffic, not by computation. It writes every row's
/// values once, reads them back when the objects are read and frees them, each time from
/// memory far outside the CPU caches; the bytes per row are what those passes cost.
struct RowValues: @unchecked Sendable {
    // @unchecked Sendable as `Array` is: the storage is shared only while nobody writes to it
    // (every write goes through `makeUnique()`), and `StoredValue` is Sendable.
    /// Nil when there are no values, so that an empty row (a fault's, or a row whose values
    /// the row cache took) costs no reference count: a fetch empties every row it decodes.
    private var storage: RowValuesStorage?

    /// Values `element(slot)` for slots `0..<count`.
    @inline(__always)
    init(count: Int, _ element: (Int) -> StoredValue) {
        // No places: a snapshot of numbers needs none, and one with other values is laid out
        // again once, when they are known.
        self.init(count: count, placesForOtherValues: 0) { writer in
            for slot in 0..<count { writer.set(element(slot), at: slot) }
        }
    }

    /// The values of a collection, laid out with exactly the places its other values need.
    init<C: Collection<StoredValue>>(_ values: C) {
        let places = values.reduce(0) { $0 + ($1.compactCell == nil ? 1 : 0) }
        self.init(count: values.count, placesForOtherValues: places) { writer in
            for (slot, value) in values.enumerated() { writer.set(value, at: slot) }
        }
    }

    /// Values written by `body` through a ``RowValuesWriter``, which must write every slot
    /// in `0..<count`. `placesForOtherValues` is the number of values expected not to fit a
    /// cell; a writer that needs more keeps them aside and the values are laid out again.
    @inline(__always)
    init(count: Int, placesForOtherValues places: Int, _ body: (inout RowValuesWriter) -> Void) {
        var writer = RowValuesWriter(count: count, placesForOtherValues: places)
        body(&writer)
        self = writer.finish()
    }

    /// Values whose storage a writer made (``RowValuesWriter/finish()``).
    fileprivate init(storage: RowValuesStorage?) { self.storage = storage }

    /// No values: the row of a fault, or of a store that has none to give.
    init() { storage = nil }

    var count: Int { @inline(__always) get { storage?.count ?? 0 } }

    /// The integer in `slot`, or nil when the slot holds something else; no `StoredValue`
    /// is made (the read every fetched `Integer` attribute takes).
    @inline(__always) func integer(at slot: Int) -> Int64? {
        bits(at: slot, ifTagged: .integer).map { Int64(bitPattern: $0) }
    }

    /// The double in `slot`, or nil when the slot holds something else.
    @inline(__always) func double(at slot: Int) -> Double? {
        bits(at: slot, ifTagged: .double).map { Double(bitPattern: $0) }
    }

    /// The Boolean in `slot`, or nil when the slot holds something else.
    @inline(__always) func bool(at slot: Int) -> Bool? {
        bits(at: slot, ifTagged: .bool).map { $0 != 0 }
    }

    /// The cell of `slot` if its tag is `tag`.
    @inline(__always) private func bits(at slot: Int, ifTagged tag: RowValueTag) -> UInt64? {
        checkSlot(slot)
        let storage = storage.unsafelyUnwrapped   // there is a slot
        return storage.tags[slot] == tag.rawValue ? storage.cells[slot] : nil
    }

    /// Stops on a slot out of range, as `Array`'s subscript does: a caller's bug, never data.
    @inline(__always) private func checkSlot(_ slot: Int) {
        precondition(UInt(bitPattern: slot) < UInt(bitPattern: count), "RowValues: slot out of range")
    }

    /// The address of the storage (nil without values), for a prefetch hint's test: the row's
    /// reference to it.
    var storageAddress: UnsafeRawPointer? { storage.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) } }

    /// Gives the storage to this value alone before a write, copying it if it is shared.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage?.copy() }
    }
}

extension RowValues: RandomAccessCollection, MutableCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(slot: Int) -> StoredValue {
        @inline(__always) get {
            checkSlot(slot)
            return storage.unsafelyUnwrapped.value(at: slot)
        }
        set {
            checkSlot(slot)
            makeUnique()
            if storage.unsafelyUnwrapped.replace(slot, with: newValue) { return }
            // A value that needs a place where the slot has none: lay the values out again.
            var values = Array(self)
            values[slot] = newValue
            self = RowValues(values)
        }
    }
}

extension RowValues: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: StoredValue...) { self.init(elements) }
}

/// What a cell holds; `place` means the value is a `StoredValue` in the places after the
/// cells, whose index is the cell.
enum RowValueTag: UInt8 {
    case null, integer, double, bool, date, place
}

extension StoredValue {
    /// The value as a cell's tag and bits, when it fits in one (nil: it needs a place).
    @inline(__always)
    var compactCell: (tag: RowValueTag, bits: UInt64)? {
        switch self {
        case .null: return (.null, 0)
        case .integer(let n): return (.integer, UInt64(bitPattern: n))
        case .double(let d): return (.double, d.bitPattern)
        case .bool(let b): return (.bool, b ? 1 : 0)
        case .date(let d): return (.date, d.timeIntervalSinceReferenceDate.bitPattern)
        case .string, .data, .decimal, .uuid, .url, .objectID, .objectIDs, .boxed: return nil
        }
    }
}

/// Writes the slots of a new ``RowValues`` in place, once each, then hands the values over.
///
/// ```swift
/// var writer = RowValuesWriter(count: 2, placesForOtherValues: 1)
/// writer.setInteger(7, at: 0)
/// writer.set(.string("x"), at: 1)
/// let values = writer.finish()
/// ```
///
/// A store's decoder writes from its own loop, and ``RowValues/init(count:placesForOtherValues:_:)``
/// from a closure. The decoder's loop had been such a closure too: its captures (the entity
/// plan, the statement) cost three reference counts each way per decoded row.
struct RowValuesWriter: ~Copyable {
    /// The storage being written; nil for no values.
    private var storage: RowValuesStorage?
    private let cells: UnsafeMutablePointer<UInt64>
    private let tags: UnsafeMutablePointer<UInt8>
    private let places: UnsafeMutablePointer<StoredValue>
    private let placeCount: Int
    private var placesUsed = 0
    /// Values that found no place, laid out again by ``finish()`` (rare: a column that holds
    /// another type than its attribute's).
    private var spilled: [(slot: Int, value: StoredValue)]? = nil

    /// A writer of `count` new values, `placesForOtherValues` of them expected not to fit a
    /// cell; a writer that needs more keeps them aside and lays the values out again.
    /// Every slot in `0..<count` must be written.
    @inline(__always)
    init(count: Int, placesForOtherValues places: Int) {
        guard count > 0 else {
            storage = nil
            cells = UnsafeMutablePointer(bitPattern: MemoryLayout<UInt64>.alignment)!
            tags = UnsafeMutablePointer(bitPattern: MemoryLayout<UInt8>.alignment)!
            self.places = UnsafeMutablePointer(bitPattern: MemoryLayout<StoredValue>.alignment)!
            placeCount = 0
            return
        }
        let storage = RowValuesStorage.make(count: count, places: places)
        self.storage = storage
        cells = storage.cells
        tags = storage.tags
        self.places = storage.places
        placeCount = storage.placeCount
    }

    /// The values written.
    @inline(__always)
    consuming func finish() -> RowValues {
        // Fill places nobody took, so that the storage's deinit destroys initialized values.
        if placesUsed < placeCount { (places + placesUsed).initialize(repeating: .null, count: placeCount - placesUsed) }
        // Taken, not copied: a copy kept the writer's reference until the writer went away.
        let values = RowValues(storage: storage.take())
        guard let spilled else { return values }
        var all = Array(values)
        for (slot, value) in spilled { all[slot] = value }
        return RowValues(all)
    }

    @inline(__always) mutating func setInteger(_ n: Int64, at slot: Int) { write(.integer, UInt64(bitPattern: n), at: slot) }
    @inline(__always) mutating func setDouble(_ d: Double, at slot: Int) { write(.double, d.bitPattern, at: slot) }
    @inline(__always) mutating func setBool(_ b: Bool, at slot: Int) { write(.bool, b ? 1 : 0, at: slot) }

    @inline(__always) private func write(_ tag: RowValueTag, _ bits: UInt64, at slot: Int) {
        cells[slot] = bits
        tags[slot] = tag.rawValue
    }

    mutating func set(_ value: StoredValue, at slot: Int) {
        if let (tag, bits) = value.compactCell {
            write(tag, bits, at: slot)
        } else if placesUsed < placeCount {
            (places + placesUsed).initialize(to: value)
            write(.place, UInt64(placesUsed), at: slot)
            placesUsed += 1
        } else {
            write(.null, 0, at: slot)
            if spilled == nil { spilled = [] }
            spilled!.append((slot, value))
        }
    }
}

struct RowValuesHeader {
    var count: UInt32
    /// The `StoredValue` places after the cells and tags, all initialized.
    var placeCount: UInt32
}

/// The storage of ``RowValues``, in one allocation: the header, `count` cells of 8 bytes, `count`
/// tags of 1 byte, then (8-byte aligned) `placeCount` `StoredValue`s.
///
/// The header is read through `withUnsafeMutablePointerToHeader`, never `header`:
/// `ManagedBuffer.header` is a class's stored property, and Swift checks each access to it
/// for exclusivity at run time (a `swift_beginAccess` call on every read).
final class RowValuesStorage: ManagedBuffer<RowValuesHeader, UInt64> {
    private static let wordsPerPlace = (MemoryLayout<StoredValue>.stride + 7) / 8
    /// The 8-byte words after the cells that `count` tags take; the places start after them.
    @inline(__always) private static func tagWords(_ count: Int) -> Int { (count + 7) / 8 }

    static func make(count: Int, places: Int) -> RowValuesStorage {
        // Counts beyond UInt32 would need more than 32 GiB of cells for one record.
        let words = count + tagWords(count) + places * wordsPerPlace
        let storage = unsafeDowncast(create(minimumCapacity: words) { _ in RowValuesHeader(count: UInt32(count), placeCount: UInt32(places)) },
                                     to: RowValuesStorage.self)
        storage.withUnsafeMutablePointerToElements { cells in
            let tags = UnsafeMutableRawPointer(cells + count)
            tags.bindMemory(to: UInt8.self, capacity: count)
            UnsafeMutableRawPointer(cells + count + tagWords(count)).bindMemory(to: StoredValue.self, capacity: places)
        }
        return storage
    }

    var count: Int { @inline(__always) get { Int(withUnsafeMutablePointerToHeader { $0.pointee.count }) } }
    var placeCount: Int { @inline(__always) get { Int(withUnsafeMutablePointerToHeader { $0.pointee.placeCount }) } }

    // The pointers stay valid while the storage lives: whoever reads them holds a `RowValues`.
    var cells: UnsafeMutablePointer<UInt64> { @inline(__always) get { withUnsafeMutablePointerToElements { $0 } } }
    var tags: UnsafeMutablePointer<UInt8> {
        @inline(__always) get { UnsafeMutableRawPointer(cells + count).assumingMemoryBound(to: UInt8.self) }
    }
    var places: UnsafeMutablePointer<StoredValue> {
        @inline(__always) get {
            let count = count
            return UnsafeMutableRawPointer(cells + count + Self.tagWords(count)).assumingMemoryBound(to: StoredValue.self)
        }
    }

    @inline(__always) static func value(ofCell bits: UInt64, tag: UInt8) -> StoredValue {
        switch RowValueTag(rawValue: tag).unsafelyUnwrapped {
        case .null: return .null
        case .integer: return .integer(Int64(bitPattern: bits))
        case .double: return .double(Double(bitPattern: bits))
        case .bool: return .bool(bits != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
        case .place: preconditionFailure("a place's index is no value")
        }
    }

    @inline(__always) func value(at slot: Int) -> StoredValue {
        let tag = tags[slot]
        if tag == RowValueTag.place.rawValue { return places[Int(cells[slot])] }
        return Self.value(ofCell: cells[slot], tag: tag)
    }

    /// Writes `value` into `slot` of this (uniquely referenced) storage; false when it needs a
    /// place and the slot has none (nothing written).
    func replace(_ slot: Int, with value: StoredValue) -> Bool {
        let isPlace = tags[slot] == RowValueTag.place.rawValue
        if let (tag, bits) = value.compactCell {
            if isPlace { places[Int(cells[slot])] = .null }   // release what the place held (it stays, unused)
            cells[slot] = bits
            tags[slot] = tag.rawValue
            return true
        }
        guard isPlace else { return false }
        places[Int(cells[slot])] = value
        return true
    }

    func copy() -> RowValuesStorage {
        let count = count, placeCount = placeCount
        let copy = RowValuesStorage.make(count: count, places: placeCount)
        copy.cells.update(from: cells, count: count)
        copy.tags.update(from: tags, count: count)
        copy.places.initialize(from: places, count: placeCount)
        return copy
    }

    deinit {
        // Cells hold no references; only places need destroying.
        let placeCount = placeCount
        if placeCount > 0 { places.deinitialize(count: placeCount) }
    }
}
