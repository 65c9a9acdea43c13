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
}

/// A batch update: the target's records get `values`, and their versions go up by one.
struct BatchUpdate {
    let entity: NSEntityDescription
    let target: BatchTarget
    /// Attribute slots and what to store there.
    let values: [(slot: Int, attribute: NSAttributeDescription, value: BatchUpdateValue)]
    /// Whether the outcome must list the updated records (see ``BatchOutcome/listsRecords``).
    let listsRecords: Bool
}

/// One value of a batch update.
enum BatchUpdateValue {
    /// The same value for every record.
    case constant(StoredValue)
    /// An expression evaluated per record, against the record's attribute values by name
    /// (`salary * 1.1`).
    case expression(NSExpression)
}

/// A batch insert: new records of one entity, relationships empty. The context has already
/// applied its merge policy to uniqueness conflicts with stored records: a new row that would
/// replace a stored record's values comes as a replacement, one that would not is left out.
struct BatchInsertion {
    let entity: NSEntityDescription
    /// Complete rows in slot order (defaults filled in), without IDs yet.
    let rows: [RowValues]
    /// Stored records that take new attribute values (Apple's upsert): every attribute slot of
    /// the values replaces the record's; its relationships stay. The version goes up by one.
    var replacements: [(objectID: NSManagedObjectID, values: RowValues)] = []
}

/// A batch request as a store receives it.
enum BatchOperation {
    case delete(BatchDeletion)
    case update(BatchUpdate)
    case insert(BatchInsertion)
}

/// What a batch request changed.
struct BatchOutcome {
    /// Records the request deleted (cascades included), updated, or inserted and replaced.
    var count = 0
    var deleted: [NSManagedObjectID] = []
    /// Records updated: by a batch update, replaced by a batch insert, or changed by a delete's
    /// nullify rule (those are not counted in ``count``).
    var updated: [NSManagedObjectID] = []
    var inserted: [NSManagedObjectID] = []
    /// Whether the lists above name every changed record. A store that changes records by a
    /// WHERE clause without listing them leaves this false for a request that wants only a
    /// status or a count; the coordinator then drops its cached rows of `entity`'s hierarchy.
    var listsRecords = true
}
