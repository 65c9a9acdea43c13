import Foundation

/// An object whose properties are described by an entity and managed by a context: change
/// tracking, validation, undo, relationship maintenance and persistence.
///
/// Use it directly with key-value coding, or subclass it and declare typed properties with
/// ``Managed``:
///
/// ```swift
/// final class Employee: NSManagedObject {
///     @Managed var name: String?
///     @Managed var salary: Int64
///     @Managed var department: Department?
/// }
///
/// let e = Employee(context: context)
/// e.name = "Fiona"
/// try context.save()
/// ```
///
/// Objects are confined to their context's queue, like Apple's; pass ``objectID`` between threads.
open class NSManagedObject: NSObject, KeyValueCoding {
    /// The entity describing this object.
    public let entity: NSEntityDescription
    /// The ID of this object's record: temporary until saved.
    public internal(set) var objectID: NSManagedObjectID {
        get {
            // A fetched object names its record by its entity's origin and the primary key
            // (``ObjectIdentity``), and each read makes an ID, equal to every other made for the
            // record. It is not kept: apps read `objectID` from other queues (Apple's may be read
            // from any), and keeping it would write to an object another thread is reading.
            if let identity = assignedIdentity { return identity.objectID }
            return assignTemporaryIdentity().objectID
        }
        set { assignedIdentity = .id(newValue) }
    }
    /// Nil until the object is inserted or registered: a fetched object gets its store identity
    /// right after init, so making it a temporary one first (a global lock) is waste. A fetched
    /// object holds the identity its row came with, a new one its temporary key; usually
    /// neither is an ID object.
    @exclusivity(unchecked) private var assignedIdentity: ObjectIdentity?
    @exclusivity(unchecked) var flags = ObjectFlags()
    /// `objectID.key`, read without making or retaining an ID (the deinit of every fetched
    /// object asks). Spelled out rather than `identity.key`, which copies the identity: a
    /// retain and a release more per object freed.
    var assignedObjectKey: ObjectKey { assignedIdentity?.key ?? assignTemporaryIdentity().key }
    /// The object's identity, without making an ID object where it has none yet.
    var identity: ObjectIdentity { assignedIdentity ?? assignTemporaryIdentity() }
    /// Gives a new object its temporary identity: a key unique in the process, and no ID object
    /// until something asks for ``objectID`` (each ask then makes one, equal to the others).
    ///
    /// A save of new objects replaces each temporary identity with a permanent one, so an ID
    /// object made at insertion would usually be made only to be freed at the save: an
    /// allocation and its release per new object, for nothing.
    private func assignTemporaryIdentity() -> ObjectIdentity {
        let identity: ObjectIdentity
        if let origin = entity.temporaryIDOrigin {
            identity = .stored(origin, primaryKey: TemporaryIDCounter.next())
        } else {
            identity = .id(NSManagedObjectID.temporary(for: entity))  // an entity not frozen yet
        }
        assignedIdentity = identity
        return identity
    }
    /// Gives a fetched object the identity of its row.
    func assignIdentity(_ identity: consuming ObjectIdentity) { assignedIdentity = identity }
    /// The context this object lives in; nil once it was deleted and saved, or never inserted,
    /// and once the context is gone.
    public internal(set) var managedObjectContext: NSManagedObjectContext? {
        get { contextReference?.object }
        set { contextReference = newValue.map(UnretainedReference.init) }
    }
    /// Unretained, as Apple's is, and not weak: a weak reference costs an atomic operation on
    /// the context's side table when set and when cleared, and two whenever it is read (every
    /// property write reads it). It cannot dangle, because an object has a context only while
    /// that context's registry holds it (every assignment comes with `registry.register`, every
    /// clearing with `forget` or `removeAll`), and a context clears it for every registered
    /// object in its `deinit`.
    @exclusivity(unchecked) private var contextReference: UnretainedReference<NSManagedObjectContext>?

    /// Calls `body` with the object's context, if it has one, without retaining the context:
    /// whoever calls into the object on the context's queue keeps the context alive, and `body`
    /// must not let it go. For the path every property write takes.
    @inline(__always) final func withContext(_ body: (NSManagedObjectContext) -> Void) {
        contextReference?.withObject(body)
    }

