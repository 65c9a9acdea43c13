@_spi(Testing) @testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The coordinator's snapshot cache (seed 003, "Snapshot management") and fault behaviour of
/// fetches. Uses `@testable` to read the cache size, which Apple does not expose.
final class RowCacheTests: XCTestCase {
    func testSnapshotsAreReferenceCountedByTheObjectsThatUseThem() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            try autoreleasepoolCompat {
                for i in 0..<20 { _ = stack.employee("E\(i)") }
                try stack.context.save()
            }
            XCTAssertEqual(stack.coordinator.snapshotCount, 0, "saved objects nobody holds are released, and so are their snapshots")

            try autoreleasepoolCompat {
                let fetched = try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
                XCTAssertEqual(fetched.count, 20)
                XCTAssertEqual(stack.coordinator.snapshotCount, 20)
                let other = stack.newContext()
                try other.performAndWait {
                    let again = try other.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
                    XCTAssertEqual(again.count, 20)
                    XCTAssertEqual(stack.coordinator.snapshotCount, 20, "two contexts share one snapshot per row")
                }
                XCTAssertEqual(stack.coordinator.snapshotCount, 20, "the first context still uses them")
            }
            XCTAssertEqual(stack.coordinator.snapshotCount, 0, "the cache returns to zero when the objects are gone")
        }
    }

    func testRefreshIntoFaultAndResetReleaseSnapshots() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("E")
            try stack.context.save()
            XCTAssertEqual(stack.coordinator.snapshotCount, 1)
            stack.context.refresh(e, mergeChanges: false)
            XCTAssertEqual(stack.coordinator.snapshotCount, 0)
            _ = e.firstName
            XCTAssertEqual(stack.coordinator.snapshotCount, 1, "firing the fault takes the snapshot again")
            stack.context.reset()
            XCTAssertEqual(stack.coordinator.snapshotCount, 0)
        }
    }

    /// Saves employees E0, E1, ... with salaries 0, 1, ... and resets the context (call on its queue).
    private func saveEmployees(_ count: Int, in stack: TestStack) throws {
        for i in 0..<count { _ = stack.employee("E\(i)", salary: Int64(i)) }
        try stack.context.save()
        stack.context.reset()
    }

    func testFetchedFaultsFireFromTheCacheWithoutTheStore() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            try saveEmployees(5, in: stack)
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.returnsObjectsAsFaults = true
            let faults = try stack.context.fetch(request)
            XCTAssertTrue(faults.allSatisfy(\.isFault))
            // Remove the store: a fault that needed it could not fire.
            let store = stack.coordinator.persistentStores[0]
            try stack.coordinator.remove(store)
            XCTAssertEqual(Set(faults.map(\.salary)), [0, 1, 2, 3, 4], "fired from the coordinator's cache")
            XCTAssertFalse(faults.contains(where: \.isFault))
        }
    }

    func testReturnsObjectsAsFaultsFalseAndIncludesPropertyValuesFalse() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            _ = stack.employee("E")
            try stack.context.save()
            stack.context.reset()
            let full = NSFetchRequest<Employee>(entityName: "Employee")
            full.returnsObjectsAsFaults = false
            XCTAssertFalse(try stack.context.fetch(full)[0].isFault)
            stack.context.reset()
            let bare = NSFetchRequest<Employee>(entityName: "Employee")
            bare.includesPropertyValues = false
            let object = try stack.context.fetch(bare)[0]
            XCTAssertTrue(object.isFault)
            XCTAssertEqual(stack.coordinator.snapshotCount, 0, "no values fetched, none cached")
            XCTAssertEqual(object.firstName, "E")
        }
    }

    func testStalenessIntervalZeroReadsTheStoreWhenAFaultFires() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Cached")
            try stack.context.save()
            let id = e.objectID
            stack.context.refresh(e, mergeChanges: false)
            stack.context.stalenessInterval = 0
            _ = stack.context.object(with: id)
            XCTAssertEqual((stack.context.object(with: id) as! Employee).firstName, "Cached")
        }
    }

    /// Tables don't shrink as entries leave; both rebuild themselves once mostly empty, keeping
    /// the entries still in use.
    func testTheCacheAndTheIdentityMapGiveBackRoomWhenALargeFetchIsReleased() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            try saveEmployees(3_000, in: stack)
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]
            var kept: [Employee] = []
            try autoreleasepoolCompat {
                let all = try stack.context.fetch(request)
                XCTAssertEqual(stack.coordinator.snapshotCount, 3_000)
                XCTAssertGreaterThanOrEqual(stack.coordinator.snapshotCapacity, 3_000)
                kept = Array(all.prefix(10))
            }
            XCTAssertEqual(stack.coordinator.snapshotCount, 10)
            XCTAssertEqual(stack.context.registry.count, 10)
            XCTAssertLessThanOrEqual(stack.context.registry.capacity, ObjectKeyTable<Int>.largestCapacity(holding: 10),
                                     "the identity map is rebuilt smaller too")
            for employee in kept { XCTAssertTrue(stack.context.registeredObject(for: employee.objectID) === employee) }
            XCTAssertLessThanOrEqual(stack.coordinator.snapshotCapacity, ObjectKeyTable<Int>.largestCapacity(holding: 10),
                                     "a table mostly empty is rebuilt smaller, so lookups stay in warm memory")
            // The rows still in use survived the rebuild.
            let salarySlot = try XCTUnwrap(kept[0].entity.allProperties.firstIndex { $0.name == "salary" })
            let cached = kept.compactMap { stack.coordinator.rowCache.row(for: $0.objectID.key, stalenessInterval: -1) }
            let salaries = cached.map { row -> Int64? in
                if case .integer(let salary) = row.values[salarySlot] { return salary }
                return nil
            }
            XCTAssertEqual(salaries, (0..<10).map { Int64($0) })
        }
    }

    /// A fetch refreshes the cached row of every record it reads, also of objects the context
    /// already has (they keep their values, and take no new reference).
    func testAFetchRefreshesTheCachedRowsOfObjectsItAlreadyHad() throws {
        let url = try makeTemporaryDirectory("ocd-rowcache").appendingPathComponent("Company.sqlite")
        let stack = try TestStack(sqliteAt: url), other = try TestStack(sqliteAt: url)
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        func cachedSalary(_ employee: Employee) throws -> (salary: Int64, version: Int64) {
            let slot = try XCTUnwrap(employee.entity.allProperties.firstIndex { $0.name == "salary" })
            let row = try XCTUnwrap(stack.coordinator.rowCache.row(for: employee.objectID.key, stalenessInterval: -1))
            guard case .integer(let salary) = row.values[slot] else { throw XCTSkip("salary is not an integer") }
            return (salary, row.version)
        }
        try stack.context.performAndWait {
            let ann = stack.employee("Ann", salary: 100)
            try stack.context.save()
            XCTAssertEqual(try cachedSalary(ann).salary, 100)

            // Another coordinator changes the record behind this one's back.
            try other.context.performAndWait {
                let theirs = try other.context.fetch(request)[0]
                theirs.salary = 200
                try other.context.save()
            }
            // Fetching again finds Ann registered (no new reference is taken), but the cache's
            // copy of her row is the one just read: a fault of her in another context fires
            // with the new values without reading the store.
            let again = try stack.context.fetch(request)
            XCTAssertTrue(again[0] === ann)
            XCTAssertEqual(ann.salary, 100, "a registered object keeps its values until it is refreshed")
            XCTAssertEqual(try cachedSalary(ann).salary, 200)
            XCTAssertEqual(try cachedSalary(ann).version, 2)
            XCTAssertEqual(stack.coordinator.snapshotCount, 1, "still one reference, Ann's")
        }
    }

    func testAChildContextsFetchLeavesTheCacheWithTheStoresValues() throws {
        let stack = TestStack()
        let (ann, slot) = try stack.context.performAndWait {
            let ann = stack.employee("Ann", salary: 100)
            try stack.context.save()
            ann.salary = 300  // unsaved: the parent's state, not the store's
            return (ann, try XCTUnwrap(ann.entity.allProperties.firstIndex { $0.name == "salary" }))
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        try child.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            let first = try child.fetch(request)
            XCTAssertEqual(first.map(\.salary), [300])
            let second = try child.fetch(request)
            XCTAssertTrue(second[0] === first[0], "the second fetch finds the child's object registered")
        }
        try stack.context.performAndWait {
            let row = try XCTUnwrap(stack.coordinator.rowCache.row(for: ann.objectID.key, stalenessInterval: -1))
            guard case .integer(let cached) = row.values[slot] else { return XCTFail("salary is not an integer") }
            XCTAssertEqual(cached, 100, "rows a child reads from its parent carry unsaved values and never reach the cache")
        }
    }

    /// Row-cache and identity-map keys hash their three fields folded into one word; keys that
    /// fold alike must still be different keys.
    func testObjectKeysThatFoldAlikeStayDistinct() {
        let a = ObjectKey(storeToken: 1, rootEntity: 2, primaryKey: 7)
        let scope = Int64(bitPattern: UInt64(1) << 48 ^ UInt64(2) << 32)
        let b = ObjectKey(storeToken: 0, rootEntity: 0, primaryKey: 7 ^ scope)
        XCTAssertEqual(a.hashValue, b.hashValue, "the test needs two keys that fold to the same word")
        var table: [ObjectKey: String] = [a: "a"]
        table[b] = "b"
        XCTAssertEqual(table.count, 2)
        XCTAssertEqual(table[a], "a")
        XCTAssertEqual(table[b], "b")
        var many = Set<ObjectKey>()
        for pk in 0..<10_000 { many.insert(ObjectKey(storeToken: 1, rootEntity: 1, primaryKey: Int64(pk))) }
        XCTAssertEqual(many.count, 10_000)
        XCTAssertTrue(many.contains(ObjectKey(storeToken: 1, rootEntity: 1, primaryKey: 9_999)))
        XCTAssertFalse(many.contains(ObjectKey(storeToken: 2, rootEntity: 1, primaryKey: 9_999)))
    }
}

