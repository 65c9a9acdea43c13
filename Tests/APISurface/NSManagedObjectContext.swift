import OpenCoreData

// NSManagedObjectContext: initializers, properties, methods and nested types, spelled as in
// Apple's Swift documentation (developer.apple.com/documentation/coredata/nsmanagedobjectcontext)
// and cross-checked against the generated Swift interface of NSManagedObjectContext.h and the
// per-symbol documentation pages. The notification names, user-info keys and
// NSManagedObjectContext.NotificationKey are in NSManagedObjectContext+Notifications.swift.

// MARK: - Creating a context

/// api: NSManagedObjectContext.init(_:)
func api_NSManagedObjectContext_init_type() {
    let _: NSManagedObjectContext = NSManagedObjectContext(.privateQueue)
    let _: NSManagedObjectContext = NSManagedObjectContext(NSManagedObjectContext.ConcurrencyType.mainQueue)
}

/// api: NSManagedObjectContext.init(concurrencyType:)
func api_NSManagedObjectContext_init_concurrencyType() {
    let _: NSManagedObjectContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
}

// deprecated (iOS 9 / macOS 10.11): use init(concurrencyType:)
/// api: NSManagedObjectContext.init()
func api_NSManagedObjectContext_init() {
    let _: NSManagedObjectContext = NSManagedObjectContext()
}

// deprecated (iOS 9 / macOS 10.11): use init(concurrencyType:)
/// api: NSManagedObjectContext.new()
func api_NSManagedObjectContext_new() {
    let _: NSManagedObjectContext = NSManagedObjectContext.new()
}

// Through NSManagedObjectContext's NSCoding conformance (Apple: "Conforms To NSCoding"; the
// generated interface declares `class NSManagedObjectContext : NSObject, NSCoding, NSLocking`).
/// api: NSManagedObjectContext.init(coder:)
func api_NSManagedObjectContext_init_coder(_ coder: NSCoder) {
    let _: NSManagedObjectContext? = NSManagedObjectContext(coder: coder)
}

/// api: NSManagedObjectContext.encode(with:)
func api_NSManagedObjectContext_encode_with(_ context: NSManagedObjectContext, _ coder: NSCoder) {
    context.encode(with: coder)
}

// MARK: - NSManagedObjectContext.ConcurrencyType

/// api: NSManagedObjectContext.ConcurrencyType.mainQueue
func api_NSManagedObjectContext_ConcurrencyType_mainQueue() {
    let _: NSManagedObjectContext.ConcurrencyType = .mainQueue
}

/// api: NSManagedObjectContext.ConcurrencyType.privateQueue
func api_NSManagedObjectContext_ConcurrencyType_privateQueue() {
    let _: NSManagedObjectContext.ConcurrencyType = .privateQueue
}

/// api: NSManagedObjectContext.ConcurrencyType.init(rawValue:)
func api_NSManagedObjectContext_ConcurrencyType_init_rawValue() {
    let _: NSManagedObjectContext.ConcurrencyType =
        NSManagedObjectContext.ConcurrencyType(rawValue: .mainQueueConcurrencyType)
}

// Declared `var rawValue: NSManagedObjectContextConcurrencyType` (a stored var, no `{ get }`).
/// api: NSManagedObjectContext.ConcurrencyType.rawValue
func api_NSManagedObjectContext_ConcurrencyType_rawValue(_ type: NSManagedObjectContext.ConcurrencyType) {
    var type = type
    let raw: NSManagedObjectContextConcurrencyType = type.rawValue
    type.rawValue = raw
}

/// api: NSManagedObjectContext.ConcurrencyType.RawValue
func api_NSManagedObjectContext_ConcurrencyType_RawValue() {
    let _: NSManagedObjectContext.ConcurrencyType.RawValue.Type = NSManagedObjectContextConcurrencyType.self
}

