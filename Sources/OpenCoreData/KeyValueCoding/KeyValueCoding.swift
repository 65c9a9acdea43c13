import Foundation

/// A type whose properties can be read by name, the way key-value coding reads them on Apple platforms.
///
/// Linux Foundation has no `value(forKey:)` on `NSObject`, so OpenCoreData declares this small
/// protocol. `NSManagedObject` adopts it; predicates, sort descriptors and
/// `value(forKeyPath:)` read values through it. Adopt it in your own types to evaluate
/// predicates against them:
///
/// ```swift
/// struct Point: KeyValueCoding {
///     var x: Int, y: Int
///     func checkedValue(forKey key: String) throws -> Any? {
///         switch key {
///         case "x": return x
///         case "y": return y
///         default: throw KeyValueCodingError.undefinedKey(key, in: "Point")
///         }
///     }
/// }
/// NSPredicate(format: "x > 1").evaluate(with: Point(x: 2, y: 0)) // true
/// ```
public protocol KeyValueCoding {
    /// The value for `key`, or a thrown `NSError` (see ``KeyValueCodingError``) when the
    /// type has no property of that name.
    func checkedValue(forKey key: String) throws -> Any?
}

/// Errors raised when a key or key path names nothing.
public enum KeyValueCodingError {
    /// The error Apple's `valueForUndefinedKey:` would raise, as an `NSError` in
    /// `NSCocoaErrorDomain` with code `NSKeyValueValidationError` (1024) and a message that names the key.
    public static func undefinedKey(_ key: String, in typeName: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: CocoaError.keyValueValidation.rawValue, userInfo: [
            NSLocalizedDescriptionKey: "\(typeName) has no property named '\(key)'. Check the spelling, or add '\(key)' to the entity in the model.",
            "NSUnknownUserInfoKey": key,
        ])
    }
}
