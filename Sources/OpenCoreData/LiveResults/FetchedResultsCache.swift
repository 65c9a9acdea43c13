import Foundation

/// The section caches of fetched results controllers, by cache name, for this process.
///
/// A controller with a `cacheName` leaves its section information here when it goes away; a
/// later controller with the same name and configuration (entity, predicate, sort descriptors,
/// section key path) whose fetch returns the same objects in the same order takes the section
/// names from the cache instead of reading the section key path of every object (which may
/// fault in related objects). A cache that does not match is not used and is replaced, so it
/// never changes an answer. Apple's controller keeps its cache in a file across launches; this
/// one lives as long as the process (docs/DEVIATIONS.md).
final class FetchedResultsCache: @unchecked Sendable {
    // @unchecked Sendable: every access to `entries` holds `lock`.

    struct Snapshot {
        var configuration: String
        var objectIDs: [NSManagedObjectID]
        /// The section name of each object, in the order of `objectIDs`.
        var sectionNames: [String]
    }

    static let shared = FetchedResultsCache()

    private let lock = NSLock()
    private var entries: [String: Snapshot] = [:]

    func store(_ snapshot: Snapshot, named name: String) {
        lock.withLock { entries[name] = snapshot }
    }

    /// The cached section name of each of `objects`, when the cache `name` was made under
    /// `configuration` for exactly these objects.
    func sectionNames(named name: String, configuration: String, objects: [NSManagedObject]) -> [String]? {
        guard let entry = lock.withLock({ entries[name] }), entry.configuration == configuration,
              entry.objectIDs.count == objects.count else { return nil }
        for (id, object) in zip(entry.objectIDs, objects) where id != object.objectID { return nil }
        return entry.sectionNames
    }

    /// Whether a cache of that name exists.
    func contains(_ name: String) -> Bool {
        lock.withLock { entries[name] != nil }
    }

    /// Removes one cache, or all of them when `name` is nil.
    func delete(named name: String?) {
        lock.withLock {
            if let name { entries[name] = nil } else { entries.removeAll() }
        }
    }
}
