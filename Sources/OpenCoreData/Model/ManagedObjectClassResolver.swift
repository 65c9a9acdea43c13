import Foundation

/// A class whose instances an entity's objects can be: `NSManagedObject` and its subclasses
/// (it adopts this protocol in `Object/`). Lets the model layer check the class an entity names
/// without naming the object layer.
protocol EntityObjectClass: AnyObject {}

/// Finds the Swift class named by an entity's `managedObjectClassName`.
///
/// ```swift
/// ManagedObjectClassResolver.resolve("MyApp.Employee")   // Employee.self, if the program has it
/// ```
enum ManagedObjectClassResolver {
    static func resolve(_ name: String) -> EntityObjectClass.Type? {
        // A registered name first: what the program said a model's name means.
        if let type = registered(name) { return type }
        // Models write the base class without a module; it is this module's.
        let qualified = name == "NSManagedObject" ? "OpenCoreData.NSManagedObject" : name
        if let type = _typeByName(qualified) as? EntityObjectClass.Type { return type }
        if let type = NSClassFromString(name) as? EntityObjectClass.Type { return type }
        return nil
    }

    // MARK: Registered names

    /// Class names a program registered (``NSManagedObject/registerClassName(_:)``), the
    /// stand-in for `@objc(Name)`: Linux has no Objective-C runtime to look a bare name up in.
    nonisolated(unsafe) private static var registry: [String: EntityObjectClass.Type] = [:]
    private static let registryLock = NSLock()

    static func register(_ type: EntityObjectClass.Type, as name: String) {
        registryLock.lock(); defer { registryLock.unlock() }
        registry[name] = type
    }

    /// The class registered under `name`, or under the name without a leading "." (Xcode's
    /// "current product module").
    static func registered(_ name: String) -> EntityObjectClass.Type? {
        registryLock.lock(); defer { registryLock.unlock() }
        return registry[name] ?? registry[String(name.drop { $0 == "." })]
    }
}
