import CSQLite
import Foundation

/// Checks that decide whether a store file is sound enough to be written to, made before the
/// first write of an open (the switch to WAL journal mode rewrites the header).
///
/// ```swift
/// if let problem = SQLiteFileSoundness.headerProblem(atPath: path) { throw ... }   // cut off?
/// if let problem = try SQLiteFileSoundness.quickCheckProblem(db) { throw ... }     // damaged pages?
/// ```
///
/// A damaged store is reported with the error Apple's framework gives for it,
/// `NSFileReadCorruptFileError` (259) with SQLite's code under `NSSQLiteErrorDomain`
/// (``corruptFileError(path:message:sqliteCode:underlying:)``), and left byte for byte as it was.
enum SQLiteFileSoundness {
    /// Why the file at `path` can't be a whole SQLite database, judged from its 100-byte header
    /// alone, or nil when the header raises no doubt. The header counts the database's pages
    /// (bytes 28–31, valid when bytes 92–95 repeat the change counter at 24–27); a file shorter
    /// than that many pages was cut off. A WAL file may hold pages beyond the count, never fewer.
    static func headerProblem(atPath path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100,
              header.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        func uint32(_ offset: Int) -> UInt64 {
            header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt64($1) }
        }
        let rawPageSize = UInt64(header[16]) << 8 | UInt64(header[17])
        let pageSize: UInt64 = rawPageSize == 1 ? 65_536 : rawPageSize
        let pageCount = uint32(28)
        guard pageSize >= 512, pageCount > 0, uint32(92) == uint32(24),
              let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value
        else { return nil }
        let expected = pageCount * pageSize
        return size < expected ? "the file has \(size) bytes but its header counts \(pageCount) pages of \(pageSize) bytes (\(expected) bytes): it was cut off" : nil
    }

    /// SQLite's `quick_check` of every page (b-tree structure, record formats, page use), or nil
    /// when it answers "ok". Reads the whole file, so it runs only before a write that an open
    /// would otherwise make to a file not yet known good: the switch into WAL mode.
    static func quickCheckProblem(_ db: SQLiteConnection) throws -> String? {
        let answers = try db.query("PRAGMA quick_check(5)") { $0.text(at: 0) ?? "" }
        return answers == ["ok"] ? nil : "SQLite's quick_check found damage: " + answers.joined(separator: "; ")
    }

    /// The error for a file that is not a database or is damaged: `NSFileReadCorruptFileError`
    /// (259), as Apple's framework reports it, with SQLite's result code (`SQLITE_CORRUPT` 11,
    /// `SQLITE_NOTADB` 26) under `NSSQLiteErrorDomain` and the path under `NSFilePathErrorKey`.
    static func corruptFileError(path: String, message: String, sqliteCode: Int32, underlying: Error? = nil) -> NSError {
        var info: [String: Any] = [NSFilePathErrorKey: path, "NSSQLiteErrorDomain": Int(sqliteCode)]
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return CoreDataError.make(CocoaError.Code.fileReadCorruptFile.rawValue, message, info)
    }

    /// `SQLITE_NOTADB` or `SQLITE_CORRUPT` for an error SQLite gave on the first read.
    static func sqliteCode(of error: Error) -> Int32 {
        (error as? SQLiteError).map { $0.code } ?? SQLITE_CORRUPT
    }
}