/// api: NSManagedObjectContext.ConcurrencyType.hashValue
func api_NSManagedObjectContext_ConcurrencyType_hashValue(_ type: NSManagedObjectContext.ConcurrencyType) {
    let _: Int = type.hashValue
}

/// api: NSManagedObjectContext.ConcurrencyType.hash(into:)
func api_NSManagedObjectContext_ConcurrencyType_hash_into(_ type: NSManagedObjectContext.ConcurrencyType) {
    var hasher = Hasher()
    type.hash(into: &hasher)
}

/// api: NSManagedObjectContext.ConcurrencyType.!=(_:_:)
func api_NSManagedObjectContext_ConcurrencyType_notEqual(
    _ a: NSManagedObjectContext.ConcurrencyType, _ b: NSManagedObjectContext.ConcurrencyType
) {
    let _: Bool = a != b
    let _: Bool = a == b
}

// MARK: - NSManagedObjectContextConcurrencyType (top-level enum : UInt)

/// api: NSManagedObjectContextConcurrencyType.privateQueueConcurrencyType
func api_NSManagedObjectContextConcurrencyType_privateQueueConcurrencyType() {
    let _: NSManagedObjectContextConcurrencyType = .privateQueueConcurrencyType
}

/// api: NSManagedObjectContextConcurrencyType.mainQueueConcurrencyType
func api_NSManagedObjectContextConcurrencyType_mainQueueConcurrencyType() {
    let _: NSManagedObjectContextConcurrencyType = .mainQueueConcurrencyType
}

// deprecated (iOS 9 / macOS 10.11): "Use another NSManagedObjectContextConcurrencyType"
/// api: NSManagedObjectContextConcurrencyType.confinementConcurrencyType
func api_NSManagedObjectContextConcurrencyType_confinementConcurrencyType() {
    let _: NSManagedObjectContextConcurrencyType = .confinementConcurrencyType
}

/// api: NSManagedObjectContextConcurrencyType.init(rawValue:)
func api_NSManagedObjectContextConcurrencyType_init_rawValue() {
    let _: NSManagedObjectContextConcurrencyType? = NSManagedObjectContextConcurrencyType(rawValue: UInt(1))
}

/// api: NSManagedObjectContextConcurrencyType.rawValue
func api_NSManagedObjectContextConcurrencyType_rawValue(_ type: NSManagedObjectContextConcurrencyType) {
    let _: UInt = type.rawValue
}

// MARK: - Configuring a context

/// api: NSManagedObjectContext.persistentStoreCoordinator
func api_NSManagedObjectContext_persistentStoreCoordinator(_ context: NSManagedObjectContext) {
    let coordinator: NSPersistentStoreCoordinator? = context.persistentStoreCoordinator
    context.persistentStoreCoordinator = coordinator
}

/// api: NSManagedObjectContext.parent
func api_NSManagedObjectContext_parent(_ context: NSManagedObjectContext, _ parent: NSManagedObjectContext) {
    let _: NSManagedObjectContext? = context.parent
    context.parent = parent
}

/// api: NSManagedObjectContext.name
func api_NSManagedObjectContext_name(_ context: NSManagedObjectContext) {
    let name: String? = context.name
    context.name = name
    context.name = "editor"
}

/// api: NSManagedObjectContext.userInfo
func api_NSManagedObjectContext_userInfo(_ context: NSManagedObjectContext) {
    let _: NSMutableDictionary = context.userInfo
}

// MARK: - Registering and fetching objects

/// api: NSManagedObjectContext.fetch(_:) -> [Any]
func api_NSManagedObjectContext_fetch_any(
    _ context: NSManagedObjectContext, _ request: NSFetchRequest<NSFetchRequestResult>
) throws {
    let _: [Any] = try context.fetch(request)
}

/// api: NSManagedObjectContext.fetch<T>(_:) -> [T]
func api_NSManagedObjectContext_fetch_generic(
    _ context: NSManagedObjectContext, _ request: NSFetchRequest<NSManagedObject>
) throws {
    let _: [NSManagedObject] = try context.fetch(request)
}

