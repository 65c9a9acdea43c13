import Foundation

/// How the records of one model version become records of another: one ``NSEntityMapping`` per
/// source or destination entity.
///
/// ```swift
/// let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
/// for entityMapping in mapping.entityMappings {
///     print(entityMapping.name, entityMapping.mappingType)   // EmployeeToPerson transform
/// }
/// ```
///
/// A mapping model comes from inference (lightweight migration, which the SQLite store's
/// migrator applies in SQL), or from Xcode: `NSMappingModel(contentsOf:)` loads a compiled
/// `.cdm` or an `.xcmappingmodel` document, and ``NSMigrationManager`` runs it with
/// ``NSEntityMigrationPolicy`` objects.
open class NSMappingModel: NSObject, @unchecked Sendable {
    // @unchecked Sendable: built once (inferred or loaded) and then only read.

    /// The entity mappings: source entities in order first (copied, transformed or removed),
    /// then the destination entities that are new.
    open var entityMappings: [NSEntityMapping]

    /// The entity mappings keyed by their ``NSEntityMapping/name``.
    open var entityMappingsByName: [String: NSEntityMapping] {
        Dictionary(entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public init(entityMappings: [NSEntityMapping] = []) {
        self.entityMappings = entityMappings
        super.init()
    }

    /// The mapping whose source entity is named `name` (nil for removed or unknown entities'
    /// destinations).
    func mapping(forSourceEntityName name: String) -> NSEntityMapping? {
        entityMappings.first { $0.sourceEntityName == name }
    }

    /// The mapping whose destination entity is named `name`.
    func mapping(forDestinationEntityName name: String) -> NSEntityMapping? {
        entityMappings.first { $0.destinationEntityName == name }
    }
}

/// What an entity mapping does with the records of its source entity (Apple's raw values).
public enum NSEntityMappingType: UInt, Sendable {
    /// Apple's custom mappings (`NSEntityMigrationPolicy`); never inferred.
    case undefinedEntityMappingType = 0
    case customEntityMappingType = 1
    /// A new entity: no source records.
    case addEntityMappingType = 2
    /// The source entity is gone; its records are dropped.
    case removeEntityMappingType = 3
    /// The entity is unchanged (same version hash); its records are copied as they are.
    case copyEntityMappingType = 4
    /// The entity changed (properties added, removed, renamed, optionality, cardinality, or the
    /// entity itself was renamed); each record is rebuilt through the property mappings.
    case transformEntityMappingType = 5
}

/// How the records of one source entity become records of one destination entity.
///
/// ```swift
/// let m = mapping.entityMappings.first { $0.destinationEntityName == "Person" }!
/// m.sourceEntityName                              // "Employee" (renamed through renamingIdentifier)
/// m.attributeMappings?.map(\.name)                // ["firstName", "nickname", ...]
/// m.attributeMappings?.first?.valueExpression     // FUNCTION($source, "valueForKey:", "firstName")
/// ```
open class NSEntityMapping: NSObject, @unchecked Sendable {
    /// An inferred mapping's name starts with `IEM_` and its kind, as Apple's do
    /// (`IEM_Transform_Division`, `IEM_Copy_Milestone`, `IEM_Add_Office`, `IEM_Remove_Badge`);
    /// a mapping model from Xcode has Xcode's names (`DepartmentToDivision`).
    open var name: String
    open var mappingType: NSEntityMappingType
    open var sourceEntityName: String?
    open var destinationEntityName: String?
    /// The source entity's version hash (nil for an added entity).
    open var sourceEntityVersionHash: Data?
    /// The destination entity's version hash (nil for a removed entity).
    open var destinationEntityVersionHash: Data?
    /// One mapping per stored attribute of the destination entity (inherited ones included).
    open var attributeMappings: [NSPropertyMapping]?
    /// One mapping per stored relationship of the destination entity (inherited ones included).
    open var relationshipMappings: [NSPropertyMapping]?
    /// The source instances to migrate; nil (inferred mappings) means all instances of the
    /// source entity. Xcode writes `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:",
    /// "Car", "TRUEPREDICATE"), $manager.sourceContext, NO)`; OpenCoreData keeps its fetch
    /// request part, which ``NSMigrationManager`` executes in its source context.
    open var sourceExpression: NSExpression?
    open var userInfo: [AnyHashable: Any]?
    /// The ``NSEntityMigrationPolicy`` subclass that migrates this mapping's instances, by the
    /// name it was registered under (``NSEntityMigrationPolicy/register(_:forClassName:)``);
    /// nil: the base class.
    open var entityMigrationPolicyClassName: String?

    /// An empty mapping, to fill in property by property.
    public override convenience init() {
        self.init(name: "", mappingType: .undefinedEntityMappingType, sourceEntityName: nil, destinationEntityName: nil)
    }

    public init(name: String, mappingType: NSEntityMappingType, sourceEntityName: String?, destinationEntityName: String?) {
        self.name = name
        self.mappingType = mappingType
        self.sourceEntityName = sourceEntityName
        self.destinationEntityName = destinationEntityName
        super.init()
    }

    open override var description: String {
        "(NSEntityMapping) \(name) \(mappingType) \(sourceEntityName ?? "-") → \(destinationEntityName ?? "-")"
    }
}

/// How one destination property gets its value.
///
/// `valueExpression` is Apple's form for inferred mappings — `FUNCTION($source, "valueForKey:",
/// "<source name>")` for a property that existed, nil for a new one (it starts with its default
/// value). ``sourceName`` says the same without parsing an expression.
open class NSPropertyMapping: NSObject, @unchecked Sendable {
    /// The destination property's name.
    open var name: String?
    open var valueExpression: NSExpression?
    open var userInfo: [AnyHashable: Any]?
    /// The source property the value comes from (differs from ``name`` after a rename through
    /// `renamingIdentifier`); nil for a new property. An OpenCoreData addition.
    public internal(set) var sourceName: String?
    /// Xcode's "autogenerate value expression" with no expression written yet: the expression
    /// is derived from the models (``NSMappingModel/generateValueExpressions(sourceModel:destinationModel:)``).
    var generatesValueExpression = false

    /// An empty mapping, to fill in.
    public override convenience init() {
        self.init(name: nil, sourceName: nil)
    }

    public init(name: String?, sourceName: String?) {
        self.name = name
        self.sourceName = sourceName
        if let sourceName {
            // Property names are identifiers, so the format cannot fail; a name that is not one
            // simply gets no expression.
            valueExpression = try? NSExpression(validatingFormat: "FUNCTION($source, 'valueForKey:', %@)", argumentArray: [sourceName])
        }
        super.init()
    }

    /// Whether the value is carried over from a differently named source property.
    public var isRename: Bool { sourceName != nil && sourceName != name }

    open override var description: String {
        "(NSPropertyMapping) \(name ?? "?") ← \(sourceName ?? "new")"
    }
}
