import Foundation

/// What a frozen entity's objects are built from: its properties in slot order (inherited ones
/// first, so a property has the same slot in an entity and all its subentities), name lookup,
/// the slots a new object starts with, the class its objects are made of, and where `@Managed`
/// wrappers find their slots.
///
/// ```swift
/// let slot = entity.layout!.indexByName["salary"]
/// ```
///
/// Built once, while the model freezes (``NSManagedObjectModel/freeze()``), and stored in the
/// entity as its ``NSEntityDescription/frozenStorage``; immutable once the model is frozen,
/// except ``temporaryIDOrigin``, which the model's `deinit` clears.
final class EntityLayout: FrozenEntityStorage {
    let properties: [NSPropertyDescription]
    let indexByName: [String: Int]
    /// Slots of attributes and relationships that are stored (not transient, not fetched).
    let persistentIndexes: [Int]
    let relationshipIndexes: [Int]
    /// Each slot's property, already cast: per-object loops (validation, saves) switch on this
    /// instead of paying a dynamic cast per property per object.
    let kinds: [PropertyKind]
    /// The slots of a new object (default values, empty to-many sets), set when the model is
    /// frozen (``setInitialSlots()``). Objects start with a copy-on-write share of this array
    /// instead of building one.
    private(set) var initialSlots: [PropertySlot] = []
    /// Whether every initial slot is a value without a reference in it (nil, numbers, dates),
    /// so a copy of ``initialSlots`` is a copy of its bytes.
    private var initialSlotsAreBitwiseCopyable = false

    /// Builds ``initialSlots``; called once, while the model freezes.
    func setInitialSlots() {
        initialSlots = kinds.map { kind in
            switch kind {
            case .attribute(let a): return .value(StoredValue(a.initialValue, for: a))
            case .relationship(let r): return r.isToMany ? .toMany(RelatedObjects()) : .null
            case .fetched: return .null
            }
        }
        initialSlotsAreBitwiseCopyable = initialSlots.allSatisfy { slot in
            switch slot {
            case .value(.null), .value(.integer), .value(.double), .value(.bool), .value(.date): return true
            default: return false
            }
        }
    }

    /// The slots of an object inserted as it is made, which its app is about to set: an array
    /// of its own, so the first write does not copy a shared one.
    ///
    /// Copying ``initialSlots`` on the first write goes element by element through
    /// `PropertySlot`'s copy (a switch and a call each); copying the bytes of slots that hold
    /// no reference is one `memcpy`. Other entities share ``initialSlots``.
    func slotsForNewObject() -> [PropertySlot] {
        guard initialSlotsAreBitwiseCopyable, !initialSlots.isEmpty else { return initialSlots }
        // Made as nils and overwritten: `init(unsafeUninitializedCapacity:)` and
        // `init(repeating:count:)` allocate through the standard library's unspecialized code,
        // which looks the array's type up on every call; `reserveCapacity` and `append` are
        // specialized here.
        var slots: [PropertySlot] = []
        slots.reserveCapacity(initialSlots.count)
        for _ in initialSlots.indices { slots.append(.null) }
        initialSlots.withUnsafeBufferPointer { source in
            slots.withUnsafeMutableBufferPointer { target in
                // Every slot on both sides is a case whose payload is plain bits (checked
                // above), so the bytes are a valid copy and no reference count is owed.
                UnsafeMutableRawPointer(target.baseAddress!).copyMemory(from: source.baseAddress!, byteCount: source.count * MemoryLayout<PropertySlot>.stride)
            }
        }
        return slots
    }

    /// What saving checks of each attribute slot, read once from the frozen description:
    /// validating an object's attributes then touches no description unless a value is nil
    /// where it may not be, has the wrong type, or the attribute has range or predicate checks.
    let attributeChecks: [AttributeCheck]

    struct AttributeCheck {
        /// Whether the slot is an attribute at all (`@Managed` attribute setters check this).
        var isAttribute = false
        var type: NSAttributeType = .undefinedAttributeType
        var isOptional = true
        /// Integer 16/32 ranges, validation predicates or a composite's elements: the full check runs.
        var hasMoreChecks = false
    }

    enum PropertyKind {
        case attribute(NSAttributeDescription)
        case relationship(NSRelationshipDescription)
        case fetched
    }

    /// The class named by the entity's `managedObjectClassName`, resolved once.
    let resolvedClass: NSManagedObject.Type
    /// Whether ``resolvedClass`` conforms to `PropertyValueValidating`, asked once here so
    /// that saving, which asks it of every object, needs no dynamic cast.
    let resolvedClassValidatesProperties: Bool
    /// Where `@Managed` wrappers of this entity's class find their slots.
    let wrapperSlots = WrapperSlotCache()
    /// What new objects' temporary identities share, set when the model is frozen (after the
    /// entity numbers, which its keys hold). The origin keeps its entity alive (IDs must), so
    /// the model's `deinit` sets it to nil to break that cycle.
    @exclusivity(unchecked) var temporaryIDOrigin: ObjectIDOrigin?

