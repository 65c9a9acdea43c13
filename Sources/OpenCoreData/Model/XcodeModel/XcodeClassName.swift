import Foundation

/// Chooses an entity's `managedObjectClassName` from the class name an Xcode model writes.
enum XcodeClassName {
    /// Sets `managedObjectClassName` to the class the model names when this program contains it,
    /// else leaves `NSManagedObject` and keeps the written name in `representedClassName`.
    /// Returns a warning sentence in the second case.
    ///
    /// Why not fail, or report a model problem: an app's model names the app's own classes
    /// ("Car", or ".Car" for "current module"), which a Linux program reading the app's store
    /// usually does not contain. A problem would stop `addPersistentStore` and make every such
    /// model unusable, while plain `NSManagedObject`s read the same data through
    /// `value(forKey:)`.
    static func apply(_ written: String?, to entity: NSEntityDescription, moduleName: String?) -> String? {
        guard let written, !written.isEmpty, written != "NSManagedObject" else { return nil }
        let bare = String(written.drop(while: { $0 == "." }))
        var candidates = [written]
        if bare != written { candidates.append(bare) }
        if let moduleName, !bare.contains(".") { candidates.append(moduleName + "." + bare) }
        for candidate in candidates where ManagedObjectClassResolver.resolve(candidate) != nil {
            entity.managedObjectClassName = candidate
            return nil
        }
        entity.representedClassName = written
        return "Entity '\(entity.name ?? "?")' names class '\(written)', which this program does not contain; its objects will be NSManagedObject. Define `final class \(bare): NSManagedObject` and pass moduleName when loading, or call NSManagedObject.register(\(bare).self, forClassName: \"\(written)\") before the model is used, or set managedObjectClassName to \"Module.Class\"."
    }
}
