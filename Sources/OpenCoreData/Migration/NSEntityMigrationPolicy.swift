import Foundation

// The names of the variables a mapping model's expressions can use (Apple's constants).
public let NSMigrationManagerKey = "manager"
public let NSMigrationSourceObjectKey = "source"
public let NSMigrationDestinationObjectKey = "destination"
public let NSMigrationEntityMappingKey = "entityMapping"
public let NSMigrationPropertyMappingKey = "propertyMapping"
public let NSMigrationEntityPolicyKey = "entityPolicy"

/// Migrates the instances of one entity mapping; ``NSMigrationManager`` calls it in three
/// stages. Subclass it to do what value expressions can't, and name the subclass in the
/// entity mapping's ``NSEntityMapping/entityMigrationPolicyClassName``.
///
/// ```swift
/// final class MakerPolicy: NSEntityMigrationPolicy {
///     override func createDestinationInstances(forSource source: NSManagedObject, in mapping: NSEntityMapping,
///                                              manager: NSMigrationManager) throws {
///         try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
///         let car = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
///         // ... find or make the Maker named source.value(forKey: "maker") and relate it to car
///     }
/// }
/// NSEntityMigrationPolicy.register(MakerPolicy.self, forClassName: "App.MakerPolicy")
/// ```
///
/// Linux has no lookup of a class by its name, so a policy class is registered under the name
/// the mapping model uses (see docs/DEVIATIONS.md). Likewise `FUNCTION($entityPolicy,
/// "method:", ...)` in a value expression calls ``evaluateFunction(_:arguments:)``, which a
/// subclass overrides to answer its own selectors.
///
/// The default stages: `createDestinationInstances` inserts one instance of the destination
/// entity, sets each attribute from its mapping's value expression and associates the two;
/// `createRelationships` sets each relationship from its expression. The other methods do
/// nothing.
open class NSEntityMigrationPolicy: NSObject, ExpressionMethodReceiver {
    public required override init() {
        super.init()
    }

    // MARK: Registration

    private static let registryLock = NSLock()
    // Guarded by registryLock.
    nonisolated(unsafe) private static var registry: [String: NSEntityMigrationPolicy.Type] = [:]

    /// Makes `policyClass` the policy of every entity mapping whose
    /// ``NSEntityMapping/entityMigrationPolicyClassName`` is `className` (an OpenCoreData
    /// addition; Apple's framework finds the class by name at run time).
    public static func register(_ policyClass: NSEntityMigrationPolicy.Type, forClassName className: String) {
        registryLock.lock(); defer { registryLock.unlock() }
        registry[className] = policyClass
    }

    /// The class registered for `className`, or nil.
    static func registeredClass(named className: String) -> NSEntityMigrationPolicy.Type? {
        registryLock.lock(); defer { registryLock.unlock() }
        return registry[className]
    }

    // MARK: Stage 1: instances

    open func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}

    open func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        let entity = try manager.requireDestinationEntity(for: mapping)
        let destination = NSEntityDescription.insertNewObject(forEntityName: entity.name ?? "", into: manager.destinationContext)
        for property in mapping.attributeMappings ?? [] {
            guard let name = property.name, let expression = property.valueExpression else { continue }
            guard let attribute = entity.attributesByName[name] else {
                throw manager.failure("the attribute mapping '\(name)' of '\(mapping.name)' names no attribute of entity '\(entity.name ?? "?")'")
            }
            let value = try manager.evaluate(expression, source: sInstance, destination: destination, mapping: mapping, property: property, policy: self)
            let stored = KVCValueKinds.isNull(value) ? nil : value
            guard StoredValue(stored, for: attribute).fits(attribute) else {
                throw manager.failure("the value expression \(expression) of '\(mapping.name).\(name)' gives a \(String(describing: type(of: stored!))), which a \(attribute.attributeType) attribute can't hold")
            }
            destination.setValue(stored, forKey: name)
        }
        manager.associate(sourceInstance: sInstance, withDestinationInstance: destination, for: mapping)
    }

    open func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    // MARK: Stage 2: relationships

    open func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        let source = manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [dInstance]).first
        for property in mapping.relationshipMappings ?? [] {
            guard let name = property.name, let expression = property.valueExpression else { continue }
            guard let relationship = dInstance.entity.relationshipsByName[name] else {
                throw manager.failure("the relationship mapping '\(name)' of '\(mapping.name)' names no relationship of entity '\(dInstance.entity.name ?? "?")'")
            }
            let value = try manager.evaluate(expression, source: source, destination: dInstance, mapping: mapping, property: property, policy: self)
            let objects = NSMigrationManager.managedObjects(in: value)
            // A source object here (`$source.owner` instead of the manager's lookup) would tie
            // the two stores' graphs together.
            guard objects.allSatisfy({ $0.managedObjectContext === manager.destinationContext }),
                  let target = relationship.destinationEntity, objects.allSatisfy({ $0.entity.isKindOf(entity: target) }) else {
                throw manager.failure("the value expression \(expression) of '\(mapping.name).\(name)' gives objects that are not destination instances of '\(relationship.destinationEntity?.name ?? "?")'. Map source objects with FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", ...)")
            }
            if relationship.isToMany {
                if relationship.isOrdered {
                    dInstance.setValue(NSOrderedSet(array: objects), forKey: name)
                } else {
                    dInstance.setValue(Set(objects), forKey: name)
                }
            } else {
                dInstance.setValue(objects.first, forKey: name)
            }
        }
    }

    open func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    // MARK: Stage 3: validation

    open func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    open func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    // MARK: Expressions

    /// Answers `FUNCTION($entityPolicy, "selector:", arguments...)` in this policy's value
    /// expressions (Apple's framework sends the selector to the policy object). The default
    /// throws `NSMigrationError`; override it, switch on `selector` and call your method.
    ///
    /// ```swift
    /// override func evaluateFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
    ///     switch selector {
    ///     case "uppercased:": return (arguments.first as? String)?.uppercased()
    ///     default: return try super.evaluateFunction(selector, arguments: arguments)
    ///     }
    /// }
    /// ```
    open func evaluateFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
        throw CoreDataError.make(NSMigrationError, "FUNCTION($entityPolicy, '\(selector)', ...): \(type(of: self)) does not answer '\(selector)'. Override evaluateFunction(_:arguments:) in the policy to call it (Linux has no Objective-C message sending).")
    }

    func callExpressionMethod(_ selector: String, arguments: [Any?]) throws -> Any? {
        try evaluateFunction(selector, arguments: arguments)
    }
}