    /// Current values, one slot per property of the entity (empty while the object is a fault).
    ///
    /// A fetched object that has not been changed has no slots of its own: its current values are
    /// its committed ones (`.slotsFollowCommitted`), read straight from the row the store
    /// decoded, which the coordinator's snapshot shares. The first access through `slots` gives it
    /// its own copy. Most fetched objects are only read, so this saves an array per object and
    /// a copy of every value.
    var slots: [PropertySlot] {
        _read {
            if flags.contains(.slotsFollowCommitted) { separateSlotsFromCommitted() }
            yield ownSlots
        }
        _modify {
            if flags.contains(.slotsFollowCommitted) { separateSlotsFromCommitted() }
            yield &ownSlots
        }
        set {
            flags.remove(.slotsFollowCommitted)
            ownSlots = newValue
        }
    }
    /// The storage behind `slots`; empty while `.slotsFollowCommitted`.
    @exclusivity(unchecked) var ownSlots: [PropertySlot]

    /// Values as last fetched or saved, for persistent properties (nil for new objects). Used by
    /// `changedValues()`, `committedValues(forKeys:)`, rollback and optimistic locking.
    var committed: RowValues? {
        get { committedStorage }
        set {
            // Current values that follow the committed ones must not move with them.
            if flags.contains(.slotsFollowCommitted) { separateSlotsFromCommitted() }
            committedStorage = newValue
        }
    }
    @exclusivity(unchecked) var committedStorage: RowValues?
    /// What few objects hold: values from before the current event's changes, cached fetched
    /// properties (``RareObjectState``). One optional word for both keeps an object in the
    /// smaller `malloc` size.
    @exclusivity(unchecked) var rareState: RareObjectState?

