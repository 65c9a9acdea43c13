import Foundation

extension NSManagedObject {
    /// Makes `objectClass` the class of the entities whose model names `className`: an
    /// OpenCoreData addition, the stand-in for Xcode's `@objc(BookmarkEntity)` (Apple's
    /// framework finds such a class by its Objective-C name; Linux has no Objective-C runtime,
    /// and a Swift class's name includes its module).
    ///
    /// ```swift
    /// // The model's entity names class "BookmarkEntity", as Xcode writes it.
    /// NSManagedObject.register(BookmarkEntity.self, forClassName: "BookmarkEntity")
    /// let container = NSPersistentContainer(name: "Bookmarks")
    /// ```
    ///
    /// Register before the model is first used by a coordinator: models loaded earlier find the
    /// class too, when they freeze. A registered name is looked up before the program's module
    /// names, and also matches the model's ".BookmarkEntity" (Xcode's "current product module").
    public static func register(_ objectClass: NSManagedObject.Type, forClassName className: String) {
        ManagedObjectClassResolver.register(objectClass, as: className)
    }
}
