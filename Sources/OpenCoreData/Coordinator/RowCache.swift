import Foundation

/// The coordinator's snapshots of stored rows, shared by all its contexts (seed 003, "Snapshot
/// management").
///
/// A managed object that was filled from a row holds one reference to that row's entry; the
/// entry goes away when the last object using it is released, refreshed into a fault, or its
/// context is reset — so the cache does not grow while objects come and go. Fetches put rows here,
/// and faults fire from here without a store round trip while the row is younger than the
/// context's `stalenessInterval`. Saves through the coordinator keep entries current.
///
/// Guarded by the coordinator's lock.
final class RowCache {
    private struct Entry {
        var row: StoreRow
        var references: Int
        /// When the row was read; NaN for a row a context pinned to a query generation read,
        /// which may be older than the store's: such an entry counts references but never
        /// answers ``RowCache/row(for:stalenessInterval:)``.
        var loadedAt: TimeInterval

        /// One more object uses the row; a row at least as new replaces the cached one (a
        /// pinned read's row of the same version leaves the entry as it was: same values).
        mutating func retain(_ newer: StoreRow, at now: TimeInterval) {
            references += 1
            if newer.version > row.version || (newer.version == row.version && !now.isNaN) { row = newer; loadedAt = now }
        }

        /// One reference fewer; true when it was the last. Called in place
        /// (`entries[i].dropReference()`): reading `references` through the subscript
        /// instead copies the entry, row and all, three reference counts each way.
        mutating func dropReference() -> Bool {
            references -= 1
            return references == 0
        }
    }

    @exclusivity(unchecked) private var entries = ObjectKeyTable<Entry>()

    /// Records another process changed (``invalidate(_:isAffected:)``), with the first version
    /// that is current and when the change was announced: a row of an older version that a
    /// read begun before the announcement brings in afterwards must not answer faults either.
    /// Kept a minute, far longer than such a read takes; empty unless a store announces changes.
    private var staleBelow: [ObjectKey: (version: Int64, announced: TimeInterval)] = [:]

    /// `now`, or NaN when `row` is older than an announced change of its record.
    @inline(__always) private func loadTime(of row: StoreRow, _ now: TimeInterval) -> TimeInterval {
        guard !staleBelow.isEmpty, let stale = staleBelow[row.key] else { return now }
        guard row.version < stale.version else {
            staleBelow[row.key] = nil
            return now
        }
        return .nan
    }

    /// The number of cached rows.
    var count: Int { entries.count }

    /// The load time for rows read now: NaN inside a pinned context's read (a query
    /// generation's rows may be older than the store's, so they answer no one), else the clock.
    static var loadTimeNow: TimeInterval {
        QueryGenerationScope.isPinned ? .nan : ProcessInfo.processInfo.systemUptime
    }

    /// Caches `row` (replacing an older copy) and counts one more object using it.
    /// `now` is NaN for a row read by a context pinned to a query generation.
    func retain(_ row: StoreRow, at now: TimeInterval = ProcessInfo.processInfo.systemUptime) {
        retain(CollectionOfOne(row), at: now)
    }

    /// Caches a fetch's rows, one reference each. One clock read for the batch, and one lookup
    /// per row: an entry is updated in place, or made with its first reference.
    func retain<Rows: Collection>(_ rows: Rows, at now: TimeInterval) where Rows.Element == StoreRow {
        entries.reserveCapacity(forKeys: rows.lazy.map { $0.key })
        for row in rows where !row.isFault {  // a row without values is no snapshot
            let key = row.key
            let now = loadTime(of: row, now)
            let (index, inserted) = entries.index(forKey: key) { Entry(row: row, references: 1, loadedAt: now) }
            if !inserted { entries[index].retain(row, at: now) }
        }
    }

    /// Caches the rows of `rows` at `positions`, one reference each (a fetch's snapshot batch).
    /// The loop above, indexing instead of iterating: each row is copied once, straight into its
    /// entry, where a generic collection of rows (a lazy map over the positions) copied it twice.
    func retain(_ rows: [StoreRow], at positions: [Int], at now: TimeInterval) {
        entries.reserveCapacity(forKeys: positions.lazy.map { rows[$0].key })
        for i in positions where !rows[i].isFault {
            let key = rows[i].key
            let now = loadTime(of: rows[i], now)
            let (index, inserted) = entries.index(forKey: key) { Entry(row: rows[i], references: 1, loadedAt: now) }
            if !inserted { entries[index].retain(rows[i], at: now) }
        }
    }

