import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Batch deletes and updates of records without relationships: the SQLite store runs these as
/// one SQL statement, and the answers must be those of the general path — the same records
/// chosen by predicate, order, limit and sub-entities, the same counts and IDs, versions raised,
/// and no stale values for any context that reads the records afterwards.
final class BatchRequestsOnPlainRecordsTests: XCTestCase {
    private var stack: TestStack!

    /// Reading (`value` Integer 64, indexed; `sensor` String), CalibratedReading inherits it.
    override func setUpWithError() throws {
        let reading = NSEntityDescription(name: "Reading"), calibrated = NSEntityDescription(name: "CalibratedReading")
        let value = NSAttributeDescription(name: "value", type: .integer64AttributeType, defaultValue: 0)
        value.isIndexed = true
        reading.properties = [value, NSAttributeDescription(name: "sensor", type: .stringAttributeType)]
        calibrated.properties = [NSAttributeDescription(name: "offset", type: .doubleAttributeType, defaultValue: 0.0)]
        reading.subentities = [calibrated]
        let model = NSManagedObjectModel()
        model.entities = [reading, calibrated]
        let url = try makeTemporaryDirectory("ocd-batch-plain").appendingPathComponent("Readings.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        stack = TestStack(model: model, coordinator: coordinator, context: newContext(coordinator))
        let readings: [[String: Any]] = (1...6).map { ["value": Int64($0 * 10), "sensor": $0 % 2 == 0 ? "even" : "odd"] }
        try stack.context.performAndWait {
            _ = try stack.context.execute(NSBatchInsertRequest(entityName: "Reading", objects: readings))
            _ = try stack.context.execute(NSBatchInsertRequest(entityName: "CalibratedReading", objects: [["value": Int64(70), "sensor": "odd"]]))
        }
    }

    private func values(_ entity: String = "Reading") throws -> [Int64] {
        let context = stack.newContext()
        return try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)).map { $0.value(forKey: "value") as! Int64 }.sorted()
        }
    }

    private func execute<Result: NSPersistentStoreResult>(_ request: NSPersistentStoreRequest, as: Result.Type) throws -> Result? {
        try stack.context.performAndWait { try stack.context.execute(request) as? Result }
    }

    func testADeleteByPredicateCountsAndListsTheRecords() throws {
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Reading")
        fetch.predicate = NSPredicate(format: "sensor == %@", "odd")
        let request = NSBatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeObjectIDs
        let ids = try execute(request, as: NSBatchDeleteResult.self)?.result as? [NSManagedObjectID] ?? []
        XCTAssertEqual(ids.count, 4, "10, 30, 50 and the calibrated 70")
        XCTAssertEqual(Set(ids.map { $0.entity.name ?? "" }), ["Reading", "CalibratedReading"])
        XCTAssertEqual(try values(), [20, 40, 60])
    }

    func testADeleteWithOrderAndLimitTakesTheFirstRecords() throws {
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Reading")
        fetch.sortDescriptors = [NSSortDescriptor(key: "value", ascending: false)]
        fetch.fetchLimit = 2
        fetch.fetchOffset = 1
        let request = NSBatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeCount
        XCTAssertEqual(try execute(request, as: NSBatchDeleteResult.self)?.result as? Int, 2)
        XCTAssertEqual(try values(), [10, 20, 30, 40, 70], "60 and 50, after skipping 70")
    }

    func testADeleteWithoutSubentitiesKeepsTheirRecords() throws {
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Reading")
        fetch.includesSubentities = false
        _ = try execute(NSBatchDeleteRequest(fetchRequest: fetch), as: NSBatchDeleteResult.self)
        XCTAssertEqual(try values(), [70])
    }

    func testAnUpdateSetsConstantsAndRaisesVersions() throws {
        let editor = stack.newContext()
        let first = try editor.performAndWait { try XCTUnwrap(editor.fetch(NSFetchRequest<NSManagedObject>(entityName: "Reading")).first { ($0.value(forKey: "value") as? Int64) == 10 }) }
        let request = NSBatchUpdateRequest(entityName: "Reading")
        request.predicate = NSPredicate(format: "value < %d", 35)
        request.propertiesToUpdate = ["sensor": "low", "value": 1]
        request.resultType = .updatedObjectIDsResultType
        XCTAssertEqual((try execute(request, as: NSBatchUpdateResult.self)?.result as? [NSManagedObjectID])?.count, 3)
        XCTAssertEqual(try values(), [1, 1, 1, 40, 50, 60, 70])
        let error = thrownError { try editor.performAndWait { first.setValue("mine", forKey: "sensor"); try editor.save() } }
        XCTAssertEqual(error?.code, NSManagedObjectMergeError, "the record's version went up")
    }

    func testAContextReadingAfterAStatusOnlyUpdateSeesTheNewValues() throws {
        // A context holds the record, so the coordinator keeps its row cached.
        let holder = stack.newContext()
        let held = try holder.performAndWait { () -> NSManagedObject in
            let object = try XCTUnwrap(holder.fetch(NSFetchRequest<NSManagedObject>(entityName: "Reading")).first)
            XCTAssertNotNil(object.value(forKey: "sensor"))
            return object
        }
        let id = held.objectID
        let request = NSBatchUpdateRequest(entityName: "Reading")
        request.propertiesToUpdate = ["sensor": "batch"]
        XCTAssertEqual(try execute(request, as: NSBatchUpdateResult.self)?.result as? Bool, true)
        let reader = stack.newContext()
        XCTAssertEqual(reader.performAndWait { reader.object(with: id).value(forKey: "sensor") as? String }, "batch",
                       "a fault fired after the update reads the store, not a cached row")
        withExtendedLifetime((holder, held)) {}
    }
}
