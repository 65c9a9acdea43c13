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
        var loadedAt: TimeInterval
    }

    @exclusivity(unchecked) private var entries: [ObjectKey: Entry] = [:]

    /// The number of cached rows.
    var count: Int { entries.count }

    /// Caches `row` (replacing an older copy) and counts one more object using it.
    func retain(_ row: StoreRow) {
        // A row without values (an incremental store's fetch result) is no snapshot.
        guard !row.isFault else { return }
        let now = ProcessInfo.processInfo.systemUptime
        if var entry = entries[row.objectID.key] {
            entry.references += 1
            if row.version >= entry.row.version { entry.row = row; entry.loadedAt = now }
            entries[row.objectID.key] = entry
        } else {
            entries[row.objectID.key] = Entry(row: row, references: 1, loadedAt: now)
        }
    }

    /// Replaces a cached row with a newer one (after a save or a fresh read); no new reference.
    func update(_ row: StoreRow) {
        guard !row.isFault, var entry = entries[row.objectID.key] else { return }
        entry.row = row
        entry.loadedAt = ProcessInfo.processInfo.systemUptime
        entries[row.objectID.key] = entry
    }

    /// One object stopped using the row; the entry goes with the last one.
    func release(_ key: ObjectKey) {
        guard var entry = entries[key] else { return }
        entry.references -= 1
        entries[key] = entry.references > 0 ? entry : nil
    }

    /// The cached row, if it is no older than `stalenessInterval` seconds (negative: any age).
    func row(for key: ObjectKey, stalenessInterval: TimeInterval) -> StoreRow? {
        guard let entry = entries[key] else { return nil }
        if stalenessInterval >= 0, ProcessInfo.processInfo.systemUptime - entry.loadedAt > stalenessInterval { return nil }
        return entry.row
    }

    /// Forgets a deleted record's row.
    func remove(_ key: ObjectKey) { entries[key] = nil }
}