/// api: NSManagedObjectContext.count(for:) -> Int
func api_NSManagedObjectContext_count_for_any(
    _ context: NSManagedObjectContext, _ request: NSFetchRequest<NSFetchRequestResult>
) throws {
    let _: Int = try context.count(for: request)
}

/// api: NSManagedObjectContext.count<T>(for:) -> Int
func api_NSManagedObjectContext_count_for_generic(
    _ context: NSManagedObjectContext, _ request: NSFetchRequest<NSManagedObject>
) throws {
    let _: Int = try context.count(for: request)
}

/// api: NSManagedObjectContext.registeredObject(for:)
func api_NSManagedObjectContext_registeredObject_for(_ context: NSManagedObjectContext, _ objectID: NSManagedObjectID) {
    let _: NSManagedObject? = context.registeredObject(for: objectID)
}

/// api: NSManagedObjectContext.object(with:)
func api_NSManagedObjectContext_object_with(_ context: NSManagedObjectContext, _ objectID: NSManagedObjectID) {
    let _: NSManagedObject = context.object(with: objectID)
}

/// api: NSManagedObjectContext.existingObject(with:)
func api_NSManagedObjectContext_existingObject_with(
    _ context: NSManagedObjectContext, _ objectID: NSManagedObjectID
) throws {
    let _: NSManagedObject = try context.existingObject(with: objectID)
}

/// api: NSManagedObjectContext.registeredObjects
func api_NSManagedObjectContext_registeredObjects(_ context: NSManagedObjectContext) {
    let _: Set<NSManagedObject> = context.registeredObjects
}

// The entry point of batch requests (#26) and asynchronous fetch requests (#25).
/// api: NSManagedObjectContext.execute(_:)
func api_NSManagedObjectContext_execute(_ context: NSManagedObjectContext, _ request: NSPersistentStoreRequest) throws {
    let _: NSPersistentStoreResult = try context.execute(request)
}

/// api: NSManagedObjectContext.refreshAllObjects()
func api_NSManagedObjectContext_refreshAllObjects(_ context: NSManagedObjectContext) {
    context.refreshAllObjects()
}

/// api: NSManagedObjectContext.retainsRegisteredObjects
func api_NSManagedObjectContext_retainsRegisteredObjects(_ context: NSManagedObjectContext) {
    let retains: Bool = context.retainsRegisteredObjects
    context.retainsRegisteredObjects = retains
}

// MARK: - Handling managed objects

/// api: NSManagedObjectContext.shouldDeleteInaccessibleFaults
func api_NSManagedObjectContext_shouldDeleteInaccessibleFaults(_ context: NSManagedObjectContext) {
    let flag: Bool = context.shouldDeleteInaccessibleFaults
    context.shouldDeleteInaccessibleFaults = flag
}

/// api: NSManagedObjectContext.insertedObjects
func api_NSManagedObjectContext_insertedObjects(_ context: NSManagedObjectContext) {
    let _: Set<NSManagedObject> = context.insertedObjects
}

/// api: NSManagedObjectContext.updatedObjects
func api_NSManagedObjectContext_updatedObjects(_ context: NSManagedObjectContext) {
    let _: Set<NSManagedObject> = context.updatedObjects
}

/// api: NSManagedObjectContext.deletedObjects
func api_NSManagedObjectContext_deletedObjects(_ context: NSManagedObjectContext) {
    let _: Set<NSManagedObject> = context.deletedObjects
}

/// api: NSManagedObjectContext.shouldHandleInaccessibleFault(_:for:triggeredByProperty:)
func api_NSManagedObjectContext_shouldHandleInaccessibleFault(
    _ context: NSManagedObjectContext, _ fault: NSManagedObject, _ objectID: NSManagedObjectID,
    _ property: NSPropertyDescription?
) {
    let _: Bool = context.shouldHandleInaccessibleFault(fault, for: objectID, triggeredByProperty: property)
    let _: Bool = context.shouldHandleInaccessibleFault(fault, for: objectID, triggeredByProperty: nil)
}