    init(properties: [NSPropertyDescription], resolvedClass: NSManagedObject.Type) {
        self.resolvedClass = resolvedClass
        resolvedClassValidatesProperties = resolvedClass is PropertyValueValidating.Type
        self.properties = properties
        var byName: [String: Int] = [:]
        for (i, p) in properties.enumerated() { byName[p.name] = i }
        indexByName = byName
        persistentIndexes = properties.indices.filter { !properties[$0].isTransient && !(properties[$0] is NSFetchedPropertyDescription) }
        relationshipIndexes = properties.indices.filter { properties[$0] is NSRelationshipDescription }
        kinds = properties.map { property in
            if let a = property as? NSAttributeDescription { return .attribute(a) }
            if let r = property as? NSRelationshipDescription { return .relationship(r) }
            return .fetched
        }
        attributeChecks = properties.map { property in
            guard let a = property as? NSAttributeDescription else { return AttributeCheck() }
            let ranged = a.attributeType == .integer16AttributeType || a.attributeType == .integer32AttributeType
            return AttributeCheck(isAttribute: true, type: a.attributeType, isOptional: a.isOptional, hasMoreChecks: ranged || !a.validationPredicates.isEmpty || a is NSCompositeAttributeDescription)
        }
    }
}

extension NSEntityDescription {
    /// The entity's layout, once its model is frozen.
    var layout: EntityLayout? {
        // Only the object layer stores frozen storage, and only layouts (`freeze()` below).
        frozenStorage.map { unsafeDowncast($0, to: EntityLayout.self) }
    }
    /// The class of this entity's objects: `NSManagedObject` until the model is frozen.
    var resolvedClass: NSManagedObject.Type { layout?.resolvedClass ?? NSManagedObject.self }
    /// What new objects' temporary identities share (see ``EntityLayout/temporaryIDOrigin``).
    var temporaryIDOrigin: ObjectIDOrigin? { layout?.temporaryIDOrigin }
}

extension NSAttributeDescription {
    /// The stored form of `defaultValue`: the one frozen into the entity's initial slots, or,
    /// before the model is frozen, converted now.
    var defaultStoredValue: StoredValue {
        if slotIndex >= 0, let layout = entity?.layout, slotIndex < layout.initialSlots.count,
           case .value(let stored) = layout.initialSlots[slotIndex] {
            return stored
        }
        return StoredValue(initialValue, for: self)
    }
}

extension NSManagedObjectModel {
    /// Builds every entity's layout and numbers, then refuses further changes. Called by the
    /// coordinator and by the first object made of an entity; idempotent and thread-safe.
    func freeze() {
        freeze(building: ObjectModelStorage.init)
    }

    /// The entity whose objects are instances of `type`, in a frozen model (see
    /// ``ObjectModelStorage/entitiesByClass``).
    func entity(forClass type: NSManagedObject.Type) -> NSEntityDescription? {
        guard let storage = frozenStorage else { return nil }
        return unsafeDowncast(storage, to: ObjectModelStorage.self).entitiesByClass[ObjectIdentifier(type)] ?? nil
    }
}

/// What the object layer adds to a frozen model: each entity's ``EntityLayout`` (stored in the
/// entity), and the entity each class's objects are made of.
final class ObjectModelStorage: FrozenModelStorage {
    /// The entity `init(context:)` picks for each class, decided once: the class's only entity,
    /// or among several the one named like the class; nil when that is ambiguous.
    let entitiesByClass: [ObjectIdentifier: NSEntityDescription?]

    /// Builds the layouts of `model`'s entities, which the model has numbered.
    init(model: NSManagedObjectModel) {
        // Entity numbers go depth-first, so a superentity's layout is built before its
        // subentities', which start with its properties. Each layout is finished before any is
        // stored: a first object made on another thread reads `entity.layout` without the
        // freeze lock, and skips freezing when it finds one.
        var layouts: [ObjectIdentifier: EntityLayout] = [:]
        for e in model.entities.sorted(by: { $0.entityNumber < $1.entityNumber }) {
            // A class the loader could not find (the entity kept NSManagedObject and the name
            // it read) may have been registered since.
            let registered = e.representedClassName.flatMap(ManagedObjectClassResolver.registered) as? NSManagedObject.Type
            let resolved = registered ?? ManagedObjectClassResolver.resolve(e.managedObjectClassName) as? NSManagedObject.Type ?? NSManagedObject.self
            let inherited = e.superentity.flatMap { layouts[ObjectIdentifier($0)]?.properties } ?? []
            let layout = EntityLayout(properties: inherited + e.properties, resolvedClass: resolved)
            for (i, p) in layout.properties.enumerated() where p.entity === e { p.slotIndex = i }
            layout.setInitialSlots()
            layout.temporaryIDOrigin = ObjectIDOrigin(temporaryIDsOf: e)
            layouts[ObjectIdentifier(e)] = layout
        }
        for e in model.entities { e.frozenStorage = layouts[ObjectIdentifier(e)] }
        var byClass: [ObjectIdentifier: NSEntityDescription?] = [:]
        for e in model.entities where byClass[ObjectIdentifier(e.resolvedClass)] == nil {
            let type = e.resolvedClass
            let matches = model.entities.filter { $0.resolvedClass == type }
            byClass[ObjectIdentifier(type)] = matches.count == 1 ? matches[0] : matches.first { $0.name == String(describing: type) }
        }
        entitiesByClass = byClass
        super.init()
    }

    /// Breaks the one cycle a frozen model's entities are in: an entity's layout keeps the
    /// origin of its temporary IDs, which keeps the entity. Without this a model with its
    /// entities would never be freed once a coordinator had used it. And takes the entities out
    /// of the class registry, which holds them strongly.
    override func modelWillBeFreed(_ model: NSManagedObjectModel) {
        for entity in model.entities { entity.layout?.temporaryIDOrigin = nil }
        ModelRegistry.forget(model)
    }
}

/// Every managed object class is one the model layer can resolve by name.
extension NSManagedObject: EntityObjectClass {}
