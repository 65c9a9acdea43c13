@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Which batch requests the SQLite store runs as one SQL statement (`batchRequestsInSQL`):
/// exact predicates over records without relationships, constants in updates; everything else
/// goes through the rows path.
final class SQLiteBatchRequestTests: XCTestCase {
    func testPlainRecordsGoToSQLAndRelationshipsToRows() throws {
        let directory = try makeTemporaryDirectory("ocd-batch-sql")
        let stack = try TestStack(sqliteAt: directory.appendingPathComponent("Company.sqlite"))
        let store = stack.coordinator.persistentStores[0] as! SQLiteStore
        try stack.context.performAndWait {
            _ = stack.employee("Ann")
            let badge = NSEntityDescription.insertNewObject(forEntityName: "Badge", into: stack.context)
            badge.setValue("A1", forKey: "code")
            try stack.context.save()

            let employees = NSBatchUpdateRequest(entityName: "Employee")
            employees.propertiesToUpdate = ["lastName": "X"]
            _ = try stack.context.execute(employees)
            XCTAssertEqual(store.batchRequestsInSQL, 1, "an update needs no delete rules: SQL")

            let byExpression = NSBatchUpdateRequest(entityName: "Employee")
            byExpression.propertiesToUpdate = ["lastName": NSExpression(forKeyPath: "firstName")]
            _ = try stack.context.execute(byExpression)
            XCTAssertEqual(store.batchRequestsInSQL, 1, "values per record: rows")

            _ = try stack.context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Employee")))
            XCTAssertEqual(store.batchRequestsInSQL, 1, "Employee has relationships (delete rules): rows")

            let predicate = NSFetchRequest<NSFetchRequestResult>(entityName: "Project")
            predicate.predicate = NSPredicate { _, _ in true }
            _ = try stack.context.execute(NSBatchDeleteRequest(fetchRequest: predicate))
            XCTAssertEqual(store.batchRequestsInSQL, 1, "a predicate SQL can't decide: rows")
        }
    }

    func testRecordsWithoutRelationshipsAreDeletedInSQL() throws {
        let entity = NSEntityDescription(name: "Note")
        entity.properties = [NSAttributeDescription(name: "text", type: .stringAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: URL(fileURLWithPath: "/dev/null"), options: nil)
        let context = newContext(coordinator)
        let store = coordinator.persistentStores[0] as! SQLiteStore
        try context.performAndWait {
            _ = try context.execute(NSBatchInsertRequest(entityName: "Note", objects: [["text": "a"], ["text": "b"]]))
            let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Note"))
            request.resultType = .resultTypeCount
            XCTAssertEqual((try context.execute(request) as? NSBatchDeleteResult)?.result as? Int, 2)
            XCTAssertEqual(store.batchRequestsInSQL, 1)
        }
    }
}
