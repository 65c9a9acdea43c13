@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `.managedObjectIDResultType` on the SQLite store: when the store evaluates the request and
/// the context has no pending changes, the IDs come from `SELECT Z_PK, Z_ENT` — sorted and
/// limited in SQL, no rows read (the coordinator's `rowFetches`, through `@testable`); with pending changes the context's
/// view (inserted objects included, deleted ones left out) is still what comes back.
final class SQLiteObjectIDResultTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-ids")
    }

    private func seeded() throws -> TestStack {
        let stack = try TestStack(sqliteAt: directory.appendingPathComponent("Company.sqlite"))
        let context = stack.context
        try context.performAndWait {
            for (name, salary) in [("Ann", 300), ("Bob", 100), ("Cat", 200), ("Dan", 400)] { _ = stack.employee(name, salary: Int64(salary)) }
            try context.save()
            context.reset()
        }
        return stack
    }

    private func idRequest() -> NSFetchRequest<NSManagedObjectID> {
        let request = NSFetchRequest<NSManagedObjectID>(entityName: "Employee")
        request.resultType = .managedObjectIDResultType
        request.predicate = NSPredicate(format: "salary >= %d", 200)
        request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: false)]
        request.fetchLimit = 2
        return request
    }

    func testIDsComeFromTheStoreWithoutRegisteringObjects() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let before = stack.coordinator.rowFetches
            let ids = try stack.context.fetch(idRequest())
            XCTAssertEqual(stack.coordinator.rowFetches, before, "only IDs were listed, no rows read")
            XCTAssertTrue(stack.context.registeredObjects.isEmpty)
            XCTAssertEqual(ids.map { (stack.context.object(with: $0) as! Employee).firstName }, ["Dan", "Ann"])
        }
    }

    func testPendingChangesStillCount() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let dan = try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first { $0.firstName == "Dan" }!
            stack.context.delete(dan)
            let eve = stack.employee("Eve", salary: 250)
            let ids = try stack.context.fetch(idRequest())
            XCTAssertEqual(ids.map { (stack.context.object(with: $0) as! Employee).firstName }, ["Ann", "Eve"])
            XCTAssertEqual(ids.last, eve.objectID)
        }
    }
}
