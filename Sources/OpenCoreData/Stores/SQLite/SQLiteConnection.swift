import CSQLite
import Foundation

/// One open SQLite database: the thin layer between the SQLite store and SQLite's C API.
///
/// ```swift
/// let db = try SQLiteConnection(path: "/tmp/a.sqlite", readOnly: false)
/// try db.execute("CREATE TABLE T (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR)")
/// try db.inTransaction {
///     try db.run("INSERT INTO T (Z_PK, ZNAME) VALUES (?, ?)", [.integer(1), .text("Ann")])
/// }
/// let select = try db.statement("SELECT ZNAME FROM T WHERE Z_PK = ?")
/// select.bind(.integer(1), at: 1)
/// while try select.step() { print(select.text(at: 0) ?? "NULL") }
/// ```
///
/// Statements are prepared once per SQL text and cached, so the store's hot paths pay for
/// parsing only the first time. Values are always bound (``SQLiteValue``), never spliced into
/// SQL text.
///
/// Not thread-safe by itself: the owner serialises access (the SQLite store holds its lock
/// around every use, and the coordinator serialises calls into stores anyway).
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: SQLiteStatement] = [:]
    /// The statement handed out last (also in `statements`).
    private var lastStatement: SQLiteStatement?

    /// Opens (or, unless `readOnly`, creates) the database at `path`.
    ///
    /// Opening never reads the file: SQLite defers that to the first statement, so a file that
    /// is not a database is detected by ``probe()``, not here.
    init(path: String, readOnly: Bool) throws {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, extendedCode: rc, message: message, sql: nil)
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
        self.path = path
    }

    deinit { close() }

    private var isClosed = false

    /// Finalises the cached statements and closes the database. Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        lastStatement = nil
        statements.removeAll()  // each statement finalises itself in deinit
        sqlite3_close_v2(handle)
    }

    /// Whether SQLite opened the main database for reading only: asked for, or the file can't
    /// be written (SQLite then opens a read-write request read-only, silently).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Waits up to `seconds` for another connection's lock before failing with `SQLITE_BUSY`.
    func setBusyTimeout(_ seconds: Double) {
        sqlite3_busy_timeout(handle, Int32(max(0, min(seconds * 1000, Double(Int32.max)))))
    }

    /// Runs one SQL statement without parameters (DDL, `PRAGMA`, `BEGIN`), stepping through and
    /// dropping any rows it returns. Text after the first statement (other than white space and
    /// semicolons) is refused before anything runs: SQL built from names must never be able to
    /// smuggle in a second statement.
    func execute(_ sql: String) throws {
        try sql.withCString { start in
            var stmt: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(handle, start, -1, &stmt, &tail)
            defer { sqlite3_finalize(stmt) }
            guard rc == SQLITE_OK else {
                throw SQLiteError(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
            }
            if let tail, !String(cString: tail).allSatisfy({ $0.isWhitespace || $0 == ";" }) {
                throw SQLiteError(code: SQLITE_ERROR, extendedCode: SQLITE_ERROR, message: "more than one statement in one call; run each statement on its own", sql: sql)
            }
            guard let stmt else { return }  // white space or a comment only
            var step = sqlite3_step(stmt)
            while step == SQLITE_ROW { step = sqlite3_step(stmt) }
            guard step == SQLITE_DONE else {
                throw SQLiteError(code: step & 0xff, extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
            }
        }
    }

    /// Runs a statement without parameters or rows, prepared once per connection: for the
    /// `BEGIN IMMEDIATE` and `COMMIT` of every save, which `execute` would parse each time (as
    /// much work as a one-row UPDATE).
    func executePrepared(_ sql: String) throws {
        let statement = try statement(sql)
        while try statement.step() {}
    }

    /// The prepared statement for `sql`, reset and with its bindings cleared.
    ///
    /// `bindingEveryParameter`: the caller binds all of the statement's parameters before it
    /// steps, so the old bindings are left as they are: clearing them would be a
    /// `sqlite3_clear_bindings` call per row for nothing.
    func statement(_ sql: String, bindingEveryParameter: Bool = false) throws -> SQLiteStatement {
        // A save runs the same INSERT or UPDATE for row after row. Comparing with the last SQL
        // is a pointer compare when the caller passes the same string (an entity plan's), where
        // the dictionary would hash a couple of hundred bytes per row.
        if let last = lastStatement, last.sql == sql {
            last.reset(clearingBindings: !bindingEveryParameter)
            return last
        }
        if let cached = statements[sql] {
            cached.reset(clearingBindings: !bindingEveryParameter)
            lastStatement = cached
            return cached
        }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        let statement = SQLiteStatement(handle: stmt, connection: self, sql: sql)
        statements[sql] = statement
        lastStatement = statement
        return statement
    }

    /// Runs one statement that returns no rows, with `bindings` bound to its `?` parameters in
    /// order; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> Int {
        let statement = try statement(sql)
        for (i, value) in bindings.enumerated() { statement.bind(value, at: Int32(i + 1)) }
        while try statement.step() {}
        return changes
    }

    /// The rows of a query, each read by `read` while the statement is positioned on it.
    func query<T>(_ sql: String, _ bindings: [SQLiteValue] = [], _ read: (SQLiteStatement) throws -> T) throws -> [T] {
        let statement = try statement(sql)
        for (i, value) in bindings.enumerated() { statement.bind(value, at: Int32(i + 1)) }
        var result: [T] = []
        while try statement.step() { result.append(try read(statement)) }
        return result
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` takes the write lock up front, so two
    /// writers queue on the busy timeout instead of deadlocking when both try to upgrade a read
    /// lock. Any error rolls everything back and is rethrown.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try executePrepared("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try executePrepared("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The names of the tables in the database (empty for a new file); throws `SQLITE_NOTADB`
    /// for a file that is not a database, which makes this the first thing to run on open.
    func tableNames() throws -> Set<String> {
        Set(try query("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(at: 0) ?? "" })
    }

    /// `name` as a quoted SQL identifier (`"a""b"` for `a"b`). Every statement the store
    /// generates quotes the table and column names it takes from a model or a file; only the
    /// `CREATE` statements keep Apple's unquoted schema text, whose names model validation and
    /// `StoreSchema` have checked (`NSManagedObjectModel.isIdentifier`).
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The column names of `table`, in order.
    func columnNames(of table: String) throws -> [String] {
        try query("SELECT name FROM pragma_table_info(?)", [.text(table)]) { $0.text(at: 0) ?? "" }
    }
}

/// A value bound to a statement parameter: SQLite's five storage classes, without boxing.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A failed SQLite call: the result code, SQLite's message, and the statement.
struct SQLiteError: Error, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, ...).
    let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...).
    let extendedCode: Int32
    let message: String
    let sql: String?

    var description: String {
        "SQLite error \(extendedCode): \(message)" + (sql.map { " (in: \($0))" } ?? "")
    }
}
