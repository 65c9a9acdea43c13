import Foundation

/// An entity: the description of one kind of managed object — its name, class, properties and
/// place in an inheritance hierarchy.
///
/// ```swift
/// let employee = NSEntityDescription()
/// employee.name = "Employee"
/// employee.managedObjectClassName = "MyApp.Employee"   // or leave it NSManagedObject
/// employee.properties = [firstName, salary, department]
///
/// let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
/// ```
open class NSEntityDescription: NSObject, @unchecked Sendable {
    // @unchecked Sendable: see NSPropertyDescription — mutable only until the model is frozen.

    @exclusivity(unchecked) open var name: String? { willSet { checkMutable() } }
    /// The class instantiated for this entity, as "Module.Class". Defaults to "NSManagedObject".
    open var managedObjectClassName: String! {
        get { _className ?? "NSManagedObject" }
        set { checkMutable(); _className = newValue }
    }
    private var _className: String?
    /// Abstract entities have no instances of their own; only their subentities do.
    @exclusivity(unchecked) open var isAbstract: Bool = false { willSet { checkMutable() } }
    open var userInfo: [AnyHashable: Any]? { willSet { checkMutable() } }
    open var versionHashModifier: String? { willSet { checkMutable() } }
    open var renamingIdentifier: String? { willSet { checkMutable() } }
    /// Property names (or arrays of names) whose values must be unique among this entity's objects.
    open var uniquenessConstraints: [[Any]] = [] { willSet { checkMutable() } }
    /// The fetch indexes a store should build for this entity (Xcode's "Indexes").
    open var indexes: [NSFetchIndexDescription] = [] {
        willSet { checkMutable() }
        didSet { for index in indexes { index.entity = self } }
    }
    /// Apple's older form of compound indexes: arrays of property names. Deprecated by Apple in
    /// favour of ``indexes``; kept because models written before Xcode 9 carry them.
    open var compoundIndexes: [[Any]] = [] { willSet { checkMutable() } }
    /// The class name an Xcode model names for this entity (`representedClassName`), when it names
    /// no class this program contains and ``managedObjectClassName`` fell back to
    /// "NSManagedObject". `nil` for entities built in code or whose class resolved.
    public internal(set) var representedClassName: String?

    /// The model this entity belongs to.
    @exclusivity(unchecked) public internal(set) weak var managedObjectModel: NSManagedObjectModel!

    @exclusivity(unchecked) public private(set) weak var superentity: NSEntityDescription?

    /// The entities that inherit from this one. Setting it makes this entity their superentity.
    @exclusivity(unchecked) open var subentities: [NSEntityDescription] = [] {
        willSet { checkMutable() }
        didSet {
            for old in oldValue where !subentities.contains(where: { $0 === old }) { old.superentity = nil }
            for sub in subentities { sub.superentity = self }
        }
    }

    /// This entity's own properties (not the inherited ones).
    @exclusivity(unchecked) open var properties: [NSPropertyDescription] = [] {
        willSet { checkMutable() }
        didSet { for p in properties { p.entity = self } }
    }

