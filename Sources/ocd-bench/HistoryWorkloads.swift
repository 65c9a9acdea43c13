import CSQLite
import Foundation
import OCDBenchKit
import OpenCoreData

/// H1–H2: persistent history (#26).
///
/// - H1 1,000 saves of one changed object with `NSPersistentHistoryTrackingKey`, against the same
///   saves without it (the ratio is the cost of recording history).
/// - H2 fetching 10,000 transactions (one change each) after a token, with their changes,
///   against raw SQL reading the same rows of `ATRANSACTION`, `ATRANSACTIONSTRING` and `ACHANGE`.
struct HistoryWorkloads {
    let saves: Int
    let transactions: Int
    let bench: BenchRun

    private func stack(_ name: String, tracking: Bool) throws -> NSManagedObjectContext {
        try BenchModel.context(at: bench.path("\(name).sqlite"),
                               options: tracking ? [NSPersistentHistoryTrackingKey: true] : [:])
    }

    private func singleSaves(_ context: NSManagedObjectContext) throws -> Double {
        try context.performAndWait {
            let row = BenchRow(context: context)
            row.fill(0)
            try context.save()
            return try time {
                for i in 0..<saves {
                    row.a1 = Int64(i)
                    try context.save()
                }
            }
        }
    }

    func run(_ selected: (String) -> Bool) throws {
        if selected("H1") {
            try bench.measure("H1_history_save_\(saves)_vs_untracked", ocd: { run in try singleSaves(try stack("h1-on-\(run)", tracking: true)) },
                        raw: { run in try singleSaves(try stack("h1-off-\(run)", tracking: false)) })
        }
        if selected("H2") {
            let context = try stack("h2", tracking: true)
            try context.performAndWait {
                context.transactionAuthor = "bench"
                for i in 0..<transactions {
                    BenchRow(context: context).fill(i)
                    try context.save()
                    if i % 1_000 == 999 { context.reset() }
                }
            }
            let path = bench.path("h2.sqlite").path
            try bench.measure("H2_history_fetch_\(transactions)_transactions", ocd: { _ in
                try time {
                    try context.performAndWait {
                        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
                        let result = try context.execute(request) as? NSPersistentHistoryResult
                        let found = result?.result as? [NSPersistentHistoryTransaction] ?? []
                        precondition(found.count == transactions && found.allSatisfy { $0.changes?.count == 1 && $0.author == "bench" }, "H2 read \(found.count)")
                    }
                }
            }, raw: { _ in
                let raw = try RawSQLite(path: path)
                return try time {
                    let strings = try raw.prepare("SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING")
                    var names: [Int64: String] = [:]
                    while sqlite3_step(strings) == SQLITE_ROW { names[sqlite3_column_int64(strings, 0)] = String(cString: sqlite3_column_text(strings, 1)) }
                    sqlite3_finalize(strings)
                    let select = try raw.prepare("SELECT Z_PK, ZTIMESTAMP, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS FROM ATRANSACTION WHERE Z_PK > 0 ORDER BY Z_PK")
                    var count = 0
                    while sqlite3_step(select) == SQLITE_ROW {
                        count += names[sqlite3_column_int64(select, 2)] == "bench" ? 1 : 0
                        _ = sqlite3_column_double(select, 1)
                    }
                    sqlite3_finalize(select)
                    let changes = try raw.prepare("SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE Z_PK > 0) ORDER BY Z_PK")
                    var changeCount = 0
                    while sqlite3_step(changes) == SQLITE_ROW { changeCount += Int(sqlite3_column_int64(changes, 2)) + 1 }
                    sqlite3_finalize(changes)
                    precondition(count == transactions && changeCount == transactions, "H2 raw read \(count)")
                }
            })
        }
    }
}
