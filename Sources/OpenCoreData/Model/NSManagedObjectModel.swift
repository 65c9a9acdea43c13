import Foundation

/// The schema of an object graph: its entities, configurations and fetch request templates.
///
/// ```swift
/// let model = NSManagedObjectModel()
/// model.entities = [employee, department]
/// let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
/// ```
///
/// A model is editable until a coordinator uses it; then it is frozen (Apple: "immutable").
/// Problems such as a relationship without a destination or an unknown class name are reported
/// by ``validate()`` — and thrown by `addPersistentStore`, so they surface before any data moves.
open class NSManagedObjectModel: NSObject, @unchecked Sendable {
    // @unchecked Sendable: mutable only before freezing; freezing happens under `freezeLock`.

    open var entities: [NSEntityDescription] = [] {
        willSet { checkMutable() }
        didSet { for e in entities { e.managedObjectModel = self } }
    }

    open var entitiesByName: [String: NSEntityDescription] {
        if let frozenEntitiesByName { return frozenEntitiesByName }
        var result: [String: NSEntityDescription] = [:]
        for e in entities { if let n = e.name { result[n] = e } }
        return result
    }

    /// The names of the configurations declared with ``setEntities(_:forConfigurationName:)``.
    open var configurations: [String] { configurationEntities.keys.sorted() }
    private var configurationEntities: [String: [String]] = [:]

    /// Places `entities` in the configuration `configuration` (stores added with that
    /// configuration name hold only these entities).
    open func setEntities(_ entities: [NSEntityDescription], forConfigurationName configuration: String) {
        checkMutable()
        configurationEntities[configuration] = entities.compactMap(\.name)
    }

