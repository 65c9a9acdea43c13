import Foundation
import OpenCoreData

/// `ocd inspect <store.sqlite | postgresql://...> [--model <path> [--version-info <momd>]]`:
/// prints what a Core Data store holds — its metadata, its entities with row counts, and each
/// table's columns — whether or not you have its model.
///
/// ```
/// $ ocd inspect netusage.sqlite
/// Store netusage.sqlite
///   UUID                79881A94-1EBD-477B-AD20-E58FE334DE92
///   type                SQLite
///   framework version   1044
///   model identifiers   ["8"]
///   model version hashes (18):
///     App                      TujNzGi51XR1IPdjJOo39jYTs9cME70xoxoZmEraq0I=
///     ...
///   model               recovered from the store (how: see Notes)
/// Entities (18)
///   App  ← Process  Z_ENT 16  table ZPROCESS  75 rows
///   ...
/// Tables (17)
///   ZPROCESS  260 rows  Z_MAX 282
///     Z_PK INTEGER, Z_ENT INTEGER, ...
/// ```
///
/// The store is copied (with its `-wal` and `-shm`) to a temporary folder and opened there
/// read-only, so inspecting never changes the file, not even by checkpointing its WAL.
/// Without `--model` the entities come from `NSManagedObjectModel.recovered(fromSQLiteStoreAt:)`
/// (the store's `Z_MODELCACHE`, else its schema).
///
/// A PostgreSQL store (`postgresql://user@host:port/database[?schema=name]`) is read over one
/// connection, without adding the store (nothing is created where there is no store); its
/// model comes from its `Z_MODELCACHE`. `ocd` hands such URLs to `ocd-postgresql`.
package enum InspectCommand {
    package static let usage = "usage: ocd inspect <store.sqlite | postgresql://user@host:port/database[?schema=name]> [--model <.xcdatamodeld or .xcdatamodel> [--version-info <.momd>]]"

    /// Returns the exit status: 0 when the store was read, 1 when the path is not a readable
    /// Core Data store (or the model doesn't fit it), 2 for wrong arguments.
    package static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var modelPath: String?
        var versionInfo: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--model": modelPath = rest.popFirst()
            case "--version-info": versionInfo = rest.popFirst()
            default:
                if path != nil || argument.hasPrefix("--") {
                    printToolError("ocd inspect: unexpected argument '\(argument)'\n\(usage)")
                    return 2
                }
                path = argument
            }
        }
        guard let path else {
            printToolError(usage)
            return 2
        }
        if PostgreSQLInspection.isStoreURL(path) {
            guard PostgreSQLInspection.isAvailable else { return SiblingProgram.runPostgreSQLTool(["inspect"] + arguments, by: "ocd inspect") }
            do {
                // Not echoed: it may hold a password.
                guard let url = URL(string: path) else { throw ToolError.openError("The postgresql:// argument is not a valid URL. Write postgresql://user@host:port/database.") }
                print(try postgreSQLReport(url: url, modelPath: modelPath, versionInfo: versionInfo), terminator: "")
                return 0
            } catch {
                printToolError("ocd inspect: cannot read the PostgreSQL store: \(error.localizedDescription)")
                return 1
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            printToolError("ocd inspect: no store file at '\(path)'. Pass the path of a Core Data .sqlite file or a postgresql:// URL.")
            return 1
        }
        do {
            print(try report(path: path, modelPath: modelPath, versionInfo: versionInfo), terminator: "")
            return 0
        } catch {
            printToolError("ocd inspect: cannot read '\(path)': \(error.localizedDescription)")
            return 1
        }
    }

    /// Copies the store and its `-wal`/`-shm` into a fresh temporary folder.
    package static func temporaryCopy(of path: String) throws -> (URL, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
        do {
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy.path + suffix)
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        return (directory, copy)
    }

    static func report(path: String, modelPath: String?, versionInfo: String?) throws -> String {
        let (directory, url) = try temporaryCopy(of: path)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            return try report(path: path, copy: url, modelPath: modelPath, versionInfo: versionInfo)
        } catch let error as NSError {
            throw naming(path, insteadOf: url, in: error)
        }
    }

    /// `error` with the user's `path` where it names `copy`, the temporary copy read instead.
    static func naming(_ path: String, insteadOf copy: URL, in error: NSError) -> NSError {
        var info = error.userInfo
        info[NSLocalizedDescriptionKey] = error.localizedDescription.replacingOccurrences(of: copy.path, with: path)
        if info[NSFilePathErrorKey] as? String == copy.path { info[NSFilePathErrorKey] = path }
        return NSError(domain: error.domain, code: error.code, userInfo: info)
    }

    private static func report(path: String, copy url: URL, modelPath: String?, versionInfo: String?) throws -> String {
        let model: NSManagedObjectModel
        let modelDescription: String
        if let modelPath {
            (model, modelDescription) = try load(modelPath, versionInfo: versionInfo)
        } else {
            model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url)
            modelDescription = "recovered from the store" + (model.loadingWarnings.isEmpty ? "" : " (how: see Notes)")
        }
        // Opened read-only, which also checks that the model fits the store.
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
                                                       options: [NSReadOnlyPersistentStoreOption: true])
        defer { try? coordinator.remove(store) }
        return try report(name: path, metadata: store.metadata ?? [:], model: model, modelDescription: modelDescription, tables: SQLiteTables(path: url.path))
    }

    /// The report of the PostgreSQL store at `url`, read over one connection.
    static func postgreSQLReport(url: URL, modelPath: String?, versionInfo: String?) throws -> String {
        try PostgreSQLInspection.read(at: url) { db in
            let metadata = try db.metadata()
            let model: NSManagedObjectModel
            let modelDescription: String
            if let modelPath {
                (model, modelDescription) = try load(modelPath, versionInfo: versionInfo)
                guard model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else {
                    throw ToolError.make(NSPersistentStoreIncompatibleVersionHashError, "The model \(modelPath) is not the one the store was made with (their entity version hashes differ).")
                }
            } else {
                model = try db.recoveredModel()
                modelDescription = "recovered from the store's Z_MODELCACHE"
            }
            return try report(name: PostgreSQLInspection.described(url), metadata: metadata, model: model, modelDescription: modelDescription, tables: db)
        }
    }

    /// The model at `modelPath` and how the report names it.
    static func load(_ modelPath: String, versionInfo: String?) throws -> (NSManagedObjectModel, String) {
        let model = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: modelPath), versionInfo: versionInfo.map { URL(fileURLWithPath: $0) })
        return (model, modelPath + (model.xcodeVersionName.map { " (version \"\($0)\")" } ?? ""))
    }

    /// `name` as a quoted SQL identifier (both databases quote alike).
    private static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The report itself, from the store's tables in either database: the SQL below is what
    /// SQLite and PostgreSQL both read (identifiers quoted, as PostgreSQL keeps their case).
    private static func report(name: String, metadata: [String: Any], model: NSManagedObjectModel, modelDescription: String, tables db: some InspectedTables) throws -> String {
        var out = "Store \(name)\n"
        func field(_ name: String, _ value: String) { out += "  " + name.padding(toLength: 20, withPad: " ", startingAt: 0) + value + "\n" }
        field("UUID", metadata[NSStoreUUIDKey] as? String ?? "?")
        field("type", metadata[NSStoreTypeKey] as? String ?? "?")
        field("framework version", metadata["NSPersistenceFrameworkVersion"].map { "\($0)" } ?? "absent")
        field("model identifiers", "[" + ((metadata[NSStoreModelVersionIdentifiersKey] as? [Any]) ?? []).map { "\"\($0)\"" }.joined(separator: ", ") + "]")
        let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        out += "  model version hashes (\(hashes.count)):\n"
        for name in hashes.keys.sorted() { out += "    \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(hashes[name]!.base64EncodedString())\n" }
        let other = metadata.keys.filter { ![NSStoreUUIDKey, NSStoreTypeKey, "NSPersistenceFrameworkVersion", NSStoreModelVersionIdentifiersKey, NSStoreModelVersionHashesKey].contains($0) }.sorted()
        if !other.isEmpty { field("other keys", other.joined(separator: ", ")) }
        field("model", modelDescription)

        // Entities with their rows (including subentities', as a fetch counts them).
        let entities = model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }
        let numbers = Dictionary(try db.rows("SELECT \"Z_NAME\", \"Z_ENT\" FROM \"Z_PRIMARYKEY\"", []).compactMap { row in
            row[0].flatMap { name in row[1].flatMap { Int($0) }.map { (name, $0) } }
        }, uniquingKeysWith: { a, _ in a })
        func number(_ e: NSEntityDescription) -> Int? { numbers[e.name ?? ""] ?? e.renamingIdentifier.flatMap { numbers[$0] } }
        // Counted in SQL (Z_ENT of the entity and its subentities), as a fetch would count
        // them, without materializing every row.
        var counts: [String: Int] = [:]
        for e in entities {
            var members = [e], i = 0
            while i < members.count { members += members[i].subentities; i += 1 }
            var root = e
            while let parent = root.superentity { root = parent }
            let list = members.compactMap(number).map(String.init).joined(separator: ", ")
            guard !list.isEmpty, let name = e.name else { continue }
            // `try?`: a hostile or damaged store can name an entity whose table is missing.
            counts[name] = (try? db.rows("SELECT COUNT(*) FROM \(quoted("Z" + (root.name ?? "").uppercased())) WHERE \"Z_ENT\" IN (\(list))", []))?.first?.first?.flatMap { Int($0) }
        }
        out += "Entities (\(entities.count))\n"
        for e in entities {
            let name = e.name ?? "?"
            var line = "  \(name)"
            if let parent = e.superentity?.name { line += "  ← \(parent)" }
            if let n = number(e) { line += "  Z_ENT \(n)" }
            var root = e
            while let parent = root.superentity { root = parent }
            line += "  table Z\((root.name ?? "").uppercased())  \(counts[name] ?? 0) rows"
            out += line + "\n"
            let attributes = e.properties.compactMap { $0 as? NSAttributeDescription }.map(\.name).sorted()
            let relationships = e.properties.compactMap { $0 as? NSRelationshipDescription }
                .map { "\($0.name) → \($0.destinationEntity?.name ?? "?")\($0.isToMany ? " (to-many\($0.isOrdered ? ", ordered" : ""))" : "")" }.sorted()
            if !attributes.isEmpty { out += "    attributes: \(attributes.joined(separator: ", "))\n" }
            if !relationships.isEmpty { out += "    relationships: \(relationships.joined(separator: ", "))\n" }
        }

        // Every table as the database sees it, bookkeeping and history tables included.
        let maxByTable = Dictionary(try db.rows("SELECT 'Z' || upper(\"Z_NAME\"), \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_SUPER\" = 0", []).compactMap { row in
            row[0].flatMap { t in row[1].map { (t, $0) } }
        }, uniquingKeysWith: { a, _ in a })
        let tables = try db.tableNames()
        out += "Tables (\(tables.count))\n"
        for table in tables {
            let rows = try db.rows("SELECT COUNT(*) FROM \(quoted(table))", []).first?.first ?? nil
            out += "  \(table)  \(rows ?? "?") rows" + (maxByTable[table].map { "  Z_MAX \($0)" } ?? "") + "\n"
            out += "    " + (try db.columns(of: table)).map { "\($0.name) \($0.type)" }.joined(separator: ", ") + "\n"
        }
        if !model.loadingWarnings.isEmpty {
            out += "Notes (\(model.loadingWarnings.count))\n"
            for warning in model.loadingWarnings { out += "  \(warning)\n" }
        }
        return out
    }
}

/// What ``InspectCommand`` reads a store's tables with: SQLite's file or a PostgreSQL connection.
protocol InspectedTables {
    /// The rows of `sql` as text (NULL as nil).
    func rows(_ sql: String, _ bindings: [String]) throws -> [[String?]]
    /// Every table, by name.
    func tableNames() throws -> [String]
    /// `table`'s columns and their types, in table order.
    func columns(of table: String) throws -> [(name: String, type: String)]
}

extension PostgreSQLInspection: InspectedTables {}

/// A SQLite store file's tables, read with ``SQLiteInspector``.
struct SQLiteTables: InspectedTables {
    let path: String

    func rows(_ sql: String, _ bindings: [String]) throws -> [[String?]] {
        try SQLiteInspector.rows(at: path, sql, bindings)
    }

    func tableNames() throws -> [String] {
        try rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", []).compactMap { $0[0] }
    }

    func columns(of table: String) throws -> [(name: String, type: String)] {
        try rows("SELECT name, type FROM pragma_table_info(?)", [table]).map { ($0[0] ?? "?", $0[1] ?? "") }
    }
}
