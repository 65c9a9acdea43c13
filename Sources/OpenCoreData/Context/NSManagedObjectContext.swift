import Foundation
import Synchronization

/// A scratch pad for managed objects: it fetches them, tracks their changes, validates, undoes,
/// and saves them through its coordinator.
///
/// ```swift
/// let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
/// context.persistentStoreCoordinator = coordinator
/// try context.performAndWait {
///     let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
///     e.setValue("Fiona", forKey: "firstName")
///     try context.save()
/// }
/// ```
///
/// A context and its objects belong to its queue: use them inside `perform` or `performAndWait`
/// (a main-queue context also directly from main-queue blocks and `@MainActor` code, on whichever
/// thread runs them). Pass `NSManagedObjectID`s, not objects, between contexts.
open class NSManagedObjectContext: NSObject, @unchecked Sendable {
    // @unchecked Sendable: all mutable state is confined to `queue`; the context itself may be
    // handed across threads to call perform/performAndWait, as on Apple platforms.

    /// The queue a context is made for, in the overlay's spelling: `NSManagedObjectContext(.mainQueue)`.
    public struct ConcurrencyType: Hashable, RawRepresentable, Sendable {
        public var rawValue: NSManagedObjectContextConcurrencyType
        public init(rawValue: NSManagedObjectContextConcurrencyType) { self.rawValue = rawValue }
        /// A context on the main queue (``NSManagedObjectContextConcurrencyType/mainQueueConcurrencyType``).
        public static let mainQueue = ConcurrencyType(rawValue: .mainQueueConcurrencyType)
        /// A context on a queue of its own (``NSManagedObjectContextConcurrencyType/privateQueueConcurrencyType``).
        public static let privateQueue = ConcurrencyType(rawValue: .privateQueueConcurrencyType)
    }

