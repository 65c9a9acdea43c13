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

    open var name: String? { willSet { checkMutable() } }
    /// The class instantiated for this entity, as "Module.Class". Defaults to "NSManagedObject".
    open var managedObjectClassName: String! {
        get { _className ?? "NSManagedObject" }
        set { checkMutable(); _className = newValue }
    }
    private var _className: String?
    /// Abstract entities have no instances of their own; only their subentities do.
    open var isAbstract: Bool = false { willSet { checkMutable() } }
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
    public internal(set) weak var managedObjectModel: NSManagedObjectModel!

    public private(set) weak var superentity: NSEntityDescription?

    /// ``subentities`` by name.
    open var subentitiesByName: [String: NSEntityDescription] {
        subentities.reduce(into: [:]) { byName, sub in if let name = sub.name { byName[name] = sub } }
    }

    /// The entities that inherit from this one. Setting it makes this entity their superentity.
    open var subentities: [NSEntityDescription] = [] {
        willSet { checkMutable() }
        didSet {
            for old in oldValue where !subentities.contains(where: { $0 === old }) { old.superentity = nil }
            for sub in subentities { sub.superentity = self }
        }
    }

    /// This entity's own properties (not the inherited ones).
    open var properties: [NSPropertyDescription] = [] {
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

    /// What freezing the model built for this entity in the layers above (the object layer's
    /// ``EntityLayout``: slots, resolved class, default values); nil until then. Set once, under
    /// the model's freeze lock, before the model counts as frozen; read-only after.
    @exclusivity(unchecked) var frozenStorage: FrozenEntityStorage?
    /// This entity's number in its model (1-based, Apple's order).
    @exclusivity(unchecked) var entityNumber: Int = 0
    /// The ``entityNumber`` of the root of this entity's hierarchy, the identity maps' key part
    /// (``ObjectKey/rootEntity``). Stored when the model is frozen, because every object ID made
    /// needs it and walking ``superentity`` loads a weak reference per level. 0 before, like
    /// every entity number.
    @exclusivity(unchecked) var rootEntityNumber: Int32 = 0

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
