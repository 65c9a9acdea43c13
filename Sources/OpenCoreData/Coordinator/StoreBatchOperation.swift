import Foundation

// Batch requests as the coordinator hands them to a store (the store contract's batch part).
// The context has checked the request against the model and turned its values into stored
// form; the store changes its records without contexts, in one transaction.

/// The records a batch update or delete changes.
enum BatchTarget {
    /// The records `plan` matches, in its order, after its offset and within its limit. Given
    /// only to a store whose prepared fetch of the plan is exact (`PreparedStoreFetch.isExact`):
    /// otherwise the context finds the records and names them by ID.
    case matching(FetchPlan)
    /// These records; IDs without a record are left out.
    case objectIDs([NSManagedObjectID])
}

/// A batch delete: the target's records, then the delete rules of their relationships.
struct BatchDeletion {
    let entity: NSEntityDescription
    let target: BatchTarget
    /// Whether the outcome must list the deleted records (see ``BatchOutcome/listsRecords``).
    let listsRecords: Bool
    /// What persistent history records about the request (a store that keeps history).
    var history: HistoryTransactionInfo? = nil
}

/// A batch update: the target's records get `values`, and their versions go up by one.
struct BatchUpdate {
    let entity: NSEntityDescription
    let target: BatchTarget
    /// Attribute slots and what to store there.
    let values: [(slot: Int, attribute: NSAttributeDescription, value: BatchUpdateValue)]
    /// Whether the outcome must list the updated records (see ``BatchOutcome/listsRecords``).
    let listsRecords: Bool
    var history: HistoryTransactionInfo? = nil
}

/// One value of a batch update.
enum BatchUpdateValue {
    /// The same value for every record.
    case constant(StoredValue)
    /// A value per record (an expression the context evaluated for each); the target names the
    /// records by ID, and a record missing here keeps its value.
    case perRecord([ObjectKey: StoredValue])
}

/// A batch insert: new records of one entity, relationships empty. The context has already
/// applied its merge policy to uniqueness conflicts with stored records: a new row that would
/// replace a stored record's values comes as a replacement, one that would not is left out.
struct BatchInsertion {
    let entity: NSEntityDescription
    /// Complete rows in slot order (defaults filled in), without IDs yet.
    let rows: [RowValues]
    /// Whether the outcome must list the new records (an "object IDs" result): making an ID
    /// object per record is a batch insert's largest cost after writing.
    let listsRecords: Bool
    /// Stored records that take new attribute values (Apple's upsert): the slots listed take
    /// the values' values; the other attributes and the relationships stay. The version goes up
    /// by one.
    var replacements: [BatchReplacement] = []
    var history: HistoryTransactionInfo? = nil
}

/// A stored record a batch insert overwrites.
struct BatchReplacement {
    let objectID: NSManagedObjectID
    let values: RowValues
    /// The attribute slots the request gave values for.
    let slots: [Int]
}

/// A batch request as a store receives it.
enum BatchOperation {
    case delete(BatchDeletion)
    case update(BatchUpdate)
    case insert(BatchInsertion)
}

/// What a batch request changed.
struct BatchOutcome {
    /// What the request's result counts: records its own selection deleted (cascades are not
    /// counted, as in Apple's stores), records updated, or records inserted and upserted.
    var count = 0
    /// The records the result lists for the "object IDs" result types: the same as ``count``.
    var objectIDs: [NSManagedObjectID] = []
    /// Every record deleted, cascades included, and every record whose values changed (nullified
    /// inverses, upserts): the coordinator drops their cached rows.
    var deleted: [NSManagedObjectID] = []
    var updated: [NSManagedObjectID] = []
    /// Whether the lists above name every changed record. A store that changes records by a
    /// WHERE clause without listing them leaves this false for a request that wants only a
    /// status or a count; the coordinator then drops its cached rows of the entity's hierarchy.
    var listsRecords = true
}
