/// Which number each run of an ``ObjectKeyTable`` has: the table's directory of runs.
///
/// ```swift
/// var directory = ObjectKeyRunDirectory()
/// let number = directory.number(of: run, assigningIfAbsent: 0)   // 0: the run is new
/// directory.number(of: run)                                        // 0
/// ```
///
/// Most keys are dense: a store hands out primary keys 1, 2, 3, ... per entity hierarchy, and
/// temporary IDs count up too. So the runs of one store and root entity are numbered in a flat
/// array indexed by run (a *section*), and consecutive keys read consecutive entries. A
/// `Dictionary` of runs, which this replaces for dense keys, put each run in a random bucket:
/// after a large fetch every eighth lookup missed the CPU caches.
///
/// A run no section of its store and entity may hold — below the section's first run, or too
/// far past its runs for how many it holds — starts a section of its own; once there are
/// ``sectionLimit`` sections, such runs go to a `Dictionary`, as all runs did before.
struct ObjectKeyRunDirectory {
    /// The runs of one store and root entity from `base` on: `numbers[run - base]` is the run's
    /// number, or -1.
    private struct Section {
        let storeToken: Int32
        let rootEntity: Int32
        let base: Int64
        var numbers: [Int32] = []
        /// Runs numbered here.
        var count = 0

        /// Whether `run` is of this section's store and entity.
        @inline(__always)
        func isSection(of run: ObjectKey) -> Bool { storeToken == run.storeToken && rootEntity == run.rootEntity }

        /// The entry index of `run`, if the section has one.
        @inline(__always)
        func offset(of run: ObjectKey) -> Int? {
            guard isSection(of: run) else { return nil }
            let offset = run.primaryKey &- base
            return offset >= 0 && offset < Int64(numbers.count) ? Int(offset) : nil
        }

        /// Whether a section holding `count` runs may grow to hold `offset`: entries cost four
        /// bytes each, so a section may be mostly empty and still cost less than a `Dictionary`
        /// entry per run. The constant lets a young section grow without a long history.
        func mayHold(offset: Int64) -> Bool {
            offset >= 0 && (offset < Int64(numbers.count) || offset < 8 * Int64(count) + 512)
        }
    }

    private var sections: [Section] = []
    private var scattered: [ObjectKey: Int32] = [:]

    /// How many sections the directory keeps; runs that fit none of them use the `Dictionary`.
    /// Keeps the linear search for a run's section short.
    static var sectionLimit: Int { 16 }

    init() {}

    /// How many runs are numbered in the `Dictionary` (for tests that dense keys are not).
    var scatteredCount: Int { scattered.count }

    /// The number of `run`, if it has one.
    @inline(__always)
    func number(of run: ObjectKey) -> Int32? {
        // Sections of one store and entity can overlap (one grew into another's range); a run
        // has its number in at most one of them, and -1 in the others.
        for s in sections.indices {
            guard let offset = sections[s].offset(of: run) else { continue }
            let number = sections[s].numbers[offset]
            if number >= 0 { return number }
        }
        // A run can be scattered though a section has an entry for it now: it came before the
        // section grew that far.
        return scattered.isEmpty ? nil : scattered[run]
    }

    /// The number of `run`, after giving it `candidate` if it had none.
    @inline(__always)
    mutating func number(of run: ObjectKey, assigningIfAbsent candidate: Int32) -> Int32 {
        if let number = number(of: run) { return number }
        assign(candidate, to: run)
        return candidate
    }

    /// Gives `run`, which has no number, `number`: in a section of its store and entity that
    /// may hold it, else in a new section starting at it, else in the `Dictionary`.
    ///
    /// A new section where another one cannot grow: keys that come back below a section's
    /// base (a table whose low runs were dropped in a rebuild, then the same fetch again) would
    /// otherwise all go to the `Dictionary`.
    private mutating func assign(_ number: Int32, to run: ObjectKey) {
        for s in sections.indices where sections[s].isSection(of: run) {
            let offset = run.primaryKey &- sections[s].base
            guard sections[s].mayHold(offset: offset) else { continue }
            if offset >= Int64(sections[s].numbers.count) { grow(s, toHold: Int(offset)) }
            sections[s].numbers[Int(offset)] = number
            sections[s].count += 1
            return
        }
        if sections.count < Self.sectionLimit {
            var section = Section(storeToken: run.storeToken, rootEntity: run.rootEntity, base: run.primaryKey)
            section.numbers = Array(repeating: -1, count: 64)
            section.numbers[0] = number
            section.count = 1
            sections.append(section)
            return
        }
        scattered[run] = number
    }

    /// Grows section `s` geometrically, as appending would, so runs one past the end don't copy
    /// the entries each time.
    private mutating func grow(_ s: Int, toHold offset: Int) {
        let newCount = Swift.max(offset + 1, 2 * sections[s].numbers.count)
        sections[s].numbers.append(contentsOf: repeatElement(-1, count: newCount - sections[s].numbers.count))
    }
}
