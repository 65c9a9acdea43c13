import Foundation

/// Binary attributes that allow external storage (`allowsExternalBinaryDataStorage`), kept as
/// Apple's SQLite store keeps them: the column holds a marker byte, then either the bytes
/// themselves or the name of a file in `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` beside the store.
///
/// ```swift
/// SQLiteExternalData.directory(forStoreAt: URL(fileURLWithPath: "/data/Photos.sqlite"))
/// // /data/.Photos_SUPPORT/_EXTERNAL_DATA
/// SQLiteExternalData.decode(Data([0x01, 0xCA, 0xFE]))   // .inline(Data([0xCA, 0xFE]))
/// ```
///
/// | column | meaning |
/// |---|---|
/// | `01` + bytes | the value, inline (values up to ``threshold`` bytes) |
/// | `02` + UUID (ASCII) + `00` | the value is the file of that name |
/// | anything else | the value itself (written before the attribute allowed external storage) |
///
/// The markers are what forensic write-ups describe for Apple's stores; Apple does not document
/// them, and no fixture store holds such a column, so they are unverified (docs/DEVIATIONS.md).
enum SQLiteExternalData {
    /// Values larger than this go to a file. Apple's threshold is undocumented and reported
    /// anywhere from 100 KB to 1 MB; 128 KiB is the most recent report.
    static let threshold = 128 * 1024
    static let inlineMarker: UInt8 = 0x01
    static let externalMarker: UInt8 = 0x02
    /// Internal store option: the directory for external values instead of the store's own
    /// (a migration's copy writes into the original's, so the files are in place at the rename).
    static let directoryOption = "OCDExternalDataDirectoryOption"

    /// What a column of an external-storage attribute holds.
    enum Column: Equatable {
        case inline(Data)
        case external(name: String)
        /// No marker: the bytes are the value.
        case raw(Data)
    }

    /// The support directory Apple's store keeps beside the file: `.<StoreName>_SUPPORT`.
    static func supportDirectory(forStoreAt url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT", isDirectory: true)
    }

    /// Where the files of external values live: `.<StoreName>_SUPPORT/_EXTERNAL_DATA`.
    static func directory(forStoreAt url: URL) -> URL {
        supportDirectory(forStoreAt: url).appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    static func decode(_ blob: Data) -> Column {
        guard let first = blob.first else { return .raw(blob) }
        let rest = Data(blob.dropFirst())
        switch first {
        case inlineMarker:
            return .inline(rest)
        case externalMarker:
            let bytes = rest.prefix { $0 != 0 }
            // Only plain UUID-like names: a damaged or hostile store must not name a path.
            guard !bytes.isEmpty, bytes.count <= 64,
                  bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }),
                  let name = String(data: Data(bytes), encoding: .ascii) else { return .raw(blob) }
            return .external(name: name)
        default:
            return .raw(blob)
        }
    }

    static func inlineColumn(_ data: Data) -> Data {
        var column = Data([inlineMarker])
        column.append(data)
        return column
    }

    static func referenceColumn(_ name: String) -> Data {
        var column = Data([externalMarker])
        column.append(Data(name.utf8))
        column.append(0)
        return column
    }

    /// The value a column holds: inline bytes, or the file's contents. A file that is missing
    /// or unreadable reads as nil (the record stays readable; docs/DEVIATIONS.md).
    static func value(of blob: Data, in directory: URL?) -> StoredValue {
        switch decode(blob) {
        case .inline(let data), .raw(let data):
            return .data(data)
        case .external(let name):
            guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { return .null }
            return .data(data)
        }
    }

    /// How old a file must be before ``collectOrphans(of:in:writeLockedBy:)`` may remove it: a
    /// younger one may belong to a migration under way in another process, which writes the
    /// files of its copy into this directory before the copy replaces the store.
    static let orphanMinimumAge: TimeInterval = 3600

    /// The names of the markers a save or a migration keeps in the folder while the files it
    /// wrote or released may not yet match what the store references (``writePendingMarker(in:)``).
    static let pendingMarkerPrefix = ".OCDPendingFiles-"
    static func isPendingMarker(_ name: String) -> Bool { name.hasPrefix(pendingMarkerPrefix) }

    /// Writes a new marker into `directory`, durably (a crash right after must find it), and
    /// returns it. Its owner removes it once its files match the store again: after the commit
    /// and the removal of the files it released, or after a rollback removed the files it wrote.
    /// A marker left behind means its owner died in between, and the next open collects.
    static func writePendingMarker(in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let marker = directory.appendingPathComponent(pendingMarkerPrefix + UUID().uuidString)
        try AtomicFileWriter.write(Data(), to: marker)
        return marker
    }

    /// Removes the files in `directory` that the store at `path` no longer references, left by
    /// a process that died between a save's commit and its cleanup (or a migration's rename and
    /// its cleanup); returns how many. Only when such a process left its marker: an open of a
    /// store whose saves all finished reads nothing. Runs while `db` holds the store's write
    /// lock, since a save writes its files inside its write transaction: no other process can be
    /// between writing a file and committing the row that names it. Files younger than
    /// ``orphanMinimumAge`` are kept; so are markers (a live process may own one), until they
    /// are that old.
    @discardableResult
    static func collectOrphans(of path: String, in directory: URL, writeLockedBy db: SQLiteConnection, now: Date = Date()) throws -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let markers = names.filter(isPendingMarker)
        guard !markers.isEmpty else { return 0 }
        func isOld(_ name: String) -> Bool {
            let modified = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.modificationDate]) as? Date
            return modified.map { now.timeIntervalSince($0) >= orphanMinimumAge } ?? false
        }
        try db.execute("BEGIN IMMEDIATE")
        defer { try? db.execute("ROLLBACK") }
        let orphans = Set(names.filter { !isPendingMarker($0) }).subtracting(try referencedNames(inStoreAt: path)).filter(isOld)
        for name in orphans { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
        for marker in markers where isOld(marker) { try? FileManager.default.removeItem(at: directory.appendingPathComponent(marker)) }
        return orphans.count
    }

    /// The file names the store at `path` references from any BLOB column (a `02` marker):
    /// what must survive when files are cleaned up after a migration.
    static func referencedNames(inStoreAt path: String) throws -> Set<String> {
        let db = try SQLiteConnection(path: path, readOnly: true)
        defer { db.close() }
        var names = Set<String>()
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'") { $0.text(at: 0) ?? "" }
        for table in tables where !table.isEmpty {
            // The names come from the file, so they are quoted, quotes in them doubled.
            let columns = try db.query("SELECT name, type FROM pragma_table_info(?)", [.text(table)]) { ($0.text(at: 0) ?? "", ($0.text(at: 1) ?? "").uppercased()) }
            for (column, type) in columns where type == "BLOB" {
                let c = SQLiteConnection.quoted(column), t = SQLiteConnection.quoted(table)
                let blobs = try db.query("SELECT \(c) FROM \(t) WHERE substr(\(c), 1, 1) = x'02'") { $0.blob(at: 0) }
                for case let blob? in blobs { if case .external(let name) = decode(blob) { names.insert(name) } }
            }
        }
        return names
    }

    /// Names of the files in `directory` (none if it does not exist).
    static func fileNames(in directory: URL) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !isPendingMarker($0) })
    }
}

