import Foundation

/// One save (or batch request) as the store's persistent history recorded it: when, by whom,
/// and which objects it inserted, updated and deleted.
///
/// ```swift
/// for transaction in transactions where transaction.author != "importer" {
///     viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
/// }
/// ```
open class NSPersistentHistoryTransaction: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after the store made it.
    /// When the transaction was committed.
    open private(set) var timestamp: Date
    /// Its changes; nil when the request asked for transactions only.
    open internal(set) var changes: [NSPersistentHistoryChange]?
    /// The transaction's number in its store: later transactions have larger numbers.
    open private(set) var transactionNumber: Int64
    /// The UUID of the store that recorded it.
    open private(set) var storeID: String
    /// The saving process's bundle identifier (on Linux: the executable's name).
    open private(set) var bundleID: String
    /// The saving process's identifier, as text.
    open private(set) var processID: String
    /// The saving context's `name`.
    open private(set) var contextName: String?
    /// The saving context's `transactionAuthor`.
    open private(set) var author: String?

    init(number: Int64, timestamp: Date, storeID: String, bundleID: String, processID: String, contextName: String?, author: String?) {
        transactionNumber = number
        self.timestamp = timestamp
        self.storeID = storeID
        self.bundleID = bundleID
        self.processID = processID
        self.contextName = contextName
        self.author = author
        super.init()
    }

    /// The history position just after this transaction.
    open var token: NSPersistentHistoryToken { NSPersistentHistoryToken(transactionNumbers: [storeID: transactionNumber]) }

    /// A did-save notification of the transaction's object IDs (`NSInsertedObjectIDsKey`,
    /// `NSUpdatedObjectIDsKey`, `NSDeletedObjectIDsKey`), for `mergeChanges(fromContextDidSave:)`.
    open func objectIDNotification() -> Notification {
        var inserted = Set<NSManagedObjectID>(), updated = Set<NSManagedObjectID>(), deleted = Set<NSManagedObjectID>()
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update: updated.insert(change.changedObjectID)
            case .delete: deleted.insert(change.changedObjectID)
            }
        }
        return Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: [
            NSInsertedObjectIDsKey: inserted, NSUpdatedObjectIDsKey: updated, NSDeletedObjectIDsKey: deleted,
        ])
    }

    /// The entity that describes transactions in a history fetch request (its attributes:
    /// `author`, `bundleID`, `contextName`, `processID`, `timestamp`, `transactionNumber`,
    /// `storeID`).
    public class var entityDescription: NSEntityDescription? { HistoryEntities.transaction }
    /// A fetch request for transactions, to give ``NSPersistentHistoryChangeRequest/fetchHistory(withFetch:)``
    /// a predicate.
    public class var fetchRequest: NSFetchRequest<any NSFetchRequestResult>? { HistoryEntities.fetchRequest(of: HistoryEntities.transaction) }

    public override var description: String {
        "<NSPersistentHistoryTransaction \(transactionNumber) at \(timestamp), author \(author ?? "nil"), context \(contextName ?? "nil"), \(changes.map { "\($0.count) changes" } ?? "changes not fetched")>"
    }
}

/// What a persistent-history change did to its object.
public enum NSPersistentHistoryChangeType: Int, Sendable {
    case insert = 0
    case update = 1
    case delete = 2
}

/// One object's change within a persistent-history transaction.
open class NSPersistentHistoryChange: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after the store made it (`transaction` is set once).
    /// The change's number in its store.
    open private(set) var changeID: Int64
    /// The object that changed.
    open private(set) var changedObjectID: NSManagedObjectID
    open private(set) var changeType: NSPersistentHistoryChangeType
    /// For a deletion: the values of the attributes whose model keeps them
    /// (`preservesValueInHistoryOnDeletion`), by name; nil otherwise.
    open private(set) var tombstone: [AnyHashable: Any]?
    /// The transaction the change belongs to; nil when the request asked for changes only.
    open internal(set) weak var transaction: NSPersistentHistoryTransaction?
    /// For an update: the properties it changed.
    open private(set) var updatedProperties: Set<NSPropertyDescription>?

    init(id: Int64, objectID: NSManagedObjectID, type: NSPersistentHistoryChangeType, updatedProperties: Set<NSPropertyDescription>?, tombstone: [AnyHashable: Any]?) {
        changeID = id
        changedObjectID = objectID
        changeType = type
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
        super.init()
    }

    /// The entity that describes changes in a history fetch request (`changeType`,
    /// `changedEntity`, `changeID`).
    public class var entityDescription: NSEntityDescription? { HistoryEntities.change }
    public class var fetchRequest: NSFetchRequest<any NSFetchRequestResult>? { HistoryEntities.fetchRequest(of: HistoryEntities.change) }

    public override var description: String {
        "<NSPersistentHistoryChange \(changeID) \(changeType) \(changedObjectID.uriRepresentation().absoluteString)>"
    }
}

/// The descriptions of history records for fetch requests: not entities of any model.
enum HistoryEntities {
    static func fetchRequest(of entity: NSEntityDescription) -> NSFetchRequest<any NSFetchRequestResult> {
        let request = NSFetchRequest<any NSFetchRequestResult>()
        request.entity = entity
        return request
    }

    static let transaction: NSEntityDescription = {
        let entity = NSEntityDescription(name: "Transaction")
        entity.properties = [
            NSAttributeDescription(name: "author", type: .stringAttributeType), NSAttributeDescription(name: "bundleID", type: .stringAttributeType),
            NSAttributeDescription(name: "contextName", type: .stringAttributeType), NSAttributeDescription(name: "processID", type: .stringAttributeType),
            NSAttributeDescription(name: "timestamp", type: .dateAttributeType), NSAttributeDescription(name: "transactionNumber", type: .integer64AttributeType),
            NSAttributeDescription(name: "storeID", type: .stringAttributeType),
        ]
        return entity
    }()
    static let change: NSEntityDescription = {
        let entity = NSEntityDescription(name: "Change")
        entity.properties = [
            NSAttributeDescription(name: "changeID", type: .integer64AttributeType), NSAttributeDescription(name: "changeType", type: .integer64AttributeType),
            NSAttributeDescription(name: "changedEntity", type: .stringAttributeType),
        ]
        return entity
    }()
}
