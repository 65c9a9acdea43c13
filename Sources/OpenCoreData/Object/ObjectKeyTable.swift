/// A table from object keys to values that keeps the values of consecutive primary keys side
/// by side: the storage of the identity map (``ObjectRegistry``) and of the row cache
/// (``RowCache``).
///
/// ```swift
/// var table = ObjectKeyTable<Int>()
/// table.updateValue(1, forKey: key)
/// if let index = table.index(forKey: key) {
///     table[index] += 1      // in place
///     table.remove(at: index)
/// }
/// ```
///
/// Keys are grouped in runs of eight: one store, one root entity, primary keys 8k to 8k + 7. The
/// run directory (``ObjectKeyRunDirectory``: a flat array per store and entity for dense keys, a
/// `Dictionary` for the rest) finds a run's number; the run's eight values sit together in one
/// array, at eight times that number.
///
/// Why not a `Dictionary` of keys: both tables hold hundreds of thousands of keys after a large
/// fetch, far more than the CPU caches do, and with each key in a random bucket every lookup
/// missed the cache two or three times. Objects come and go in primary-key order (a fetch that
/// sorts by nothing returns rows in `Z_PK` order, and its result array releases them in that
/// order), so here eight consecutive lookups share one run: one cache-missing probe, then
/// neighbouring memory; freeing a large fetch's objects is bound by those misses. Hashing runs
/// of keys to neighbouring buckets of one `Dictionary` would keep the locality but make removal
/// slow: removing a key makes `Dictionary` rehash the rest of its probe chain, and runs make
/// long chains. Here a run leaves the directory only when the table is rebuilt.
///
/// A run that empties keeps its number, so the same records coming back (the same fetch run
/// again) find their run without a new directory entry, and removing a key never touches the
/// directory. Empty runs are dropped in a rebuild once they outnumber the runs in use seven
/// to one (and number more than ``emptyRunsKept``), so the table gives memory back after a
/// large fetch and stays small while objects come and go. Scattered primary keys cost up to
/// eight slots each.
struct ObjectKeyTable<Value> {
    /// A position in the table, valid until the next insertion or removal.
    struct Index: Equatable {
        fileprivate let slot: Int
    }

    /// Primary keys per run: 8, so that a run's values of a pointer's size fill one cache line.
    private static var runShift: Int64 { 3 }
    private static var runLength: Int { 1 << Int(runShift) }

    /// A run's key: the `ObjectKey` of its members with their primary key shifted right, so that
    /// runs hash and compare as object keys do.
    private static func runKey(of key: ObjectKey) -> ObjectKey {
        ObjectKey(storeToken: key.storeToken, rootEntity: key.rootEntity, primaryKey: key.primaryKey >> runShift)
    }

    /// The key of the member of `run` at `offset`.
    private static func key(at offset: Int, inRun run: ObjectKey) -> ObjectKey {
        ObjectKey(storeToken: run.storeToken, rootEntity: run.rootEntity, primaryKey: run.primaryKey << runShift | Int64(offset))
    }

    /// A run: its keys and which of its eight slots hold values (bit n: slot n; none once it empties).
    private struct Run {
        var key: ObjectKey
        var occupied: UInt8
    }

    /// The number of every run, empty ones included; run n's values are `slots[8n ..< 8n + 8]`.
    private var runNumbers = ObjectKeyRunDirectory()
    /// Indexed by run number.
    private var runs: [Run] = []
    private var slots: [Value?] = []
    /// Runs with at least one value.
    private var liveRuns = 0
    /// The run directory's latest answer. Lookups of consecutive keys ask for the same run seven
    /// times in eight, so most skip the directory. Always right: a run keeps its number until
    /// a rebuild, which starts a new table.
    private var recentRun: ObjectKey? = nil
    private var recentNumber: Int32 = 0

    /// The number of keys with values.
    private(set) var count = 0

    init() {}

    /// How many values the table has room for without growing (for tests that it gives memory back).
    var capacity: Int { slots.count }

    var isEmpty: Bool { count == 0 }

    /// The slots allocated, used or not (for tests of how the table grows).
    var reservedSlots: Int { slots.capacity }

    /// Runs numbered by hash rather than in a dense section (for tests; see ``ObjectKeyRunDirectory``).
    var scatteredRuns: Int { runNumbers.scatteredCount }

