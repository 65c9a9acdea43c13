import CSQLite
import Foundation

/// Reads any SQLite file with plain SQL, as an outside tool would: for tests that check the
/// on-disk layout, and for tools such as `ocd inspect`. Package-internal: not Core Data API.
///
/// ```swift
/// let tables = try SQLiteInspector.rows(at: storePath, "SELECT name FROM sqlite_master WHERE type = 'table'")
/// let max = try SQLiteInspector.rows(at: storePath, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", ["Employee"])
/// ```
///
/// Values come back as text: integers and reals in SQLite's own text form, blobs as
/// lowercase hex prefixed with `x'`, NULL as nil.
package enum SQLiteInspector {
    /// `name` as a quoted SQL identifier, for table and column names read from a file.
    package static func quoted(_ name: String) -> String { SQLiteConnection.quoted(name) }

    package static func rows(at path: String, _ sql: String, _ bindings: [String] = []) throws -> [[String?]] {
        let db = try SQLiteConnection(path: path, readOnly: true)
        defer { db.close() }
        return try db.query(sql, bindings.map { .text($0) }, textRow)
    }

    /// The current row of `statement`, every column as text (see the type's comment).
    private static func textRow(_ statement: SQLiteStatement) -> [String?] {
        (0..<sqlite3_column_count(statement.handle)).map { i -> String? in
            switch statement.storageClass(at: i) {
            case SQLITE_NULL: return nil
            case SQLITE_BLOB: return "x'" + (statement.blob(at: i) ?? Data()).map { String(format: "%02x", $0) }.joined() + "'"
            default: return statement.text(at: i)
            }
        }
    }

    /// One connection kept open across statements, so a transaction can stay open between them:
    /// `ocd sql-session` uses it to play another process that holds the store's write lock or
    /// commits behind a coordinator's back.
    ///
    /// ```swift
    /// let other = try SQLiteInspector.Session(path: storePath, busyTimeout: 10)
    /// _ = try other.run("BEGIN IMMEDIATE")      // holds the write lock from now on
    /// _ = try other.run("UPDATE ZEMPLOYEE SET ZSALARY = 1, Z_OPT = Z_OPT + 1 WHERE Z_PK = 1")
    /// _ = try other.run("COMMIT")
    /// ```
    package final class Session {
        private let db: SQLiteConnection

        package init(path: String, busyTimeout: Double) throws {
            db = try SQLiteConnection(path: path, readOnly: false)
            db.setBusyTimeout(busyTimeout)
        }

        /// Runs one statement; returns its rows as text. Errors carry SQLite's extended code
        /// and message in their description.
        package func run(_ sql: String) throws -> [[String?]] {
            try db.query(sql, [], SQLiteInspector.textRow)
        }

        /// Closes the connection; an open transaction is rolled back, as when a process dies.
        package func close() { db.close() }
    }

    /// Runs statements that change the file (for tests that simulate another writer).
    package static func execute(at path: String, _ sql: String) throws {
        let db = try SQLiteConnection(path: path, readOnly: false)
        defer { db.close() }
        db.setBusyTimeout(10)
        try db.execute(sql)
    }
}
