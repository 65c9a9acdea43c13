import CSQLite
import Foundation
import OpenCoreData
import OpenCoreDataMacros

/// A department of the relationship workloads (W7–W9).
public final class BenchDepartment: NSManagedObject {
    @ManagedProperty public var name: String?
    @ManagedProperty public var employees: Set<BenchEmployee>
}

/// An employee: a name, a salary, a hiring date, a score, a department (nullified when the
/// employee is deleted, so W9 runs a delete rule per object).
public final class BenchEmployee: NSManagedObject {
    @ManagedProperty public var name: String?
    @ManagedProperty public var salary: Int64
    @ManagedProperty public var hired: Date?
    @ManagedProperty public var score: Double
    @ManagedProperty public var department: BenchDepartment?
}

/// W7–W9: the object graph where real apps spend time — to-many faults, prefetching, a to-one
/// key path, many changed objects in one save, many deletions with a delete rule — each against
/// raw SQLite doing the same reads and writes with prepared statements in the same run.
///
/// Both sides hold the same rows: department `d` is named "Department d"; employee `i` is named
/// "Employee i", earns `i`, was hired `i` seconds after the reference date, scores 0 and belongs
/// to department `i / perDepartment`. Checksums (name lengths, counts) must agree.
public struct RelationshipWorkloads {
    let bench: BenchRun
    /// W7: departments and employees per department (2,000 × 50 at full size).
    var departments: Int { bench.sizes.departments }
    var perDepartment: Int { bench.sizes.perDepartment }
    /// W8: employees changed in one save (100,000). W9: employees in the store, and how many
    /// of them a predicate selects for deletion (200,000 and 50,000).
    var updates: Int { bench.sizes.updates }
    var deleteFrom: Int { bench.sizes.deleteFrom }
    var deletions: Int { bench.sizes.deletions }

    public init(bench: BenchRun) { self.bench = bench }

    /// The workloads' keys, which are also their names' prefixes (`--only W7` runs the first three).
    public static let keys = ["W7_tomany_faults", "W7_tomany_prefetch", "W7_toone_keypath", "W8_update", "W9_delete"]

