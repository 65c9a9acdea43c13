import Foundation

/// The Core Data key path (`"department.name"`) that a Swift key path into `@Managed`
/// properties stands for.
///
/// ```swift
/// try KeyPathNames.name(of: \Employee.salary)             // "salary"
/// try KeyPathNames.name(of: \Employee.department?.name)   // "department.name"
/// let p = NSPredicate(format: "%K > %d", try KeyPathNames.name(of: \Employee.salary), 5000)
/// ```
///
/// Apple platforms read the key from the key path (`_kvcKeyPathString`, filled in for `@objc`
/// properties); Linux has no such thing. So the key path is read once on a *probe*: a throwaway,
/// never-inserted instance of the root class whose `@Managed` getters report which property
/// they read. A to-one relationship read on a probe answers a probe of its destination, so
/// optional chains (`\.department?.name`) record every link. Answers are cached per key path.
///
/// The root class must be the class of an entity in a model that a coordinator (or container)
/// has loaded — that is how the probe gets its entity.
///
/// A key path is only named when reading it is exactly reading those properties:
/// - one property: the key path must equal the property's own key path (`\Employee.salary`);
/// - a chain: every link but the last is a to-one relationship read on the previous link's
///   object, the key path's value type is the last property's, and the value read through the
///   key path is the value stored in the last attribute (checked with a probe value) or the
///   object the last to-one relationship holds, so a computed property that transforms a value
///   (`\.department?.upperCasedName`) is refused. A chain ending in a to-many relationship
///   cannot be checked this way and is refused too.
///
/// Anything else (a computed property, `.count`, a property that is not `@Managed`) throws an
/// `NSError` (`NSCocoaErrorDomain`, code 2048) that says what to write instead.
public enum KeyPathNames {
    /// The key path string `keyPath` reads, or a thrown `NSError` explaining why it has none.
    public static func name<Root>(of keyPath: PartialKeyPath<Root>) throws -> String {
        try resolve(keyPath).name
    }

    /// A named key path and the properties it goes through, outermost first.
    struct Resolved {
        let name: String
        let properties: [NSPropertyDescription]
        /// Whether any link is a to-many relationship (the value is a collection).
        var isCollection: Bool { properties.contains { ($0 as? NSRelationshipDescription)?.isToMany == true } }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [AnyKeyPath: Resolved] = [:]  // guarded by `lock`

    /// `keyPath` resolved on a probe of its root class's entity (cached).
    static func resolve(_ keyPath: AnyKeyPath) throws -> Resolved {
        lock.lock()
        let cached = cache[keyPath]
        lock.unlock()
        if let cached { return cached }
        let resolved = try record(keyPath)
        lock.lock(); cache[keyPath] = resolved; lock.unlock()
        return resolved
    }

    // MARK: Recording

    /// One `@Managed` read on a probe.
    struct Access {
        let object: NSManagedObject
        let slot: Int
        /// The key path that read it (nil: a `ManagedPropertyKey` accessor, which has none).
        let keyPath: AnyKeyPath?
        /// The types a key path ending at this property may have: `Value`, `Value?`, and the
        /// wrapped type when `Value` is optional (a force unwrap).
        let valueTypes: [Any.Type]
        /// For a to-one relationship: the probe it answered.
        let destination: NSManagedObject?
    }

    /// Collects the reads of one recording. Used on one thread only, inside `record`.
    final class Recorder: @unchecked Sendable {
        var accesses: [Access] = []
    }

    @TaskLocal static var recorder: Recorder?

    /// Called by `@Managed` and `ManagedPropertyKey` getters of probe objects.
    static func probe<Value>(_ object: NSManagedObject, didRead slot: Int, through keyPath: AnyKeyPath?, as _: Value.Type) {
        guard let recorder else { return }
        var destination: NSManagedObject?
        if let r = object.layout.properties[slot] as? NSRelationshipDescription, !r.isToMany, let target = r.destinationEntity {
            if case .toOne(let existing) = object.slots[slot] {
                destination = existing
            } else {
                let next = makeProbe(of: target)
                object.slots[slot] = .toOne(next)  // no inverse: the probe graph is a chain, freed with the recorder
                destination = next
            }
        }
        var types: [Any.Type] = [Value.self, Value?.self]
        if let optional = Value.self as? any ProbeOptional.Type { types.append(optional.wrappedType) }
        recorder.accesses.append(Access(object: object, slot: slot, keyPath: keyPath, valueTypes: types, destination: destination))
    }

