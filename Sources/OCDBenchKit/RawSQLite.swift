import CSQLite
import Foundation

/// The baseline: the same work through SQLite's C API directly, as a hand-written program would
/// do it (prepared statements, one transaction, typed column reads).
public final class RawSQLite {
    private var db: OpaquePointer?

    public init(path: String) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw BenchError("cannot open \(path)") }
        try exec("PRAGMA journal_mode=WAL")
        try exec("PRAGMA synchronous=NORMAL")
    }

    deinit { sqlite3_close(db) }

    public func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw BenchError("\(sql): \(text)")
        }
    }

    public func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("prepare \(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        return statement
    }

    public static let columns = (0..<10).map { "A\($0)" }

    public func createTable() throws {
        try exec("CREATE TABLE ROWS (ID INTEGER PRIMARY KEY, \(Self.columns.map { "\($0) INTEGER" }.joined(separator: ", ")))")
        try exec("CREATE INDEX ROWS_A0 ON ROWS (A0)")
    }

    /// W1 and the seeding of the read workloads.
    public func insert(count: Int) throws {
        try exec("BEGIN")
        let statement = try prepare("INSERT INTO ROWS (\(Self.columns.joined(separator: ", "))) VALUES (\(Self.columns.map { _ in "?" }.joined(separator: ", ")))")
        defer { sqlite3_finalize(statement) }
        for i in 0..<count {
            for c in 0..<10 { sqlite3_bind_int64(statement, Int32(c + 1), Int64(i * 10 + c)) }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError("insert failed") }
            sqlite3_reset(statement)
        }
        try exec("COMMIT")
    }

    /// Reads every column of every matching row; returns a checksum so the work is not optimised away.
    public func scan(where clause: String = "", bind: Int64? = nil) throws -> Int64 {
        let statement = try prepare("SELECT ID, \(Self.columns.joined(separator: ", ")) FROM ROWS \(clause)")
        defer { sqlite3_finalize(statement) }
        if let bind { sqlite3_bind_int64(statement, 1, bind) }
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            for c in 1...10 { sum &+= sqlite3_column_int64(statement, Int32(c)) }
        }
        return sum
    }

    /// One statement with one integer parameter, in its own transaction (B2, B3).
    public func run(_ sql: String, _ value: Int64) throws {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        try exec("BEGIN")
        sqlite3_bind_int64(statement, 1, value)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError("\(sql) failed") }
        try exec("COMMIT")
    }

    /// W4: one small transaction per change.
    public func updateOneRow(times: Int) throws {
        let statement = try prepare("UPDATE ROWS SET A1 = ? WHERE ID = 1")
        defer { sqlite3_finalize(statement) }
        for i in 0..<times {
            try exec("BEGIN")
            sqlite3_bind_int64(statement, 1, Int64(i))
            guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError("update failed") }
            sqlite3_reset(statement)
            try exec("COMMIT")
        }
    }
}

public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
