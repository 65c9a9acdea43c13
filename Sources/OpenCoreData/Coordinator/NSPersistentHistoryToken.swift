import Foundation

/// A position in a store's persistent history: the last transaction an app has processed.
/// Apps keep it (it archives with `NSKeyedArchiver`) and ask for the history after it.
///
/// ```swift
/// let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let result = try context.execute(request) as? NSPersistentHistoryResult
/// let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
/// lastToken = transactions.last?.token ?? lastToken
/// ```
///
/// A token holds, for each store it covers (by the store's UUID), the number of a transaction.
/// Tokens of the same stores compare by those numbers (`<`, `==`); a token is earlier than
/// another when none of its numbers is later and one is earlier.
public final class NSPersistentHistoryToken: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    /// Store UUID → transaction number.
    let transactionNumbers: [String: Int64]

    init(transactionNumbers: [String: Int64]) {
        self.transactionNumbers = transactionNumbers
        super.init()
    }

    private static let archiveKey = "NSPersistentHistoryTokenDictionary"

    public static var supportsSecureCoding: Bool { true }

    /// Archived as a dictionary of store UUIDs to numbers, under `NSPersistentHistoryTokenDictionary`, as Apple's tokens are.
    public func encode(with coder: NSCoder) {
        coder.encode(transactionNumbers.mapValues { NSNumber(value: $0) } as NSDictionary, forKey: Self.archiveKey)
    }

    public init?(coder: NSCoder) {
        guard let stored = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self], forKey: Self.archiveKey) as? NSDictionary else { return nil }
        var numbers: [String: Int64] = [:]
        for (key, value) in stored {
            guard let store = key as? String, let number = (value as? NSNumber)?.int64Value else { return nil }
            numbers[store] = number
        }
        transactionNumbers = numbers
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NSPersistentHistoryToken)?.transactionNumbers == transactionNumbers
    }

    public override var hash: Int { transactionNumbers.hashValue }

    public override var description: String {
        "<NSPersistentHistoryToken - \(transactionNumbers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))>"
    }
}

extension NSPersistentHistoryToken: Comparable {
    /// Earlier: no store's number is later in `lhs`, and one is earlier (a store only `rhs` covers
    /// counts as earlier in `lhs`).
    public static func < (lhs: NSPersistentHistoryToken, rhs: NSPersistentHistoryToken) -> Bool {
        var earlier = false
        for store in Set(lhs.transactionNumbers.keys).union(rhs.transactionNumbers.keys) {
            let l = lhs.transactionNumbers[store] ?? 0, r = rhs.transactionNumbers[store] ?? 0
            if l > r { return false }
            if l < r { earlier = true }
        }
        return earlier
    }
}
