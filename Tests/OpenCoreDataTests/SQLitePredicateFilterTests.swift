import OpenCoreData
import XCTest

/// Counts the objects filled from fetched rows (awakeFromFetch), to see how many rows a fetch read.
final class CountingItem: NSManagedObject {
    final class Counter: @unchecked Sendable {
        // @unchecked Sendable: `value` is guarded by `lock`.
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
        func increment() { lock.lock(); count += 1; lock.unlock() }
        func reset() { lock.lock(); count = 0; lock.unlock() }
    }
    static let fetched = Counter()

    override func awakeFromFetch() {
        super.awakeFromFetch()
        Self.fetched.increment()
    }
}

/// The SQLite store narrows fetches with SQL, and the answer stays exactly the in-memory
/// evaluator's: the same rows, fetched through an in-memory store and a SQLite store, match
/// every predicate alike — nils, canonically equivalent strings, [c]/[d], NOT and OR included.
final class SQLitePredicateFilterTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-filter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private static let base = Date(timeIntervalSinceReferenceDate: 1_000)

    private func model() -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item", className: "OpenCoreDataTests.CountingItem")
        item.properties = [
            NSAttributeDescription(name: "id", type: .integer64AttributeType, isOptional: false, defaultValue: 0),
            NSAttributeDescription(name: "n", type: .integer32AttributeType),
            NSAttributeDescription(name: "d", type: .doubleAttributeType),
            NSAttributeDescription(name: "f", type: .floatAttributeType),
            NSAttributeDescription(name: "flag", type: .booleanAttributeType),
            NSAttributeDescription(name: "date", type: .dateAttributeType),
            NSAttributeDescription(name: "s", type: .stringAttributeType),
        ]
        let m = NSManagedObjectModel()
        m.entities = [item]
        return m
    }

    /// Two contexts on the same 72 rows: one on an in-memory store, one on a SQLite store.
    private func makeStores() throws -> (memory: NSPersistentStoreCoordinator, sqlite: NSPersistentStoreCoordinator) {
        let memory = NSPersistentStoreCoordinator(managedObjectModel: model())
        try memory.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let sqlite = NSPersistentStoreCoordinator(managedObjectModel: model())
        try sqlite.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Items.sqlite"))
        let ns: [Int?] = [nil, -3, 0, 1, 2, 3, 5]
        let ds: [Double?] = [nil, -1.5, 0, 0.5, 2.25]
        let fs: [Float?] = [nil, 0.1, 2]
        let flags: [Bool?] = [nil, true, false]
        let dates: [Date?] = [nil, Self.base, Self.base.addingTimeInterval(100), Self.base.addingTimeInterval(200)]
        let strings: [String?] = [nil, "a", "B", "\u{E9}", "e\u{301}", "Apple", "apple", "APPLE", "ß", "", "b"]
        for coordinator in [memory, sqlite] {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                for i in 0..<72 {
                    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                    item.setValue(i, forKey: "id")
                    item.setValue(ns[i % ns.count], forKey: "n")
                    item.setValue(ds[(i / 2) % ds.count], forKey: "d")
                    item.setValue(fs[(i / 3) % fs.count], forKey: "f")
                    item.setValue(flags[(i / 5) % flags.count], forKey: "flag")
                    item.setValue(dates[(i / 7) % dates.count], forKey: "date")
                    item.setValue(strings[i % strings.count], forKey: "s")
                }
                try context.save()
            }
        }
        return (memory, sqlite)
    }

    /// The ids matching `predicate`, and how many rows the fetch turned into objects.
    private func ids(_ coordinator: NSPersistentStoreCoordinator, _ predicate: OpenCoreData.NSPredicate) throws -> (ids: [Int], materialized: Int) {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = predicate
            CountingItem.fetched.reset()
            let objects = try context.fetch(request)
            return (objects.compactMap { $0.value(forKey: "id") as? Int }.sorted(), CountingItem.fetched.value)
        }
    }

    func testEveryPredicateMatchesTheSameRowsAsInMemory() throws {
        let (memory, sqlite) = try makeStores()
        let later = Self.base.addingTimeInterval(100)
        let cases: [(String, [Any])] = [
            ("n == 3", []),
            ("n != 3", []),
            ("n < 2", []),
            ("n <= 2", []),
            ("n > 2", []),
            ("n >= -1", []),
            ("n == nil", []),
            ("n != nil", []),
            ("n < nil", []),
            ("n == 2.5", []),
            ("n < 2.5", []),
            ("n == '3'", []),
            ("d == 0.5", []),
            ("d != 0", []),
            ("d > 0", []),
            ("d <= -1.5", []),
            ("f == 0.1", []),
            ("f < 1", []),
            ("flag == YES", []),
            ("flag == NO", []),
            ("flag != YES", []),
            ("flag == 1", []),
            ("date > %@", [later as NSDate]),
            ("date == %@", [later as NSDate]),
            ("date != %@", [later as NSDate]),
            ("s == %@", ["\u{E9}"]),
            ("s == %@", ["e\u{301}"]),
            ("s < 'b'", []),
            ("s >= 'a'", []),
            ("s ==[c] 'apple'", []),
            ("s ==[cd] 'E'", []),
            ("s !=[c] 'APPLE'", []),
            ("s > 'B'", []),
            ("s <[c] 'b'", []),
            ("s == ''", []),
            ("s == 3", []),
            ("NOT (n == 3)", []),
            ("NOT (n > 2 AND flag == YES)", []),
            ("n == 3 OR s == 'a'", []),
            ("n == 3 OR s BEGINSWITH 'a'", []),
            ("n > 0 AND s BEGINSWITH 'A'", []),
            ("NOT (s BEGINSWITH 'a')", []),
            ("NOT (n > 0 AND s BEGINSWITH 'A')", []),
            ("TRUEPREDICATE", []),
            ("FALSEPREDICATE", []),
            ("(n > 1 OR d < 1) AND NOT (flag == NO)", []),
            ("n IN {1, 2}", []),
            ("n BETWEEN {1, 3}", []),
            ("3 == n", []),
            ("n == d", []),
        ]
        for (format, arguments) in cases {
            let predicate = OpenCoreData.NSPredicate(format: format, argumentArray: arguments)
            let expected = try ids(memory, predicate).ids
            XCTAssertEqual(try ids(sqlite, predicate).ids, expected, format)
        }
    }

    func testTranslatablePredicatesOnlyLoadTheMatchingRows() throws {
        let (_, sqlite) = try makeStores()
        for format in ["n == 3", "s ==[c] 'apple' AND flag != NO", "NOT (n != nil)", "d > 0 OR n == 5"] {
            let (matches, materialized) = try ids(sqlite, OpenCoreData.NSPredicate(format: format))
            XCTAssertFalse(matches.isEmpty, format)
            XCTAssertEqual(materialized, matches.count, "\(format): rows the predicate excludes are not read")
        }
        // A predicate SQL can't decide reads every row, and the context filters.
        let (matches, materialized) = try ids(sqlite, OpenCoreData.NSPredicate(format: "s BEGINSWITH 'A'"))
        XCTAssertEqual(materialized, 72)
        XCTAssertLessThan(matches.count, 72)
    }
}