    public static let model: NSManagedObjectModel = {
        let department = NSEntityDescription(name: "BenchDepartment", className: "OCDBenchKit.BenchDepartment", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
        ])
        let employee = NSEntityDescription(name: "BenchEmployee", className: "OCDBenchKit.BenchEmployee", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "salary", type: .integer64AttributeType, isOptional: false, defaultValue: 0),
            NSAttributeDescription(name: "hired", type: .dateAttributeType),
            NSAttributeDescription(name: "score", type: .doubleAttributeType, isOptional: false, defaultValue: 0.0),
        ])
        let employees = NSRelationshipDescription(), works = NSRelationshipDescription()
        employees.name = "employees"; employees.maxCount = 0; employees.destinationEntity = employee
        employees.inverseRelationship = works; employees.deleteRule = .cascadeDeleteRule
        works.name = "department"; works.maxCount = 1; works.destinationEntity = department
        works.inverseRelationship = employees; works.deleteRule = .nullifyDeleteRule
        department.properties += [employees]
        employee.properties += [works]
        let model = NSManagedObjectModel()
        model.entities = [department, employee]
        return model
    }()

    // MARK: Seeding

    /// A context on a new store holding `departments` departments of `perDepartment` employees.
    private func seededStore(_ name: String, departments: Int, perDepartment: Int) throws -> NSManagedObjectContext {
        let context = try BenchModel.context(at: bench.path("\(name).sqlite"), model: Self.model)
        try context.performAndWait {
            for d in 0..<departments {
                let department = BenchDepartment(context: context)
                department.name = "Department \(d)"
                for e in 0..<perDepartment {
                    let i = d * perDepartment + e
                    let employee = BenchEmployee(context: context)
                    employee.name = "Employee \(i)"
                    employee.salary = Int64(i)
                    employee.hired = Date(timeIntervalSinceReferenceDate: Double(i))
                    employee.department = department
                }
                if d % 500 == 499 { try context.save(); context.reset() }
            }
            try context.save()
            context.reset()
        }
        return context
    }

    /// The same rows in plain tables, with the foreign key indexed as Core Data indexes it.
    private func seededRaw(_ name: String, departments: Int, perDepartment: Int) throws -> RawSQLite {
        let raw = try RawSQLite(path: bench.path("\(name).sqlite").path)
        try raw.exec("CREATE TABLE DEPT (ID INTEGER PRIMARY KEY, NAME TEXT)")
        try raw.exec("CREATE TABLE EMP (ID INTEGER PRIMARY KEY, NAME TEXT, SALARY INTEGER, HIRED REAL, SCORE REAL, DEPT INTEGER)")
        try raw.exec("CREATE INDEX EMP_DEPT ON EMP (DEPT)")
        try raw.exec("BEGIN")
        let department = try raw.prepare("INSERT INTO DEPT (ID, NAME) VALUES (?, ?)")
        let employee = try raw.prepare("INSERT INTO EMP (NAME, SALARY, HIRED, SCORE, DEPT) VALUES (?, ?, ?, 0, ?)")
        defer { sqlite3_finalize(department); sqlite3_finalize(employee) }
        for d in 0..<departments {
            sqlite3_bind_int64(department, 1, Int64(d + 1))
            RawSQLite.bind("Department \(d)", to: department, at: 2)
            guard sqlite3_step(department) == SQLITE_DONE else { throw BenchError("insert department") }
            sqlite3_reset(department)
            for e in 0..<perDepartment {
                let i = d * perDepartment + e
                RawSQLite.bind("Employee \(i)", to: employee, at: 1)
                sqlite3_bind_int64(employee, 2, Int64(i))
                sqlite3_bind_double(employee, 3, Double(i))
                sqlite3_bind_int64(employee, 4, Int64(d + 1))
                guard sqlite3_step(employee) == SQLITE_DONE else { throw BenchError("insert employee") }
                sqlite3_reset(employee)
            }
        }
        try raw.exec("COMMIT")
        return raw
    }

    // MARK: Workloads

    public func run(_ selected: (String) -> Bool) throws {
        if ["W7_tomany_faults", "W7_tomany_prefetch", "W7_toone_keypath"].contains(where: selected) { try runW7(selected) }
        if selected("W8_update") { try runW8() }
        if selected("W9_delete") { try runW9() }
    }

    private func runW7(_ selected: (String) -> Bool) throws {
        let context = try seededStore("w7", departments: departments, perDepartment: perDepartment)
        let raw = try seededRaw("w7-raw", departments: departments, perDepartment: perDepartment)
        let employees = departments * perDepartment
        let names = try raw.sumOfTextLengths("SELECT NAME FROM EMP")

        /// Every department's employees' names through the to-many relationship.
        func readDepartments(prefetching: Bool) throws -> Double {
            var total = 0
            let seconds = try time {
                try context.performAndWait {
                    let request = NSFetchRequest<BenchDepartment>(entityName: "BenchDepartment")
                    if prefetching { request.relationshipKeyPathsForPrefetching = ["employees"] }
                    for department in try context.fetch(request) {
                        for employee in department.employees { total += employee.name?.utf8.count ?? 0 }
                    }
                    context.reset()
                }
            }
            precondition(total == names, "W7: name lengths differ: \(total) vs \(names)")
            return seconds
        }
        if selected("W7_tomany_faults") {
            try bench.measure("W7_tomany_faults_\(departments)x\(perDepartment)", key: "W7_tomany_faults", ocd: { _ in try readDepartments(prefetching: false) }, raw: { _ in
                // For each department, its employees' names by the indexed foreign key.
                let departmentsQuery = try raw.prepare("SELECT ID FROM DEPT")
                let employeesQuery = try raw.prepare("SELECT NAME FROM EMP WHERE DEPT = ?")
                defer { sqlite3_finalize(departmentsQuery); sqlite3_finalize(employeesQuery) }
                var total = 0
                let seconds = time {
                    while sqlite3_step(departmentsQuery) == SQLITE_ROW {
                        sqlite3_bind_int64(employeesQuery, 1, sqlite3_column_int64(departmentsQuery, 0))
                        while sqlite3_step(employeesQuery) == SQLITE_ROW { total += Int(sqlite3_column_bytes(employeesQuery, 0)) }
                        sqlite3_reset(employeesQuery)
                    }
                }
                precondition(total == names)
                return seconds
            })
        }
        if selected("W7_tomany_prefetch") {
            try bench.measure("W7_tomany_prefetch_\(departments)x\(perDepartment)", key: "W7_tomany_prefetch", ocd: { _ in try readDepartments(prefetching: true) }, raw: { _ in
                // The departments, then every employee's name with its department, one join.
                var total = 0
                let seconds = try time {
                    _ = try raw.sumOfTextLengths("SELECT ID, NAME FROM DEPT", column: 1)
                    total = try raw.sumOfTextLengths("SELECT EMP.NAME, DEPT.ID FROM DEPT JOIN EMP ON EMP.DEPT = DEPT.ID")
                }
                precondition(total == names)
                return seconds
            })
        }
        if selected("W7_toone_keypath") {
            let departmentNames = try raw.sumOfTextLengths("SELECT DEPT.NAME FROM EMP JOIN DEPT ON DEPT.ID = EMP.DEPT")
            try bench.measure("W7_toone_keypath_\(employees)", key: "W7_toone_keypath", ocd: { _ in
                var total = 0
                let seconds = try time {
                    try context.performAndWait {
                        for employee in try context.fetch(NSFetchRequest<BenchEmployee>(entityName: "BenchEmployee")) {
                            total += employee.department?.name?.utf8.count ?? 0
                        }
                        context.reset()
                    }
                }
                precondition(total == departmentNames, "W7_toone_keypath: \(total) vs \(departmentNames)")
                return seconds
            }, raw: { _ in
                // Every employee's row and its department's name, one join.
                var total = 0
                let seconds = try time {
                    total = try raw.sumOfTextLengths("SELECT DEPT.NAME, EMP.ID, EMP.NAME, EMP.SALARY, EMP.HIRED, EMP.SCORE FROM EMP JOIN DEPT ON DEPT.ID = EMP.DEPT")
                }
                precondition(total == departmentNames)
                return seconds
            })
        }
    }

    /// W8: fetch `updates` employees, set one Double on each, one save.
    private func runW8() throws {
        let per = 50, departmentCount = updates / per
        try bench.measure("W8_update_\(updates)", key: "W8_update", ocd: { run in
            let context = try seededStore("w8-\(run)", departments: departmentCount, perDepartment: per)
            return try time {
                try context.performAndWait {
                    for employee in try context.fetch(NSFetchRequest<BenchEmployee>(entityName: "BenchEmployee")) {
                        employee.score = Double(employee.salary) * 0.5
                    }
                    try context.save()
                    context.reset()
                }
            }
        }, raw: { run in
            // Read every row, then update each by its primary key, in one transaction.
            let raw = try seededRaw("w8-raw-\(run)", departments: departmentCount, perDepartment: per)
            return try time {
                try raw.exec("BEGIN")
                let select = try raw.prepare("SELECT ID, NAME, SALARY, HIRED, SCORE, DEPT FROM EMP")
                let update = try raw.prepare("UPDATE EMP SET SCORE = ? WHERE ID = ?")
                defer { sqlite3_finalize(select); sqlite3_finalize(update) }
                var rows: [(Int64, Int64)] = []
                rows.reserveCapacity(updates)
                while sqlite3_step(select) == SQLITE_ROW {
                    rows.append((sqlite3_column_int64(select, 0), sqlite3_column_int64(select, 2)))
                }
                for (id, salary) in rows {
                    sqlite3_bind_double(update, 1, Double(salary) * 0.5)
                    sqlite3_bind_int64(update, 2, id)
                    guard sqlite3_step(update) == SQLITE_DONE else { throw BenchError("update") }
                    sqlite3_reset(update)
                }
                try raw.exec("COMMIT")
            }
        })
    }

    /// W9: fetch the `deletions` of `deleteFrom` employees a predicate selects, delete them,
    /// save; each deletion nullifies the department's side of the relationship. Then the same at
    /// half the size, for the growth: a step that grows faster than linearly shows as a ratio
    /// well above 2.
    private func runW9() throws {
        let per = 100
        /// The OpenCoreData side: seconds to fetch, delete and save `deletions` of `rows`.
        func deleteEmployees(_ name: String, rows: Int, deletions: Int) throws -> Double {
            let context = try seededStore(name, departments: rows / per, perDepartment: per)
            var deleted = 0
            let seconds = try time {
                try context.performAndWait {
                    let request = NSFetchRequest<BenchEmployee>(entityName: "BenchEmployee")
                    request.predicate = NSPredicate(format: "salary < %lld", Int64(deletions))   // the first departments' employees
                    let doomed = try context.fetch(request)
                    deleted = doomed.count
                    for employee in doomed { context.delete(employee) }
                    try context.save()
                    context.reset()
                }
            }
            precondition(deleted == deletions, "W9 deleted \(deleted) of \(deletions)")
            return seconds
        }
        let full = try bench.measure("W9_delete_\(deletions)_of_\(deleteFrom)", key: "W9_delete", ocd: { run in
            try deleteEmployees("w9-\(run)", rows: deleteFrom, deletions: deletions)
        }, raw: { run in
            let raw = try seededRaw("w9-raw-\(run)", departments: deleteFrom / per, perDepartment: per)
            return try time {
                try raw.exec("BEGIN")
                try raw.exec("DELETE FROM EMP WHERE SALARY < \(deletions)")
                try raw.exec("COMMIT")
            }
        })
        var half = Double.infinity
        for run in 0..<bench.repetitions { half = min(half, try deleteEmployees("w9-half-\(run)", rows: deleteFrom / 2, deletions: deletions / 2)) }
        print(String(format: "growth W9_delete %d vs %d: %.2fx the time for 2x the objects (linear: 2)", deletions, deletions / 2, full.ocd / half))
    }
}

extension RawSQLite {
    /// Binds `text` as UTF-8 (copied by SQLite).
    static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) {
        var text = text
        text.withUTF8 { bytes in
            _ = sqlite3_bind_text(statement, index, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Runs `sql` and sums the byte lengths of the text in `column` of every row: reads the
    /// rows without copying their text, the least a C program can do.
    func sumOfTextLengths(_ sql: String, column: Int32 = 0) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var total = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            _ = sqlite3_column_text(statement, column)
            total += Int(sqlite3_column_bytes(statement, column))
        }
        return total
    }
}