/// Batched loading: prefetching relationships and firing fetched faults cost no per-object
/// store round trips.
final class BatchFaultingTests: XCTestCase {
    private func seeded(onSQLite: Bool = false) throws -> TestStack {
        let stack = onSQLite ? try TestStack(sqliteAt: try makeTemporaryDirectory("ocd-batch-faulting").appendingPathComponent("Company.sqlite")) : TestStack()
        try stack.context.performAndWait {
            for d in 0..<10 {
                let department = stack.department("D\(d)")
                for e in 0..<5 { stack.employee("E\(d)-\(e)").department = department }
            }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    /// Without prefetching, the members of a to-many relationship fill together: the first
    /// one to fire reads the rows of all of them, one store read per department, not one per
    /// employee (N+1 was 50 reads here).
    func testWithoutPrefetchingARelationshipsMembersFillTogether() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let departments = try stack.context.fetch(NSFetchRequest<Department>(entityName: "Department"))
            let before = stack.coordinator.storeRoundTrips
            let names = departments.flatMap { $0.employees.compactMap(\.firstName) }
            XCTAssertEqual(names.count, 50)
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 10, "one read of the members per department")
        }
    }

    /// Filling together fills exactly the members of the relationship that fired: the other
    /// departments' employees stay faults, and a member with unsaved changes keeps them.
    func testFillingTogetherFillsOnlyTheRelationshipsFaults() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let departments = try stack.context.fetch(NSFetchRequest<Department>(entityName: "Department"))
                .sorted { ($0.name ?? "") < ($1.name ?? "") }
            let other = Array(departments[1].employees)
            let members = Array(departments[0].employees)
            XCTAssertEqual(members.count, 5)
            XCTAssertTrue(members.allSatisfy(\.isFault), "loading the relationship fills no member")
            members[4].salary = 7   // the first member to fire fills all five
            XCTAssertTrue(members.allSatisfy { !$0.isFault }, "every member of the relationship filled")
            XCTAssertEqual(Set(members.compactMap(\.firstName)), ["E0-0", "E0-1", "E0-2", "E0-3", "E0-4"])
            XCTAssertTrue(other.allSatisfy(\.isFault), "another department's employees untouched")
            XCTAssertEqual(members[4].salary, 7)
            XCTAssertEqual(Set(members.filter(\.hasChanges)), [members[4]])
        }
    }

    /// Reading many relationships while iterating a batched fetch keeps the fetch's batch
    /// loading: the relationships' loaders are kept apart from the fetch's.
    func testReadingRelationshipsKeepsABatchedFetchLoadingInBatches() throws {
        let stack = try seeded(onSQLite: true)
        try stack.context.performAndWait {
            let request = NSFetchRequest<Department>(entityName: "Department")
            request.fetchBatchSize = 2
            let departments = try stack.context.fetch(request)
            let before = stack.coordinator.storeRoundTrips
            var members = 0
            for department in departments { members += department.employees.count }
            XCTAssertEqual(members, 50)
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 5, "one read per batch of two departments")
        }
    }

    /// The fast paths give the answers of the slow ones: departments' employees and employees'
    /// departments read through prefetching, through members filling together, and one fault
    /// at a time in a context that fires them singly (a child context reads through its
    /// parent, so none of the batching applies) are the same objects with the same values.
    func testPrefetchedAndBatchFilledRelationshipsEqualFaultedOnes() throws {
        let stack = try seeded(onSQLite: true)
        /// Each department's name with its employees' names and salaries, and each employee's
        /// department's name, as `context` reads them with `prefetching`.
        func graph(in context: NSManagedObjectContext, prefetching: [String]?) throws -> [String: [String]] {
            try context.performAndWait {
                let departments = NSFetchRequest<Department>(entityName: "Department")
                departments.relationshipKeyPathsForPrefetching = prefetching
                var graph: [String: [String]] = [:]
                for department in try context.fetch(departments) {
                    graph[department.name ?? "?"] = department.employees.map { "\($0.firstName ?? "?") \($0.salary)" }.sorted()
                }
                let employees = NSFetchRequest<Employee>(entityName: "Employee")
                employees.relationshipKeyPathsForPrefetching = prefetching == nil ? nil : ["department"]
                for employee in try context.fetch(employees) {
                    graph["of \(employee.firstName ?? "?")", default: []].append(employee.department?.name ?? "none")
                }
                return graph
            }
        }
        let single = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        single.parent = stack.newContext()
        let expected = try graph(in: single, prefetching: nil)
        XCTAssertEqual(expected.count, 10 + 50)
        XCTAssertEqual(expected["D3"], (0..<5).map { "E3-\($0) 1000" })
        XCTAssertEqual(try graph(in: stack.newContext(), prefetching: nil), expected, "members filled together")
        XCTAssertEqual(try graph(in: stack.newContext(), prefetching: ["employees"]), expected, "prefetched")
    }

    func testPrefetchingLoadsDestinationsInOneBatch() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Department>(entityName: "Department")
            request.relationshipKeyPathsForPrefetching = ["employees"]
            let names = try stack.fetch(request, roundTrips: 1, "one batched read for all 50 employees") { departments in
                departments.flatMap { $0.employees.compactMap(\.firstName) }
            }
            XCTAssertEqual(names.count, 50)
        }
    }

    func testFetchedFaultsWithBatchSizeFireWithoutStoreRoundTrips() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.fetchBatchSize = 20
            let before = stack.coordinator.storeRoundTrips
            let employees = try stack.context.fetch(request)
            XCTAssertTrue(employees.allSatisfy(\.isFault))
            XCTAssertEqual(employees.compactMap(\.firstName).count, 50)
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 0, "rows came with the fetch; faults fire from the cache")
        }
    }

    /// An object filled by a fetch takes its snapshot reference at the end of the fetch. If user
    /// code run during the fetch (`awakeFromFetch`) fires a batched fault whose batch turns that
    /// object back into a fault, its release must be counted after that reference, or the cache
    /// keeps a row nobody uses.
    func testReleasesDuringAFetchComeAfterItsSnapshotReferences() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-rowcache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = try makeItemStore(at: directory.appendingPathComponent("Items.sqlite"), className: "OpenCoreDataInternalsTests.AwakeHookItem")
        let context = newContext(coordinator)
        defer { AwakeHookItem.onAwakeFromFetch = nil }
        try context.performAndWait {
            try autoreleasepoolCompat {
                let batched = try context.fetch(itemRequest(batchSize: 10, predicate: nil, sorted: false))
                XCTAssertEqual(batched.count, 72)
                _ = batched[40].value(forKey: "id")             // loads batch 4 (positions 40-49)
                let x = batched[45], y = batched[5]            // y: in batch 0, not loaded
                let xID = try XCTUnwrap(x.value(forKey: "id") as? Int)
                let yID = try XCTUnwrap(context.existingObject(with: y.objectID).value(forKey: "id") as? Int)
                // Both faults again; batch 4 still counts as loaded.
                context.refresh(x, mergeChanges: false)
                context.refresh(y, mergeChanges: false)
                XCTAssertTrue(x.isFault && y.isFault)
                // A fetch fills x (its reference waits for the end of the fetch), then y, whose
                // awakeFromFetch reads position 60: loading batch 6 expires batch 4, so x turns
                // back into a fault while the fetch is still running.
                AwakeHookItem.onAwakeFromFetch = { [unowned context] item in
                    guard item === y else { return }
                    _ = context.object(with: batched[60].objectID).value(forKey: "id")
                }
                let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                request.predicate = NSPredicate(format: "id == %d OR id == %d", xID, yID)
                request.sortDescriptors = [NSSortDescriptor(key: "id", ascending: xID < yID)]
                request.returnsObjectsAsFaults = false
                let fetched = try context.fetch(request)
                XCTAssertTrue(fetched.first === x && fetched.last === y)
                XCTAssertTrue(x.isFault, "loading batch 6 turned batch 4 back into faults, x included")
                // Batch 6 was loaded by a batch nested in the fetch's: its references reach the
                // cache through the outer one. One reference per realized object, no more, no less.
                let realized = context.registeredObjects.filter { !$0.isFault }
                XCTAssertTrue(realized.contains { $0 === batched[60] })
                XCTAssertEqual(coordinator.snapshotCount, realized.count)
                AwakeHookItem.onAwakeFromFetch = nil
            }
            context.reset()
            XCTAssertEqual(coordinator.snapshotCount, 0, "every reference taken was given back")
        }
    }
}

