@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The fuzz targets of docs/RELIABILITY.md, run by ``FuzzRunner`` on committed seeds
/// (`FuzzCorpus/`), seeds made here and Apple's files from the fixtures. Whatever the input:
/// an error or a result, never a crash, a hang or a wrong answer where one can be checked.
final class FuzzTests: XCTestCase {
    private let words = ["AND", " OR ", "NOT ", "ANY ", "ALL ", "IN ", "BETWEEN", "SUBQUERY(", "FUNCTION(", "CAST(", "$x", "%@", "%K",
                         "#", "@count", "@sum.", "[cd]", "{", "}", "(", ")", "'", "\"", "\\", "==", "!=", "<=", ":=", "**", "nil", "SELF",
                         "TRUEPREDICATE", "1e308", "-0", "0x", "[FIRST]", "[SIZE]", ".", ",", ";", "\u{0}", "é", "😀"].map { Data($0.utf8) }

    /// Parse, print, parse: a predicate that parses prints a format that parses back to an
    /// equal predicate with the same printed form.
    func testPredicateParsePrintParseIsIdentity() throws {
        var runner = try FuzzRunner(target: "predicate")
        runner.dictionary = words
        var parsed = 0
        runner.run { input in
            let format = String(decoding: input, as: UTF8.self)
            guard let predicate = try? NSPredicate(validatingFormat: format, argumentArray: ["v", "key", 1]) else { return }
            parsed += 1
            let printed = predicate.predicateFormat
            guard let again = try? NSPredicate(validatingFormat: printed, argumentArray: []) else {
                XCTFail("the printed form does not parse: \(printed.debugDescription), from \(format.debugDescription)")
                return
            }
            XCTAssertEqual(again.predicateFormat, printed, "from \(format.debugDescription)")
            XCTAssertEqual(again, predicate, "\(printed.debugDescription) from \(format.debugDescription)")
        }
        XCTAssertGreaterThan(parsed, 20, "mutations must leave some formats valid")
    }

    /// Xcode model files (`contents`): loaded or refused, then validated and used for a store.
    func testXcodeModelLoaderNeverCrashes() throws {
        var runner = try FuzzRunner(target: "xcode-model")
        runner.dictionary = ["<", ">", "/>", "\"", "=", "&amp;", "&#0;", "YES", "NO", "-1", "99999999999999999999", "<entity name=\"A\">", "</entity>",
                             "parentEntity=\"Employee\" ", "destinationEntity=\"Manager\" ", "inverseName=\"x\" ", "toMany=\"YES\" ",
                             "attributeType=\"Transformable\" ", "predicateString=\"%@ == $x\" ", "<![CDATA[", "]]>", "<!DOCTYPE x>"].map { Data($0.utf8) }
        let folder = try makeTemporaryDirectory("ocd-fuzz-model").appendingPathComponent("Fuzz.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var loaded = 0
        try runner.run { input in
            try input.write(to: folder.appendingPathComponent("contents"))
            guard let model = try? NSManagedObjectModel.load(contentsOf: folder) else { return }
            loaded += 1
            _ = model.validationProblems()
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            _ = try? coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        }
        XCTAssertGreaterThan(loaded, 10)
    }

    /// Keyed archives of models: Apple's compiled `.mom` files and the inflated `Z_MODELCACHE`
    /// of Apple's stores (the same format), decoded or refused; and `VersionInfo.plist`s.
    func testCompiledModelDecodersNeverCrash() throws {
        let fixtures = try appleStores().deletingLastPathComponent()
        let all = FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var archives = try all.filter { $0.pathExtension == "mom" }.map { try Data(contentsOf: $0) }
        for store in all where store.pathExtension == "sqlite" {
            let copy = try copyAppleStore(String(store.path.dropFirst(try appleStores().path.count + 1)))
            let db = try SQLiteConnection(path: copy.path, readOnly: true)
            defer { db.close() }
            guard try db.tableNames().contains("Z_MODELCACHE") else { continue }
            for case let blob? in try db.query("SELECT Z_CONTENT FROM Z_MODELCACHE", [], { $0.blob(at: 0) }) {
                archives.append(try SQLiteModelCache.inflate(blob))
            }
        }
        XCTAssertGreaterThan(archives.count, 5)
        archives.append(placesModelArchive())  // composite attributes, subqueries, every flag
        var decoded = 0
        try FuzzRunner(target: "model-archive", seeds: archives).run { input in
            guard let model = try? SQLiteModelCache.model(fromArchive: input) else { return }
            decoded += 1
            _ = model.validationProblems()
        }
        XCTAssertGreaterThan(decoded, 5)

        let infos = try all.filter { $0.lastPathComponent == "VersionInfo.plist" }.map { try Data(contentsOf: $0) }
        let file = try makeTemporaryDirectory("ocd-fuzz-info").appendingPathComponent("VersionInfo.plist")
        try FuzzRunner(target: "version-info", seeds: infos).run { input in
            try input.write(to: file)
            if let info = try? CompiledModelVersionInfo(contentsOf: file) { _ = info.entityVersionHashes(forVersion: nil) }
        }
    }

    /// Store files with damaged bytes: opened or refused; what opens is fetched, counted and
    /// recovered from (its schema and `Z_MODELCACHE`) without a crash.
    func testDamagedStoreFilesNeverCrashTheOpenOrTheFetch() throws {
        let store = try TemporaryCompanyStore()
        try store.seed((0..<60).map { ("Employee \($0)", Int64($0 * 100), $0 % 3 == 0 ? nil : "Last \($0)") })
        let seed = try Data(contentsOf: store.url)
        let folder = try makeTemporaryDirectory("ocd-fuzz-store")
        let url = folder.appendingPathComponent("Fuzz.sqlite")
        var opened = 0
        try FuzzRunner(target: "store-file", seeds: [seed]).run { input in
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            try input.write(to: url)
            _ = try? NSManagedObjectModel.recovered(fromSQLiteStoreAt: url)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: store.model)
            guard let added = try? coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url) else { return }
            opened += 1
            let context = newContext(coordinator)
            context.performAndWait {
                if let employees = try? context.fetch(NSFetchRequest<Employee>(entityName: "Employee")) {
                    for e in employees { _ = (e.firstName, e.salary, e.lastName, e.department?.name) }
                }
                _ = try? context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Department"))
            }
            try? coordinator.remove(added)
        }
        XCTAssertGreaterThan(opened, 10)
    }
}
