import CSQLite
import Foundation

/// Checks that decide whether a store file is sound enough to be written to, made before the
/// first write of an open (the switch to WAL journal mode rewrites the header).
///
/// ```swift
/// if let problem = try SQLiteFileSoundness.truncationProblem(db, path: path) { throw ... }   // cut off?
/// if let problem = try SQLiteFileSoundness.quickCheckProblem(db) { throw ... }     // damaged pages?
/// ```
///
/// A damaged store is reported with the error Apple's framework gives for it,
/// `NSFileReadCorruptFileError` (259) with SQLite's code under `NSSQLiteErrorDomain`
/// (``corruptFileError(path:message:sqliteCode:underlying:)``), and left byte for byte as it was.
enum SQLiteFileSoundness {
    /// Why the store on `db` (the file at `path`) can't be a whole database, judged from the
    /// page count SQLite takes from the file's header, or nil when that raises no doubt: a main
    /// file shorter than that many pages was cut off. Only when no WAL file holds pages (those
    /// may lie beyond the main file's end).
    ///
    /// Read through SQLite and `stat`, never through a file descriptor of our own: closing any
    /// descriptor of a database file drops every POSIX lock this process holds on it, SQLite's
    /// included, and another process would then take the WAL for unused and delete it.
    static func truncationProblem(_ db: SQLiteConnection, path: String) throws -> String? {
        let fileManager = FileManager.default
        func size(_ file: String) -> UInt64? { (try? fileManager.attributesOfItem(atPath: file)[.size] as? NSNumber)?.uint64Value }
        guard (size(path + "-wal") ?? 0) == 0, let fileSize = size(path) else { return nil }
        let pageSize = try db.query("PRAGMA page_size") { UInt64($0.int64(at: 0)) }.first ?? 0
        let pageCount = try db.query("PRAGMA page_count") { UInt64($0.int64(at: 0)) }.first ?? 0
        let expected = pageSize * pageCount
        return fileSize < expected ? "the file has \(fileSize) bytes but its header counts \(pageCount) pages of \(pageSize) bytes (\(expected) bytes): it was cut off" : nil
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
