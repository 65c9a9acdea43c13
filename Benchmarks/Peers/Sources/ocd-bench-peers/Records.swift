import Foundation
import GRDB

// The benchmarks' rows as a GRDB user declares them: Codable structs with an auto-incremented
// `id`, `FetchableRecord` and `MutablePersistableRecord`, associations for the relationships —
// GRDB's recommended practices (its documentation's "Recommended Practices for Designing Record
// Types"), not hand-tuned row decoding. Dates alone are stored as Core Data stores them.

/// W1–W5's row: ten Integer 64 columns, `a0` indexed.
struct RowRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "row"
    var id: Int64?
    var a0, a1, a2, a3, a4, a5, a6, a7, a8, a9: Int64

    /// Row `i`: `a<c>` is `10 i + c`, as BenchRow.fill(_:) writes it.
    init(_ i: Int) {
        let base = Int64(i * 10)
        id = nil
        a0 = base; a1 = base + 1; a2 = base + 2; a3 = base + 3; a4 = base + 4
        a5 = base + 5; a6 = base + 6; a7 = base + 7; a8 = base + 8; a9 = base + 9
    }

    var sum: Int64 { a0 &+ a1 &+ a2 &+ a3 &+ a4 &+ a5 &+ a6 &+ a7 &+ a8 &+ a9 }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { t in
            t.autoIncrementedPrimaryKey("id")
            for c in 0..<10 { t.column("a\(c)", .integer).notNull() }
        }
        try db.create(indexOn: databaseTableName, columns: ["a0"])
    }

    /// The sum of every attribute of rows `0 ..< count` (W2's checksum).
    static func sumOfRows(_ count: Int) -> Int64 {
        let n = Int64(count)
        return 100 * (n * (n - 1) / 2) + 45 * n
    }
}

/// W7–W9's department.
struct Department: Codable, FetchableRecord, MutablePersistableRecord {
    static let employees = hasMany(Employee.self)
    var id: Int64?
    var name: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// W7–W9's employee; its department is nullified when the department goes.
struct Employee: Codable, FetchableRecord, MutablePersistableRecord {
    static let department = belongsTo(Department.self)
    var id: Int64?
    var name: String?
    var salary: Int64
    var hired: Date?
    var score: Double
    var departmentId: Int64?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    // Dates as seconds since the reference date (a REAL column), as Core Data and the raw side
    // store them: GRDB's default text format would add a parse per row to its side.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSinceReferenceDate }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }

    static func createTables(_ db: Database) throws {
        try db.create(table: "department") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text)
        }
        try db.create(table: "employee") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text)
            t.column("salary", .integer).notNull()
            t.column("hired", .double)
            t.column("score", .double).notNull()
            t.belongsTo("department", onDelete: .setNull)   // departmentId, indexed
        }
    }
}

/// A department with its employees, fetched with `including(all:)` (W7_tomany_prefetch).
struct DepartmentWithEmployees: Decodable, FetchableRecord {
    var department: Department
    var employees: [Employee]
}

/// An employee with its department, fetched with `including(optional:)` (W7_toone_keypath).
struct EmployeeWithDepartment: Decodable, FetchableRecord {
    var employee: Employee
    var department: Department?
}

/// W10's row of realistic types.
struct MixedRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "mixed"
    var id: Int64?
    var title: String?
    var author: String?
    var note: String?
    var created: Date?
    var price: Double
    var isActive: Bool
    var identifier: UUID?
    var payload: Data?
    var rank: Int32?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    // Dates as seconds since the reference date (a REAL column), as Core Data and the raw side
    // store them: GRDB's default text format would add a parse per row to its side.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSinceReferenceDate }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }

    /// Every attribute read, summed as W10_mixed_fetch sums them.
    var checksum: Int {
        var sum = (title?.utf8.count ?? 0) &+ (author?.utf8.count ?? 0) &+ (note?.utf8.count ?? 0)
        sum &+= Int(created?.timeIntervalSinceReferenceDate ?? 0) &+ Int(price) &+ (isActive ? 1 : 0)
        sum &+= Int(identifier?.uuid.15 ?? 0) &+ (payload?.count ?? 0) &+ Int(rank ?? 0)
        return sum
    }

    static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text)
            t.column("author", .text)
            t.column("note", .text)
            t.column("created", .double)
            t.column("price", .double).notNull()
            t.column("isActive", .boolean).notNull()
            t.column("identifier", .blob)
            t.column("payload", .blob)
            t.column("rank", .integer)
        }
    }
}
