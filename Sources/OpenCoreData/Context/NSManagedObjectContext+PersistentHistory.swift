import Foundation

// Persistent history requests (`execute(_:)` with NSPersistentHistoryChangeRequest) and the
// coordinator's current history token.
extension NSManagedObjectContext {
    /// Runs a history request against every store of the coordinator that keeps history (or
    /// the request's `affectedStores`).
    func executeHistoryRequest(_ request: NSPersistentHistoryChangeRequest) throws -> NSPersistentHistoryResult {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "An NSPersistentHistoryChangeRequest needs a context with a persistent store coordinator.")
        }
        let stores = (request.affectedStores ?? coordinator.persistentStores).compactMap { store -> (NSPersistentStore, HistoryKeepingStore)? in
            guard let history = store as? HistoryKeepingStore, history.tracksHistory else { return nil }
            return (store, history)
        }
        guard !stores.isEmpty else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "No store of this coordinator keeps persistent history. Add the store with the option NSPersistentHistoryTrackingKey: true.")
        }
        if request.deletes {
            var deleted = 0
            for (store, history) in stores { deleted += try history.deleteHistory(selection(of: request.bound, for: store)) }
            return NSPersistentHistoryResult(resultType: request.resultType, result: request.resultType == .count ? deleted : true)
        }
        let withChanges = request.resultType != .transactionsOnly && request.resultType != .count && request.resultType != .statusOnly
        var transactions: [NSPersistentHistoryTransaction] = []
        for (store, history) in stores {
            let storeID = store.identifier ?? ""
            for record in try history.historyTransactions(selection(of: request.bound, for: store), withChanges: withChanges) {
                let transaction = NSPersistentHistoryTransaction(number: record.number, timestamp: record.timestamp, storeID: storeID,
                                                                 bundleID: record.bundleID ?? "", processID: record.processID ?? "",
                                                                 contextName: record.contextName, author: record.author)
                if withChanges {
                    let changes = record.changes.map { change in
                        NSPersistentHistoryChange(id: change.id, objectID: change.objectID, type: change.type,
                                                  updatedProperties: change.updatedProperties.map { Set($0) }, tombstone: change.tombstone)
                    }
                    for change in changes { change.transaction = transaction }
                    transaction.changes = changes
                }
                transactions.append(transaction)
            }
        }
        if case .matching(let fetch) = request.bound, let predicate = fetch.predicate {
            transactions = try filter(transactions, by: predicate, entity: fetch.entity)
        }
        // One store gives them in its order already; several are merged by time.
        if stores.count > 1 { transactions.sort { ($0.timestamp, $0.transactionNumber) < ($1.timestamp, $1.transactionNumber) } }
        let result: Any
        switch request.resultType {
        case .statusOnly: result = true
        case .count: result = transactions.count
        case .transactionsOnly, .transactionsAndChanges: result = transactions
        case .changesOnly: result = transactions.flatMap { $0.changes ?? [] }
        case .objectIDs: result = transactions.flatMap { $0.changes ?? [] }.map(\.changedObjectID)
        }
        return NSPersistentHistoryResult(resultType: request.resultType, result: result)
    }

    /// The store's part of a request's bound: a token's number for this store (0 when the token
    /// doesn't cover it), or the date.
    private func selection(of bound: NSPersistentHistoryChangeRequest.Bound, for store: NSPersistentStore) -> HistorySelection {
        let storeID = store.identifier ?? ""
        switch bound {
        case .afterDate(let date): return .afterDate(date)
        case .afterToken(let token): return .after(number: token?.transactionNumbers[storeID] ?? 0)
        case .beforeDate(let date): return .beforeDate(date)
        case .beforeToken(let token): return .before(number: token.map { $0.transactionNumbers[storeID] ?? 0 } ?? .max)
        case .matching: return .after(number: 0)
        }
    }

    /// The transactions (or, for a fetch request on the change entity, the transactions with
    /// the changes) `predicate` accepts, evaluated in memory on their values.
    private func filter(_ transactions: [NSPersistentHistoryTransaction], by predicate: NSPredicate, entity: NSEntityDescription?) throws -> [NSPersistentHistoryTransaction] {
        if entity === HistoryEntities.change {
            for transaction in transactions {
                transaction.changes = transaction.changes?.filter { change in
                    predicate.evaluate(with: [
                        "changeID": change.changeID, "changeType": change.changeType.rawValue,
                        "changedEntity": change.changedObjectID.entity.name ?? "",
                    ] as [String: Any])
                }
            }
            return transactions.filter { !($0.changes?.isEmpty ?? true) }
        }
        return transactions.filter { transaction in
            predicate.evaluate(with: [
                "author": transaction.author ?? NSNull(), "bundleID": transaction.bundleID, "contextName": transaction.contextName ?? NSNull(),
                "processID": transaction.processID, "timestamp": transaction.timestamp, "transactionNumber": transaction.transactionNumber,
                "storeID": transaction.storeID,
            ] as [String: Any])
        }
    }
}

extension NSPersistentStoreCoordinator {
    /// The history position after the last transaction of `stores` (every store for nil) that
    /// keep persistent history; nil when none does.
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> NSPersistentHistoryToken? {
        let candidates = (stores?.compactMap { $0 as? NSPersistentStore } ?? persistentStores)
        var numbers: [String: Int64] = [:]
        for store in candidates {
            guard let history = store as? HistoryKeepingStore, history.tracksHistory, let id = store.identifier,
                  let number = try? history.lastHistoryTransactionNumber() else { continue }
            numbers[id] = number
        }
        return numbers.isEmpty ? nil : NSPersistentHistoryToken(transactionNumbers: numbers)
    }
}

extension NSPersistentHistoryTransaction {
    /// The entity that describes transactions, for a fetch request in `context` (the same for
    /// every context: history records belong to no model).
    public class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? { entityDescription }
}

extension NSPersistentHistoryChange {
    /// The entity that describes changes, for a fetch request in `context`.
    public class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? { entityDescription }
}
