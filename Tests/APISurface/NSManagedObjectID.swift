import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsmanagedobjectid (iOS 18 / macOS 15 SDK),
// cross-checked against a second copy of Apple's reference pages and the NSManagedObjectID.h header
// (`@interface NSManagedObjectID : NSObject <NSCopying>`). Apple declares Equatable, Hashable,
// NSCopying, NSFetchRequestResult (see NSFetchRequestResult.swift) and Sendable; it does not
// declare Comparable.

/// api: NSManagedObjectID.entity
func api_NSManagedObjectID_entity(_ objectID: NSManagedObjectID) {
    let _: NSEntityDescription = objectID.entity
}

/// api: NSManagedObjectID.persistentStore
func api_NSManagedObjectID_persistentStore(_ objectID: NSManagedObjectID) {
    let _: NSPersistentStore? = objectID.persistentStore
}

/// api: NSManagedObjectID.isTemporaryID
func api_NSManagedObjectID_isTemporaryID(_ objectID: NSManagedObjectID) {
    let _: Bool = objectID.isTemporaryID
}

/// api: NSManagedObjectID.uriRepresentation()
func api_NSManagedObjectID_uriRepresentation(_ objectID: NSManagedObjectID) {
    let _: URL = objectID.uriRepresentation()
}

/// api: NSManagedObjectID.Hashable
func api_NSManagedObjectID_Hashable(_ a: NSManagedObjectID, _ b: NSManagedObjectID) {
    func requireHashable<T: Hashable>(_ value: T) -> Int { value.hashValue }
    let _: Int = requireHashable(a)
    let _: Bool = a == b
    let _: Bool = a != b
    let ids: Set<NSManagedObjectID> = [a, b]
    let _: [NSManagedObjectID: Int] = [a: 1]
    let _: Bool = ids.contains(a)
}

/// api: NSManagedObjectID.copy(with:)
func api_NSManagedObjectID_copy_with(_ objectID: NSManagedObjectID) {
    func requireCopying<T: NSCopying>(_ value: T) -> Any { value.copy(with: nil) }
    let _: Any = requireCopying(objectID)
    let _: Any = objectID.copy()
}

/// api: NSManagedObjectID.Sendable
func api_NSManagedObjectID_Sendable(_ objectID: NSManagedObjectID) {
    func requireSendable<T: Sendable>(_ value: T) -> T { value }
    let _: NSManagedObjectID = requireSendable(objectID)
}
