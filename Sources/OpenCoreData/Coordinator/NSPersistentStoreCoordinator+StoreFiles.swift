import Foundation

/// Copying a store's files over another's, and moving an added store to another file.
///
/// ```swift
/// // A backup: the store at `live` copied to `backup` (made when it doesn't exist).
/// try coordinator.replacePersistentStore(at: backup, withPersistentStoreFrom: live, ofType: NSSQLiteStoreType)
/// ```
extension NSPersistentStoreCoordinator {
    /// Replaces the store at `destinationURL` with a copy of the store at `sourceURL`, both of
    /// `storeType`; when there is no store at `destinationURL`, the copy is made there.
    ///
    /// A SQLite store is copied with SQLite's online backup, which reads the source in one
    /// consistent state even while a coordinator has it open, and writes the destination in one
    /// transaction; its external binary values come along. Other stores' files are copied beside
    /// the destination and renamed over it. The destination must not be added to this
    /// coordinator (remove it first); the source may be.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                     withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
                                     ofType storeType: String) throws {
        let storeClass = try Self.storeClass(for: storeType)
        guard persistentStore(for: destinationURL) == nil else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "replacePersistentStore: the store at \(destinationURL.path) is added to this coordinator; remove it first (remove(_:)), then replace it and add it again.", [NSFilePathErrorKey: destinationURL.path])
        }
        guard FileManager.default.fileExists(atPath: sourceURL.path) else {
            throw CoreDataError.make(NSFileReadNoSuchFileError, "replacePersistentStore: there is no store at \(sourceURL.path) to copy.", [NSFilePathErrorKey: sourceURL.path])
        }
        guard destinationURL.standardizedFileURL.path != sourceURL.standardizedFileURL.path else { return }
        try storeClass.replaceStoreFiles(at: destinationURL, withStoreAt: sourceURL)
    }

    /// ``replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)``
    /// with the store type as `NSPersistentStore.StoreType`.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
                                       type: NSPersistentStore.StoreType) throws {
        try replacePersistentStore(at: destinationURL, destinationOptions: destinationOptions, withPersistentStoreFrom: sourceURL,
                                   sourceOptions: sourceOptions, ofType: type.rawValue)
    }

    /// Moves `store` to `url`: an atomic store (binary, XML, your `NSAtomicStore`) writes its
    /// next save there; a SQLite store closes its file and opens the one at `url`, which must be
    /// a copy of the same store (same store UUID, same model). Returns false when `store` is not
    /// added to this coordinator or the file at `url` can't take its place; the store then stays
    /// where it was.
    public func setURL(_ url: URL, for store: NSPersistentStore) -> Bool {
        locked {
            guard persistentStores.contains(where: { $0 === store }) else { return false }
            if let relocatable = store as? RelocatableStore { return relocatable.relocate(to: url) }
            store.url = url
            return true
        }
    }
}

/// A store whose file is open while it is added, so ``NSPersistentStoreCoordinator/setURL(_:for:)``
/// must reopen it rather than only change its URL.
protocol RelocatableStore: AnyObject {
    /// Opens the store at `url` in place of the current file; false, with the current file
    /// still open, when that can't be done.
    func relocate(to url: URL) -> Bool
}