/// api: NSManagedObjectContext.insert(_:)
func api_NSManagedObjectContext_insert(_ context: NSManagedObjectContext, _ object: NSManagedObject) {
    context.insert(object)
}

/// api: NSManagedObjectContext.delete(_:)
func api_NSManagedObjectContext_delete(_ context: NSManagedObjectContext, _ object: NSManagedObject) {
    context.delete(object)
}

/// api: NSManagedObjectContext.assign(_:to:)
func api_NSManagedObjectContext_assign_to(
    _ context: NSManagedObjectContext, _ object: NSManagedObject, _ store: NSPersistentStore
) {
    context.assign(object, to: store)
}

/// api: NSManagedObjectContext.obtainPermanentIDs(for:)
func api_NSManagedObjectContext_obtainPermanentIDs_for(
    _ context: NSManagedObjectContext, _ object: NSManagedObject
) throws {
    try context.obtainPermanentIDs(for: [object])
}

/// api: NSManagedObjectContext.detectConflicts(for:)
func api_NSManagedObjectContext_detectConflicts_for(_ context: NSManagedObjectContext, _ object: NSManagedObject) {
    context.detectConflicts(for: object)
}

/// api: NSManagedObjectContext.refresh(_:mergeChanges:)
func api_NSManagedObjectContext_refresh_mergeChanges(_ context: NSManagedObjectContext, _ object: NSManagedObject) {
    context.refresh(object, mergeChanges: true)
    context.refresh(object, mergeChanges: false)
}

/// api: NSManagedObjectContext.processPendingChanges()
func api_NSManagedObjectContext_processPendingChanges(_ context: NSManagedObjectContext) {
    context.processPendingChanges()
}

// not-on-linux: NSManagedObjectContext.observeValue(forKeyPath:of:change:context:): an override of NSObject's key-value observing callback; swift-corelibs-foundation has no KVO, so nothing on Linux can register the context as an observer or call it

// MARK: - Managing concurrency

/// api: NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)
func api_NSManagedObjectContext_mergeChanges_fromRemoteContextSave_into(
    _ context: NSManagedObjectContext, _ changes: [AnyHashable: Any]
) {
    NSManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [context])
}

/// api: NSManagedObjectContext.automaticallyMergesChangesFromParent
func api_NSManagedObjectContext_automaticallyMergesChangesFromParent(_ context: NSManagedObjectContext) {
    let merges: Bool = context.automaticallyMergesChangesFromParent
    context.automaticallyMergesChangesFromParent = merges
}

/// api: NSManagedObjectContext.concurrencyType
func api_NSManagedObjectContext_concurrencyType(_ context: NSManagedObjectContext) {
    let _: NSManagedObjectContextConcurrencyType = context.concurrencyType
}

/// api: NSManagedObjectContext.mergePolicy
func api_NSManagedObjectContext_mergePolicy(_ context: NSManagedObjectContext) {
    let policy: Any = context.mergePolicy
    context.mergePolicy = policy
}

/// api: NSManagedObjectContext.queryGenerationToken
func api_NSManagedObjectContext_queryGenerationToken(_ context: NSManagedObjectContext) {
    let _: NSQueryGenerationToken? = context.queryGenerationToken
}

/// api: NSManagedObjectContext.transactionAuthor
func api_NSManagedObjectContext_transactionAuthor(_ context: NSManagedObjectContext) {
    let author: String? = context.transactionAuthor
    context.transactionAuthor = author
    context.transactionAuthor = "importer"
}