    /// Creates an object of `entity`, inserted into `context` when one is given.
    ///
    /// Subclasses that override this initializer must call `super.init(entity:insertInto:)`.
    public required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        // Only freezing gives an entity its layout, so an entity with one needs no look at its
        // model (a weak reference: two atomic operations per object made).
        if entity.layout == nil, let model = entity.managedObjectModel, !model.isFrozen { model.freeze() }
        if let layout = entity.layout {
            // A fetched object (no context here) gets its values from its row instead.
            ownSlots = context == nil ? layout.initialSlots : layout.slotsForNewObject()
        } else {
            ownSlots = entity.allProperties.map { property in
                if let a = property as? NSAttributeDescription { return .value(a.defaultStoredValue) }
                if let r = property as? NSRelationshipDescription, r.isToMany { return .toMany(RelatedObjects()) }
                return .null
            }
        }
        // Last, once nothing else reads the argument: stored earlier, the entity was retained
        // again to keep a local copy for the reads after, and released at the end.
        self.entity = entity
        super.init()
        if let context { context.insert(self) }
    }

    /// Creates an object of the entity whose class is this class, inserted into `context`.
    public convenience init(context: NSManagedObjectContext) {
        guard let entity = Self.entity(in: context) else {
            preconditionFailure("NSManagedObject(context:): no entity in the context's model has managedObjectClassName '\(String(reflecting: Self.self))'. Set the entity's class name to \"Module.\(Self.self)\", or use init(entity:insertInto:).")
        }
        self.init(entity: entity, insertInto: context)
    }

    /// The entity whose class is this class, in `context`'s model.
    class func entity(in context: NSManagedObjectContext) -> NSEntityDescription? {
        // An app makes its objects a class at a time. A root context answers a repeat from its
        // coordinator, borrowed: coordinator and model both have weak references to them, so
        // retaining them takes the runtime's slow path. A repeat then costs neither those
        // retains nor a hash lookup of the class in the model's table.
        var found: NSEntityDescription?
        context.withRootCoordinator { coordinator in
            if let last = context.state.entityOfLastClass, last.type == ObjectIdentifier(self), last.model === coordinator.managedObjectModel {
                found = last.entity
            }
        }
        if let found { return found }
        guard let model = context.managedObjectModel else { return nil }
        if !model.isFrozen { model.freeze() }
        let entity = model.entity(forClass: self)
        if let entity { context.state.entityOfLastClass = (ObjectIdentifier(self), model, entity) }
        return entity
    }

    /// The entity for this class: the one whose class name names it, in any model a coordinator
    /// has loaded. Prefer `init(context:)`, which looks in the context's model.
    open class func entity() -> NSEntityDescription {
        guard let e = ModelRegistry.entity(for: self) else {
            preconditionFailure("+entity: no loaded model has an entity whose class is '\(String(reflecting: self))'. Create a coordinator with the model first, or set managedObjectClassName.")
        }
        return e
    }

    /// A fetch request for this class's entity, typed as Apple types it. Xcode's generated
    /// subclasses add a typed twin, which a hand-written subclass declares the same way:
    ///
    /// ```swift
    /// extension Employee {
    ///     @nonobjc public class func fetchRequest() -> NSFetchRequest<Employee> {
    ///         NSFetchRequest<Employee>(entityName: "Employee")
    ///     }
    /// }
    /// let request = Employee.fetchRequest()   // NSFetchRequest<Employee>: the subclass's
    /// ```
    ///
    /// Disfavored, so that `Entity.fetchRequest()` without a type picks the subclass's typed
    /// twin, as Apple code expects; with `NSFetchRequest<NSFetchRequestResult>` spelled out it
    /// picks this one.
    @_disfavoredOverload
    open class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = ModelRegistry.entity(for: self)
        request.entityName = request.entity?.name ?? String(describing: self)
        return request
    }

    deinit {
        // The context outlives this call (see `contextReference`): borrowed, not retained.
        contextReference?.withObject { context in
            // The key once for both tables: each read is a look through the identity.
            let key = assignedObjectKey
            context.registry.forget(self, key: key)
            if flags.contains(.holdsSnapshot) { context.releaseSnapshot(ofFreedObject: self, key: key) }
        }
    }

    // MARK: Overridable entry points
    // Swift cannot override methods declared in extensions, so the methods subclasses override
    // are declared here; their implementations live in the extension files named for them.

    /// The value of the property `key`: attributes as `NSNumber`, `String`, `Date`, ...;
    /// to-one relationships as the related object; to-many as `Set<NSManagedObject>` (ordered:
    /// `NSOrderedSet`); fetched properties as `[NSManagedObject]`.
    ///
    /// An unknown key stops with a message; use ``checkedValue(forKey:)`` to get an error instead.
    open func value(forKey key: String) -> Any? { kvcValue(forKey: key) }

    /// Sets the property `key`, with change tracking, undo and inverse maintenance.
    ///
    /// A value of the wrong type for an attribute is accepted here and rejected by validation
    /// at save (Apple's behaviour); a wrong object for a relationship stops with a message.
    open func setValue(_ value: Any?, forKey key: String) { kvcSetValue(value, forKey: key) }

    /// Validates every property of a new object; override to add inter-property checks (call
    /// super). Several failures combine into one `NSValidationMultipleErrorsError` with
    /// `NSDetailedErrorsKey`.
    open func validateForInsert() throws { try defaultValidateForInsert() }

    /// Validates every property of a changed object; override to add inter-property checks.
    open func validateForUpdate() throws { try defaultValidateForUpdate() }

    /// Checks the delete rules: a Deny relationship that still has objects fails with
    /// `NSValidationRelationshipDeniedDeleteError` (1600).
    open func validateForDelete() throws { try defaultValidateForDelete() }

    // MARK: State

    /// Whether the object's values are not loaded yet; reading any persistent property loads them.
    public var isFault: Bool { flags.contains(.fault) }
    public var isInserted: Bool { flags.contains(.inserted) }
    public var isUpdated: Bool { flags.contains(.updated) }
    public var isDeleted: Bool { flags.contains(.deleted) }
    /// Whether the object has unsaved changes of any kind.
    public var hasChanges: Bool { isInserted || isUpdated || isDeleted }
    /// Whether a persistent property differs from its last saved value.
    public var hasPersistentChangedValues: Bool { !changedValues().isEmpty }

    /// How many times the record has been saved (optimistic locking); 0 for unsaved objects.
    @exclusivity(unchecked) var version: Int64 = 0

    // MARK: Lifecycle hooks (override in subclasses; call super)

    /// Called once when the object is first inserted into a context. Set initial values here.
    open func awakeFromInsert() {}
    /// Called when the object's values are loaded from a store.
    open func awakeFromFetch() {}
    /// Called when the object is reinserted by undo or redo.
    open func awake(fromSnapshotEvents flags: NSSnapshotEventType) {}
    /// Called before the object is saved; changes made here are saved too.
    open func willSave() {}
    /// Called after the object was saved.
    open func didSave() {}
    /// Called when the object is deleted, before delete rules run.
    open func prepareForDeletion() {}
    /// Called before the object turns into a fault (refresh, reset, after saving a deletion).
    open func willTurnIntoFault() {}
    /// Called after the object turned into a fault.
    open func didTurnIntoFault() {}

    /// 0 when the object is not changing between fault and full object; another value while
    /// its context runs `awakeFromFetch()`, `willTurnIntoFault()` or `didTurnIntoFault()` for it.
    public var faultingState: Int {
        managedObjectContext?.isInFaultingTransition(self) == true ? 1 : 0
    }

    /// Called before and after a property is read or changed. Kept for source compatibility:
    /// OpenCoreData tracks changes of modeled properties without key-value observing.
    open func willAccessValue(forKey key: String?) {}
    open func didAccessValue(forKey key: String?) {}
    open func willChangeValue(forKey key: String) {}
    /// For a key the entity does not model, when the class's
    /// ``contextShouldIgnoreUnmodeledPropertyChanges`` is false, the object becomes updated
    /// (the next save writes it, advancing its version); otherwise nothing happens.
    open func didChangeValue(forKey key: String) {
        guard !type(of: self).contextShouldIgnoreUnmodeledPropertyChanges, layout.indexByName[key] == nil else { return }
        managedObjectContext?.objectDidChangeUnmodeledProperty(self)
    }

    /// Whether a change to a property the model does not describe leaves the object unchanged
    /// for its context (true, the default); a subclass that keeps such state returns false and
    /// reports the change with `didChangeValue(forKey:)`.
    open class var contextShouldIgnoreUnmodeledPropertyChanges: Bool { true }
    /// The to-many forms of the change notifications, for hand-written set accessors; they do
    /// nothing either (see above).
    open func willChangeValue(forKey key: String, withSetMutation mutationKind: NSKeyValueSetMutationKind, using objects: Set<AnyHashable>) {}
    open func didChangeValue(forKey key: String, withSetMutation mutationKind: NSKeyValueSetMutationKind, using objects: Set<AnyHashable>) {}

    // MARK: Identity

    /// Managed objects are equal only to themselves, as in Core Data (which reserves `isEqual:`
    /// and `hash`: "you must not override" them). Written out because NSObject's versions on
    /// Linux go through a dynamic cast and SipHash, and every change set is a `Set` of objects:
    /// inserting 10,000 new objects into a context spent more time in `isEqual` than in the rest.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NSManagedObject) === self
    }

    public override var hash: Int {
        Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self)) >> 4)
    }

    public override var description: String {
        let state = isFault ? "<fault>" : "{ " + (entity.layout?.properties ?? []).enumerated().map { i, p in
            "\(p.name) = \(describeSlot(i))"
        }.joined(separator: "; ") + " }"
        return "<\(entity.name ?? "?"): \(objectID.uriRepresentation().absoluteString)> \(state)"
    }

    private func describeSlot(_ i: Int) -> String {
        switch slots[i] {
        case .value(.null): return "nil"
        case .value(.objectID(let id)): return "<relationship fault: \(id.uriRepresentation().absoluteString)>"
        case .value(.objectIDs): return "<relationship fault>"
        case .value(let v): return String(describing: v.publicValue(for: (entity.layout!.properties[i] as? NSAttributeDescription) ?? NSAttributeDescription()) ?? "nil")
        case .toOne(let o): return o.objectID.uriRepresentation().absoluteString
        case .toMany(let r): return "(\(r.count) objects)"
        }
    }
}

