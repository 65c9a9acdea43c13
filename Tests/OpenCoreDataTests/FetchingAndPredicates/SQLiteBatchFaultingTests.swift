@_spi(Testing) @testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `fetchBatchSize` on the SQLite store: the fetch reads object IDs only and returns faults;
/// the first fault of a batch that fires loads the whole batch with one query; objects and their
/// cached rows go away when the caller drops them. Uses `@testable` for the coordinator's
/// round-trip counter and cache size, which Apple does not expose.
final class SQLiteBatchFaultingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-batch")
    }

    private func makeStack(rows: Int = 72) throws -> NSPersistentStoreCoordinator {
        try makeItemStore(rows: rows, at: directory.appendingPathComponent("Batch.sqlite"))
    }

    func testABatchedFetchAnswersLikeAnUnbatchedOne() throws {
        let coordinator = try makeStack()
        for (limit, offset) in [(0, 0), (20, 5), (0, 50)] {
            let plain = newContext(coordinator)
            let expected = try plain.performAndWait {
                try plain.fetch(itemRequest(batchSize: 0, limit: limit, offset: offset)).map { $0.value(forKey: "id") as! Int }
            }
            let c = newContext(coordinator)
            let actual = try c.performAndWait {
                try c.fetch(itemRequest(batchSize: 7, limit: limit, offset: offset)).map { $0.value(forKey: "id") as! Int }
            }
            XCTAssertFalse(expected.isEmpty)
            XCTAssertEqual(actual, expected, "limit \(limit), offset \(offset)")
        }
    }

    func testFaultsLoadOneBatchAtATime() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            let objects = try c.fetch(itemRequest(batchSize: 10))
            XCTAssertEqual(objects.count, 72 - 15)  // ids 0, 5, ..., 70 have n == nil
            XCTAssertTrue(objects.allSatisfy(\.isFault), "a batched fetch returns faults")
            XCTAssertEqual(coordinator.snapshotCount, 0, "no rows are read before a fault fires")
            let before = coordinator.storeRoundTrips
            _ = objects[0].value(forKey: "s")
            XCTAssertEqual(coordinator.storeRoundTrips, before + 1)
            XCTAssertFalse(objects[9].isFault, "the first batch loaded together")
            XCTAssertTrue(objects[10].isFault, "the next batch waits")
            objects[3].setValue(1000, forKey: "id")  // a changed object keeps its values
            for object in objects { _ = object.value(forKey: "id") }
            XCTAssertEqual(coordinator.storeRoundTrips, before + 6, "one query per batch of 10")
            XCTAssertEqual(coordinator.snapshotCount, 17 + 1, "batches behind the last two turned back into faults")
            XCTAssertTrue(objects[4].isFault)
            XCTAssertFalse(objects[3].isFault)
            XCTAssertEqual(objects[3].value(forKey: "id") as? Int, 1000)
            XCTAssertFalse(objects[56].isFault)
            XCTAssertNotNil(objects[4].value(forKey: "s"), "a re-faulted object fires again")
        }
    }

    func testObjectsAndRowsGoAwayWhenTheCallerDropsThem() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        weak var first: NSManagedObject?
        try c.performAndWait {
            func iterate() throws -> Int {
                var sum = 0
                let objects = try c.fetch(itemRequest(batchSize: 8))
                first = objects[0]
                for object in objects { sum += object.value(forKey: "n") as! Int }
                return sum
            }
            XCTAssertGreaterThan(try iterate(), 0)
        }
        XCTAssertNil(first)
        XCTAssertEqual(coordinator.snapshotCount, 0, "the cached rows went with their objects")
    }

    func testPendingChangesAreIncluded() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            insertItem(id: 500, n: 1, s: "c", into: c)
            let ids = try c.fetch(itemRequest(batchSize: 10)).map { $0.value(forKey: "id") as! Int }
            XCTAssertEqual(ids.first, 500, "'c' sorts first descending")
            XCTAssertEqual(ids.count, 72 - 15 + 1)
        }
    }

    func testRequestsSQLCantAnswerAreEvaluatedInMemoryWithABatchSize() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            let request = itemRequest(batchSize: 5)
            // `s.uppercaseString`: a key path SQL does not follow past an attribute.
            request.predicate = NSPredicate(format: "s.uppercaseString == 'A' AND n != nil")
            let before = coordinator.storeRoundTrips
            let ids = try c.fetch(request).map { $0.value(forKey: "id") as! Int }
            XCTAssertEqual(coordinator.storeRoundTrips, before, "rows came with the fetch, no batch queries")
            let expected = (0..<72).filter { $0 % 5 != 0 && ($0 % 4 == 1 || $0 % 4 == 2) }
            XCTAssertEqual(Set(ids), Set(expected))
            // A deletion not yet saved: batching steps aside, the context corrects the answer.
            let all = try c.fetch(itemRequest(batchSize: 5))
            c.delete(all[0])
            XCTAssertEqual(try c.fetch(itemRequest(batchSize: 5)).count, all.count - 1)
            XCTAssertEqual(try c.count(for: itemRequest(batchSize: 5)), all.count - 1)
        }
    }
    /// A batch of consecutive keys loads with a range scan, others with a key list; both give
    /// exactly the batch's rows (a key deleted from the middle of a run breaks the run).
    func testBatchesOfConsecutiveAndScatteredKeysLoadTheSameRows() throws {
        let coordinator = try makeStack(rows: 40)
        let writer = newContext(coordinator)
        try writer.performAndWait {
            let doomed = try writer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).filter { ($0.value(forKey: "id") as! Int) == 13 }
            doomed.forEach(writer.delete)
            try writer.save()
        }
        XCTAssertTrue(SQLiteStore.isAscendingRun([4, 5, 6, 7]))
        XCTAssertFalse(SQLiteStore.isAscendingRun([4, 5, 7]))
        XCTAssertFalse(SQLiteStore.isAscendingRun([5, 4]))
        XCTAssertFalse(SQLiteStore.isAscendingRun([]))
        let plain = newContext(coordinator)
        let expected = try plain.performAndWait {
            try plain.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).map { "\($0.value(forKey: "id")!) \($0.value(forKey: "s")!)" }
        }
        XCTAssertEqual(expected.count, 39)
        let c = newContext(coordinator)
        try c.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.fetchBatchSize = 8  // unsorted: key order, so batches are runs except around the gap
            let objects = try c.fetch(request)
            let before = coordinator.storeRoundTrips
            let actual = objects.map { "\($0.value(forKey: "id")!) \($0.value(forKey: "s")!)" }
            XCTAssertEqual(actual, expected)
            XCTAssertEqual(coordinator.storeRoundTrips, before + 5, "one query per batch of 8, range or list")
        }
    }
    /// A second pass over a batched result (whose early batches turned back into faults) loads
    /// them a batch at a time again, not one row per object; so does reading far out of order.
    func testASecondPassAndRandomAccessLoadWholeBatches() throws {
        let coordinator = try makeStack()
        let c = newContext(coordinator)
        try c.performAndWait {
            let objects = try c.fetch(itemRequest(batchSize: 10))  // 57 objects, 6 batches
            let firstPass = objects.map { $0.value(forKey: "id") as! Int }
            let before = coordinator.storeRoundTrips
            let secondPass = objects.map { $0.value(forKey: "id") as! Int }
            XCTAssertEqual(secondPass, firstPass)
            XCTAssertEqual(coordinator.storeRoundTrips, before + 4, "the four batches that turned back into faults, a query each")
            let afterSecond = coordinator.storeRoundTrips
            _ = objects[5].value(forKey: "s")    // batch 0, faulted again by the second pass
            XCTAssertEqual(coordinator.storeRoundTrips, afterSecond + 1)
            XCTAssertFalse(objects[9].isFault, "its whole batch came with it")
        }
    }
}