    /// ``retain(_:at:at:)`` for rows the caller gives up: their values move into the cache,
    /// leaving `rows` without them, so no reference is taken here and none given back when
    /// `rows` is freed. Both had stalled on memory after a large fetch, whose rows' values are
    /// long out of the CPU caches by now.
    func retain(movingValuesOf rows: inout [StoreRow], at positions: [Int], at now: TimeInterval) {
        rows.withUnsafeMutableBufferPointer { buffer in
            let rows = buffer
            entries.reserveCapacity(forKeys: positions.lazy.map { rows[$0].key })
            for i in positions where !rows[i].isFault {
                let key = rows[i].key
                let now = loadTime(of: rows[i], now)
                let (index, inserted) = entries.index(forKey: key) { Entry(row: rows[i].movingValues(), references: 1, loadedAt: now) }
                if !inserted { entries[index].retain(rows[i].movingValues(), at: now) }
            }
        }
    }

    /// Replaces a cached row with a newer one (after a save or a fresh read); no new reference.
    func update(_ row: StoreRow) {
        update(row, at: ProcessInfo.processInfo.systemUptime)
    }

    /// Replaces the cached copies of rows just read or saved. Nothing cached (a first fetch,
    /// or after every object went away): one check instead of a lookup per row.
    func update(_ rows: [StoreRow]) {
        guard !entries.isEmpty else { return }
        let now = ProcessInfo.processInfo.systemUptime
        for i in rows.indices { update(rows[i], at: now) }
    }

    @inline(__always) private func update(_ row: StoreRow, at now: TimeInterval) {
        guard !row.isFault, let index = entries.index(forKey: row.key) else { return }
        entries[index].row = row
        entries[index].loadedAt = loadTime(of: row, now)
    }

    /// One object stopped using the row; the entry goes with the last one.
    func release(_ key: ObjectKey) {
        guard let index = entries.index(forKey: key), entries[index].dropReference() else { return }
        entries.remove(at: index)
    }

    /// The number of entries the table has room for (for tests of its shrinking).
    var capacity: Int { entries.capacity }

    /// The cached row, if it is no older than `stalenessInterval` seconds (negative: any age).
    func row(for key: ObjectKey, stalenessInterval: TimeInterval) -> StoreRow? {
        guard let entry = entries[key], !entry.loadedAt.isNaN else { return nil }
        if stalenessInterval >= 0, ProcessInfo.processInfo.systemUptime - entry.loadedAt > stalenessInterval { return nil }
        return entry.row
    }

    /// Forgets a deleted record's row.
    func remove(_ key: ObjectKey) {
        entries.removeValue(forKey: key)
    }

    /// Another process changed `records` (key, and the first version that is current; nil:
    /// possibly every row `isAffected` names): their entries keep their references but older
    /// rows no longer answer, so the next read goes to the store and a current row replaces
    /// the entry. Older rows that arrive later (``staleBelow``) do not answer either.
    func invalidate(_ records: [(key: ObjectKey, version: Int64)]?, isAffected: (StoreRow) -> Bool) {
        let now = ProcessInfo.processInfo.systemUptime
        if !staleBelow.isEmpty { staleBelow = staleBelow.filter { now - $0.value.announced < 60 } }
        guard let records else {
            entries.updateEach { entry in if isAffected(entry.row) { entry.loadedAt = .nan } }
            return
        }
        for (key, version) in records {
            if let index = entries.index(forKey: key), entries[index].row.version < version { entries[index].loadedAt = .nan }
            staleBelow[key] = (max(version, staleBelow[key]?.version ?? version), now)
        }
    }

    /// Forgets every row of `entities` (a batch request changed records without naming them).
    func removeRows(of entities: Set<ObjectIdentifier>) {
        for (key, entry) in entries.keysAndValues where entities.contains(ObjectIdentifier(entry.row.entity)) {
            entries.removeValue(forKey: key)
        }
    }
}