extension RowCacheTests {
    /// A batch records rows of its source by position (no copy), in ascending order, anything
    /// else as a copy: a position held twice would have its values moved out twice.
    func testASnapshotBatchHoldsItsSourcesRowsByPosition() {
        let entity = NSEntityDescription(name: "Thing", properties: [])
        let rows = (1...4).map { StoreRow(objectID: NSManagedObjectID(entity: entity, store: nil, primaryKey: $0), values: [], version: 1) }
        let stranger = StoreRow(objectID: NSManagedObjectID(entity: entity, store: nil, primaryKey: 9), values: [], version: 1)
        var batch = SnapshotBatch(source: rows)
        XCTAssertTrue(batch.isEmpty)
        batch.hold(rows[0], position: 0)
        batch.hold(rows[2], position: 2)
        batch.hold(stranger, position: 3)   // not the row at position 3
        batch.hold(rows[1], position: 1)    // out of order
        batch.hold(rows[2], position: 2)    // again
        batch.hold(rows[1], position: nil)
        batch.hold(stranger, position: 7)   // past the end
        batch.hold(rows[3], position: 3)
        XCTAssertEqual(batch.positions, [0, 2, 3])
        XCTAssertEqual(batch.others.map(\.objectID.key.primaryKey), [9, 2, 3, 2, 9])
        XCTAssertFalse(batch.isEmpty)
    }

