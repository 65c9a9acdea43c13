import Foundation

/// Everything about a context that changes while it works: its configuration, what it has
/// inserted, updated, deleted and locked, the current event's changes, and the scratch state of
/// a fetch in progress.
///
/// ```swift
/// context.state.inserted.insert(object)      // on the context's queue
/// ```
///
/// A context stores one `ContextState`, unchecked for exclusivity, and reaches its changes only
/// through ``NSManagedObjectContext/state``, which in debug builds stops with a message when it
/// is used off the context's queue. That rule is what makes the unchecked exclusivity sound:
/// the accesses run on one serial queue, so no two on different threads overlap, and the
/// runtime's per-access check (a call on each of the tens of reads an inserted or changed object
/// costs) would have nothing to find across threads. On one thread, accesses do nest: a write
/// to a field can free an object whose `deinit` writes ``deferredReleases``, and a release in
/// progress (`&state.deferredReleases`) reads the coordinator fields. They stay sound because
/// each nested access touches other fields than the access around it, and no field here is
/// replaced as a whole while a nested access reads it. Two exceptions, each stated where it is made: the configuration, which the public
/// properties read and set unchecked (it is set before the context is shared), and an object's
/// `deinit` (``NSManagedObjectContext/stateForFreedObjects``).
struct ContextState {
    // Configuration, behind the context's public properties.
    /// The coordinator set on the context itself (none for a child context).
    var coordinator: NSPersistentStoreCoordinator? {
        didSet { unretainedCoordinator = coordinator.map(UnretainedReference.init) }
    }
    /// `coordinator`, for calls that borrow it instead of retaining it: its stores keep weak
    /// references to it, and retaining an object that has weak references takes the runtime's
    /// slow path (paid for every object a root context frees).
    private(set) var unretainedCoordinator: UnretainedReference<NSPersistentStoreCoordinator>?
    var parent: NSManagedObjectContext?
    var mergePolicy: Any = NSMergePolicy.error
    var stalenessInterval: TimeInterval = -1
    var undoManager: UndoManager?

    // Change tracking.
    /// Objects inserted since the last save (not deleted again).
    var inserted = ManagedObjectSet()
    /// Registered objects changed since the last save.
    var updated = ManagedObjectSet()
    /// Objects deleted since the last save (inserted ones included until the event ends).
    var deleted = ManagedObjectSet()
    /// Unchanged objects whose versions the next save checks and bumps (`detectConflicts(for:)`).
    var lockedObjects = ManagedObjectSet()

    // The current event: changes since the last `processPendingChanges()`.
    var eventInserted = ManagedObjectSet()
    var eventUpdated = ManagedObjectSet()
    var eventDeleted = ManagedObjectSet()
    /// Objects deleted this event whose delete rules have not run yet.
    var deletesToPropagate: [NSManagedObject] = []
    var eventChangedObjects: [NSManagedObject] = []
    var isProcessingPendingChanges = false
    /// Objects refreshed in the current event, reported under `NSRefreshedObjectsKey` when it ends.
    var eventRefreshed = Set<NSManagedObject>()
    /// Objects a merge registered, kept alive until the event ends (Apple's autorelease pool
    /// keeps them), so that `registeredObject(for:)` finds them after the merge.
    var mergedObjectsKeptForEvent: [NSManagedObject] = []
    /// Whether a main-queue context has asked the main queue to end the current event.
    var endOfEventScheduled = false
    /// Whether deletes propagate when an event ends (`propagatesDeletesAtEndOfEvent`), or only at save.
    var propagatesDeletesAtEndOfEvent = true
    /// Stores new objects are to be saved to (`assign(_:to:)`), by their temporary keys.
    var assignedStores: [ObjectKey: NSPersistentStore] = [:]
    /// An `assign(_:to:)` Apple would refuse with an exception, thrown by the next save.
    var assignmentError: NSError?

    // A fetch in progress.
    /// Loaders of recent batched fetches (`fetchBatchSize`); see ``FetchBatchLoader``.
    var batchLoaders: [FetchBatchLoader] = []
    /// Loaders of recently loaded to-many relationships' members, kept apart so that reading
    /// many relationships never pushes a batched fetch's loader out.
    var relationshipLoaders: [FetchBatchLoader] = []
    /// While a fetch materialises its rows: the rows whose new objects took a snapshot
    /// reference, handed to the coordinator's cache in one locked call at the end.
    var deferredSnapshots: SnapshotBatch?
    /// Row-cache keys whose references are given back together (``NSManagedObjectContext/batchingSnapshotReleases(_:)``).
    var deferredReleases: [ObjectKey]?
    /// The entity `init(context:)` found last, with the class and model it was found for (see
    /// ``NSManagedObject/entity(in:)``).
    var entityOfLastClass: (type: ObjectIdentifier, model: NSManagedObjectModel, entity: NSEntityDescription)?
}