    /// The entities of `configuration`; all entities for `nil` or "Default".
    open func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        guard let configuration, configuration != "Default", configuration != "PF_DEFAULT_CONFIGURATION_NAME" else { return entities }
        guard let names = configurationEntities[configuration] else { return nil }
        let byName = entitiesByName
        return names.compactMap { byName[$0] }
    }

    /// Whether this model was rebuilt from a store file (`recovered(fromSQLiteStoreAt:)`): such a
    /// model opens its store by structure, since its version hashes are its own.
    var isRecoveredFromStore = false

    /// Identifiers of this model version (from Xcode's version info); not used by the hash.
    open var versionIdentifiers: Set<AnyHashable> = []

    // MARK: Loaded from Xcode files

    /// The entity version hashes Apple's compiler wrote for this model version into
    /// `VersionInfo.plist` of a compiled `.momd`, keyed by entity name; `nil` when no
    /// `VersionInfo.plist` was found while loading.
    ///
    /// These are the bytes Apple writes into a store's metadata (`NSStoreModelVersionHashes`), so a
    /// store written by Apple's Core Data can be matched to this model by comparing them; our own
    /// ``entityVersionHashesByName`` cannot reproduce Apple's bytes (see docs/DEVIATIONS.md).
    ///
    /// ```swift
    /// let model = try NSManagedObjectModel.load(contentsOf: bundleURL, versionInfo: momdURL)
    /// if model.appleEntityVersionHashesByName == storeMetadata[NSStoreModelVersionHashesKey] as? [String: Data] { ... }
    /// ```
    ///
    /// An entity changed after loading (a property added in code, say) no longer has Apple's
    /// hash here: Apple's compiler never hashed what it now is.
    public internal(set) var appleEntityVersionHashesByName: [String: Data]? {
        get {
            guard let recorded = appleHashes else { return nil }
            var current: [String: Data] = [:]
            for entity in entities {
                guard let name = entity.name, let entry = recorded[name], entry.ours == entity.versionHash else { continue }
                current[name] = entry.apple
            }
            return current.isEmpty ? nil : current
        }
        set {
            appleHashes = newValue.map { hashes in
                let ours = entityVersionHashesByName
                return hashes.reduce(into: [:]) { $0[$1.key] = (apple: $1.value, ours: ours[$1.key]) }
            }
        }
    }
    /// Apple's hash of each entity and ours when Apple's was read: ours tells whether the entity
    /// is still what Apple hashed.
    private var appleHashes: [String: (apple: Data, ours: Data?)]?

    /// The name of the Xcode model version this model was loaded from ("Model 2" for
    /// `Model 2.xcdatamodel`); `nil` for models built in code.
    public internal(set) var xcodeVersionName: String?

    /// What the Xcode model loader read but could not carry into this model, one sentence each:
    /// predicates that do not parse (their fetched property or template is left out), class names
    /// this program does not contain (the entity uses `NSManagedObject`), unknown attribute
    /// types. Unlike ``validationProblems()`` these do not stop a store from opening.
    public internal(set) var loadingWarnings: [String] = []

    /// Each entity's version hash, keyed by entity name. Stores keep these in their metadata to
    /// tell whether a store was made with this model.
    open var entityVersionHashesByName: [String: Data] {
        var result: [String: Data] = [:]
        for e in entities { if let n = e.name { result[n] = e.versionHash } }
        return result
    }

    /// A digest of the model's version hashes (base64 SHA-256 over the hashes concatenated in
    /// entity-name order), the value stores record as `NSStoreModelVersionChecksumKey`; Apple's
    /// version hashes when the model came with them (see ``appleEntityVersionHashesByName``).
    open var versionChecksum: String {
        var hashes = entityVersionHashesByName
        if let apple = appleEntityVersionHashesByName, hashes.keys.allSatisfy({ apple[$0] != nil }) {
            hashes = hashes.keys.reduce(into: [String: Data]()) { $0[$1] = apple[$1] }
        }
        return Self.versionChecksum(of: hashes)
    }

    /// The checksum of `hashes` (see ``versionChecksum``).
    static func versionChecksum(of hashes: [String: Data]) -> String {
        SHA256.hash(hashes.keys.sorted().reduce(into: Data()) { $0.append(hashes[$1]!) }).base64EncodedString()
    }

    // MARK: Fetch request templates

    private var templates: [String: NSFetchRequest<NSFetchRequestResult>] = [:]

    open var fetchRequestTemplatesByName: [String: NSFetchRequest<NSFetchRequestResult>] { templates }

    open func setFetchRequestTemplate(_ fetchRequestTemplate: NSFetchRequest<NSFetchRequestResult>?, forName name: String) {
        checkMutable()
        templates[name] = fetchRequestTemplate
    }

    open func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSFetchRequestResult>? { templates[name] }

    /// A copy of the template `name` whose predicate has `variables` substituted for its `$NAME`s.
    open func fetchRequestFromTemplate(withName name: String, substitutionVariables variables: [String: Any]) -> NSFetchRequest<NSFetchRequestResult>? {
        guard let template = templates[name] else { return nil }
        let request = template.copyRequest()
        request.predicate = template.predicate?.withSubstitutionVariables(variables)
        return request
    }

    /// Whether a store whose metadata is `metadata` was made with this model's `configuration`:
    /// every entity's version hash must match.
    ///
    /// A store written by Apple's framework carries Apple's hashes, which OpenCoreData can't
    /// compute; they are compared with ``appleEntityVersionHashesByName`` (from the model's
    /// `VersionInfo.plist`) when the model has them, so an Apple store and the Xcode model
    /// version that made it are recognised as compatible; otherwise our own hashes are compared.
    open func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Data] else { return false }
        let names = (entities(forConfigurationName: configuration) ?? []).compactMap(\.name)
        if let apple = appleEntityVersionHashesByName, names.allSatisfy({ apple[$0] != nil && stored[$0] == apple[$0] }) {
            return true
        }
        let mine = (entities(forConfigurationName: configuration) ?? []).reduce(into: [String: Data]()) { $0[$1.name ?? ""] = $1.versionHash }
        return mine.allSatisfy { stored[$0.key] == $0.value }
    }

    /// Fills this (new) model with copies of the entities, configurations and fetch request
    /// templates of `models`; false when they have no entities, or two of them declare an entity
    /// of the same name, which Apple's framework refuses too.
    func merge(_ models: [NSManagedObjectModel]) -> Bool {
        let copies = models.map { $0.copyModel() }
        let all = copies.flatMap(\.entities)
        // No entities is no model: an empty model would claim to fit any store.
        guard !all.isEmpty, Set(all.compactMap(\.name)).count == all.count else { return false }
        entities = all
        for m in copies {
            for (k, v) in m.configurationEntities { configurationEntities[k, default: []] += v }
            for (name, template) in m.templates where templates[name] == nil { templates[name] = template }
        }
        resolveReferences()
        return true
    }

    public override init() { super.init() }

    /// Lets the parts freezing built undo what ties the entities into cycles and registries
    /// (``FrozenModelStorage/modelWillBeFreed(_:)``).
    deinit {
        frozenStorage?.modelWillBeFreed(self)
    }

    /// A deep, unfrozen copy: change the copy when the original is in use.
    open override func copy() -> Any { copyModel() }

    func copyModel() -> NSManagedObjectModel {
        let copy = NSManagedObjectModel()
        let entityCopies = entities.map { $0.copyEntity() }
        let byName = Dictionary(entityCopies.compactMap { e in e.name.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        for (original, e) in zip(entities, entityCopies) {
            e.subentities = original.subentities.compactMap { $0.name.flatMap { byName[$0] } }
        }
        copy.entities = entityCopies
        copy.resolveReferences()
        copy.configurationEntities = configurationEntities
        copy.templates = templates
        copy.versionIdentifiers = versionIdentifiers
        copy.appleEntityVersionHashesByName = appleEntityVersionHashesByName
        copy.xcodeVersionName = xcodeVersionName
        copy.loadingWarnings = loadingWarnings
        return copy
    }

    /// Connects relationships that were given by name (copies and loaded models) to their
    /// destination entities and inverses.
    func resolveReferences() {
        let byName = entitiesByName
        for e in entities {
            for case let r as NSRelationshipDescription in e.properties {
                if r.destinationEntity == nil, let d = r.destinationEntityName { r.destinationEntity = byName[d] }
                if r.inverseRelationship == nil, let inv = r.inverseName, let dest = r.destinationEntity {
                    r.inverseRelationship = dest.relationshipsByName[inv]
                }
            }
        }
    }

    // MARK: Freezing

    @exclusivity(unchecked) private(set) var isFrozen = false
    private var frozenEntitiesByName: [String: NSEntityDescription]?
    /// What freezing built for the layers above (the object layer's ``ObjectModelStorage``).
    private(set) var frozenStorage: FrozenModelStorage?
    /// The derived attributes a save computes (``ModelDerivations``), set when the model freezes.
    private(set) var derivations: ModelDerivations?
    private let freezeLock = NSLock()

    /// Numbers the entities, lets `buildParts` add what the layers above need (each entity's
    /// ``NSEntityDescription/frozenStorage`` and the model's), then refuses further changes.
    /// Idempotent and thread-safe: the first call builds, the others wait for it and return.
    /// The object layer's `freeze()` is the one caller.
    func freeze(building buildParts: (NSManagedObjectModel) -> FrozenModelStorage) {
        freezeLock.lock(); defer { freezeLock.unlock() }
        guard !isFrozen else { return }
        resolveReferences()
        // Apple numbers entities depth-first through the inheritance forest, siblings by name:
        // a superentity's number is below its subentities'.
        var number = 1
        func visit(_ e: NSEntityDescription) {
            e.entityNumber = number; number += 1
            e.rootEntityNumber = e.superentity?.rootEntityNumber ?? Int32(e.entityNumber)  // the root comes first
            for sub in e.subentities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) { visit(sub) }
        }
        for root in entities.filter({ $0.superentity == nil }).sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) { visit(root) }
        frozenStorage = buildParts(self)
        let derivations = ModelDerivations(self)
        self.derivations = derivations.isEmpty ? nil : derivations
        frozenEntitiesByName = entitiesByName
        isFrozen = true
    }

    func checkMutable(_ function: StaticString = #function) {
        if isFrozen {
            preconditionFailure("Can't modify the managed object model (\(function)): it is in use by a persistent store coordinator and immutable. Copy it (`model.copy()`) and change the copy.")
        }
    }
}
