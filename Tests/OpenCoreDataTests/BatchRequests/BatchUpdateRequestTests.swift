import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// NSBatchUpdateRequest (Core Data Batch Programming Guide, "Implementing Batch Updates"):
/// attributes change in the store without a context, with constants or expressions; versions
/// go up, so optimistic locking notices; contexts see the values when they merge the IDs.
/// Every check runs on a SQLite store in a file and one at `/dev/null`.
final class BatchUpdateRequestTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-batch-update")
    }

    private func stacks() throws -> [TestStack] {
        try sqliteFileAndMemoryStacks(CompanyModel.make(), in: directory)
    }

    private func seed(_ stack: TestStack) throws {
        try stack.context.performAndWait {
            let sales = stack.department("Sales")
            for (name, salary) in [("Ann", 100), ("Bob", 200), ("Cy", 300)] as [(String, Int64)] {
                stack.employee(name, salary: salary).department = name == "Cy" ? nil : sales
            }
            try stack.context.save()
        }
    }

    /// First name → salary, last name, read by a fresh context.
    private func employees(_ stack: TestStack) throws -> [String: (Int64, String?)] {
        let context = stack.newContext()
        return try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).map { ($0.firstName ?? "?", ($0.salary, $0.lastName)) })
        }
    }

    func testConstantsReachTheMatchingRecords() throws {
        for stack in try stacks() {
            try seed(stack)
            let request = NSBatchUpdateRequest(entityName: "Employee")
            request.predicate = NSPredicate(format: "salary >= %d", 200)
            request.propertiesToUpdate = ["lastName": "Senior", "salary": 999]
            let result = try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchUpdateResult }
            XCTAssertEqual(result?.resultType, .statusOnlyResultType)
            XCTAssertEqual(result?.result as? Bool, true)
            let after = try employees(stack)
            XCTAssertEqual(after["Ann"]?.0, 100); XCTAssertNil(after["Ann"]?.1)
            XCTAssertEqual(after["Bob"]?.0, 999); XCTAssertEqual(after["Bob"]?.1, "Senior")
            XCTAssertEqual(after["Cy"]?.0, 999)
        }
    }

    func testExpressionsUseEachRecordsValuesBeforeTheUpdate() throws {
        for stack in try stacks() {
            try seed(stack)
            let request = NSBatchUpdateRequest(entity: stack.model.entitiesByName["Employee"]!)
            request.propertiesToUpdate = ["salary": NSExpression(format: "salary * 2 + 1"), "lastName": NSExpression(forKeyPath: "firstName")]
            request.resultType = .updatedObjectsCountResultType
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchUpdateResult }?.result as? Int, 3)
            let after = try employees(stack)
            XCTAssertEqual(after["Ann"]?.0, 201); XCTAssertEqual(after["Ann"]?.1, "Ann")
            XCTAssertEqual(after["Cy"]?.0, 601)
        }
    }

    func testAnExpressionMayFollowAToOneRelationship() throws {
        for stack in try stacks() {
            try seed(stack)
            let request = NSBatchUpdateRequest(entityName: "Employee")
            request.propertiesToUpdate = ["lastName": NSExpression(forKeyPath: "department.name")]
            _ = try stack.context.performAndWait { try stack.context.execute(request) }
            let after = try employees(stack)
            XCTAssertEqual(after["Ann"]?.1, "Sales")
            XCTAssertNil(after["Cy"]?.1, "no department: nil")
        }
    }

    func testAPredicateThroughARelationshipSelectsTheRecords() throws {
        for stack in try stacks() {
            try seed(stack)
            let request = NSBatchUpdateRequest(entityName: "Employee")
            request.predicate = NSPredicate(format: "department.name == %@", "Sales")
            request.propertiesToUpdate = ["lastName": NSNull()]
            request.resultType = .updatedObjectIDsResultType
            let ids = try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchUpdateResult }?.result as? [NSManagedObjectID]
            XCTAssertEqual(ids?.count, 2)
        }
    }

    func testNothingMatchingStillReportsTheRequestRan() throws {
        for stack in try stacks() {
            try seed(stack)
            let request = NSBatchUpdateRequest(entityName: "Employee")
            request.predicate = NSPredicate(format: "salary > 10000")
            request.propertiesToUpdate = ["salary": 1]
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchUpdateResult }?.result as? Bool, true, "Apple's status: the request ran")
            request.resultType = .updatedObjectsCountResultType
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchUpdateResult }?.result as? Int, 0)
            request.resultType = .updatedObjectIDsResultType
            XCTAssertEqual((try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchUpdateResult }?.result as? [NSManagedObjectID])?.count, 0)
        }
    }

    func testIncludesSubentitiesFalseLeavesSubentityRecords() throws {
        for stack in try stacks() {
            try stack.saveEmployeeAndManager()
            let request = NSBatchUpdateRequest(entityName: "Employee")
            request.includesSubentities = false
            request.propertiesToUpdate = ["lastName": "Plain"]
            _ = try stack.context.performAndWait { try stack.context.execute(request) }
            let after = try employees(stack)
            XCTAssertEqual(after["Ann"]?.1, "Plain")
            XCTAssertNil(after["Max"]?.1)
        }
    }

    func testAnObjectChangedBeforeTheUpdateFailsItsSaveUnderTheErrorPolicy() throws {
        for stack in try stacks() {
            try seed(stack)
            let editor = stack.newContext()
            let ann = try editor.performAndWait { try XCTUnwrap(editor.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first { $0.firstName == "Ann" }) }
            let request = NSBatchUpdateRequest(entityName: "Employee")
            request.propertiesToUpdate = ["salary": 5]
            _ = try stack.context.performAndWait { try stack.context.execute(request) }
            let error = thrownError { try editor.performAndWait { ann.lastName = "Edited"; try editor.save() } }
            XCTAssertEqual(error?.code, NSManagedObjectMergeError, "the batch update raised the record's version")
        }
    }

    func testMergingTheIDsShowsTheNewValues() throws {
        for stack in try stacks() {
            try seed(stack)
            let viewer = stack.newContext()
            let ann = try viewer.performAndWait { try XCTUnwrap(viewer.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first { $0.firstName == "Ann" }) }
            let request = NSBatchUpdateRequest(entityName: "Employee")
            request.propertiesToUpdate = ["salary": 7]
            request.resultType = .updatedObjectIDsResultType
            let ids = try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchUpdateResult }?.result as? [NSManagedObjectID] ?? []
            XCTAssertEqual(viewer.performAndWait { ann.salary }, 100, "not merged yet")
            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [viewer])
            XCTAssertEqual(viewer.performAndWait { ann.salary }, 7)
        }
    }

    func testTheCoordinatorRunsABatchRequestForAContext() throws {
        for stack in try stacks() {
            try seed(stack)
            let request = NSBatchUpdateRequest(entityName: "Employee")
            request.propertiesToUpdate = ["salary": 42]
            request.resultType = .updatedObjectsCountResultType
            XCTAssertEqual((try stack.coordinator.execute(request, with: stack.context) as? NSBatchUpdateResult)?.result as? Int, 3)
            XCTAssertEqual(try employees(stack)["Cy"]?.0, 42)
        }
    }

    func testTheInMemoryStoreRefusesBatchRequestsAsApplesDoes() throws {
        let stack = TestStack()
        let request = NSBatchUpdateRequest(entityName: "Employee")
        request.propertiesToUpdate = ["salary": 1]
        XCTAssertEqual(thrownError { _ = try stack.context.performAndWait { try stack.context.execute(request) } }?.code, NSPersistentStoreUnsupportedRequestTypeError)
    }

    func testBadRequestsThrowAndChangeNothing() throws {
        for stack in try stacks() {
            try seed(stack)
            func code(_ configure: (NSBatchUpdateRequest) -> Void) -> Int? {
                let request = NSBatchUpdateRequest(entityName: "Employee")
                configure(request)
                return thrownError { _ = try stack.context.performAndWait { try stack.context.execute(request) } }?.code
            }
            XCTAssertEqual(code { _ in }, NSPersistentStoreSaveError, "no propertiesToUpdate")
            XCTAssertEqual(code { $0.propertiesToUpdate = [:] }, NSPersistentStoreSaveError)
            XCTAssertEqual(code { $0.propertiesToUpdate = ["nope": 1] }, NSPersistentStoreOperationError)
            XCTAssertEqual(code { $0.propertiesToUpdate = ["department": NSNull()] }, NSPersistentStoreOperationError, "relationships can't be set")
            XCTAssertEqual(code { $0.propertiesToUpdate = ["salary": "lots"] }, NSManagedObjectValidationError)
            XCTAssertEqual(code { $0.propertiesToUpdate = ["salary": NSExpression(format: "firstName")] }, NSManagedObjectValidationError)
            let unknown = NSBatchUpdateRequest(entityName: "Nope")
            unknown.propertiesToUpdate = ["x": 1]
            XCTAssertNotNil(thrownError { _ = try stack.context.performAndWait { try stack.context.execute(unknown) } })
            XCTAssertEqual(try employees(stack)["Bob"]?.0, 200)
        }
    }
}
