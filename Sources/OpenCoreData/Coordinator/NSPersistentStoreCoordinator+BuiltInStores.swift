import Foundation

/// The store types every coordinator knows without registration, as Apple's does:
/// `addPersistentStore(ofType: NSSQLiteStoreType, ...)` works in a program that never calls
/// `registerStoreClass(_:forStoreType:)`.
///
/// ```swift
/// NSPersistentStoreCoordinator.registeredStoreTypes[NSSQLiteStoreType]   // SQLiteStore.self
/// ```
///
/// This is the one place the coordinator layer names the stores above it (docs/ARCHITECTURE.md,
/// "Layers"): nothing else in `Coordinator/` may, and a store type added later registers here.
extension NSPersistentStoreCoordinator {
    static let builtInStoreClasses: [String: NSPersistentStore.Type] = [
        NSInMemoryStoreType: InMemoryStore.self,
        NSSQLiteStoreType: SQLiteStore.self,
        NSBinaryStoreType: BinaryStore.self,
        NSXMLStoreType: XMLStore.self,
    ]
}
