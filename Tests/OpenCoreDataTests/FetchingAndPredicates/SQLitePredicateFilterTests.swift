import OpenCoreData
import OpenCoreDataTestSupport
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
        directory = try makeTemporaryDirectory("ocd-filter")
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
            // String operators (ocd_match), every option, nil and canonically equivalent forms.
            ("s BEGINSWITH 'A'", []),
            ("s BEGINSWITH[c] 'ap'", []),
            ("s BEGINSWITH[cd] 'E'", []),
            ("s BEGINSWITH[n] 'A'", []),
            ("s BEGINSWITH %@", ["e\u{301}"]),
            ("s BEGINSWITH ''", []),
            ("s BEGINSWITH nil", []),
            ("s ENDSWITH 'le'", []),
            ("s ENDSWITH[c] 'LE'", []),
            ("s ENDSWITH[d] 'e'", []),
            ("s CONTAINS 'pp'", []),
            ("s CONTAINS[c] 'PP'", []),
            ("s CONTAINS[cd] 'SS'", []),
            ("s CONTAINS ''", []),
            ("s CONTAINS nil", []),
            ("s LIKE 'a*'", []),
            ("s LIKE[c] '?PPLE'", []),
            ("s LIKE[cd] 'e'", []),
            ("s LIKE '*'", []),
            ("s LIKE[n] '\\*'", []),
            ("s MATCHES '[a-z]+'", []),
            ("s MATCHES[c] 'a.*'", []),
            ("s MATCHES[d] 'e'", []),
            ("s MATCHES[cd] '.'", []),
            ("s MATCHES nil", []),
            ("NOT (s CONTAINS[c] 'a')", []),
            ("NOT (s LIKE 'a*') AND n > 0", []),
            ("s BEGINSWITH[c] 'a' OR s ENDSWITH 'e'", []),
            // Float attributes stay in memory: AND narrows by the other part, OR and NOT keep all.
            ("n == 3 OR f > 0.5", []),
            ("n > 0 AND f > 0.5", []),
            ("NOT (f > 0.5)", []),
            ("NOT (n > 0 AND f > 0.5)", []),
            ("TRUEPREDICATE", []),
            ("FALSEPREDICATE", []),
            ("(n > 1 OR d < 1) AND NOT (flag == NO)", []),
            ("n IN {1, 2}", []),
            ("n IN {1, nil}", []),
            ("n IN {}", []),
            ("n IN {2.5, 3}", []),
            ("s IN {'a', 'B', 'e\u{301}'}", []),
            ("s IN[c] {'apple', 'b'}", []),
            ("s IN 'Apples'", []),
            ("NOT (n IN {0, 1})", []),
            ("n BETWEEN {1, 3}", []),
            ("n BETWEEN {nil, 3}", []),
            ("d BETWEEN {0, 1}", []),
            ("s BETWEEN {'a', 'b'}", []),
            ("date BETWEEN %@", [[Self.base as NSDate, later as NSDate]]),
            ("d == 0", []),
            ("d < 1", []),
            ("n != 2.5", []),
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
        for format in ["n == 3", "s ==[c] 'apple' AND flag != NO", "NOT (n != nil)", "d > 0 OR n == 5",
                       "s BEGINSWITH[c] 'a'", "s LIKE[cd] 'e'", "s MATCHES '[A-Z].*'", "NOT (s CONTAINS[c] 'X') AND s ENDSWITH 'e'"] {
            let (matches, materialized) = try ids(sqlite, OpenCoreData.NSPredicate(format: format))
            XCTAssertFalse(matches.isEmpty, format)
            XCTAssertEqual(materialized, matches.count, "\(format): rows the predicate excludes are not read")
        }
        // An untranslated part that cannot fail (a Float compared) does not stop the narrowing;
        // one that can (a key path through an attribute: an unknown key throws) does.
        let three = try ids(sqlite, OpenCoreData.NSPredicate(format: "n == 3")).ids.count
        XCTAssertEqual(try ids(sqlite, OpenCoreData.NSPredicate(format: "f > 0.05 AND n == 3")).materialized, three)
        XCTAssertEqual(try ids(sqlite, OpenCoreData.NSPredicate(format: "s.length > 0 AND n == 3")).materialized, 72)
        XCTAssertEqual(try ids(sqlite, OpenCoreData.NSPredicate(format: "n == 3 AND s.length > 0")).materialized, three)
        // A predicate SQL can't decide (a Float attribute) reads every row, and the context filters.
        let (matches, materialized) = try ids(sqlite, OpenCoreData.NSPredicate(format: "f > 0.5"))
        XCTAssertEqual(materialized, 72)
        XCTAssertLessThan(matches.count, 72)
    }

    /// An invalid MATCHES pattern is left to the evaluator, which throws; SQL must not answer.
    func testAnInvalidRegularExpressionThrowsLikeInMemory() throws {
        let (memory, sqlite) = try makeStores()
        let predicate = OpenCoreData.NSPredicate(format: "s MATCHES '('")
        XCTAssertThrowsError(try ids(memory, predicate))
        XCTAssertThrowsError(try ids(sqlite, predicate)) { error in
            XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
        }
    }

    // MARK: Sorted, limited and counted in SQL

    /// The ordered ids of a fetch, the count the context reports for it (count(for:) and a
    /// count result), and how many rows became objects.
    private func fetch(_ context: NSManagedObjectContext, _ predicate: OpenCoreData.NSPredicate?, _ sorts: [OpenCoreData.NSSortDescriptor],
                       limit: Int, offset: Int) throws -> (ids: [Int], count: Int, countResult: Int, materialized: Int) {
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = predicate
            request.sortDescriptors = sorts
            request.fetchLimit = limit
            request.fetchOffset = offset
            CountingItem.fetched.reset()
            let objects = try context.fetch(request)
            let ids = objects.map { $0.value(forKey: "id") as! Int }
            let materialized = CountingItem.fetched.value
            let countRequest = NSFetchRequest<NSNumber>(entityName: "Item")
            countRequest.predicate = predicate
            countRequest.fetchLimit = limit
            countRequest.fetchOffset = offset
            countRequest.resultType = .countResultType
            let countResult = try context.fetch(countRequest).first?.intValue ?? -1
            return (ids, try context.count(for: request), countResult, materialized)
        }
    }

    private static let sortCases: [(String, [OpenCoreData.NSSortDescriptor])] = [
        ("none", []),
        ("n", [NSSortDescriptor(key: "n", ascending: true)]),
        ("n desc", [NSSortDescriptor(key: "n", ascending: false)]),
        ("s", [NSSortDescriptor(key: "s", ascending: true)]),
        ("s desc", [NSSortDescriptor(key: "s", ascending: false)]),
        ("s ci", [NSSortDescriptor(key: "s", ascending: true, selector: Selector("caseInsensitiveCompare:"))]),
        ("s ci desc, id desc", [NSSortDescriptor(key: "s", ascending: false, selector: Selector("caseInsensitiveCompare:")), NSSortDescriptor(key: "id", ascending: false)]),
        ("d, n desc", [NSSortDescriptor(key: "d", ascending: true), NSSortDescriptor(key: "n", ascending: false)]),
        ("date desc, s", [NSSortDescriptor(key: "date", ascending: false), NSSortDescriptor(key: "s", ascending: true)]),
        ("flag, d desc", [NSSortDescriptor(key: "flag", ascending: true), NSSortDescriptor(key: "d", ascending: false)]),
        // Not translated (Float, localized, comparator): sorted in memory, same answer.
        ("f", [NSSortDescriptor(key: "f", ascending: true)]),
        ("s localizedStandard", [NSSortDescriptor(key: "s", ascending: true, selector: Selector("localizedStandardCompare:"))]),
        ("comparator", [NSSortDescriptor(key: "n", ascending: false) { a, b in
            let x = (a as? NSNumber)?.intValue ?? 0, y = (b as? NSNumber)?.intValue ?? 0
            return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
        }]),
    ]

    private static let limitCases: [(limit: Int, offset: Int)] = [(0, 0), (5, 0), (5, 3), (0, 10), (100, 70), (7, 100)]

    private static let sortedPredicates: [String?] = [nil, "n > 0", "s ==[c] 'apple' OR d < 1", "n IN {1, 2, nil}", "s BEGINSWITH 'a'", "f > 0.5", "NOT (flag == YES)"]

    /// Two comparisons per request. Against the in-memory store, with `id` appended as a last
    /// sort key: that store returns rows in hash order, so only a total order is comparable.
    /// Against the same SQLite store with `AND id == id` appended, which SQL does not translate
    /// (key path against key path), so the context filters, sorts (stable, from the store's
    /// `Z_PK` order) and limits in memory: the order of ties must be the same too.
    private func assertSameSortedAnswers(_ memory: NSManagedObjectContext, _ sqlite: NSManagedObjectContext, _ label: String) throws {
        let byID = NSSortDescriptor(key: "id", ascending: true)
        for format in Self.sortedPredicates {
            let predicate = format.map { OpenCoreData.NSPredicate(format: $0) }
            let inMemory = OpenCoreData.NSPredicate(format: format.map { "(\($0)) AND id == id" } ?? "id == id")
            for (name, sorts) in Self.sortCases {
                for (limit, offset) in Self.limitCases {
                    let what = "\(label): \(format ?? "no predicate"), sort \(name), limit \(limit), offset \(offset)"
                    let expected = try fetch(memory, predicate, sorts + [byID], limit: limit, offset: offset)
                    let actual = try fetch(sqlite, predicate, sorts + [byID], limit: limit, offset: offset)
                    XCTAssertEqual(actual.ids, expected.ids, what)
                    XCTAssertEqual(actual.count, expected.ids.count, "count(for:) " + what)
                    XCTAssertEqual(actual.countResult, expected.ids.count, "countResultType " + what)
                    XCTAssertEqual(expected.count, expected.ids.count, "in-memory count(for:) " + what)

                    let evaluated = try fetch(sqlite, inMemory, sorts, limit: limit, offset: offset)
                    let translated = try fetch(sqlite, predicate, sorts, limit: limit, offset: offset)
                    if sorts.isEmpty && limit == 0 && offset == 0 {
                        // Unsorted and unlimited: any order (SQLite may follow an index).
                        XCTAssertEqual(translated.ids.sorted(), evaluated.ids.sorted(), what)
                    } else {
                        XCTAssertEqual(translated.ids, evaluated.ids, "ties: " + what)
                    }
                    XCTAssertEqual(translated.count, evaluated.ids.count, "ties, count(for:) " + what)
                }
            }
        }
    }

    func testSortedLimitedFetchesAndCountsMatchInMemory() throws {
        let (memory, sqlite) = try makeStores()
        let memoryContext = newContext(memory), sqliteContext = newContext(sqlite)
        try assertSameSortedAnswers(memoryContext, sqliteContext, "saved")

        // Unsaved changes: the context corrects the store's answer the same way in both.
        for c in [memoryContext, sqliteContext] {
            try c.performAndWait {
                let all = try c.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
                let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.value(forKey: "id") as! Int, $0) })
                byID[4]!.setValue(99, forKey: "n")
                byID[5]!.setValue("aardvark", forKey: "s")
                byID[6]!.setValue(nil, forKey: "n")
                c.delete(byID[2]!)
                c.delete(byID[13]!)
                let new = NSEntityDescription.insertNewObject(forEntityName: "Item", into: c)
                new.setValue(1000, forKey: "id")
                new.setValue(2, forKey: "n")
                new.setValue("Apple", forKey: "s")
                new.setValue(0.25, forKey: "d")
            }
        }
        try assertSameSortedAnswers(memoryContext, sqliteContext, "pending changes")
    }

    func testTheStoreSortsAndLimitsInSQL() throws {
        let (_, sqlite) = try makeStores()
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = sqlite
        let sorts = [NSSortDescriptor(key: "s", ascending: false), NSSortDescriptor(key: "id", ascending: true)]
        let result = try fetch(context, OpenCoreData.NSPredicate(format: "n != nil"), sorts, limit: 5, offset: 3)
        XCTAssertEqual(result.ids.count, 5)
        XCTAssertEqual(result.materialized, 5, "only the rows of the page become objects")
        XCTAssertEqual(result.count, 5)
        // Not translatable (a Float attribute): every row is read and the context sorts and limits.
        let inMemory = try fetch(context, OpenCoreData.NSPredicate(format: "f > 0.5"), sorts, limit: 1, offset: 0)
        XCTAssertEqual(inMemory.ids.count, 1)
        XCTAssertEqual(inMemory.materialized, 72)
    }

    /// NumericValue compares an integer with a Double as Doubles (2^53 + 1 rounds to 2^53);
    /// SQL must not compare exactly there, or it would answer differently.
    func testIntegersAgainstDoublesCompareAsDoublesLikeTheEvaluator() throws {
        let (memory, sqlite) = try makeStores()
        let big = 9_007_199_254_740_993  // 2^53 + 1
        for coordinator in [memory, sqlite] {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue(big, forKey: "id")
                try context.save()
            }
        }
        for format in ["id == %@", "id >= %@", "id < %@", "id != %@", "id IN {%@}", "id BETWEEN {%@, %@}"] {
            let twoTo53 = NSNumber(value: 9_007_199_254_740_992.0)
            let predicate = OpenCoreData.NSPredicate(format: format, argumentArray: [twoTo53, twoTo53])
            XCTAssertEqual(try ids(sqlite, predicate).ids, try ids(memory, predicate).ids, format)
        }
        XCTAssertEqual(try ids(memory, OpenCoreData.NSPredicate(format: "id == %@", argumentArray: [NSNumber(value: 9_007_199_254_740_992.0)])).ids, [big])
    }

    // MARK: Indexes

    func testIndexedAttributesAndFetchIndexesGetApplesIndexes() throws {
        let m = model()
        let item = m.entitiesByName["Item"]!
        (item.propertiesByName["n"] as! NSAttributeDescription).isIndexed = true
        item.indexes = [NSFetchIndexDescription(name: "byStringAndDate", elements: [
            NSFetchIndexElementDescription(property: item.propertiesByName["s"]!, collationType: .binary),
            NSFetchIndexElementDescription(property: item.propertiesByName["date"]!, collationType: .binary),
        ])]
        item.indexes[0].elements[1].isAscending = false
        let url = directory.appendingPathComponent("Indexed.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: m)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let indexes = try SQLiteInspector.rows(at: url.path, "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        XCTAssertEqual(indexes.map { $0[0]! }, ["ZITEM_ZN_INDEX", "Z_Item_byStringAndDate"])
        XCTAssertEqual(indexes.map { $0[1]! }, ["CREATE INDEX ZITEM_ZN_INDEX ON ZITEM (ZN)",
                                               "CREATE INDEX Z_Item_byStringAndDate ON ZITEM (ZS COLLATE BINARY ASC, ZDATE COLLATE BINARY DESC)"])
        let plan = try SQLiteInspector.rows(at: url.path, "EXPLAIN QUERY PLAN SELECT Z_PK FROM ZITEM WHERE Z_ENT IN (1) AND (ZN IS NOT NULL AND ZN < 3)")
        XCTAssertTrue(plan.contains { $0.contains { $0?.contains("ZITEM_ZN_INDEX") == true } }, "\(plan)")
    }

    // MARK: Random requests

    /// Random predicates, sorts and pages: the SQLite store (SQL where it translates, memory
    /// where not) answers exactly as the in-memory store, counts included.
    func testRandomRequestsAnswerLikeInMemory() throws {
        let (memory, sqlite) = try makeStores()
        let memoryContext = newContext(memory), sqliteContext = newContext(sqlite)
        var random = SplitMix64(seed: 20261122)
        let comparisons = ["==", "!=", "<", "<=", ">", ">=", "==[c]", "==[cd]", "<[c]"]
        let constants: [String: [String]] = [
            "n": ["nil", "0", "2", "-3", "2.5", "5"],
            "d": ["nil", "0", "0.5", "-1.5", "1"],
            "flag": ["nil", "YES", "NO", "1"],
            "s": ["nil", "'a'", "'B'", "'apple'", "'\u{E9}'", "''", "'b'"],
            "id": ["0", "35", "71.5"],
            "f": ["0.1", "2"],
        ]
        func comparison() -> String {
            let keys = constants.keys.sorted()
            let key = keys[random.next(keys.count)]
            let values = constants[key]!
            switch random.next(6) {
            case 0: return "\(key) IN {\(values[random.next(values.count)]), \(values[random.next(values.count)])}"
            case 1: return "\(key) BETWEEN {\(values[random.next(values.count)]), \(values[random.next(values.count)])}"
            default: return "\(key) \(comparisons[random.next(comparisons.count)]) \(values[random.next(values.count)])"
            }
        }
        func predicate(_ depth: Int) -> String {
            switch depth > 2 ? 0 : random.next(5) {
            case 1: return "(\(predicate(depth + 1)) AND \(predicate(depth + 1)))"
            case 2: return "(\(predicate(depth + 1)) OR \(predicate(depth + 1)))"
            case 3: return "NOT \(predicate(depth + 1))"
            default: return comparison()
            }
        }
        let sortKeys = ["n", "d", "s", "flag", "date", "f"]
        for _ in 0..<300 {
            let format = predicate(0)
            var sorts: [OpenCoreData.NSSortDescriptor] = []
            for _ in 0..<random.next(3) {
                let key = sortKeys[random.next(sortKeys.count)]
                sorts.append(random.next(2) == 0 && key == "s"
                    ? NSSortDescriptor(key: key, ascending: random.next(2) == 0, selector: Selector("caseInsensitiveCompare:"))
                    : NSSortDescriptor(key: key, ascending: random.next(2) == 0))
            }
            sorts.append(NSSortDescriptor(key: "id", ascending: random.next(2) == 0))
            let (limit, offset) = (random.next(3) == 0 ? 0 : random.next(20), random.next(3) == 0 ? random.next(30) : 0)
            let parsed = OpenCoreData.NSPredicate(format: format)
            let expected = try fetch(memoryContext, parsed, sorts, limit: limit, offset: offset)
            let actual = try fetch(sqliteContext, parsed, sorts, limit: limit, offset: offset)
            let what = "\(format) sorted by \(sorts.map(\.description)) limit \(limit) offset \(offset)"
            XCTAssertEqual(actual.ids, expected.ids, what)
            XCTAssertEqual(actual.count, expected.ids.count, "count " + what)
        }
    }
}

private extension SplitMix64 {
    /// A number in 0..<bound, by remainder: the sequence the random-request test was written
    /// against, so its seed still names the same cases.
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