    /// Makes room for `keys`, so a large fetch doesn't grow the table step by step (each growth
    /// copies the arrays).
    ///
    /// Counts the runs the keys need, not the keys: a fetch in primary-key order needs one run
    /// per eight keys, one with scattered primary keys (a predicate over an index, a sort) up to
    /// one per key. Keys already in the table are counted too; the room is not wasted for long.
    mutating func reserveCapacity<Keys: Sequence<ObjectKey>>(forKeys keys: Keys) {
        var newRuns = 0
        var previous: ObjectKey? = nil
        for key in keys {
            let run = Self.runKey(of: key)
            if run != previous { newRuns += 1; previous = run }
        }
        Self.reserve(&runs, atLeast: runs.count + newRuns)
        Self.reserve(&slots, atLeast: slots.count + newRuns * Self.runLength)
    }

    /// `Array.reserveCapacity(_:)` allocates exactly what it is asked for, so reserving one run
    /// at a time (a single fault's row) would copy the arrays on every new run: quadratic. Grow
    /// at least twofold, as appending does. (`Dictionary` rounds to a power of two itself.)
    private static func reserve<Element>(_ array: inout [Element], atLeast minimum: Int) {
        guard minimum > array.capacity else { return }
        array.reserveCapacity(Swift.max(minimum, 2 * array.capacity))
    }

    /// The position of `key`'s value, if it has one. Mutating only to remember the run it found.
    @inline(__always)
    mutating func index(forKey key: ObjectKey) -> Index? {
        let run = Self.runKey(of: key)
        let number: Int32
        if run == recentRun {
            number = recentNumber
        } else {
            guard let found = runNumbers.number(of: run) else { return nil }
            (recentRun, recentNumber) = (run, found)
            number = found
        }
        let slot = Self.slot(of: key, inRun: number)
        return isOccupied(slot) ? Index(slot: slot) : nil
    }

    /// The value at `index`, read or changed in place.
    subscript(index: Index) -> Value {
        @inline(__always) get { slots[index.slot].unsafelyUnwrapped }
        @inline(__always) _modify { yield &slots[index.slot]! }
    }

    /// The value of `key`, if it has one.
    subscript(key: ObjectKey) -> Value? {
        mutating get {
            guard let index = index(forKey: key) else { return nil }
            return self[index]
        }
    }