/// api: NSManagedObjectContext.mergeChanges(fromContextDidSave:)
func api_NSManagedObjectContext_mergeChanges_fromContextDidSave(
    _ context: NSManagedObjectContext, _ notification: Notification
) {
    context.mergeChanges(fromContextDidSave: notification)
}

/// api: NSManagedObjectContext.setQueryGenerationFrom(_:)
func api_NSManagedObjectContext_setQueryGenerationFrom(
    _ context: NSManagedObjectContext, _ token: NSQueryGenerationToken?
) throws {
    try context.setQueryGenerationFrom(token)
    try context.setQueryGenerationFrom(nil)
}

// MARK: - Managing unsaved and uncommitted changes

/// api: NSManagedObjectContext.save()
func api_NSManagedObjectContext_save(_ context: NSManagedObjectContext) throws {
    try context.save()
}

/// api: NSManagedObjectContext.hasChanges
func api_NSManagedObjectContext_hasChanges(_ context: NSManagedObjectContext) {
    let _: Bool = context.hasChanges
}

// MARK: - Undoing changes

/// api: NSManagedObjectContext.undoManager
func api_NSManagedObjectContext_undoManager(_ context: NSManagedObjectContext, _ undoManager: UndoManager) {
    let _: UndoManager? = context.undoManager
    context.undoManager = undoManager
    context.undoManager = nil
}

/// api: NSManagedObjectContext.undo()
func api_NSManagedObjectContext_undo(_ context: NSManagedObjectContext) {
    context.undo()
}

/// api: NSManagedObjectContext.redo()
func api_NSManagedObjectContext_redo(_ context: NSManagedObjectContext) {
    context.redo()
}

/// api: NSManagedObjectContext.reset()
func api_NSManagedObjectContext_reset(_ context: NSManagedObjectContext) {
    context.reset()
}

/// api: NSManagedObjectContext.rollback()
func api_NSManagedObjectContext_rollback(_ context: NSManagedObjectContext) {
    context.rollback()
}

// MARK: - Handling delete propagation

/// api: NSManagedObjectContext.propagatesDeletesAtEndOfEvent
func api_NSManagedObjectContext_propagatesDeletesAtEndOfEvent(_ context: NSManagedObjectContext) {
    let propagates: Bool = context.propagatesDeletesAtEndOfEvent
    context.propagatesDeletesAtEndOfEvent = propagates
}

// MARK: - Managing the staleness interval

/// api: NSManagedObjectContext.stalenessInterval
func api_NSManagedObjectContext_stalenessInterval(_ context: NSManagedObjectContext) {
    let interval: TimeInterval = context.stalenessInterval
    context.stalenessInterval = interval
    context.stalenessInterval = 300.0
}

// MARK: - Performing block operations

// Apple's current pages declare `func perform(_ block: @escaping @Sendable () -> Void)`; the
// older interface has `@escaping () -> Void`. The closure captures nothing, so both fit.
/// api: NSManagedObjectContext.perform(_:)
func api_NSManagedObjectContext_perform(_ context: NSManagedObjectContext) {
    context.perform {
    }
}

// func perform<T>(schedule: NSManagedObjectContext.ScheduledTaskType = .immediate,
//                 _ block: @escaping @Sendable () throws -> T) async rethrows -> T
/// api: NSManagedObjectContext.perform(schedule:_:)
func api_NSManagedObjectContext_perform_schedule(_ context: NSManagedObjectContext) async throws {
    let _: Int = await context.perform(schedule: .enqueued) { 1 }
    let _: Int = await context.perform(schedule: .immediate) { 2 }
    let _: Int = await context.perform { 3 }
    let _: Int = try await context.perform(schedule: .enqueued) { () throws -> Int in 4 }
}

/// api: NSManagedObjectContext.performAndWait(_:) -> Void
func api_NSManagedObjectContext_performAndWait(_ context: NSManagedObjectContext) {
    context.performAndWait {
    }
}