    /// All properties, inherited ones first, keyed by name.
    open var propertiesByName: [String: NSPropertyDescription] {
        Dictionary(allProperties.map { ($0.name, $0) }, uniquingKeysWith: { _, sub in sub })
    }
    open var attributesByName: [String: NSAttributeDescription] {
        Dictionary(allProperties.compactMap { $0 as? NSAttributeDescription }.map { ($0.name, $0) }, uniquingKeysWith: { _, sub in sub })
    }
    open var relationshipsByName: [String: NSRelationshipDescription] {
        Dictionary(allProperties.compactMap { $0 as? NSRelationshipDescription }.map { ($0.name, $0) }, uniquingKeysWith: { _, sub in sub })
    }
    /// The relationships of this entity whose destination is `entity`.
    open func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        allProperties.compactMap { $0 as? NSRelationshipDescription }.filter { $0.destinationEntity === entity }
    }

    /// Properties inherited from superentities first, then this entity's own. Their order is the
    /// order of value slots in every managed object of this entity, so a property has the same
    /// slot index in an entity and in all its subentities.
    var allProperties: [NSPropertyDescription] {
        if let layout { return layout.properties }
        return (superentity?.allProperties ?? []) + properties
    }

    /// Whether this entity is `entity` or inherits from it.
    open func isKindOf(entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = self
        while let e = current {
            if e === entity { return true }
            current = e.superentity
        }
        return false
    }

    public var versionHash: Data { VersionHasher.hash(of: self) }

    // MARK: Frozen layout

    /// The compiled property table, built once when the model is frozen.
    @exclusivity(unchecked) var layout: EntityLayout?
    /// What new objects' temporary identities share, set when the model is frozen (after the
    /// entity numbers, which its keys hold).
    @exclusivity(unchecked) var temporaryIDOrigin: ObjectIDOrigin?
    /// Where `@Managed` wrappers of this entity's class find their slots (in `layout`). A `let`
    /// of a `let` of the object, so a property read reaches it without retaining anything.
    let wrapperSlots = WrapperSlotCache()
    /// This entity's number in its model (1-based, Apple's order).
    @exclusivity(unchecked) var entityNumber: Int = 0
    /// The ``entityNumber`` of the root of this entity's hierarchy, the identity maps' key part
    /// (``ObjectKey/rootEntity``). Stored when the model is frozen, because every object ID made
    /// needs it and walking ``superentity`` loads a weak reference per level. 0 before, like
    /// every entity number.
    @exclusivity(unchecked) var rootEntityNumber: Int32 = 0
    /// The class named by managedObjectClassName, resolved when the model is frozen.
    @exclusivity(unchecked) var resolvedClass: NSManagedObject.Type = NSManagedObject.self
    /// Whether ``resolvedClass`` conforms to `PropertyValueValidating`, asked once here so
    /// that saving, which asks it of every object, needs no dynamic cast.
    @exclusivity(unchecked) var resolvedClassValidatesProperties = false

    func checkMutable(_ function: StaticString = #function) {
        if let model = managedObjectModel, model.isFrozen {
            preconditionFailure("Can't modify entity '\(name ?? "?")' (\(function)): its model is in use by a persistent store coordinator and immutable.")
        }
    }

    /// The root of this entity's inheritance hierarchy (stores keep one key sequence per root).
    var rootEntity: NSEntityDescription {
        var e = self
        while let s = e.superentity { e = s }
        return e
    }

    public override var description: String { "(NSEntityDescription) \(name ?? "?")" }

    public override init() { super.init() }

    /// Convenience for building models in code.
    public convenience init(name: String, className: String? = nil, properties: [NSPropertyDescription] = []) {
        self.init()
        self.name = name
        if let className { self.managedObjectClassName = className }
        self.properties = properties
        // An initializer's own assignment does not run `properties`' didSet, which links them.
        for p in properties { p.entity = self }
    }

    func copyEntity() -> NSEntityDescription {
        let copy = NSEntityDescription()
        copy.name = name
        copy._className = _className
        copy.isAbstract = isAbstract
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.uniquenessConstraints = uniquenessConstraints
        copy.compoundIndexes = compoundIndexes
        copy.representedClassName = representedClassName
        copy.properties = properties.map { $0.copyDescription() }
        copy.indexes = indexes.map { $0.copyIndex() }
        return copy
    }
}

/// The property table of a frozen entity: slot order and name lookup, built once per model.
final class EntityLayout {
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
            case .attribute(let a): return .value(a.defaultStoredValue)
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
        /// Integer 16/32 ranges or validation predicates: the full check runs.
        var hasMoreChecks = false
    }

    enum PropertyKind {
        case attribute(NSAttributeDescription)
        case relationship(NSRelationshipDescription)
        case fetched
    }

    init(properties: [NSPropertyDescription]) {
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
            return AttributeCheck(isAttribute: true, type: a.attributeType, isOptional: a.isOptional, hasMoreChecks: ranged || !a.validationPredicates.isEmpty)
        }
    }
}