    private static func makeProbe(of entity: NSEntityDescription) -> NSManagedObject {
        let probe = entity.resolvedClass.init(entity: entity, insertInto: nil)
        probe.flags.insert(.keyPathProbe)
        // Every attribute holds a value, so force-unwrapping key paths (`\.firstName!`) and
        // computed properties read on the probe find one instead of trapping on nil.
        for (i, property) in probe.layout.properties.enumerated() {
            if let a = property as? NSAttributeDescription, let value = probeValue(for: a.attributeType) {
                probe.slots[i] = .value(StoredValue(value, for: a))
            }
        }
        return probe
    }

    private static func record(_ keyPath: AnyKeyPath) throws -> Resolved {
        let keyPathType = type(of: keyPath)
        let rootType = keyPathType.rootType
        guard let rootClass = rootType as? NSManagedObject.Type else {
            throw failure(keyPath, "its root \(rootType) is not an NSManagedObject subclass. Only @Managed properties have names on Linux; write the key as a string (NSSortDescriptor(key:ascending:), NSPredicate(format:)) instead")
        }
        guard let entity = ModelRegistry.entity(for: rootClass) else {
            throw failure(keyPath, "no loaded model has an entity whose class is \(String(reflecting: rootClass)). Create the persistent store coordinator (or load the container) before translating queries, and set the entity's managedObjectClassName")
        }
        let root = makeProbe(of: entity)
        let recorder = Recorder()
        _ = $recorder.withValue(recorder) { root[keyPath: keyPath] }
        let accesses = recorder.accesses

        guard let last = accesses.last else {
            throw failure(keyPath, "it reads no @Managed property. Declare the property with @Managed, or write the key as a string")
        }
        var expected: NSManagedObject = root
        for (i, access) in accesses.enumerated() {
            guard access.object === expected else { throw notAPropertyChain(keyPath) }
            if i < accesses.count - 1 {
                guard let next = access.destination else { throw notAPropertyChain(keyPath) }
                expected = next
            }
        }
        if accesses.count > 1 || last.keyPath != keyPath {
            // Not literally the property's own key path: a chain, or a subclass root. Accept it
            // only if it reads the last property's value unchanged.
            guard last.valueTypes.contains(where: { $0 == keyPathType.valueType }),
                  readsStoredValue(keyPath, root: root, last: last) else { throw notAPropertyChain(keyPath) }
        }
        let properties = accesses.map { $0.object.layout.properties[$0.slot] }
        return Resolved(name: properties.map(\.name).joined(separator: "."), properties: properties)
    }

    /// Whether reading `keyPath` on `root` answers what is stored in the last read attribute:
    /// the probe's unusual value there (see `makeProbe`), which a transformation would change.
    private static func readsStoredValue(_ keyPath: AnyKeyPath, root: NSManagedObject, last: Access) -> Bool {
        if let destination = last.destination {
            // A chain ending in a to-one relationship must answer the probe the relationship holds.
            return KVCValueKinds.unwrap(root[keyPath: keyPath] as Any).map { $0 as AnyObject === destination } ?? false
        }
        guard let attribute = last.object.layout.properties[last.slot] as? NSAttributeDescription,
              let probeValue = probeValue(for: attribute.attributeType) else { return false }
        guard let read = KVCValueKinds.unwrap(root[keyPath: keyPath] as Any) else { return false }
        return ValueComparison.compare(read, probeValue, options: []) == .orderedSame
    }

    /// A value no plausible transformation leaves unchanged (mixed case, diacritics, not 0 or 1).
    private static func probeValue(for type: NSAttributeType) -> Any? {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return 12_345
        case .doubleAttributeType, .floatAttributeType: return 1234.5
        case .decimalAttributeType: return Decimal(string: "1234.5")!
        case .stringAttributeType: return "Probe Éß x1"
        case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: 12_345.5)
        case .UUIDAttributeType: return UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!
        case .URIAttributeType: return URL(string: "https://probe.invalid/Ab")!
        case .booleanAttributeType: return true
        case .binaryDataAttributeType: return Data([0x0F, 0xF0, 0x5A])
        default: return nil
        }
    }

    private static func notAPropertyChain(_ keyPath: AnyKeyPath) -> NSError {
        failure(keyPath, "it is not a chain of @Managed properties (to-one relationships, then one property). Computed properties, collection members such as .count, and transformed values have no Core Data key; write the key as a string instead")
    }

    static func failure(_ keyPath: AnyKeyPath, _ reason: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: CocoaError.formatting.rawValue, userInfo: [
            NSLocalizedDescriptionKey: "Cannot name the key path \(keyPath): \(reason).",
        ])
    }
}

/// Lets `KeyPathNames` accept force-unwrapped key paths (`\.department!.name`).
private protocol ProbeOptional {
    static var wrappedType: Any.Type { get }
}

extension Optional: ProbeOptional {
    static var wrappedType: Any.Type { Wrapped.self }
}
