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
        // Models write the base class without a module; it is this module's.
        let qualified = name == "NSManagedObject" ? "OpenCoreData.NSManagedObject" : name
        if let type = _typeByName(qualified) as? EntityObjectClass.Type { return type }
        if let type = NSClassFromString(name) as? EntityObjectClass.Type { return type }
        return nil
    }
}
