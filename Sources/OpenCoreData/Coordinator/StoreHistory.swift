import Foundation

// Persistent history as the coordinator and the stores exchange it (the store contract's
// history part): a save hands the store what it records about the transaction; a history
// request asks the store for transactions by number or date, or to delete them.

/// What a save records about its transaction; the store adds its UUID, the number and the
/// changes (inserted, updated and deleted rows of the save).
struct HistoryTransactionInfo {
    let timestamp: Date
    let author: String?
    let contextName: String?
    let bundleID: String
    let processID: String

    /// This process's bundle ID and process ID, as Core Data records them (on Linux: the
    /// executable's name and the process identifier).
    static func current(author: String?, contextName: String?) -> HistoryTransactionInfo {
        HistoryTransactionInfo(timestamp: Date(), author: author, contextName: contextName,
                               bundleID: ProcessInfo.processInfo.processName,
                               processID: String(ProcessInfo.processInfo.processIdentifier))
    }
}

/// Which transactions a history request selects, by the store's transaction numbers or dates.
enum HistorySelection {
    /// Transactions numbered above `number` (every one for 0).
    case after(number: Int64)
    /// Transactions committed after `date`.
    case afterDate(Date)
    /// Transactions numbered below `number` (the one a token marks stays, as in Apple's stores).
    case before(number: Int64)
    /// Transactions committed before `date`.
    case beforeDate(Date)
}

/// One transaction as a store reads it from its history.
struct HistoryTransactionRecord {
    let number: Int64
    let timestamp: Date
    let author: String?
    let contextName: String?
    let bundleID: String?
    let processID: String?
    var changes: [HistoryChangeRecord]
}

/// One change of a transaction: the record, what happened, and for an update the properties
/// it changed.
struct HistoryChangeRecord {
    let id: Int64
    let type: NSPersistentHistoryChangeType
    let objectID: NSManagedObjectID
    let updatedProperties: [NSPropertyDescription]?
    /// A deletion's preserved attribute values, by name.
    var tombstone: [String: Any]? = nil
}

/// A store that keeps persistent history (`NSPersistentHistoryTrackingKey`). Its saves record a
/// transaction with one change per inserted, updated and deleted row, inside the save's own
/// transaction, when the save carries ``StoreChanges/history``.
protocol HistoryKeepingStore: AnyObject {
    /// Whether the store was added with history tracking on.
    var tracksHistory: Bool { get }
    /// The selected transactions, oldest first, with their changes when `withChanges`.
    func historyTransactions(_ selection: HistorySelection, withChanges: Bool) throws -> [HistoryTransactionRecord]
    /// Deletes the selected transactions and their changes; returns how many transactions went.
    func deleteHistory(_ selection: HistorySelection) throws -> Int
    /// The number of the last transaction recorded (0 when there is none).
    func lastHistoryTransactionNumber() throws -> Int64
}
