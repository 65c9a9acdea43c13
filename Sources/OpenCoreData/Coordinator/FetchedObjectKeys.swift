import Foundation

/// The records a fetch matched, in order, as compact keys: a primary key per row and, only when
/// the rows belong to several entities, a 2-byte entity index per row.
///
/// ```swift
/// if let keys = try coordinator.prepareFetch(plan).objectKeys() {   // SQLite: SELECT Z_PK, Z_ENT ...
///     let id = keys.objectID(at: 0)                          // made on demand
/// }
/// ```
///
/// A batched fetch of 1,000,000 rows (``NSBatchFaultingArray``) must not hold 1,000,000
/// `NSManagedObjectID` objects (about 60 bytes each, plus their allocation headers): this holds
/// 8 bytes a row for a fetch of one entity, 10 with subentities, and makes IDs only for the
/// batches that are touched. Each row's identity-map key (``key(at:)``) needs no ID at all, so a
/// registered object is found without allocating.
struct FetchedObjectKeys {
    /// The store every row comes from (a batched fetch has a single store). Held strongly: the
    /// keys are useless without it, and the origins hold it weakly, so an `NSManagedObjectID`
    /// made after it went would name no store.
    let store: NSPersistentStore
    /// The ID origins of the rows' distinct entities, in order of first appearance.
    private var origins: [ObjectIDOrigin] = []
    private(set) var primaryKeys: [Int64] = []
    /// Per row, the index of its entity in ``origins``; empty while every row is of
    /// `origins[0]`'s entity (the usual case, which then costs nothing per row).
    private var entityIndices: [UInt16] = []
    /// The origin of the row appended last, and its index: rows of one entity come in runs.
    private var lastOrigin: ObjectIDOrigin?
    private var lastIndex = 0

    init(store: NSPersistentStore) {
        self.store = store
    }

    var count: Int { primaryKeys.count }

    /// Adds a row. False when the rows span more entities than an index can name (65,536), in
    /// which case the caller falls back to listing object IDs.
    mutating func append(primaryKey: Int64, origin: ObjectIDOrigin) -> Bool {
        if origin !== lastOrigin {
            if let index = origins.firstIndex(where: { $0 === origin }) {
                lastIndex = index
            } else {
                guard origins.count <= Int(UInt16.max) else { return false }
                origins.append(origin)
                lastIndex = origins.count - 1
                if origins.count == 2 {
                    // The first row of a second entity: from now on each row names its entity.
                    entityIndices = Array(repeating: 0, count: primaryKeys.count)
                }
            }
            lastOrigin = origin
        }
        primaryKeys.append(primaryKey)
        if origins.count > 1 { entityIndices.append(UInt16(lastIndex)) }
        return true
    }

    /// Adds a row of the entity of the row added last (there must be one): rows of a table of
    /// one entity name their origin once, not once a row (a reference count each way).
    mutating func appendOfLastEntity(primaryKey: Int64) {
        assert(lastOrigin != nil, "appendOfLastEntity(primaryKey:) before any row")
        primaryKeys.append(primaryKey)
        if origins.count > 1 { entityIndices.append(UInt16(lastIndex)) }
    }

    /// The distinct entities of the rows, in order of first appearance.
    var entities: [NSEntityDescription] { origins.map(\.entity) }

    private func origin(at row: Int) -> ObjectIDOrigin {
        origins[entityIndices.isEmpty ? 0 : Int(entityIndices[row])]
    }

    /// The identity-map key of row `row`, without making an ID.
    func key(at row: Int) -> ObjectKey { origin(at: row).key(primaryKeys[row]) }

    /// Row `row`'s record, without making an ID.
    func identity(at row: Int) -> ObjectIdentity { .stored(origin(at: row), primaryKey: primaryKeys[row]) }

    /// A new object ID for row `row`.
    func objectID(at row: Int) -> NSManagedObjectID { origin(at: row).objectID(primaryKeys[row]) }

    /// Every row's object ID (for stores that list IDs: the eager batched `fetch(_:)`).
    var objectIDs: [NSManagedObjectID] { (0..<count).map(objectID(at:)) }
}