/// The file work of one save: files written for new values (removed again if the save rolls
/// back) and files of replaced or deleted values (removed only once the save committed, so a
/// failed save never loses a value the store still references).
final class SQLiteExternalDataSave {
    /// Worked out on first use: building the URL costs more than a small save, and most saves
    /// write no external value.
    lazy var directory: URL = makeDirectory()
    private let makeDirectory: () -> URL
    private(set) var created: [URL] = []
    private(set) var obsolete: [URL] = []
    /// This save's marker, written before its first file is written or released
    /// (``SQLiteExternalData/writePendingMarker(in:)``), removed when its files match the store.
    private var marker: URL?

    /// Every value in its row, whatever its size: an in-memory store has no folder for files.
    private let keepsValuesInline: Bool

    init(directory: @escaping @autoclosure () -> URL, keepsValuesInline: Bool = false) {
        makeDirectory = directory
        self.keepsValuesInline = keepsValuesInline
    }

    /// Writes this save's marker, once, before the first file that a crash could orphan.
    private func markPending() throws {
        guard marker == nil else { return }
        do {
            marker = try SQLiteExternalData.writePendingMarker(in: directory)
        } catch {
            throw CoreDataError.make(NSPersistentStoreSaveError, "Can't write in the directory \(directory.path) of the store's external values: \(error.localizedDescription). Nothing was saved.", [NSFilePathErrorKey: directory.path])
        }
    }

    private func removeMarker() {
        if let marker { try? FileManager.default.removeItem(at: marker) }
        marker = nil
    }

    /// The column for `value` of an external-storage attribute whose column held `old` (nil
    /// for a new row). An unchanged external value keeps its file.
    func columnValue(_ value: StoredValue, replacing old: Data?, for attribute: NSAttributeDescription) throws -> SQLiteValue {
        let oldName: String? = old.flatMap { if case .external(let name) = SQLiteExternalData.decode($0) { return name } else { return nil } }
        guard case .data(let data) = value else {
            if let oldName { try retire(oldName) }
            return try SQLiteValueCoding.columnValue(value, for: attribute)
        }
        if data.count <= SQLiteExternalData.threshold || keepsValuesInline {
            if let oldName { try retire(oldName) }
            return .blob(SQLiteExternalData.inlineColumn(data))
        }
        if let oldName, isFile(oldName, holding: data) { return .blob(SQLiteExternalData.referenceColumn(oldName)) }
        let name = UUID().uuidString
        let file = directory.appendingPathComponent(name)
        try markPending()  // creates the directory too
        // Durable (temporary file, fsync, rename, fsync of the directory) before the row that
        // names it can commit.
        try AtomicFileWriter.write(data, to: file)
        created.append(file)
        if let oldName { try retire(oldName) }
        return .blob(SQLiteExternalData.referenceColumn(name))
    }

    /// The file `name` of a value this save replaces: removed after the commit, under the marker.
    private func retire(_ name: String) throws {
        try markPending()
        obsolete.append(directory.appendingPathComponent(name))
    }

    /// A deleted row's column: its file goes after the commit.
    func release(_ old: Data?) {
        guard let old, case .external(let name) = SQLiteExternalData.decode(old) else { return }
        // Best effort: without a marker (the folder is not writable), a crash before the file
        // is removed would leave it for good, as files it can't remove anyway.
        try? markPending()
        obsolete.append(directory.appendingPathComponent(name))
    }

    func didCommit() {
        for file in obsolete { try? FileManager.default.removeItem(at: file) }
        obsolete.removeAll(); created.removeAll()
        removeMarker()
    }

    func didRollBack() {
        for file in created { try? FileManager.default.removeItem(at: file) }
        obsolete.removeAll(); created.removeAll()
        removeMarker()
    }

    private func isFile(_ name: String, holding data: Data) -> Bool {
        let file = directory.appendingPathComponent(name)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber, size.intValue == data.count else { return false }
        return (try? Data(contentsOf: file)) == data
    }
}
