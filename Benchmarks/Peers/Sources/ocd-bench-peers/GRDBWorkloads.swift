import Foundation
import GRDB
import OCDBenchKit

/// OCDBenchKit's workloads through GRDB's records, registered as `bench.peers` by workload key:
/// the same rows, the same reads and writes, checked with the same checksums.
///
/// Each database is a `DatabasePool` (WAL, as the OpenCoreData and raw sides use) with
/// `synchronous=NORMAL` (as both of them set).
final class GRDBWorkloads {
    let bench: BenchRun
    private var sizes: BenchSizes { bench.sizes }
    private var readPool: DatabasePool?

    init(bench: BenchRun) { self.bench = bench }

    static func pool(at url: URL) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return try DatabasePool(path: url.path, configuration: configuration)
    }

    private func pool(_ name: String) throws -> DatabasePool { try Self.pool(at: bench.path("grdb-\(name).sqlite")) }

    // MARK: Seeding

    /// A database of `count` rows (W1's table), written in one transaction.
    static func writeRows(_ count: Int, to pool: DatabasePool) throws {
        try pool.write { db in
            if try !db.tableExists(RowRecord.databaseTableName) { try RowRecord.createTable(db) }
            for i in 0..<count {
                var row = RowRecord(i)
                try row.insert(db)
            }
        }
    }

    /// W2 and W5's database, made once.
    private func readStore() throws -> DatabasePool {
        if let readPool { return readPool }
        let pool = try pool("read")
        try Self.writeRows(sizes.read, to: pool)
        readPool = pool
        return pool
    }

    /// `departments` departments of `perDepartment` employees, valued as the other sides' rows.
    private func departments(_ name: String, departments: Int, perDepartment: Int) throws -> DatabasePool {
        let pool = try pool(name)
        try pool.write { db in
            try Employee.createTables(db)
            for d in 0..<departments {
                var department = Department(id: nil, name: "Department \(d)")
                try department.insert(db)
                for e in 0..<perDepartment {
                    let i = d * perDepartment + e
                    var employee = Employee(id: nil, name: "Employee \(i)", salary: Int64(i),
                                            hired: Date(timeIntervalSinceReferenceDate: Double(i)), score: 0, departmentId: department.id)
                    try employee.insert(db)
                }
            }
        }
        return pool
    }

    static func mixedRecord(_ i: Int, _ values: MixedValues) -> MixedRecord {
        MixedRecord(id: nil, title: values.title(i), author: values.author(i), note: values.note(i),
                    created: Date(timeIntervalSinceReferenceDate: Double(i)), price: Double(i) * 0.25, isActive: i % 2 == 0,
                    identifier: values.uuid(i), payload: values.payload, rank: i % 3 == 0 ? nil : Int32(i))
    }

    /// Inserts W10's rows `0 ..< count` in one transaction.
    static func writeMixed(_ count: Int, to pool: DatabasePool) throws {
        let values = MixedValues()
        try pool.write { db in
            if try !db.tableExists(MixedRecord.databaseTableName) { try MixedRecord.createTable(db) }
            for i in 0..<count {
                var record = mixedRecord(i, values)
                try record.insert(db)
            }
        }
    }

    // MARK: Workloads

    func register() {
        let sizes = self.sizes

        bench.peers["W1"] = { run in
            let pool = try self.pool("w1-\(run)")
            try pool.write { try RowRecord.createTable($0) }
            return try time { try Self.writeRows(sizes.insert, to: pool) }
        }

        bench.peers["W2"] = { _ in
            let pool = try self.readStore()
            var sum: Int64 = 0
            let seconds = try time {
                for row in try pool.read({ try RowRecord.fetchAll($0) }) { sum &+= row.sum }
            }
            precondition(sum == RowRecord.sumOfRows(sizes.read), "GRDB W2: checksum \(sum)")
            return seconds
        }

        bench.peers["W4"] = { run in
            let pool = try self.pool("w4-\(run)")
            try Self.writeRows(10, to: pool)
            return try time {
                guard var row = try pool.read({ try RowRecord.filter(Column("a0") == 0).fetchOne($0) }) else { throw BenchError("GRDB W4: no row") }
                for i in 0..<sizes.saves {
                    row.a1 = Int64(i)
                    try pool.write { try row.update($0) }
                }
            }
        }

        bench.peers["W5"] = { _ in
            let pool = try self.readStore()
            let limit = Int64(sizes.read / 100 * 10)
            var count = 0
            let seconds = try time {
                let rows = try pool.read { try RowRecord.filter(Column("a0") < limit).fetchAll($0) }
                count = rows.count
                for row in rows { _ = row.sum }
            }
            precondition(count == sizes.read / 100, "GRDB W5 returned \(count) rows")
            return seconds
        }

        registerRelationships()
        registerMixed()
    }

    private func registerRelationships() {
        let sizes = self.sizes
        let employees = sizes.departments * sizes.perDepartment
        // "Employee i" for i < employees: the sum of the names' lengths, for W7's checksums.
        let names = (0..<employees).reduce(0) { $0 + "Employee \($1)".utf8.count }
        let departmentNames = (0..<employees).reduce(0) { $0 + "Department \($1 / sizes.perDepartment)".utf8.count }
        var w7: DatabasePool?
        func w7Pool() throws -> DatabasePool {
            if let w7 { return w7 }
            let pool = try departments("w7", departments: sizes.departments, perDepartment: sizes.perDepartment)
            w7 = pool
            return pool
        }

        // Without prefetching, a GRDB user asks each department for its employees: the
        // association's request, one query per department (GRDB has no faults).
        bench.peers["W7_tomany_faults"] = { _ in
            let pool = try w7Pool()
            var total = 0
            let seconds = try time {
                try pool.read { db in
                    for department in try Department.fetchAll(db) {
                        for employee in try department.request(for: Department.employees).fetchAll(db) { total += employee.name?.utf8.count ?? 0 }
                    }
                }
            }
            precondition(total == names, "GRDB W7_tomany_faults: \(total) vs \(names)")
            return seconds
        }

        bench.peers["W7_tomany_prefetch"] = { _ in
            let pool = try w7Pool()
            var total = 0
            let seconds = try time {
                let departments = try pool.read { db in
                    try Department.including(all: Department.employees).asRequest(of: DepartmentWithEmployees.self).fetchAll(db)
                }
                for department in departments {
                    for employee in department.employees { total += employee.name?.utf8.count ?? 0 }
                }
            }
            precondition(total == names, "GRDB W7_tomany_prefetch: \(total) vs \(names)")
            return seconds
        }

        bench.peers["W7_toone_keypath"] = { _ in
            let pool = try w7Pool()
            var total = 0
            let seconds = try time {
                let rows = try pool.read { db in
                    try Employee.including(optional: Employee.department).asRequest(of: EmployeeWithDepartment.self).fetchAll(db)
                }
                for row in rows { total += row.department?.name?.utf8.count ?? 0 }
            }
            precondition(total == departmentNames, "GRDB W7_toone_keypath: \(total) vs \(departmentNames)")
            return seconds
        }

        bench.peers["W8_update"] = { run in
            let pool = try self.departments("w8-\(run)", departments: sizes.updates / 50, perDepartment: 50)
            return try time {
                try pool.write { db in
                    for var employee in try Employee.fetchAll(db) {
                        employee.score = Double(employee.salary) * 0.5
                        try employee.update(db)
                    }
                }
            }
        }

        // The same work as OpenCoreData's side: fetch the records, delete each. (GRDB's
        // `deleteAll()` of a request is one DELETE statement: compare it with B2, the batch delete.)
        bench.peers["W9_delete"] = { run in
            let pool = try self.departments("w9-\(run)", departments: sizes.deleteFrom / 100, perDepartment: 100)
            var deleted = 0
            let seconds = try time {
                try pool.write { db in
                    let doomed = try Employee.filter(Column("salary") < sizes.deletions).fetchAll(db)
                    for employee in doomed where try employee.delete(db) { deleted += 1 }
                }
            }
            precondition(deleted == sizes.deletions, "GRDB W9 deleted \(deleted)")
            return seconds
        }
    }

    private func registerMixed() {
        let sizes = self.sizes
        bench.peers["W10_mixed_insert"] = { run in
            let pool = try self.pool("w10i-\(run)")
            try pool.write { try MixedRecord.createTable($0) }
            return try time { try Self.writeMixed(sizes.mixedInserts, to: pool) }
        }
        var fetchPool: DatabasePool?
        let values = MixedValues()
        let expected = (0..<sizes.mixedReads).reduce(0) { $0 &+ values.checksum($1) }
        bench.peers["W10_mixed_fetch"] = { _ in
            let pool: DatabasePool
            if let fetchPool { pool = fetchPool } else {
                pool = try self.pool("w10f")
                try Self.writeMixed(sizes.mixedReads, to: pool)
                fetchPool = pool
            }
            var sum = 0
            let seconds = try time {
                for record in try pool.read({ try MixedRecord.fetchAll($0) }) { sum &+= record.checksum }
            }
            precondition(sum == expected, "GRDB W10_mixed_fetch: checksum \(sum) vs \(expected)")
            return seconds
        }
    }
}
