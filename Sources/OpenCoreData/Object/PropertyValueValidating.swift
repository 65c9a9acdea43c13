import Foundation

/// A managed object class that checks single property values itself: the Linux form of Apple's
/// `validate<Key>(_:)` methods.
///
/// ```swift
/// final class Person: NSManagedObject, PropertyValueValidating {
///     func validate(_ key: String, value: inout Any?) throws {
///         if key == "email", let s = value as? String, !s.contains("@") {
///             throw NSError(domain: NSCocoaErrorDomain, code: NSManagedObjectValidationError,
///                           userInfo: [NSLocalizedDescriptionKey: "An email address needs an @."])
///         }
///     }
/// }
/// ```
///
/// At save, and in `validateValue(_:forKey:)`, the context first checks each value against the
/// model (optionality, type, ranges, validation predicates) and then, for a conforming object,
/// calls ``validate(_:value:)`` with the value in its public form (numbers as `NSNumber`, as
/// `value(forKey:)` returns them). Throw an `NSError` to reject the value, or assign `value` to
/// coerce it. Switch on `key`: one method stands for all of Apple's per-key ones.
///
/// Why a protocol: Core Data calls `validate<Key>(_:)` only when a class has it, which it finds
/// by name through the Objective-C runtime. Swift on Linux cannot ask whether a subclass
/// overrides a method, and the value must be boxed before the call, which costs an allocation
/// for most numbers. Conforming is how a class says it has validators, so classes without
/// them don't pay for boxing every property of every object they save.
///
/// Declare the method in the class body rather than in an extension, so subclasses can
/// override it (and call `super`).
public protocol PropertyValueValidating: NSManagedObject {
    /// Checks, and may replace, the value about to be saved for the property `key`.
    func validate(_ key: String, value: inout Any?) throws
}
