import Foundation

/// A store option: post ``Foundation/NSNotification/Name/NSPersistentStoreRemoteChange`` for
/// every write to the store, by this coordinator, another one in this process or another
/// process on the machine.
///
/// ```swift
/// description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
/// description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
/// NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: container.persistentStoreCoordinator, queue: nil) { note in
///     let token = note.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken
///     // fetch the history after your last token, merge it, keep `token`
/// }
/// ```
///
/// The SQLite store notices writes through the file system (inotify on the store's directory)
/// and SQLite's `PRAGMA data_version`; see docs/DEVIATIONS.md.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"

/// The changed store's URL, in a remote-change notification's `userInfo`.
public let NSPersistentStoreURLKey = "storeURL"
/// The history token of the store's last transaction, in a remote-change notification's
/// `userInfo` when the store keeps persistent history.
public let NSPersistentHistoryTokenKey = "historyToken"

extension Notification.Name {
    /// Posted after a write to a store added with
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`; its object is the store's
    /// coordinator, its `userInfo` holds `NSStoreUUIDKey`, `NSPersistentStoreURLKey` and, when
    /// the store keeps history, `NSPersistentHistoryTokenKey`.
    ///
    /// Posted on a private queue, as Apple's is: move to your context's queue before touching
    /// objects. Commits that land close together may be reported by one notification, whose
    /// token is the latest; catch up through the history after the token you processed last.
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}

extension NSPersistentStore {
    /// Whether the store was added with `NSPersistentStoreRemoteChangeNotificationPostOptionKey` on.
    var postsRemoteChangeNotifications: Bool {
        Self.isOptionOn(NSPersistentStoreRemoteChangeNotificationPostOptionKey, in: options)
    }

    /// Posts a store's remote-change notification, from the caller's (private) queue.
    /// `historyNumber` is the number of the store's last history transaction, when it keeps
    /// history; `url` and `identifier` are those of the file the caller watches, read when it
    /// began watching (the store may move meanwhile, and its properties are not the caller's to
    /// read on its queue). The caller stops before the store leaves `coordinator`.
    static func postRemoteChange(to coordinator: NSPersistentStoreCoordinator, historyNumber: Int64?, url: URL, identifier: String?) {
        var userInfo: [AnyHashable: Any] = [NSPersistentStoreURLKey: url]
        if let identifier { userInfo[NSStoreUUIDKey] = identifier }
        if let historyNumber, let identifier {
            userInfo[NSPersistentHistoryTokenKey] = NSPersistentHistoryToken(transactionNumbers: [identifier: historyNumber])
        }
        NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: coordinator, userInfo: userInfo)
    }
}

extension NSPersistentStoreCoordinator {
    /// Stops answering faults with cached rows older than `records`' versions (nil: with
    /// every cached row of `store`), which another process changed: they are read from the
    /// store again.
    func invalidateCachedRows(_ records: [(objectID: NSManagedObjectID, version: Int64)]?, of store: NSPersistentStore) {
        locked { rowCache.invalidate(records?.map { ($0.objectID.key, $0.version) }) { $0.objectID.persistentStore === store } }
    }
}