/// Bits of an object's state, in one word.
struct ObjectFlags: OptionSet {
    let rawValue: UInt8
    static let inserted = ObjectFlags(rawValue: 1)
    static let updated = ObjectFlags(rawValue: 2)
    static let deleted = ObjectFlags(rawValue: 4)
    static let fault = ObjectFlags(rawValue: 8)
    /// Inserted and then deleted before a save: dropped at the next processPendingChanges.
    static let awaitingRemoval = ObjectFlags(rawValue: 16)
    /// The object holds one reference to its row in the coordinator's row cache.
    static let holdsSnapshot = ObjectFlags(rawValue: 32)
    /// A throwaway object that reports each `@Managed` read to ``KeyPathNames`` (never inserted).
    static let keyPathProbe = ObjectFlags(rawValue: 64)
    /// The current values are `committed` (a fetched object not changed since): `ownSlots` is
    /// empty until the first access through `slots`. It says where the values are, not what
    /// state the object is in, so an object leaving its context (reset, deleted elsewhere) keeps it.
    static let slotsFollowCommitted = ObjectFlags(rawValue: 128)
}

/// Why an object is being woken from a snapshot.
public struct NSSnapshotEventType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let undoInsertion = NSSnapshotEventType(rawValue: 1 << 1)
    public static let undoDeletion = NSSnapshotEventType(rawValue: 1 << 2)
    public static let undoUpdate = NSSnapshotEventType(rawValue: 1 << 3)
    public static let rollback = NSSnapshotEventType(rawValue: 1 << 4)
    public static let refresh = NSSnapshotEventType(rawValue: 1 << 5)
    public static let mergePolicy = NSSnapshotEventType(rawValue: 1 << 6)
}

