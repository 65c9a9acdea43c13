import Foundation
import OpenCoreData

/// `ocd copy <from> <to> [--model <path> [--version-info <momd>]]`: copies a store into a new
/// one — SQLite to PostgreSQL, PostgreSQL to SQLite, or within one kind — with
/// `migratePersistentStore(_:to:options:type:)`, keeping every object's primary key, so object
/// URIs saved elsewhere still name the same objects.
///
/// ```
/// $ ocd copy Shop.sqlite "postgresql://app@db.internal/shop?schema=tenant1"
/// Copied Shop.sqlite to postgresql://app@db.internal:5432/shop?schema=tenant1
///   Customer      1200 objects
///   Order         5310 objects
///   6510 objects; primary keys kept
/// ```
///
/// A store is a `.sqlite` path or a `postgresql://user@host:port/database[?schema=name]` URL
/// (credentials also from `PGUSER`, `PGPASSWORD`, ...). The source is only read: a SQLite file
/// is copied (with its `-wal` and `-shm`) to a temporary folder and read there. The destination
/// must not hold a store yet: a file that exists, or a database schema with a `Z_METADATA`,
/// is refused (`NSFileWriteFileExistsError`, 516) and left as it is. Without `--model` the
/// model is the one the source keeps (its `Z_MODELCACHE`; for SQLite, else its schema).
/// `ocd` hands commands naming a PostgreSQL store to `ocd-postgresql`.
package enum CopyCommand {
    package static let usage = """
    usage: ocd copy <from> <to> [--model <.xcdatamodeld or .xcdatamodel> [--version-info <.momd>]]
      copies a store into a new one, keeping primary keys; each is a .sqlite path or a
      postgresql://user@host:port/database[?schema=name] URL. The destination must not hold a store.
    """

    /// Returns the exit status: 0 when copied, 1 when a store can't be read or written (a copy
    /// that fails part way is destroyed), 2 for wrong arguments.
    package static func run(_ arguments: [String]) -> Int32 {
        var locations: [String] = []
        var modelPath: String?
        var versionInfo: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--model": modelPath = rest.popFirst()
            case "--version-info": versionInfo = rest.popFirst()
            default:
                guard !argument.hasPrefix("--"), locations.count < 2 else {
                    printToolError("ocd copy: unexpected argument '\(argument)'\n\(usage)")
                    return 2
                }
                locations.append(argument)
            }
        }
        guard locations.count == 2 else {
            printToolError(usage)
            return 2
        }
        if locations.contains(where: PostgreSQLInspection.isStoreURL), !PostgreSQLInspection.isAvailable {
            return SiblingProgram.runPostgreSQLTool(["copy"] + arguments, by: "ocd copy")
        }
        do {
            let from = try StoreLocation(locations[0])
            let to = try StoreLocation(locations[1])
            print(try copy(from: from, to: to, modelPath: modelPath, versionInfo: versionInfo), terminator: "")
            return 0
        } catch {
            printToolError("ocd copy: \(error.localizedDescription)")
            return 1
        }
    }

    /// A store named on the command line.
    enum StoreLocation {
        case sqlite(path: String)
        case postgreSQL(URL)

        init(_ argument: String) throws {
            if PostgreSQLInspection.isStoreURL(argument) {
                // Not echoed: it may hold a password.
                guard let url = URL(string: argument) else { throw ToolError.openError("A postgresql:// argument is not a valid URL. Write postgresql://user@host:port/database.") }
                self = .postgreSQL(url)
            } else {
                self = .sqlite(path: argument)
            }
        }

        var name: String {
            switch self {
            case .sqlite(let path): path
            case .postgreSQL(let url): PostgreSQLInspection.described(url)
            }
        }
    }

    static func copy(from: StoreLocation, to: StoreLocation, modelPath: String?, versionInfo: String?) throws -> String {
        // The destination first: nothing is read when it can't be written.
        let destination: (url: URL, type: String)
        switch to {
        case .sqlite(let path):
            if let existing = ["", "-wal", "-shm"].first(where: { FileManager.default.fileExists(atPath: path + $0) }) {
                throw ToolError.make(NSFileWriteFileExistsError, "\(path + existing) exists: ocd copy writes a new store. Remove it or name another file.")
            }
            destination = (URL(fileURLWithPath: path), NSSQLiteStoreType)
        case .postgreSQL(let url):
            let holdsStore = try PostgreSQLInspection.read(at: url) { try $0.holdsStore() }
            if holdsStore {
                throw ToolError.make(NSFileWriteFileExistsError, "\(to.name) already holds a store: ocd copy writes a new store. Destroy it first, or name another schema (?schema=name).")
            }
            destination = (url, PostgreSQLInspection.storeType)
        }

        switch from {
        case .sqlite(let path):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw ToolError.make(NSFileReadNoSuchFileError, "There is no store file at '\(path)'. Pass the path of a Core Data .sqlite file or a postgresql:// URL.")
            }
            let (folder, copyURL) = try InspectCommand.temporaryCopy(of: path)
            defer { try? FileManager.default.removeItem(at: folder) }
            do {
                let model = try modelPath.map { try InspectCommand.load($0, versionInfo: versionInfo).0 } ?? NSManagedObjectModel.recovered(fromSQLiteStoreAt: copyURL)
                let counts = try copy(from: (copyURL, NSSQLiteStoreType), to: destination, model: model)
                return report(from: from, to: to, counts: counts)
            } catch let error as NSError {
                throw InspectCommand.naming(path, insteadOf: copyURL, in: error)
            }
        case .postgreSQL(let url):
            let recovered = try PostgreSQLInspection.read(at: url) { db in
                _ = try db.metadata()  // 260 when there is no store
                return modelPath == nil ? try db.recoveredModel() : nil
            }
            let model = try recovered ?? InspectCommand.load(modelPath!, versionInfo: versionInfo).0
            let counts = try copy(from: (url, PostgreSQLInspection.storeType), to: destination, model: model)
            return report(from: from, to: to, counts: counts)
        }
    }

    /// Copies the store at `source` into a new store at `destination` with
    /// `migratePersistentStore`; returns how many objects the new store holds, by root entity.
    /// A copy that fails is destroyed (the destination held no store before: ``copy(from:to:modelPath:versionInfo:)``
    /// checked), so that it can be run again.
    private static func copy(from source: (url: URL, type: String), to destination: (url: URL, type: String), model: NSManagedObjectModel) throws -> [(String, Int)] {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: source.type, configurationName: nil, at: source.url,
                                                       options: [NSReadOnlyPersistentStoreOption: true])
        let copied: NSPersistentStore
        do {
            copied = try coordinator.migratePersistentStore(store, to: destination.url, options: nil, withType: destination.type)
        } catch {
            // The store is added (its tables made) before its rows are saved.
            try? NSPersistentStoreCoordinator(managedObjectModel: model).destroyPersistentStore(at: destination.url, ofType: destination.type, options: nil)
            throw error
        }
        defer { try? coordinator.remove(copied) }
        return try objectCounts(in: copied, of: coordinator)
    }

    private static func report(from: StoreLocation, to: StoreLocation, counts: [(String, Int)]) -> String {
        var out = "Copied \(from.name) to \(to.name)\n"
        let width = max(12, (counts.map(\.0.count).max() ?? 0) + 2)
        for (entity, count) in counts { out += "  " + entity.padding(toLength: width, withPad: " ", startingAt: 0) + "\(count) objects\n" }
        out += "  \(counts.reduce(0) { $0 + $1.1 }) objects; primary keys kept\n"
        return out
    }

    /// How many objects of each root entity (with its subentities') `store` holds, by name.
    private static func objectCounts(in store: NSPersistentStore, of coordinator: NSPersistentStoreCoordinator) throws -> [(String, Int)] {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            try coordinator.managedObjectModel.entities.filter { $0.superentity == nil }
                .compactMap(\.name).sorted().map { name in
                    let request = NSFetchRequest<NSFetchRequestResult>(entityName: name)
                    request.affectedStores = [store]
                    return (name, try context.count(for: request))
                }
        }
    }
}