    /// Another process changed records (a PostgreSQL store's notice): their cached rows stop
    /// answering, and so do rows of older versions that a read begun before the notice brings
    /// in afterwards; a row of the announced version answers again.
    func testRowsOlderThanAnAnnouncedChangeNeverAnswer() throws {
        let entity = NSEntityDescription(name: "Thing", properties: [])
        let cache = RowCache()
        func row(_ key: Int64, version: Int64) -> StoreRow {
            StoreRow(objectID: NSManagedObjectID(entity: entity, store: nil, primaryKey: key), values: [.integer(version)], version: version)
        }
        func cached(_ key: Int64) -> Int64? { cache.row(for: row(key, version: 0).key, stalenessInterval: -1)?.version }
        cache.retain(row(1, version: 1))
        cache.retain(row(2, version: 3))
        cache.invalidate([(row(1, version: 0).key, 2), (row(2, version: 0).key, 3), (row(5, version: 0).key, 2)]) { _ in false }
        XCTAssertNil(cached(1), "changed by another process")
        XCTAssertEqual(cached(2), 3, "the cache has the announced version already")
        cache.retain(row(1, version: 1), at: ProcessInfo.processInfo.systemUptime)  // a fetch read before the notice
        cache.update(row(1, version: 1))
        XCTAssertNil(cached(1), "a row older than the announced change does not answer")
        cache.retain(row(5, version: 1))                // a record not cached when the notice came
        XCTAssertNil(cached(5))
        cache.update(row(1, version: 2))
        XCTAssertEqual(cached(1), 2, "the announced version answers")
        cache.retain(row(5, version: 2))
        XCTAssertEqual(cached(5), 2)
        cache.invalidate(nil) { $0.objectID.primaryKey == 2 }
        XCTAssertNil(cached(2), "a notice naming no records invalidates every row it may concern")
        XCTAssertEqual(cached(1), 2)
    }

