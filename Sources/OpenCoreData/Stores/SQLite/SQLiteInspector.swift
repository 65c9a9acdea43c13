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
    package static func rows(at path: String, _ sql: String, _ bindings: [String] = []) throws -> [[String?]] {
        let db = try SQLiteConnection(path: path, readOnly: true)
        defer { db.close() }
        return try db.query(sql, bindings.map { .text($0) }) { statement in
            (0..<sqlite3_column_count(statement.handle)).map { i -> String? in
                switch statement.storageClass(at: i) {
                case SQLITE_NULL: return nil
                case SQLITE_BLOB: return "x'" + (statement.blob(at: i) ?? Data()).map { String(format: "%02x", $0) }.joined() + "'"
                default: return statement.text(at: i)
                }
            }
        }
    }

    /// Runs statements that change the file (for tests that simulate another writer).
    package static func execute(at path: String, _ sql: String) throws {
        let db = try SQLiteConnection(path: path, readOnly: false)
        defer { db.close() }
        db.setBusyTimeout(10)
        try db.execute(sql)
    }
}
