import Foundation

/// A named, registered conversion between values — Foundation's `ValueTransformer`, which Linux
/// Foundation lacks. Transformable attributes use one to turn their values into data for a store.
///
/// ```swift
/// final class CSVTransformer: ValueTransformer {
///     override class func allowsReverseTransformation() -> Bool { true }
///     override func transformedValue(_ value: Any?) -> Any? {
///         (value as? [String]).map { Data($0.joined(separator: ",").utf8) }
///     }
///     override func reverseTransformedValue(_ value: Any?) -> Any? {
///         (value as? Data).map { String(decoding: $0, as: UTF8.self).components(separatedBy: ",") }
///     }
/// }
/// ValueTransformer.setValueTransformer(CSVTransformer(), forName: NSValueTransformerName("CSV"))
/// attribute.valueTransformerName = "CSV"
/// ```
open class ValueTransformer: NSObject, @unchecked Sendable {
    // @unchecked Sendable: transformers are registered once and then used from any thread,
    // as on Apple platforms; subclasses must be stateless or lock their state.

    private static let lock = NSLock()
    nonisolated(unsafe) private static var registry: [NSValueTransformerName: ValueTransformer] = [  // guarded by `lock`
        .secureUnarchiveFromDataTransformerName: NSSecureUnarchiveFromDataTransformer(),
    ]

    /// Registers `transformer` under `name` (nil removes the registration).
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        lock.lock(); defer { lock.unlock() }
        registry[name] = transformer
    }

    /// The transformer registered under `name`; ``ValueTransformerRegistryLookup/init(forName:)``
    /// (`ValueTransformer(forName:)`, Apple's spelling) answers the same.
    public class func registered(_ name: NSValueTransformerName) -> ValueTransformer? {
        lock.lock(); defer { lock.unlock() }
        return registry[name]
    }

    /// The names of the registered transformers.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        lock.lock(); defer { lock.unlock() }
        return Array(registry.keys)
    }

    open class func allowsReverseTransformation() -> Bool { false }
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Converts a value; the default returns it unchanged.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// Converts back; the default returns the value unchanged when reverse transformation is allowed.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        type(of: self).allowsReverseTransformation() ? value : nil
    }

    public override init() { super.init() }
}

/// The name of a registered value transformer.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
    public static let keyedUnarchiveFromDataTransformerName = NSValueTransformerName("NSKeyedUnarchiveFromData")
    public static let unarchiveFromDataTransformerName = NSValueTransformerName("NSUnarchiveFromData")
    public static let isNilTransformerName = NSValueTransformerName("NSIsNil")
    public static let isNotNilTransformerName = NSValueTransformerName("NSIsNotNil")
    public static let negateBooleanTransformerName = NSValueTransformerName("NSNegateBoolean")
}

/// The default transformer of transformable attributes: values to keyed-archive data and back,
/// decoding only the classes `allowedTopLevelClasses` lists (secure coding).
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    /// The classes that may be decoded. Subclass and override to allow your own.
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    open override class func allowsReverseTransformation() -> Bool { true }
    open override class func transformedValueClass() -> AnyClass { NSData.self }

    /// Unarchives data, allowing only ``allowedTopLevelClasses``: the forward direction of an
    /// "unarchive from data" transformer, as Apple's is.
    open override func transformedValue(_ value: Any?) -> Any? {
        // Stored bytes may come from a damaged or hostile file: refuse what crashes Foundation.
        guard let data = value as? Data, UntrustedPropertyList.binaryProblem(data) == nil else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: type(of: self).allowedTopLevelClasses, from: data)
    }

    /// Archives `value` (it must support secure coding); nil for values that can't be archived.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
    }
}

/// How stores apply a transformable attribute's transformer.
///
/// ```swift
/// let data = transformer.storedData(for: colors)     // saving
/// let colors = transformer.value(fromStored: data)   // reading
/// ```
///
/// A transformer turns values into data forwards (`transformedValue`) and back in reverse,
/// except the "unarchive from data" family (`NSSecureUnarchiveFromDataTransformer` and its
/// subclasses), which turns data into values forwards: Core Data applies those backwards,
/// so a subclass written for Apple's framework works unchanged.
extension ValueTransformer {
    private var transformsFromData: Bool { self is NSSecureUnarchiveFromDataTransformer }

    /// The data a store keeps for `value`, or nil when the transformer gives none.
    func storedData(for value: Any?) -> Data? {
        (transformsFromData ? reverseTransformedValue(value) : transformedValue(value)) as? Data
    }

    /// The value of `data` a store kept.
    func value(fromStored data: Data) -> Any? {
        transformsFromData ? transformedValue(data) : reverseTransformedValue(data)
    }
}

/// Gives `ValueTransformer` Apple's `init?(forName:)`, which answers the registered instance.
///
/// ```swift
/// let csv = ValueTransformer(forName: NSValueTransformerName("CSV"))
/// ```
///
/// A class's own initializer cannot return an existing instance; one declared in a protocol
/// extension can (it assigns `self`), so `ValueTransformer` adopts this protocol.
public protocol ValueTransformerRegistryLookup {}

extension ValueTransformerRegistryLookup where Self: ValueTransformer {
    /// The transformer registered under `name`, or nil when none is, or it is not a `Self`.
    public init?(forName name: NSValueTransformerName) {
        guard let registered = ValueTransformer.registered(name) as? Self else { return nil }
        self = registered
    }
}

extension ValueTransformer: ValueTransformerRegistryLookup {}
