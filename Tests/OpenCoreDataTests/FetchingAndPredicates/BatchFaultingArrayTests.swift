@_spi(Testing) @testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `context.fetchBatched(_:)`: a lazily realized batched fetch (`NSBatchFaultingArray`) answers
/// exactly as `fetch(_:)` does for the same request — same objects, same order, pending changes
/// included — while holding only keys, realizing a batch with one store read when it is first
/// read, and keeping only a few batches of objects alive. Uses `@testable` for the coordinator's
/// round-trip counter and cache size, and for whether the result is lazy, which Apple's API
/// does not expose.
final class BatchFaultingArrayTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-lazy")
    }

    /// A store of `rows` Items (see ``makeItemStore(rows:storeType:at:)``), SQLite unless told.
    private func makeStack(rows: Int = 72, storeType: String = NSSQLiteStoreType) throws -> NSPersistentStoreCoordinator {
        try makeItemStore(rows: rows, storeType: storeType,
                          at: storeType == NSSQLiteStoreType ? directory.appendingPathComponent("Lazy.sqlite") : nil)
    }

    private func ids<C: Collection>(_ objects: C) -> [Int] where C.Element == NSManagedObject {
        objects.map { $0.value(forKey: "id") as! Int }
    }

    func testSameObjectsInTheSameOrderAsFetch() throws {
        let coordinator = try makeStack()
        let cases: [(String, NSFetchRequest<NSManagedObject>)] = [
            ("sorted, predicate", itemRequest(batchSize: 7)),
            ("unsorted, no predicate", itemRequest(batchSize: 7, predicate: nil, sorted: false)),
            ("unsorted, predicate", itemRequest(batchSize: 5, predicate: "n > 2", sorted: false)),
            ("sorted, no predicate", itemRequest(batchSize: 10, predicate: nil)),
            ("limit and offset", itemRequest(batchSize: 7, limit: 20, offset: 5)),
            ("offset only", itemRequest(batchSize: 4, offset: 50)),
            ("limit smaller than a batch", itemRequest(batchSize: 50, limit: 3)),
            ("offset past the end", itemRequest(batchSize: 7, offset: 500)),
            ("batch larger than the result", itemRequest(batchSize: 1000)),
        ]
        for (name, request) in cases {
            // In a fresh context each, so neither side finds the other's objects registered.
            let plain = newContext(coordinator)
            let expected = try plain.performAndWait { ids(try plain.fetch(request)) }
            let c = newContext(coordinator)
            try c.performAndWait {
                let lazy = try c.fetchBatched(request)
                XCTAssertTrue(lazy.isBatchFaulting, name)
                XCTAssertEqual(lazy.count, expected.count, name)
                XCTAssertEqual(ids(lazy), expected, name)
                // In one context, uniquing makes them the very same objects.
                let eager = try c.fetch(request)
                XCTAssertTrue(zip(lazy, eager).allSatisfy { $0 === $1 }, name)
            }
            if name != "offset past the end" { XCTAssertFalse(expected.isEmpty, name) }
        }
    }

    func testRegisteredObjectsAreReturnedWithTheirUnsavedChanges() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            let request = itemRequest(batchSize: 10, predicate: nil, sorted: false)
            request.sortDescriptors = [NSSortDescriptor(key: "id", ascending: true)]
            // Without pending changes in the answer, the store's answer stands, and registered
            // objects are used as they are (fetch(_:) does the same).
            request.includesPendingChanges = false
            let all = try c.fetch(request)
            let changed = all[3], unchanged = all[15], deleted = all[30]
            changed.setValue("changed", forKey: "s")
            c.delete(deleted)
            let fault = c.object(with: all[40].objectID)
            XCTAssertTrue(c.hasChanges)

            let lazy = try c.fetchBatched(request)
            XCTAssertTrue(lazy.isBatchFaulting)
            XCTAssertTrue(lazy[3] === changed)
            XCTAssertEqual(lazy[3].value(forKey: "s") as? String, "changed")
            XCTAssertTrue(lazy[15] === unchanged)
            XCTAssertTrue(lazy[30] === deleted, "the store still has it; includesPendingChanges is false")
            XCTAssertTrue(lazy[40] === fault)
            XCTAssertTrue(zip(lazy, try c.fetch(request)).allSatisfy { $0 === $1 })
            XCTAssertEqual(lazy.count, all.count)
        }
    }

    func testObjectsChangedWhileIteratingKeepTheirChanges() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        weak var changed: NSManagedObject?
        weak var unchanged: NSManagedObject?
        try c.performAndWait {
            let lazy = try c.fetchBatched(itemRequest(batchSize: 10))
            XCTAssertTrue(lazy.isBatchFaulting)
            lazy[0].setValue("changed", forKey: "s")
            changed = lazy[0]
            unchanged = lazy[1]
            for object in lazy { _ = object.value(forKey: "id") }
            XCTAssertNotNil(changed, "the context keeps a changed object until it is saved")
            XCTAssertNil(unchanged, "an unchanged one goes with its batch")
            XCTAssertTrue(lazy[0] === changed, "realizing the batch again finds the changed object")
            XCTAssertEqual(lazy[0].value(forKey: "s") as? String, "changed")
            XCTAssertEqual(lazy[1].value(forKey: "s") as? String, ids(lazy[1...1]).first.map { ["b", "A", "a", "B"][$0 % 4] })
        }
    }

    func testPendingChangesFallBackToFetchsAnswer() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            insertItem(id: 500, n: 1, s: "c", into: c)
            let lazy = try c.fetchBatched(itemRequest(batchSize: 10))
            XCTAssertFalse(lazy.isBatchFaulting, "unsaved changes are corrected in memory, on every object")
            XCTAssertEqual(ids(lazy).first, 500, "'c' sorts first descending")
            XCTAssertEqual(ids(lazy), ids(try c.fetch(itemRequest(batchSize: 10))))
            XCTAssertEqual(lazy.count, 72 - 15 + 1)

            try c.save()
            let first = try c.fetchBatched(itemRequest(batchSize: 10))[0]
            c.delete(first)
            let afterDelete = try c.fetchBatched(itemRequest(batchSize: 10))
            XCTAssertFalse(afterDelete.isBatchFaulting)
            XCTAssertFalse(afterDelete.contains { $0 === first })
            XCTAssertEqual(afterDelete.count, 72 - 15)
        }
    }

    func testPlansTheStoreCannotEvaluateFallBackToFetchsAnswer() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            // Two key paths compared: not translated to SQL.
            let request = itemRequest(batchSize: 5, predicate: "s BEGINSWITH[c] 'a' AND n != nil AND n == n")
            let lazy = try c.fetchBatched(request)
            XCTAssertFalse(lazy.isBatchFaulting)
            XCTAssertEqual(ids(lazy), ids(try c.fetch(request)))
            XCTAssertEqual(Set(ids(lazy)), Set((0..<72).filter { $0 % 5 != 0 && ($0 % 4 == 1 || $0 % 4 == 2) }))
        }
    }

    func testInMemoryStoreAndBatchSizeZeroFallBackToFetchsAnswer() throws {
        let inMemory = try makeStack(storeType: NSInMemoryStoreType)
        let c = newContext(inMemory)
        try c.performAndWait {
            let lazy = try c.fetchBatched(itemRequest(batchSize: 7))
            XCTAssertFalse(lazy.isBatchFaulting, "the in-memory store lists no keys")
            XCTAssertEqual(ids(lazy), ids(try c.fetch(itemRequest(batchSize: 7))))
            XCTAssertEqual(lazy.count, 72 - 15)
        }
        let sqlite = try makeStack()
        let s = newContext(sqlite)
        try s.performAndWait {
            let eager = try s.fetchBatched(itemRequest(batchSize: 0))
            XCTAssertFalse(eager.isBatchFaulting)
            XCTAssertEqual(ids(eager), ids(try s.fetch(itemRequest(batchSize: 0))))
        }
    }

    func testOtherResultTypesFallBackToFetchsAnswer() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "Item")
            request.resultType = .managedObjectIDResultType
            request.sortDescriptors = [NSSortDescriptor(key: "id", ascending: false)]
            request.fetchBatchSize = 10
            let lazy = try c.fetchBatched(request)
            XCTAssertFalse(lazy.isBatchFaulting)
            XCTAssertEqual(Array(lazy), try c.fetch(request))
            XCTAssertEqual(lazy.count, 72)
        }
    }

    func testRandomAccessAndReverseIteration() throws {
        let coordinator = try makeStack()
        let plain = newContext(coordinator)
        let expected = try plain.performAndWait { ids(try plain.fetch(itemRequest(batchSize: 0))) }
        let c = newContext(coordinator)
        try c.performAndWait {
            let lazy = try c.fetchBatched(itemRequest(batchSize: 6))
            XCTAssertTrue(lazy.isBatchFaulting)
            XCTAssertEqual(ids(lazy.reversed()), expected.reversed())
            // A fixed permutation that jumps between batches far apart.
            let order = (0..<lazy.count).map { ($0 * 23) % lazy.count }
            XCTAssertEqual(Set(order).count, lazy.count)
            for i in order {
                XCTAssertEqual(lazy[i].value(forKey: "id") as? Int, expected[i], "element \(i)")
            }
            XCTAssertEqual(ids(lazy[10..<20]), Array(expected[10..<20]))
            XCTAssertEqual(lazy.last.map { $0.value(forKey: "id") as! Int }, expected.last)
        }
    }

    func testOneStoreReadPerBatch() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            let before = coordinator.storeRoundTrips
            let lazy = try c.fetchBatched(itemRequest(batchSize: 10))
            XCTAssertEqual(lazy.count, 72 - 15)
            XCTAssertEqual(coordinator.storeRoundTrips, before, "the fetch lists keys only")
            XCTAssertEqual(coordinator.snapshotCount, 0, "no rows are read before an element is")
            XCTAssertEqual(c.registeredObjects.count, 0, "no objects are made before an element is read")
            _ = lazy[0]
            XCTAssertEqual(coordinator.storeRoundTrips, before + 1)
            XCTAssertEqual(c.registeredObjects.count, 10, "the first batch only")
            XCTAssertTrue(lazy[0].isFault, "returnsObjectsAsFaults: a fault holding its cached row")
            _ = lazy[9].value(forKey: "s")
            XCTAssertEqual(coordinator.storeRoundTrips, before + 1, "the batch's rows came with one read")
            for object in lazy { _ = object.value(forKey: "id") }
            XCTAssertEqual(coordinator.storeRoundTrips, before + 6, "one read per batch of 10 (57 rows)")
            _ = lazy[50].value(forKey: "id")
            _ = lazy[35].value(forKey: "id")
            XCTAssertEqual(coordinator.storeRoundTrips, before + 6, "the last three batches are still held")
            _ = lazy[0].value(forKey: "id")
            XCTAssertEqual(coordinator.storeRoundTrips, before + 7, "a batch left behind is read again")
        }
    }

    func testOnlyTheLastFewBatchesStayAlive() throws {
        let coordinator = try makeStack(rows: 5_000)
        let c = newContext(coordinator)
        weak var first: NSManagedObject?
        try c.performAndWait {
            let request = itemRequest(batchSize: 100, predicate: nil, sorted: false)
            let lazy = try c.fetchBatched(request)
            XCTAssertEqual(lazy.count, 5_000)
            var sum = 0, peak = 0
            for (i, object) in lazy.enumerated() {
                if i == 0 { first = object }
                sum += object.value(forKey: "id") as! Int
                if i % 50 == 0 { peak = max(peak, c.registeredObjects.count) }
            }
            XCTAssertEqual(sum, (0..<5_000).reduce(0, +))
            XCTAssertLessThanOrEqual(peak, 3 * 100, "at most three batches of objects at a time")
            XCTAssertGreaterThanOrEqual(peak, 100)
            XCTAssertNil(first, "an object of a batch far behind, held by nobody, is gone")
            XCTAssertLessThanOrEqual(coordinator.snapshotCount, 3 * 100, "its cached row went with it")
            // A reference the caller keeps keeps its object, and realizing its batch again finds it.
            let kept = lazy[0]
            for object in lazy.reversed() { _ = object.value(forKey: "id") }
            for object in lazy { _ = object.value(forKey: "id") }
            XCTAssertTrue(lazy[0] === kept)
        }
        XCTAssertEqual(coordinator.snapshotCount, 0, "every row is released once the result goes")
    }

    func testTypedResultsAndSubentitiesMatchFetch() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Company.sqlite"))
        let seed = newContext(coordinator)
        try seed.performAndWait {
            for i in 0..<40 {
                let e = i % 4 == 0 ? NSEntityDescription.insertNewObject(forEntityName: "Manager", into: seed) as! Employee : Employee(context: seed)
                e.firstName = "E\(i)"
                e.salary = Int64((i * 37) % 17)
            }
            try seed.save()
        }
        let c = newContext(coordinator)
        try c.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]
            request.fetchBatchSize = 6
            let lazy = try c.fetchBatched(request)
            XCTAssertTrue(lazy.isBatchFaulting)
            let names = lazy.map(\.firstName)
            XCTAssertEqual(names, try c.fetch(request).map(\.firstName))
            XCTAssertEqual(lazy.filter { $0.entity.name == "Manager" }.count, 10, "subentities keep their entity")

            // Results typed as the protocol every result conforms to.
            let untyped = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
            untyped.sortDescriptors = request.sortDescriptors
            untyped.fetchBatchSize = 6
            let lazyUntyped = try c.fetchBatched(untyped)
            XCTAssertTrue(lazyUntyped.isBatchFaulting)
            XCTAssertTrue(zip(lazyUntyped, lazy).allSatisfy { ($0 as! Employee) === $1 })

            // A class the entity's objects are not: both report it the same way.
            let wrong = NSFetchRequest<Department>(entityName: "Employee")
            wrong.fetchBatchSize = 6
            XCTAssertThrowsError(try c.fetch(wrong))
            XCTAssertThrowsError(try c.fetchBatched(wrong)) { error in
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
            }
        }
    }
}