// func performAndWait<T>(_ block: @Sendable () throws -> T) rethrows -> T
/// api: NSManagedObjectContext.performAndWait<T>(_:) -> T
func api_NSManagedObjectContext_performAndWait_generic(_ context: NSManagedObjectContext) throws {
    let _: Int = context.performAndWait { 1 }
    let _: String = try context.performAndWait { () throws -> String in "value" }
}

// MARK: - NSManagedObjectContext.ScheduledTaskType

/// api: NSManagedObjectContext.ScheduledTaskType.immediate
func api_NSManagedObjectContext_ScheduledTaskType_immediate() {
    let _: NSManagedObjectContext.ScheduledTaskType = .immediate
}

/// api: NSManagedObjectContext.ScheduledTaskType.enqueued
func api_NSManagedObjectContext_ScheduledTaskType_enqueued() {
    let _: NSManagedObjectContext.ScheduledTaskType = .enqueued
}

/// api: NSManagedObjectContext.ScheduledTaskType.hashValue
func api_NSManagedObjectContext_ScheduledTaskType_hashValue(_ type: NSManagedObjectContext.ScheduledTaskType) {
    let _: Int = type.hashValue
}

/// api: NSManagedObjectContext.ScheduledTaskType.hash(into:)
func api_NSManagedObjectContext_ScheduledTaskType_hash_into(_ type: NSManagedObjectContext.ScheduledTaskType) {
    var hasher = Hasher()
    type.hash(into: &hasher)
}

/// api: NSManagedObjectContext.ScheduledTaskType.==(_:_:)
func api_NSManagedObjectContext_ScheduledTaskType_equal(
    _ a: NSManagedObjectContext.ScheduledTaskType, _ b: NSManagedObjectContext.ScheduledTaskType
) {
    let _: Bool = a == b
    let _: Bool = a != b
}

// MARK: - Locking (NSLocking; deprecated)

// deprecated (iOS 8 / macOS 10.10): "Use a queue style context and -performBlockAndWait: instead"
/// api: NSManagedObjectContext.lock()
func api_NSManagedObjectContext_lock(_ context: NSManagedObjectContext) {
    context.lock()
}

// deprecated (iOS 8 / macOS 10.10): "Use a queue style context and -performBlockAndWait: instead"
/// api: NSManagedObjectContext.unlock()
func api_NSManagedObjectContext_unlock(_ context: NSManagedObjectContext) {
    context.unlock()
}

// deprecated (iOS 8 / macOS 10.10): "Use a queue style context and -performBlock: instead"
/// api: NSManagedObjectContext.tryLock()
func api_NSManagedObjectContext_tryLock(_ context: NSManagedObjectContext) {
    let _: Bool = context.tryLock()
}

// MARK: - AppKit conformances (macOS only)

// Apple lists NSEditor and NSEditorRegistration among NSManagedObjectContext's conformances; both
// protocols belong to AppKit (Cocoa bindings), which Linux does not have.
// not-on-linux: NSManagedObjectContext.commitEditing(): NSEditor is an AppKit (Cocoa bindings) protocol; there is no AppKit on Linux
// not-on-linux: NSManagedObjectContext.discardEditing(): NSEditor is an AppKit (Cocoa bindings) protocol; there is no AppKit on Linux
// not-on-linux: NSManagedObjectContext.commitEditingAndReturnError(): NSEditor is an AppKit (Cocoa bindings) protocol; there is no AppKit on Linux
// not-on-linux: NSManagedObjectContext.commitEditing(withDelegate:didCommit:contextInfo:): AppKit NSEditor, and it takes an Objective-C selector
// not-on-linux: NSManagedObjectContext.objectDidBeginEditing(_:): NSEditorRegistration is an AppKit protocol; there is no AppKit on Linux
// not-on-linux: NSManagedObjectContext.objectDidEndEditing(_:): NSEditorRegistration is an AppKit protocol; there is no AppKit on Linux
