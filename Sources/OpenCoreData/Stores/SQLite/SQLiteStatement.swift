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
        firstColumn = nil
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
        case SQLITE_ROW:
            locateColumns()
            return true
        case SQLITE_DONE:
            firstColumn = nil
            return false
        default:
            firstColumn = nil
            let error = SQLiteError(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(connection.handle),
                                    message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql)
            sqlite3_reset(handle)  // release the statement's locks before the error travels up
            throw error
        }
    }

    // MARK: The current row's values, in place

    // Unchecked for exclusivity: every column read of every row reads them, and a statement
    // is only used by one caller at a time (under its store's lock).

    /// How far apart, in bytes, the current row's column values lie: 0 until the first row
    /// checks it, -1 if that check failed (every column is then looked up).
    @exclusivity(unchecked) private var columnStride = 0
    /// The number of result columns, read with the stride.
    @exclusivity(unchecked) private var columnCount: Int32 = 0
    /// Column 0's value in the current row, when the stride is known; nil between rows.
    @exclusivity(unchecked) private var firstColumn: UnsafeMutableRawPointer?

    /// Finds the current row's values. VDBE hands a row over as consecutive registers (its
    /// `ResultRow` opcode: "registers P1 through P1+P2-1 contain a single row of results"),
    /// and `sqlite3_column_value(s, i)` is register `P1 + i`; so column `i`'s value lies `i`
    /// strides after column 0's. Looking each one up instead (`sqlite3_column_value`,
    /// `sqlite3_column_int64`) goes through `columnMem` and the connection's error state for
    /// every column read.
    ///
    /// The stride is checked against every column of the statement's first row, and the
    /// statement looks columns up if the registers are not where the check expects them.
    @inline(__always) private func locateColumns() {
        guard columnStride >= 0 else { return }
        let first = UnsafeMutableRawPointer(sqlite3_column_value(handle, 0))
        if columnStride == 0 { columnStride = Self.checkedStride(handle, first, &columnCount) }
        firstColumn = columnStride > 0 ? first : nil
    }

    /// The distance between consecutive column values of the current row, if every column is
    /// at it; -1 otherwise.
    private static func checkedStride(_ handle: OpaquePointer, _ first: UnsafeMutableRawPointer?, _ count: inout Int32) -> Int {
        count = sqlite3_column_count(handle)
        guard let first, count > 0 else { return -1 }
        guard count > 1 else { return MemoryLayout<Int>.size }  // only column 0: any stride
        guard let second = UnsafeMutableRawPointer(sqlite3_column_value(handle, 1)) else { return -1 }
        let stride = second - first
        guard stride > 0 else { return -1 }
        for i in 2..<count where UnsafeMutableRawPointer(sqlite3_column_value(handle, i)) != first + Int(i) * stride {
            return -1
        }
        return stride
    }

    /// Column `index`'s value in the current row: in place when the stride is known, else
    /// looked up. Valid until the next step or reset; only read here (a text or blob read,
    /// which may convert the value, goes through SQLite's column functions).
    @inline(__always) private func value(at index: Int32) -> OpaquePointer? {
        // One unsigned compare for both bounds; in bounds, the offset cannot overflow.
        if let firstColumn, UInt32(bitPattern: index) < UInt32(bitPattern: columnCount) {
            return OpaquePointer(firstColumn + Int(index) &* columnStride)
        }
        return sqlite3_column_value(handle, index)
    }

    // MARK: Reading columns (0-based, as in SQLite)

    func isNull(at index: Int32) -> Bool { sqlite3_value_type(value(at: index)) == SQLITE_NULL }
    /// The column's storage class of the current row: `SQLITE_INTEGER`, `SQLITE_FLOAT`, ...
    func storageClass(at index: Int32) -> Int32 { sqlite3_value_type(value(at: index)) }
    func int64(at index: Int32) -> Int64 { sqlite3_value_int64(value(at: index)) }
    func double(at index: Int32) -> Double { sqlite3_value_double(value(at: index)) }

    /// The column's integer, or nil when the row holds something else there (NULL, text, ...).
    ///
    /// One column lookup where `storageClass(at:)` then `int64(at:)` make two: the row decoder
    /// calls this for every integer attribute of every fetched row. SQLite calls a column's
    /// value object safe to read only while no other thread uses the connection, which holds
    /// here: a store's connection is only used under its coordinator's lock.
    @inline(__always) func integerIfStored(at index: Int32) -> Int64? {
        let value = value(at: index)
        return sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }

    /// The column's number as a double when the row holds a float or an integer there.
    @inline(__always) func numberIfStored(at index: Int32) -> Double? {
        let value = value(at: index)
        let storage = sqlite3_value_type(value)
        return storage == SQLITE_FLOAT || storage == SQLITE_INTEGER ? sqlite3_value_double(value) : nil
    }

    func text(at index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column as it is stored, whatever its storage class (for copying rows unchanged).
    func sqliteValue(at index: Int32) -> SQLiteValue {
        switch storageClass(at: index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return text(at: index).map { .text($0) } ?? .null
        case SQLITE_BLOB: return blob(at: index).map { .blob($0) } ?? .null
        default: return .null
        }
    }

    func blob(at index: Int32) -> Data? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