    /// Stores `value` under `key` and returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: ObjectKey) -> Value? {
        let slot = slot(forKey: key)
        var previous: Value? = value
        swap(&previous, &slots[slot])
        if previous == nil { markOccupied(slot) }
        return previous
    }

    /// The position of `key`'s value, after storing `makeValue()` under `key` if it had none;
    /// `inserted` says which. One lookup where ``index(forKey:)`` and then
    /// ``updateValue(_:forKey:)`` take two.
    @inline(__always)
    mutating func index(forKey key: ObjectKey, insertingIfAbsent makeValue: () -> Value) -> (index: Index, inserted: Bool) {
        let slot = slot(forKey: key)
        guard !isOccupied(slot) else { return (Index(slot: slot), false) }
        slots[slot] = makeValue()
        markOccupied(slot)
        return (Index(slot: slot), true)
    }

    /// `key`'s slot, in a run made for it if its run had none. One directory lookup: a new run's
    /// number, the next one past the end of the arrays, goes in as the lookup's default (no run
    /// has that number yet, so getting it back means the run is new).
    @inline(__always)
    private mutating func slot(forKey key: ObjectKey) -> Int {
        let run = Self.runKey(of: key)
        let number: Int32
        if run == recentRun {
            number = recentNumber
        } else {
            let candidate = Int32(runs.count)
            number = runNumbers.number(of: run, assigningIfAbsent: candidate)
            if number == candidate { appendRun(run) }
            (recentRun, recentNumber) = (run, number)
        }
        return Self.slot(of: key, inRun: number)
    }

    /// The slot of `key` in run `number`.
    @inline(__always)
    private static func slot(of key: ObjectKey, inRun number: Int32) -> Int {
        Int(number) << Int(runShift) | Int(key.primaryKey & Int64(runLength - 1))
    }

    /// The run a slot belongs to, and the slot's bit in that run's `occupied`.
    @inline(__always)
    private static func place(of slot: Int) -> (run: Int, bit: UInt8) {
        (slot >> Int(runShift), 1 << (slot & (runLength - 1)))
    }

    @inline(__always)
    private func isOccupied(_ slot: Int) -> Bool {
        let (run, bit) = Self.place(of: slot)
        return runs[run].occupied & bit != 0
    }

    @inline(__always)
    private mutating func markOccupied(_ slot: Int) {
        let (run, bit) = Self.place(of: slot)
        if runs[run].occupied == 0 { liveRuns += 1 }
        runs[run].occupied |= bit
        count += 1
    }

    /// Removes the value at `index` and returns it. May rebuild the table smaller (see the type's
    /// notes), which moves every other value: indices from before are no longer valid.
    @discardableResult
    mutating func remove(at index: Index) -> Value {
        var removed: Value? = nil
        swap(&removed, &slots[index.slot])
        let (run, bit) = Self.place(of: index.slot)
        runs[run].occupied &= ~bit
        count -= 1
        if runs[run].occupied == 0 {
            liveRuns -= 1
            let emptyRuns = runs.count - liveRuns
            if emptyRuns > Self.emptyRunsKept, emptyRuns > 7 * liveRuns { rebuildCompact() }
        }
        return removed.unsafelyUnwrapped
    }

    /// Removes `key`'s value, if it has one, and returns it.
    @discardableResult
    mutating func removeValue(forKey key: ObjectKey) -> Value? {
        guard let index = index(forKey: key) else { return nil }
        return remove(at: index)
    }

    /// Removes every value and gives the memory back.
    mutating func removeAll() { self = Self() }

    /// Every value, in no particular order.
    var values: [Value] { slots.compactMap { $0 } }

    /// Calls `body` with every value, in no particular order, to change it in place.
    mutating func updateEach(_ body: (inout Value) -> Void) {
        for number in runs.indices where runs[number].occupied != 0 {
            for offset in 0..<Self.runLength where runs[number].occupied & 1 << offset != 0 {
                body(&slots[number << Int(Self.runShift) | offset]!)
            }
        }
    }

    /// Every key with its value, in no particular order.
    var keysAndValues: [(key: ObjectKey, value: Value)] {
        var result: [(key: ObjectKey, value: Value)] = []
        result.reserveCapacity(count)
        for (number, run) in runs.enumerated() where run.occupied != 0 {
            for offset in 0..<Self.runLength where run.occupied & 1 << offset != 0 {
                result.append((Self.key(at: offset, inRun: run.key), slots[number << Int(Self.runShift) | offset].unsafelyUnwrapped))
            }
        }
        return result
    }

    /// How many empty runs a table keeps however few runs it uses: 1,024 slots. Small tables stay
    /// warm as they are, and rebuilding them would only add work. A table left by a large fetch
    /// is rebuilt, so that the few values left are not scattered over megabytes, where every
    /// lookup touched a cold cache line, often a cold page (a 2,000-row fetch after a
    /// 200,000-row one took 9 ms, and 7.5 ms once the table was rebuilt). A rebuild moves fewer
    /// values than the removals that led to it, so its cost is amortised over them.
    static var emptyRunsKept: Int { 1_024 / runLength }

    /// The most slots a table holding `count` values in scattered runs keeps (for tests).
    static func largestCapacity(holding count: Int) -> Int {
        (count + max(emptyRunsKept, 7 * count)) * runLength
    }

    /// Moves the live runs, in their order, to a new table. Values move, not copy: a copy of a
    /// row cache entry is two reference counts to take and two to give back, and the rebuild
    /// after a large fetch is released moves thousands of them.
    private mutating func rebuildCompact() {
        var compact = Self()
        guard count > 0 else { self = compact; return }
        compact.runs.reserveCapacity(liveRuns)
        compact.slots.reserveCapacity(liveRuns * Self.runLength)
        for number in runs.indices where runs[number].occupied != 0 {
            let run = runs[number]
            _ = compact.runNumbers.number(of: run.key, assigningIfAbsent: Int32(compact.runs.count))
            compact.runs.append(run)
            let first = number << Int(Self.runShift)
            for slot in first ..< first + Self.runLength {
                var value: Value? = nil
                swap(&value, &slots[slot])
                compact.slots.append(value)
            }
        }
        compact.liveRuns = liveRuns
        compact.count = count
        self = compact
    }

    /// Adds the slots of `run`, which the run directory has just numbered `runs.count`.
    private mutating func appendRun(_ run: ObjectKey) {
        runs.append(Run(key: run, occupied: 0))
        for _ in 0..<Self.runLength { slots.append(nil) }
    }
}