    /// Rows a fetch hands over give their values to the cache: none left in the rows, the
    /// cached ones whole, and a second retain of a row the cache has counts one more reference.
    func testRowsHandedOverMoveTheirValuesIntoTheCache() throws {
        let entity = NSEntityDescription(name: "Thing", properties: [])
        let cache = RowCache()
        var rows = (1...3).map { StoreRow(objectID: NSManagedObjectID(entity: entity, store: nil, primaryKey: $0), values: [.integer($0), .string("v\($0)")], version: 1) }
        cache.retain(movingValuesOf: &rows, at: [0, 2], at: 0)
        XCTAssertEqual(rows.map(\.values.count), [0, 2, 0], "the rows held gave up their values; the other kept its own")
        XCTAssertEqual(cache.count, 2)
        let cached = try XCTUnwrap(cache.row(for: NSManagedObjectID(entity: entity, store: nil, primaryKey: 3).key, stalenessInterval: -1))
        XCTAssertEqual(cached.values.count, 2)
        XCTAssertTrue(cached.values[1].isSame(as: .string("v3")))
        XCTAssertEqual(cached.version, 1)

        var again = [StoreRow(objectID: NSManagedObjectID(entity: entity, store: nil, primaryKey: 3), values: [.integer(30), .null], version: 2)]
        cache.retain(movingValuesOf: &again, at: [0], at: 0)
        let newer = try XCTUnwrap(cache.row(for: again[0].key, stalenessInterval: -1))
        XCTAssertEqual(newer.version, 2, "a newer row replaces the cached one")
        XCTAssertTrue(newer.values[0].isSame(as: .integer(30)))
        cache.release(again[0].key)
        XCTAssertNotNil(cache.row(for: again[0].key, stalenessInterval: -1), "two references were taken; one is left")
        cache.release(again[0].key)
        XCTAssertNil(cache.row(for: again[0].key, stalenessInterval: -1))
    }
}

/// An Item whose `awakeFromFetch` runs a test's hook.
final class AwakeHookItem: NSManagedObject {
    nonisolated(unsafe) static var onAwakeFromFetch: ((NSManagedObject) -> Void)?
    override func awakeFromFetch() {
        super.awakeFromFetch()
        Self.onAwakeFromFetch?(self)
    }
}
