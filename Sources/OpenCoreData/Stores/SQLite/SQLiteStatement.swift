import CSQLite
import Foundation

/// SQLite copies bound text and blobs right away with this destructor, so the Swift buffers
/// may go away as soon as the bind call returns.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement, owned and cached by its ``SQLiteConnection``.
///
/// ```swift
/// let s = try db.statement("SELECT Z_PK, ZNAME FROM ZEMPLOYEE WHERE ZSALARY > ?")
/// s.bind(.integer(1000), at: 1)
/// while try s.step() {
///     let pk = s.int64(at: 0)          // typed reads: no `Any` per column
///     let name = s.text(at: 1)
/// }
/// ```
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Makes the statement ready to run again with new bindings.
    func reset(clearingBindings: Bool = true) {
        sqlite3_reset(handle)
        if clearingBindings { sqlite3_clear_bindings(handle) }
    }

    // MARK: Binding (parameters are 1-based, as in SQLite)

    func bind(_ value: SQLiteValue, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let i): sqlite3_bind_int64(handle, index, i)
        case .real(let d): sqlite3_bind_double(handle, index, d)
        case .text(let s): bind(s, at: index)
        case .blob(let d): bind(d, at: index)
        }
    }

    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }

    func bind(_ value: String, at index: Int32) {
        var s = value
        s.withUTF8 { utf8 in
            // An empty buffer may have no base address; SQLite reads a NULL pointer as NULL,
            // so bind an empty string literal instead.
            if let base = utf8.baseAddress {
                base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                    _ = sqlite3_bind_text(handle, index, $0, Int32(utf8.count), SQLITE_TRANSIENT)
                }
            } else {
                _ = sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT)
            }
        }
    }

    func bind(_ value: Data, at index: Int32) {
        // Likewise an empty Data must stay an empty blob, not become NULL.
        if value.isEmpty { sqlite3_bind_zeroblob(handle, index, 0); return }
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), SQLITE_TRANSIENT)
        }
    }

    // MARK: Stepping

    /// Advances to the next row: true while there is one, false when the statement is done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(connection.handle),
                                    message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql)
            sqlite3_reset(handle)  // release the statement's locks before the error travels up
            throw error
        }
    }

    // MARK: Reading columns (0-based, as in SQLite)

    func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
    /// The column's storage class of the current row: `SQLITE_INTEGER`, `SQLITE_FLOAT`, ...
    func storageClass(at index: Int32) -> Int32 { sqlite3_column_type(handle, index) }
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The column's integer, or nil when the row holds something else there (NULL, text, ...).
    ///
    /// One column lookup where `storageClass(at:)` then `int64(at:)` make two: the row decoder
    /// calls this for every integer attribute of every fetched row. SQLite calls the value
    /// `sqlite3_column_value` returns safe to read only while no other thread uses the
    /// connection, which holds here: a store's connection is only used under its coordinator's lock.
    @inline(__always) func integerIfStored(at index: Int32) -> Int64? {
        let value = sqlite3_column_value(handle, index)
        return sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }

    /// The column's number as a double when the row holds a float or an integer there.
    @inline(__always) func numberIfStored(at index: Int32) -> Double? {
        let value = sqlite3_column_value(handle, index)
        let storage = sqlite3_value_type(value)
        return storage == SQLITE_FLOAT || storage == SQLITE_INTEGER ? sqlite3_value_double(value) : nil
    }

    func text(at index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func blob(at index: Int32) -> Data? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
