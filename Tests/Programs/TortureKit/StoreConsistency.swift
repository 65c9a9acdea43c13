import OpenCoreData

/// What a check of a tortured store found wrong, one sentence each; empty when the store is
/// sound and every save of the save loop is whole.
///
/// ```swift
/// let problems = try StoreConsistency.problems(ofStoreAt: url, lastReportedSave: 17)
/// ```
public enum StoreConsistency {
    /// - Parameter lastReportedSave: the last save the killed process reported as done; that
    ///   save must be in the store, and at most the one after it (committed, not yet reported).
    ///   - version: the model version the store should have (2 once migrated).
    public static func problems(ofStoreAt url: URL, lastReportedSave: Int, version: Int = 1) throws -> [String] {
        let path = url.path
        func rows(_ sql: String) throws -> [[String?]] { try SQLiteInspector.rows(at: path, sql) }
        func int(_ sql: String) throws -> Int { Int(try rows(sql).first?.first.flatMap { $0 } ?? "") ?? -1 }
        var problems: [String] = []

        let integrity = try rows("PRAGMA integrity_check").compactMap { $0.first ?? nil }
        if integrity != ["ok"] { problems.append("integrity_check: \(integrity.prefix(5).joined(separator: "; "))") }

        // The counter tells which save committed last: every save up to it must be whole.
        let committed = try int("SELECT IFNULL(MAX(ZVALUE), 0) FROM ZCOUNTER")
        if committed < lastReportedSave { problems.append("save \(lastReportedSave) was reported done but the store's last save is \(committed)") }
        if committed > lastReportedSave + 1 { problems.append("the store's last save is \(committed), more than one past the last reported, \(lastReportedSave)") }
        let departments = Dictionary(try rows("SELECT ZSAVE, COUNT(*) FROM ZDEPARTMENT GROUP BY ZSAVE").map { (Int($0[0] ?? "") ?? -1, Int($0[1] ?? "") ?? -1) }, uniquingKeysWith: +)
        let employeesBySave = Dictionary(try rows("SELECT ZSAVE, COUNT(*) FROM ZEMPLOYEE GROUP BY ZSAVE").map { (Int($0[0] ?? "") ?? -1, Int($0[1] ?? "") ?? -1) }, uniquingKeysWith: +)
        let deleted = Set((1...max(1, committed)).compactMap(TortureModel.deletedDepartment(bySave:)))
        for n in stride(from: 1, through: committed, by: 1) {  // none when nothing committed
            let expectedDepartments = deleted.contains(n) ? 0 : 1
            let expectedEmployees = deleted.contains(n) ? 0 : TortureModel.employees(inSave: n)
            if departments[n] ?? 0 != expectedDepartments { problems.append("save \(n): \(departments[n] ?? 0) departments, expected \(expectedDepartments)") }
            if employeesBySave[n] ?? 0 != expectedEmployees { problems.append("save \(n): \(employeesBySave[n] ?? 0) employees, expected \(expectedEmployees) (a partial save or cascade)") }
        }
        if let beyond = departments.keys.filter({ $0 > committed }).min() { problems.append("department of save \(beyond) is in the store but the counter says \(committed): a partial save") }
        let orphans = try int("SELECT COUNT(*) FROM ZEMPLOYEE WHERE ZDEPARTMENT IS NULL OR ZDEPARTMENT NOT IN (SELECT Z_PK FROM ZDEPARTMENT)")
        if orphans > 0 { problems.append("\(orphans) employees without their department: a partial cascade") }

        // Key counters ahead of every key.
        for row in try rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0") {
            guard let name = row[0], let max = Int(row[1] ?? "") else { continue }
            let highest = try int("SELECT IFNULL(MAX(Z_PK), 0) FROM Z\(name.uppercased())")
            if highest > max { problems.append("Z_PRIMARYKEY.Z_MAX of \(name) is \(max), below its key \(highest)") }
        }

        // Every external reference has its file, with the photo's bytes.
        let directory = url.deletingLastPathComponent().appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA")
        for row in try rows("SELECT ZSAVE, hex(ZPHOTO) FROM ZEMPLOYEE WHERE ZPHOTO IS NOT NULL") {
            guard let hex = row[1], hex.hasPrefix("02") else { continue }
            let nameBytes = stride(from: 2, to: hex.count - 2, by: 2).compactMap { i -> UInt8? in
                let start = hex.index(hex.startIndex, offsetBy: i)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
            }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let file = directory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: file) else {
                problems.append("save \(row[0] ?? "?"): the photo's file \(name) is missing")
                continue
            }
            if let n = Int(row[0] ?? ""), data != TortureModel.photo(save: n) { problems.append("save \(n): the photo's file \(name) holds other bytes") }
        }

        // And the store opens and reads through OpenCoreData.
        do {
            let (_, context) = try TortureModel.open(url, version: version)
            let count = try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")) }
            if count != employeesBySave.values.reduce(0, +) { problems.append("OpenCoreData counts \(count) employees, SQL \(employeesBySave.values.reduce(0, +))") }
        } catch {
            problems.append("the store does not open: \(error)")
        }
        return problems
    }
}
