import Foundation

/// Reads or deletes a store's persistent history, through `context.execute(_:)`.
///
/// ```swift
/// let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// request.resultType = .transactionsAndChanges
/// let transactions = (try context.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] ?? []
/// try context.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: lastToken))
/// ```
///
/// History exists in stores added with `NSPersistentHistoryTrackingKey: true`.
open class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest, @unchecked Sendable {
    /// Which transactions the request selects.
    enum Bound {
        case afterDate(Date)
        case afterToken(NSPersistentHistoryToken?)
        case beforeDate(Date)
        case beforeToken(NSPersistentHistoryToken?)
        case matching(NSFetchRequest<any NSFetchRequestResult>)
    }

    var bound: Bound = .afterToken(nil)
    /// Whether the request deletes the transactions it selects.
    var deletes: Bool {
        switch bound {
        case .beforeDate, .beforeToken: return true
        default: return false
        }
    }

    /// What ``NSPersistentHistoryResult/result`` holds. Default: transactions with their changes.
    open var resultType: NSPersistentHistoryResultType = .transactionsAndChanges
    /// The token the request was made with, if any.
    open var token: NSPersistentHistoryToken? {
        switch bound {
        case .afterToken(let token), .beforeToken(let token): return token
        default: return nil
        }
    }
    /// The fetch request of ``fetchHistory(withFetch:)``: a predicate on
    /// ``NSPersistentHistoryTransaction/entityDescription`` or
    /// ``NSPersistentHistoryChange/entityDescription`` attributes.
    open var fetchRequest: NSFetchRequest<any NSFetchRequestResult>? {
        get { if case .matching(let request) = bound { return request } else { return nil } }
        set { if let newValue { bound = .matching(newValue) } }
    }

    public required override init() { super.init() }

    private static func make(_ bound: Bound) -> Self {
        let request = Self()
        request.bound = bound
        return request
    }

    /// The transactions committed after `date`.
    open class func fetchHistory(after date: Date) -> Self { make(.afterDate(date)) }
    /// The transactions after `token` (all of them for nil).
    open class func fetchHistory(after token: NSPersistentHistoryToken?) -> Self { make(.afterToken(token)) }
    /// The transactions after `transaction` (all of them for nil).
    open class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> Self { make(.afterToken(transaction?.token)) }
    /// The transactions (or changes) `fetchRequest`'s predicate selects.
    open class func fetchHistory(withFetch fetchRequest: NSFetchRequest<any NSFetchRequestResult>) -> Self { make(.matching(fetchRequest)) }
    /// Deletes the transactions committed before `date`.
    open class func deleteHistory(before date: Date) -> Self { make(.beforeDate(date)) }
    /// Deletes the transactions up to and including the one `token` marks (all of them for nil).
    open class func deleteHistory(before token: NSPersistentHistoryToken?) -> Self { make(.beforeToken(token)) }
    /// Deletes the transactions up to and including `transaction` (all of them for nil).
    open class func deleteHistory(before transaction: NSPersistentHistoryTransaction?) -> Self { make(.beforeToken(transaction?.token)) }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self()
        copy.bound = bound
        copy.resultType = resultType
        copy.affectedStores = affectedStores
        return copy
    }
}

/// What a history request returns in its ``NSPersistentHistoryResult``.
public enum NSPersistentHistoryResultType: Int, Sendable {
    /// `true`: the request ran.
    case statusOnly = 0
    /// The object IDs the transactions changed.
    case objectIDs = 1
    /// The number of transactions (of deleted transactions, for a delete request).
    case count = 2
    /// `[NSPersistentHistoryTransaction]` without their changes.
    case transactionsOnly = 3
    /// `[NSPersistentHistoryChange]`.
    case changesOnly = 4
    /// `[NSPersistentHistoryTransaction]` with their changes.
    case transactionsAndChanges = 5
}

/// The result of an ``NSPersistentHistoryChangeRequest``.
open class NSPersistentHistoryResult: NSPersistentStoreResult, @unchecked Sendable {
    open private(set) var result: Any?
    open private(set) var resultType: NSPersistentHistoryResultType

    init(resultType: NSPersistentHistoryResultType, result: Any?) {
        self.resultType = resultType
        self.result = result
        super.init()
    }
}
