import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// NSBatchInsertRequest: records from dictionaries, a dictionary handler or a managed-object
/// handler, defaults for what is missing, no relationships; uniqueness constraints resolved by
/// the executing context's merge policy (Apple's "upsert" under object trump). Every check runs
/// on a SQLite store in a file and one at `/dev/null` (in memory).
final class BatchInsertRequestTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-batch-insert")
    }

    /// Company's model plus Quake (unique `code`, `magnitude` Double default 1.5, `place`).
    private static func makeModel() -> NSManagedObjectModel {
        let model = CompanyModel.make()
        let quake = NSEntityDescription(name: "Quake")
        quake.properties = [NSAttributeDescription(name: "code", type: .stringAttributeType),
                            NSAttributeDescription(name: "magnitude", type: .doubleAttributeType, defaultValue: 1.5),
                            NSAttributeDescription(name: "place", type: .stringAttributeType)]
        quake.uniquenessConstraints = [["code"]]
        model.entities += [quake]
        return model
    }

    private func stacks() throws -> [TestStack] {
        try sqliteFileAndMemoryStacks(Self.makeModel(), in: directory)
    }

    /// code → (magnitude, place), read by a fresh context.
    private func quakes(_ stack: TestStack) throws -> [String: (Double, String?)] {
        let context = stack.newContext()
        return try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake")).map {
                ($0.value(forKey: "code") as? String ?? "?", ($0.value(forKey: "magnitude") as? Double ?? -1, $0.value(forKey: "place") as? String))
            })
        }
    }

    private func execute(_ request: NSBatchInsertRequest, in stack: TestStack, policy: NSMergePolicy = .error) throws -> NSBatchInsertResult? {
        try stack.context.performAndWait {
            stack.context.mergePolicy = policy
            return try stack.context.execute(request) as? NSBatchInsertResult
        }
    }

    func testDictionariesBecomeRecordsWithDefaultsForMissingAttributes() throws {
        for stack in try stacks() {
            let request = NSBatchInsertRequest(entityName: "Quake", objects: [["code": "a", "magnitude": 4.5, "place": "Here"], ["code": "b"]])
            request.resultType = .objectIDs
            let ids = try execute(request, in: stack)?.result as? [NSManagedObjectID]
            XCTAssertEqual(ids?.count, 2)
            XCTAssertFalse(ids?.contains(where: \.isTemporaryID) ?? true)
            let stored = try quakes(stack)
            XCTAssertEqual(stored["a"]?.0, 4.5); XCTAssertEqual(stored["a"]?.1, "Here")
            XCTAssertEqual(stored["b"]?.0, 1.5, "the model's default"); XCTAssertNil(stored["b"]?.1)
            // The IDs name the records.
            let check = stack.newContext()
            XCTAssertEqual(try check.performAndWait { try check.existingObject(with: ids![0]).value(forKey: "code") as? String }, "a")
        }
    }

    func testADictionaryHandlerFillsRecordsUntilItReturnsTrue() throws {
        for stack in try stacks() {
            var next = 0
            let request = NSBatchInsertRequest(entity: stack.model.entitiesByName["Quake"]!, dictionaryHandler: { dictionary in
                guard next < 5 else { return true }
                dictionary["code"] = "q\(next)"
                dictionary["magnitude"] = Double(next)
                next += 1
                return false
            })
            request.resultType = .count
            XCTAssertEqual(try execute(request, in: stack)?.result as? Int, 5)
            XCTAssertEqual(try quakes(stack).keys.sorted(), ["q0", "q1", "q2", "q3", "q4"])
        }
    }

    func testADictionaryHandlersNumbersConvertAsApplesDo() throws {
        for stack in try stacks() {
            var next = 0
            let request = NSBatchInsertRequest(entityName: "Employee", dictionaryHandler: { dictionary in
                guard next < 2 else { return true }
                dictionary["firstName"] = "E\(next)"
                dictionary["salary"] = next == 0 ? 7 as Int64 : 7.9 as Double  // an Integer 64 takes a Double cut toward zero
                next += 1
                return false
            })
            _ = try execute(request, in: stack)
            let check = stack.newContext()
            XCTAssertEqual(try check.performAndWait { try check.fetch(NSFetchRequest<Employee>(entityName: "Employee")).map(\.salary) }, [7, 7])
            let badKey = NSBatchInsertRequest(entityName: "Employee", dictionaryHandler: { dictionary in
                dictionary[NSNumber(value: 1)] = "x"
                return false
            })
            XCTAssertEqual(thrownError { _ = try self.execute(badKey, in: stack) }?.code, NSPersistentStoreOperationError)
        }
    }

    func testAManagedObjectHandlerFillsObjectsOfTheEntitysClass() throws {
        for stack in try stacks() {
            var names = ["Ann", "Bob"][...]
            var sawEmployeeClass = true
            let request = NSBatchInsertRequest(entityName: "Employee", managedObjectHandler: { object in
                guard let name = names.popFirst() else { return true }
                guard let employee = object as? Employee else { sawEmployeeClass = false; return true }
                employee.firstName = name
                employee.salary = 50
                return false
            })
            XCTAssertEqual(try execute(request, in: stack)?.result as? Bool, true)
            XCTAssertTrue(sawEmployeeClass)
            let check = stack.newContext()
            let stored = try check.performAndWait { try check.fetch(NSFetchRequest<Employee>(entityName: "Employee")).map { "\($0.firstName ?? "?") \($0.salary)" }.sorted() }
            XCTAssertEqual(stored, ["Ann 50", "Bob 50"])
        }
    }

    func testUniquenessConflictsFollowTheContextsMergePolicy() throws {
        for stack in try stacks() {
            _ = try execute(NSBatchInsertRequest(entityName: "Quake", objects: [["code": "a", "magnitude": 1.0, "place": "Old"]]), in: stack)
            let incoming: [[String: Any]] = [["code": "a", "magnitude": 9.0], ["code": "b", "magnitude": 2.0]]

            // Apple's store inserts with OR IGNORE unless the policy lets new values win.
            for policy in [NSMergePolicy.error, .mergeByPropertyStoreTrump, .rollback] {
                let keeping = NSBatchInsertRequest(entityName: "Quake", objects: incoming)
                keeping.resultType = .count
                XCTAssertEqual(try execute(keeping, in: stack, policy: policy)?.result as? Int, policy === NSMergePolicy.error ? 1 : 0)
                XCTAssertEqual(try quakes(stack)["a"]?.0, 1.0, "the stored record stays")
            }
            XCTAssertEqual(try quakes(stack).count, 2)

            let upsert = NSBatchInsertRequest(entityName: "Quake", objects: [["code": "a", "magnitude": 9.0], ["code": "c"]])
            upsert.resultType = .objectIDs
            let ids = try execute(upsert, in: stack, policy: .mergeByPropertyObjectTrump)?.result as? [NSManagedObjectID]
            XCTAssertEqual(ids?.count, 2, "the new record and the upserted one")
            let stored = try quakes(stack)
            XCTAssertEqual(stored.count, 3)
            XCTAssertEqual(stored["a"]?.0, 9.0, "object trump gives the stored record the values given")
            XCTAssertEqual(stored["a"]?.1, "Old", "and only those: an attribute the dictionary left out stays")
            let overwrite = NSBatchInsertRequest(entityName: "Quake", objects: [["code": "a", "place": "New"]])
            _ = try execute(overwrite, in: stack, policy: .overwrite)
            XCTAssertEqual(try quakes(stack)["a"]?.1, "New")
        }
    }

    func testDuplicatesWithinOneRequest() throws {
        for stack in try stacks() {
            let twice: [[String: Any]] = [["code": "d", "magnitude": 1.0], ["code": "d", "magnitude": 2.0, "place": "There"]]
            _ = try execute(NSBatchInsertRequest(entityName: "Quake", objects: twice), in: stack)
            XCTAssertEqual(try quakes(stack)["d"]?.0, 1.0, "the first one stays under the error policy")
            let again: [[String: Any]] = [["code": "e", "magnitude": 1.0, "place": "Here"], ["code": "e", "magnitude": 2.0]]
            _ = try execute(NSBatchInsertRequest(entityName: "Quake", objects: again), in: stack, policy: .mergeByPropertyObjectTrump)
            XCTAssertEqual(try quakes(stack)["e"]?.0, 2.0, "the later values win under object trump")
            XCTAssertEqual(try quakes(stack)["e"]?.1, "Here", "over the earlier row's")
        }
    }

    func testNullTakesTheDefaultAndARequiredAttributeWithoutOneIsRefused() throws {
        for stack in try stacks() {
            _ = try execute(NSBatchInsertRequest(entityName: "Quake", objects: [["code": "n", "magnitude": NSNull()]]), in: stack)
            XCTAssertEqual(try quakes(stack)["n"]?.0, 1.5)
            let error = thrownError { _ = try self.execute(NSBatchInsertRequest(entityName: "Employee", objects: [["salary": 5]]), in: stack) }
            XCTAssertEqual(error?.code, NSValidationMissingMandatoryPropertyError, "firstName is required and has no default")
        }
    }

    func testTheInMemoryStoreRefusesBatchRequestsAsApplesDoes() throws {
        let stack = TestStack()
        XCTAssertEqual(thrownError { _ = try self.execute(NSBatchInsertRequest(entityName: "Employee", objects: [["firstName": "A"]]), in: stack) }?.code,
                       NSPersistentStoreUnsupportedRequestTypeError)
    }

    func testBadValuesAndRelationshipsAreRefused() throws {
        for stack in try stacks() {
            XCTAssertEqual(thrownError { _ = try self.execute(NSBatchInsertRequest(entityName: "Quake", objects: [["code": 12]]), in: stack) }?.code,
                           NSManagedObjectValidationError)
            XCTAssertEqual(thrownError { _ = try self.execute(NSBatchInsertRequest(entityName: "Quake", objects: [["depth": 1]]), in: stack) }?.code,
                           NSPersistentStoreOperationError)
            XCTAssertEqual(thrownError { _ = try self.execute(NSBatchInsertRequest(entityName: "Employee", objects: [["department": NSNull()]]), in: stack) }?.code,
                           NSPersistentStoreOperationError)
            XCTAssertNotNil(thrownError { _ = try self.execute(NSBatchInsertRequest(entityName: "Nope", objects: []), in: stack) })
            XCTAssertEqual(try quakes(stack).count, 0)
        }
    }

    func testAnEmptyRequestInsertsNothing() throws {
        for stack in try stacks() {
            let request = NSBatchInsertRequest(entityName: "Quake", objects: [])
            request.resultType = .count
            XCTAssertEqual(try execute(request, in: stack)?.result as? Int, 0)
        }
    }
}