    public let concurrencyType: NSManagedObjectContextConcurrencyType
    let queue: DispatchQueue
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    /// Marks the main queue, so that code the main queue runs is recognised on any thread: under
    /// `dispatchMain()` or an async `main`, main-queue blocks and `@MainActor` code run on a
    /// dispatch worker thread, not on thread 0. Set once, before the first main-queue context
    /// exists (a static `let` is initialised exactly once, under a lock).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// The coordinator this context fetches from and saves to.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get { confinedState.coordinator ?? parent?.persistentStoreCoordinator }
        set {
            confinedState.coordinator = newValue
            if automaticallyMergesChangesFromParent { observeParentSaves() }
        }
    }
    /// Calls `body` with the coordinator set on this context itself (none for a child context),
    /// borrowed, not retained. `body` must not change this context's coordinator.
    @inline(__always) final func withRootCoordinator(_ body: (NSPersistentStoreCoordinator) -> Void) {
        confinedState.unretainedCoordinator?.withObject(body)
    }

    /// A parent context receives this context's saves instead of a store (see the persistence issue).
    open var parent: NSManagedObjectContext? {
        get { confinedState.parent }
        set {
            confinedState.parent = newValue
            if automaticallyMergesChangesFromParent { observeParentSaves() }
        }
    }

    open var name: String?
    open var transactionAuthor: String?
    /// Whether saves of the parent context (for a root context: of other contexts on the same
    /// coordinator) are merged into this context automatically, on its queue.
    open var automaticallyMergesChangesFromParent = false {
        didSet { observeParentSaves() }
    }
    private var parentSaveObserver: NSObjectProtocol?
    /// How conflicts are resolved at save; `.error` (the default) reports them.
    open var mergePolicy: Any {
        get { confinedState.mergePolicy }
        set { confinedState.mergePolicy = newValue }
    }
    /// How old (in seconds) a cached row may be for a fault to fire from it instead of reading
    /// the store. Negative (the default): any age; 0: always read the store.
    open var stalenessInterval: TimeInterval {
        get { confinedState.stalenessInterval }
        set { confinedState.stalenessInterval = newValue }
    }
    /// Whether a fault whose record is gone from the store is treated as deleted when it fires
    /// (true, the default): it reads as default values and `isDeleted` is true. Consulted through
    /// ``shouldHandleInaccessibleFault(_:for:triggeredByProperty:)``.
    open var shouldDeleteInaccessibleFaults = true

    /// Whether the context handles `fault`, whose record is gone from the store, as deleted
    /// (see ``shouldDeleteInaccessibleFaults``, which the default answers). Override it to decide
    /// per object; when it answers false the fault reads as default values without being
    /// marked deleted (Apple's framework raises an exception then).
    open func shouldHandleInaccessibleFault(_ fault: NSManagedObject, for oid: NSManagedObjectID, triggeredByProperty property: NSPropertyDescription?) -> Bool {
        shouldDeleteInaccessibleFaults
    }

    /// Whether deletes propagate (delete rules run) at the end of each event (true, the
    /// default), or only when the context saves.
    open var propagatesDeletesAtEndOfEvent: Bool {
        get { confinedState.propagatesDeletesAtEndOfEvent }
        set { confinedState.propagatesDeletesAtEndOfEvent = newValue }
    }

    /// The lock of Apple's deprecated `NSLocking` methods (``lock()``); the context's queue
    /// confines it, not this lock.
    private let lockingLock = NSRecursiveLock()

    /// Takes the context's lock, as Apple's deprecated `NSLocking` methods do. A queue context is
    /// confined by its queue whatever the lock: use `perform` and `performAndWait` instead.
    @available(*, deprecated, message: "Use a queue style context and performAndWait(_:) instead")
    open func lock() { lockingLock.lock() }
    /// Takes the context's lock if it is free (see ``lock()``).
    @available(*, deprecated, message: "Use a queue style context and perform(_:) instead")
    open func tryLock() -> Bool { lockingLock.try() }
    /// Gives the context's lock back (see ``lock()``).
    @available(*, deprecated, message: "Use a queue style context and performAndWait(_:) instead")
    open func unlock() { lockingLock.unlock() }
    /// Whether the context keeps every registered object alive. By default (false) it keeps only
    /// objects with unsaved changes; the others live as long as the application holds them.
    open var retainsRegisteredObjects: Bool {
        get { registry.retainsObjects }
        set { registry.retainsObjects = newValue }
    }
    /// The application's own values, kept with the context.
    public let userInfo = NSMutableDictionary()

    /// The undo manager recording this context's changes. `nil` by default (as on iOS): set one
    /// to enable undo. Changes are grouped per event: each `processPendingChanges` closes a group.
    open var undoManager: UndoManager? {
        get { confinedState.undoManager }
        set {
            confinedState.undoManager = newValue
            observeUndoCheckpoints()
        }
    }
    private var checkpointObserver: NSObjectProtocol?

    // Change tracking state; see NSManagedObjectContext+Changes.swift.
    let registry = ObjectRegistry()
    /// ``state`` without the queue check, for an object's `deinit` only. An object is freed on
    /// whichever thread drops its last reference; the check would stop a program that drops one
    /// off the queue once the context is idle (a notification kept past its block, a test's
    /// teardown). That is safe only while the context is idle: the `deinit` writes the identity
    /// map and the deferred releases without a lock, so freeing an object off the queue while
    /// the context works on its queue is a data race, as any use of an object off its queue is.
    /// Let objects go on their context's queue.
    var stateForFreedObjects: ContextState {
        @inline(__always) _read { yield confinedState }
        @inline(__always) _modify { yield &confinedState }
    }
    /// The query generation the context reads (`setQueryGenerationFrom(_:)`). Behind its own
    /// lock, not in ``state``: faults fire wherever their objects are read (see
    /// ``transitioningObject``), and the first read after `.current` fixes the generation.
    let queryGenerationPin = Mutex(QueryGenerationPin.unpinned)
    /// The object whose faulting hook (`awakeFromFetch`, `willTurnIntoFault`,
    /// `didTurnIntoFault`) is running: its `faultingState` is not 0. Outside ``state`` because
    /// a fault fires wherever its object is read, and that path checks no queue.
    @exclusivity(unchecked) var transitioningObject: ObjectIdentifier?
    /// What changes while the context works; see ``ContextState`` and ``state``.
    @exclusivity(unchecked) private var confinedState = ContextState()
    /// The context's change tracking and fetch scratch state. On the context's queue only:
    /// debug builds stop with a message otherwise (the rule ``ContextState`` relies on). The
    /// configuration (coordinator, parent, merge policy, staleness, undo manager) is read and
    /// set through the public properties, unchecked: applications set it before they share the
    /// context, often outside `perform`, as on Apple platforms.
    var state: ContextState {
        @inline(__always) _read {
            assertOnQueue("a context's objects and changes")
            yield confinedState
        }
        @inline(__always) _modify {
            assertOnQueue("a context's objects and changes")
            yield &confinedState
        }
    }

    /// A context of `type` (`.mainQueue` or `.privateQueue`).
    public convenience init(_ type: ConcurrencyType) {
        self.init(concurrencyType: type.rawValue)
    }

    public init(concurrencyType: NSManagedObjectContextConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueueConcurrencyType:
            queue = .main
            _ = Self.mainQueueKey
        case .privateQueueConcurrencyType: queue = DispatchQueue(label: "OpenCoreData.NSManagedObjectContext")
        }
        super.init()
        if concurrencyType == .privateQueueConcurrencyType {
            queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        }
    }

    /// A private-queue context on `other`'s queue: code running there may use both contexts.
    /// `NSMigrationManager` makes its source context this way, because a migration policy reads
    /// source objects and writes destination objects in the same call, as on Apple platforms.
    init(sharingQueueOf other: NSManagedObjectContext) {
        concurrencyType = .privateQueueConcurrencyType
        queue = other.queue
        queueOwner = other.queueOwner ?? ObjectIdentifier(other)
        super.init()
    }

    /// The context whose identity marks `queue` (see ``init(sharingQueueOf:)``); nil: this one.
    private var queueOwner: ObjectIdentifier?

    deinit {
        if let checkpointObserver { NotificationCenter.default.removeObserver(checkpointObserver) }
        if let parentSaveObserver { NotificationCenter.default.removeObserver(parentSaveObserver) }
        // Runs on whichever thread let the context go; nothing else reaches it now, so its
        // state is read without the queue check of `state`.
        for o in registry.allObjects {
            if o.flags.contains(.holdsSnapshot) {
                releaseSnapshot(of: o, key: o.assignedObjectKey, deferringInto: &confinedState.deferredReleases)
            }
            o.managedObjectContext = nil
        }
    }

    /// The model of this context's coordinator.
    var managedObjectModel: NSManagedObjectModel? { persistentStoreCoordinator?.managedObjectModel }

    // MARK: Queue confinement

    /// Whether the caller is on this context's queue. Decided by the queue, not by the thread: a
    /// main-queue block is on the main queue whichever thread drains it. Thread 0 outside any
    /// block counts too, as on Apple platforms (the main thread is the main queue's there).
    var isOnQueue: Bool {
        switch concurrencyType {
        case .mainQueueConcurrencyType: return DispatchQueue.getSpecific(key: Self.mainQueueKey) == true || Thread.isMainThread
        case .privateQueueConcurrencyType: return DispatchQueue.getSpecific(key: Self.queueKey) == (queueOwner ?? ObjectIdentifier(self))
        }
    }

    /// Stops with a message when called off the context's queue — in debug builds only, like
    /// Apple's `-com.apple.CoreData.ConcurrencyDebug 1`, but always on, since a data race on a
    /// context corrupts its object graph silently.
    @inline(__always) func assertOnQueue(_ function: StaticString = #function) {
        #if DEBUG
        if !isOnQueue {
            preconditionFailure("\(function): this \(concurrencyType == .mainQueueConcurrencyType ? "main-queue" : "private-queue") context\(name.map { " '\($0)'" } ?? "") was used off its queue. Wrap the call in context.perform { } or context.performAndWait { }\(concurrencyType == .mainQueueConcurrencyType ? ", or call it from the main queue or @MainActor code" : "").")
        }
        #endif
    }

    /// Runs `block` on the context's queue and waits for it. Reentrant: called on the queue
    /// already, it runs inline.
    open func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try Self.performing.with(self, block) }
        return try queue.sync { try Self.performing.with(self, block) }
    }

    /// The contexts whose `perform` or `performAndWait` blocks are running on this thread,
    /// innermost last (what `NSFetchRequest.execute()` runs in).
    static let performing = ThreadLocalStack<NSManagedObjectContext>()

    /// Runs `block` on the context's queue, asynchronously. The block is one event: its changes
    /// are processed (delete rules, objects-did-change) when it ends, as on Apple platforms.
    open func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async {
            Self.performing.with(self, block)
            self.processPendingChanges()
        }
    }

    /// Runs `block` on the context's queue and returns its result.
    ///
    /// ```swift
    /// let count = try await context.perform { try context.count(for: request) }
    /// ```
    ///
    /// Apple declares one `rethrows` method; Swift cannot rethrow an error that crossed a
    /// continuation, so there are two overloads, one for throwing blocks and one for the rest.
    open func perform<T>(schedule: ScheduledTaskType = .immediate, _ block: @escaping () throws -> T) async throws -> T {
        let box = UncheckedSendableBox(block)
        let result: UncheckedSendableBox<Result<T, Error>> = await withCheckedContinuation { continuation in
            // Enqueued, the block is an event of its own, which ends with it (see perform(_:)).
            let run: @Sendable (Bool) -> Void = { endsEvent in
                let result = Result { try Self.performing.with(self) { try box.value() } }
                if endsEvent { self.processPendingChanges() }
                continuation.resume(returning: UncheckedSendableBox(result))
            }
            if schedule == .immediate && isOnQueue { run(false) } else { queue.async { run(true) } }
        }
        return try result.value.get()
    }

    open func perform<T>(schedule: ScheduledTaskType = .immediate, _ block: @escaping () -> T) async -> T {
        let box = UncheckedSendableBox(block)
        let result: UncheckedSendableBox<T> = await withCheckedContinuation { continuation in
            let run: @Sendable (Bool) -> Void = { endsEvent in
                let result = Self.performing.with(self) { box.value() }
                if endsEvent { self.processPendingChanges() }
                continuation.resume(returning: UncheckedSendableBox(result))
            }
            if schedule == .immediate && isOnQueue { run(false) } else { queue.async { run(true) } }
        }
        return result.value
    }

    /// When `perform(schedule:_:)` runs its block.
    public enum ScheduledTaskType: Sendable {
        /// Inline if the caller is on the context's queue, otherwise enqueued.
        case immediate
        /// Always enqueued.
        case enqueued
    }

    private func observeParentSaves() {
        if let parentSaveObserver { NotificationCenter.default.removeObserver(parentSaveObserver) }
        parentSaveObserver = nil
        guard automaticallyMergesChangesFromParent else { return }
        let weakSelf = WeakContextReference(self)
        // The parent and the coordinator are this context's confined state, and the observer
        // runs on the saver's thread: it compares with references taken here, on this
        // context's queue (the setters of both register again).
        let expectedParent = parent.map(WeakContextReference.init)
        let coordinator = WeakCoordinatorReference(persistentStoreCoordinator)
        parentSaveObserver = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: nil, queue: nil) { note in
            guard let context = weakSelf.context, let saver = note.object as? NSManagedObjectContext, saver !== context else { return }
            // The saver posts on its own queue: reading its state here is confined.
            if let expectedParent {
                guard saver === expectedParent.context else { return }
            } else {
                guard saver.parent == nil, let coordinator = coordinator.coordinator, saver.persistentStoreCoordinator === coordinator else { return }
            }
            // Only IDs and rows cross to this context's queue; the saved objects belong to the saver's.
            let ids = UncheckedSendableBox([NSInsertedObjectIDsKey, NSUpdatedObjectIDsKey, NSDeletedObjectIDsKey].reduce(into: [String: Any]()) {
                $0[$1] = note.userInfo?[$1]
            })
            // A parent saves on its own queue, where this runs: its updated records are taken
            // now, so the merge never waits for the parent's queue. A main-queue parent's thread
            // may be waiting for this context (performAndWait) while the merge runs: waiting
            // back would deadlock.
            var parentRows: [NSManagedObjectID: StoreRow] = [:]
            if let expectedParent, saver === expectedParent.context, saver.isOnQueue {
                for id in note.userInfo?[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> ?? [] {
                    parentRows[id] = try? saver.rowForChild(id)
                }
            }
            let rows = UncheckedSendableBox(parentRows)
            context.perform {
                guard let context = weakSelf.context else { return }
                context.mergeChanges(fromContextDidSave: Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: ids.value),
                                     parentRows: rows.value)
            }
        }
    }

    private func observeUndoCheckpoints() {
        if let checkpointObserver { NotificationCenter.default.removeObserver(checkpointObserver) }
        checkpointObserver = nil
        guard let undoManager else { return }
        // Apple's context flushes pending changes at every checkpoint, so that changes made since
        // the last event land in the undo group being closed or undone.
        let weakSelf = WeakContextReference(self)
        checkpointObserver = NotificationCenter.default.addObserver(forName: .NSUndoManagerCheckpoint, object: undoManager, queue: nil) { _ in
            guard let context = weakSelf.context, context.isOnQueue, !context.state.isProcessingPendingChanges else { return }
            context.processPendingChanges()
        }
    }
}


final class WeakContextReference: @unchecked Sendable {
    weak var context: NSManagedObjectContext?
    init(_ context: NSManagedObjectContext) { self.context = context }
}

/// A coordinator held weakly, for an observer that must not keep it alive.
final class WeakCoordinatorReference: @unchecked Sendable {
    weak var coordinator: NSPersistentStoreCoordinator?
    init(_ coordinator: NSPersistentStoreCoordinator?) { self.coordinator = coordinator }
}

/// The coordinator and the stores below receive the context a fetch or fault is for as an
/// opaque reference (``RequestingContext``), so that the coordinator layer does not depend on
/// contexts.
extension NSManagedObjectContext: RequestingContext {}

/// The queue a context belongs to. Apple's third kind, `confinementConcurrencyType` (deprecated
/// since iOS 9), is not offered: see docs/DEVIATIONS.md.
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    /// The context makes a private queue; use it through `perform` and `performAndWait`.
    case privateQueueConcurrencyType = 1
    /// The context belongs to the main queue.
    case mainQueueConcurrencyType = 2
}
