import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nspersistentstorerequest (iOS 18 / macOS 15 SDK),
// cross-checked against a second copy of Apple's reference pages and the NSPersistentStoreRequest.h
// header (`@interface NSPersistentStoreRequest : NSObject <NSCopying>`; NSFetchRequestType = 1,
// NSSaveRequestType, NSBatchInsertRequestType = 5, NSBatchUpdateRequestType = 6,
// NSBatchDeleteRequestType = 7). NSPersistentStoreRequestType is here too.

/// api: NSPersistentStoreRequest.affectedStores
func api_NSPersistentStoreRequest_affectedStores(_ request: NSPersistentStoreRequest) {
    let stores: [NSPersistentStore]? = request.affectedStores
    request.affectedStores = stores
    request.affectedStores = nil
}

/// api: NSPersistentStoreRequest.requestType
func api_NSPersistentStoreRequest_requestType(_ request: NSPersistentStoreRequest) {
    let _: NSPersistentStoreRequestType = request.requestType
}

/// api: NSPersistentStoreRequest.copy(with:)
func api_NSPersistentStoreRequest_copy_with(_ request: NSPersistentStoreRequest) {
    func requireCopying<T: NSCopying>(_ value: T) -> Any { value.copy(with: nil) }
    let _: Any = requireCopying(request)
    let _: Any = request.copy()
}

// MARK: - NSPersistentStoreRequestType

/// api: NSPersistentStoreRequestType.fetchRequestType
func api_NSPersistentStoreRequestType_fetchRequestType() {
    let _: NSPersistentStoreRequestType = .fetchRequestType
}

/// api: NSPersistentStoreRequestType.saveRequestType
func api_NSPersistentStoreRequestType_saveRequestType() {
    let _: NSPersistentStoreRequestType = .saveRequestType
}

/// api: NSPersistentStoreRequestType.batchInsertRequestType
func api_NSPersistentStoreRequestType_batchInsertRequestType() {
    let _: NSPersistentStoreRequestType = .batchInsertRequestType
}

/// api: NSPersistentStoreRequestType.batchUpdateRequestType
func api_NSPersistentStoreRequestType_batchUpdateRequestType() {
    let _: NSPersistentStoreRequestType = .batchUpdateRequestType
}

/// api: NSPersistentStoreRequestType.batchDeleteRequestType
func api_NSPersistentStoreRequestType_batchDeleteRequestType() {
    let _: NSPersistentStoreRequestType = .batchDeleteRequestType
}

/// api: NSPersistentStoreRequestType.init(rawValue:)
func api_NSPersistentStoreRequestType_init_rawValue() {
    let type: NSPersistentStoreRequestType? = NSPersistentStoreRequestType(rawValue: 1)
    let _: UInt? = type?.rawValue
}

/// api: NSPersistentStoreRequestType.Hashable
func api_NSPersistentStoreRequestType_Hashable(_ type: NSPersistentStoreRequestType) {
    func requireHashable<T: Hashable & Sendable>(_ value: T) -> Int { value.hashValue }
    let _: Int = requireHashable(type)
    let _: Bool = type == .fetchRequestType
}
