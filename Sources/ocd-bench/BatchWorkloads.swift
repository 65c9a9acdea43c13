import Foundation
import OCDBenchKit
import OpenCoreData

/// B1–B3: batch requests (#26) against the SQL a hand-written program runs for the same change,
/// on a table of `rows` BenchRows (ten Integer 64 attributes, `a0` indexed).
///
/// - B1 `NSBatchInsertRequest(entity:objects:)` with prepared dictionaries, against the raw
///   prepared-statement insert loop (the dictionaries are the app's data, made before timing);
///   B1h the same through a `dictionaryHandler` that fills each dictionary, timed in full.
/// - B2 `NSBatchDeleteRequest` of the half with `a0 < rows * 5`, against `DELETE ... WHERE A0 < ?`.
/// - B3 `NSBatchUpdateRequest` setting `a1` on every record, against `UPDATE ROWS SET A1 = ?`.
struct BatchWorkloads {
    let rows: Int
    let bench: BenchRun

    private func stack(_ name: String) throws -> NSManagedObjectContext {
        try BenchModel.context(at: bench.path("\(name).sqlite"))
    }

    private func dictionaries() -> [[String: Any]] {
        (0..<rows).map { i in
            Dictionary(uniqueKeysWithValues: (0..<10).map { c in ("a\(c)", Int64(i * 10 + c) as Any) })
        }
    }

    private func batchInsert(_ context: NSManagedObjectContext, _ objects: [[String: Any]]) throws {
        try context.performAndWait {
            let request = NSBatchInsertRequest(entity: BenchModel.model.entitiesByName["BenchRow"]!, objects: objects)
            request.resultType = .count
            let inserted = try context.execute(request) as? NSBatchInsertResult
            precondition(inserted?.result as? Int == objects.count, "B1 inserted \(String(describing: inserted?.result))")
        }
    }

    private func raw(_ name: String, seeded: Bool) throws -> RawSQLite {
        let raw = try RawSQLite(path: bench.path("\(name).sqlite").path)
        try raw.createTable()
        if seeded { try raw.insert(count: rows) }
        return raw
    }

    /// Runs the workloads `selected` accepts (`--only B` runs all three).
    func run(_ selected: (String) -> Bool) throws {
        let objects = dictionaries()
        if selected("B1") { try bench.measure("B1_batch_insert_\(rows)", ocd: { run in
            let context = try stack("b1-\(run)")
            return try time { try batchInsert(context, objects) }
        }, raw: { run in
            let raw = try raw("b1-raw-\(run)", seeded: false)
            return try time { try raw.insert(count: rows) }
        })
        }
        if selected("B1h") { try bench.measure("B1h_batch_insert_handler_\(rows)", ocd: { run in
            let context = try stack("b1h-\(run)")
            return try time {
                try context.performAndWait {
                    var i = 0
                    let request = NSBatchInsertRequest(entity: BenchModel.model.entitiesByName["BenchRow"]!, dictionaryHandler: { dictionary in
                        guard i < rows else { return true }
                        for c in 0..<10 { dictionary["a\(c)"] = Int64(i * 10 + c) }
                        i += 1
                        return false
                    })
                    _ = try context.execute(request)
                }
            }
        }, raw: { run in
            let raw = try raw("b1h-raw-\(run)", seeded: false)
            return try time { try raw.insert(count: rows) }
        })
        }
        let half = Int64(rows * 5)
        if selected("B2") { try bench.measure("B2_batch_delete_half_of_\(rows)", ocd: { run in
            let context = try stack("b2-\(run)")
            try batchInsert(context, objects)
            return try time {
                try context.performAndWait {
                    let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "BenchRow")
                    fetch.predicate = NSPredicate(format: "a0 < %lld", half)
                    let request = NSBatchDeleteRequest(fetchRequest: fetch)
                    request.resultType = .resultTypeCount
                    let deleted = try context.execute(request) as? NSBatchDeleteResult
                    precondition(deleted?.result as? Int == rows / 2, "B2 deleted \(String(describing: deleted?.result))")
                }
            }
        }, raw: { run in
            let raw = try raw("b2-raw-\(run)", seeded: true)
            return try time { try raw.run("DELETE FROM ROWS WHERE A0 < ?", half) }
        })
        }
        if selected("B3") { try bench.measure("B3_batch_update_\(rows)", ocd: { run in
            let context = try stack("b3-\(run)")
            try batchInsert(context, objects)
            return try time {
                try context.performAndWait {
                    let request = NSBatchUpdateRequest(entityName: "BenchRow")
                    request.propertiesToUpdate = ["a1": 7]
                    request.resultType = .updatedObjectsCountResultType
                    let updated = try context.execute(request) as? NSBatchUpdateResult
                    precondition(updated?.result as? Int == rows, "B3 updated \(String(describing: updated?.result))")
                }
            }
        }, raw: { run in
            let raw = try raw("b3-raw-\(run)", seeded: true)
            return try time { try raw.run("UPDATE ROWS SET A1 = ?", 7) }
        })
        }
    }
}