/// Remembers which entities models have bound to classes, for `+entity()` and `+fetchRequest()`.
/// A model takes its entities out when it is freed (``forget(_:)``), so the registry keeps no
/// model's entities alive after the model. Strong references, not weak ones: a weak reference
/// gives the entity a side table, and every retain of it then takes the runtime's slow path.
enum ModelRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var entitiesByClass: [ObjectIdentifier: NSEntityDescription] = [:]  // guarded by `lock`

    static func register(_ model: NSManagedObjectModel) {
        lock.lock(); defer { lock.unlock() }
        for e in model.entities where e.resolvedClass != NSManagedObject.self {
            entitiesByClass[ObjectIdentifier(e.resolvedClass)] = e
        }
    }

    /// Removes `model`'s entities (called as the model is freed).
    static func forget(_ model: NSManagedObjectModel) {
        let mine = Set(model.entities.map(ObjectIdentifier.init))
        lock.lock(); defer { lock.unlock() }
        entitiesByClass = entitiesByClass.filter { !mine.contains(ObjectIdentifier($0.value)) }
    }

    static func entity(for type: NSManagedObject.Type) -> NSEntityDescription? {
        lock.lock(); defer { lock.unlock() }
        return entitiesByClass[ObjectIdentifier(type)]
    }
}

/// State that few managed objects have, kept out of the object itself: an object pays one
/// optional reference for all of it, and only objects that use it allocate the box.
final class RareObjectState {
    /// Values at the start of the current event, for `changedValuesForCurrentEvent()`: only
    /// for objects changed in the current event.
    var eventOriginals: [Int: StoredValue]?
    /// Cached results of fetched properties, dropped on refresh.
    var fetchedPropertyCache: [Int: [NSManagedObject]]?
}

extension NSManagedObject {
    /// Values at the start of the current event (nil: not changed in this event).
    var eventOriginals: [Int: StoredValue]? { rareState?.eventOriginals }

    /// Records `value` as slot `i`'s value before the current event's first change of it. True
    /// when this is the object's first change in the event.
    ///
    /// `value` is computed only for a slot's first change in the event: a to-many relationship's
    /// stored form lists every member's object ID, and one event can remove thousands of members
    /// one by one (the nullify rule of a batch of deletions).
    func recordEventOriginal(_ value: @autoclosure () -> StoredValue, slot i: Int) -> Bool {
        let state = madeRareState()
        guard state.eventOriginals != nil else {
            state.eventOriginals = [i: value()]
            return true
        }
        if state.eventOriginals![i] == nil { state.eventOriginals![i] = value() }
        return false
    }

    /// Ends the current event for this object.
    func clearEventOriginals() { rareState?.eventOriginals = nil }

    /// A fetched property's cached result.
    func cachedFetchedProperty(slot i: Int) -> [NSManagedObject]? { rareState?.fetchedPropertyCache?[i] }

    func cacheFetchedProperty(_ result: [NSManagedObject], slot i: Int) {
        let state = madeRareState()
        if state.fetchedPropertyCache == nil { state.fetchedPropertyCache = [:] }
        state.fetchedPropertyCache![i] = result
    }

    /// The object's ``RareObjectState``, made on first use.
    private func madeRareState() -> RareObjectState {
        if let rareState { return rareState }
        let made = RareObjectState()
        rareState = made
        return made
    }

    /// Drops cached fetched properties (a refresh or rollback).
    func dropFetchedPropertyCache() { rareState?.fetchedPropertyCache = nil }
}
