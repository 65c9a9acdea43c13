extension Dictionary {
    /// Rebuilds the table smaller once it is at most 1/16 full.
    ///
    /// `Dictionary` never gives back room as entries leave. The identity map and the row cache
    /// grow to hundreds of thousands of buckets for a large fetch; once those objects are gone
    /// a few live entries would stay scattered over megabytes, and every lookup would touch a
    /// cold cache line, often a cold page: a 2,000-row fetch after a 200,000-row one took 9 ms,
    /// and 7.5 ms with this. Call it after each removal. A rebuild moves fewer entries than the
    /// removals that led to it, so its cost is amortised over them.
    ///
    /// Tables of at most `smallestCompactedCapacity` buckets are left alone: they stay warm,
    /// and shrinking them would only add rebuilds.
    ///
    /// Only every 64th count is looked at: this runs once per object freed, and reading the
    /// capacity each time cost more than the rebuilds.
    @inline(__always)
    mutating func compactIfSparse() {
        guard count & 63 == 0 else { return }
        let capacity = self.capacity
        guard capacity > DictionaryCompaction.smallestCompactedCapacity, count < capacity / 16 else { return }
        rebuildCompact()
    }

    private mutating func rebuildCompact() {
        var compact = Self(minimumCapacity: count * 2)
        for (key, value) in self { compact[key] = value }
        self = compact
    }
}

enum DictionaryCompaction {
    /// See ``Swift/Dictionary/compactIfSparse()``.
    static let smallestCompactedCapacity = 1024
}
