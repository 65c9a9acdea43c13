@testable import OpenCoreData
import XCTest

/// `relationshipKeyPathsForPrefetching` on the SQLite store: the targets of each key-path step
/// load with one batched store read for all fetched objects — one-to-many (Department →
/// employees), many-to-many (Employee ⇄ projects) and two steps (employees.projects) — and
/// reading them afterwards needs no store access. Uses `@testable` for the coordinator's
/// round-trip counter, which Apple does not expose.
final class SQLitePrefetchingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-prefetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// 10 departments of 5 employees; each employee works on 2 of 4 projects.
    private func seeded() throws -> TestStack {
        let model = CompanyModel.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Company.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let stack = TestStack(model: model, coordinator: coordinator, context: context)
        try context.performAndWait {
            let projects = (0..<4).map { i -> Project in
                let p = Project(context: context)
                p.title = "P\(i)"
                return p
            }
            for d in 0..<10 {
                let department = stack.department("D\(d)")
                for e in 0..<5 {
                    let employee = stack.employee("E\(d)-\(e)")
                    employee.department = department
                    employee.projects = [projects[e % 4], projects[(e + 1) % 4]]
                }
            }
            try context.save()
            context.reset()
        }
        return stack
    }

    func testOneToManyTargetsLoadInOneRead() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Department>(entityName: "Department")
            request.relationshipKeyPathsForPrefetching = ["employees"]
            let before = stack.coordinator.storeRoundTrips
            let departments = try stack.context.fetch(request)
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 1, "one batched read for the 50 employees")
            XCTAssertEqual(departments.flatMap { $0.employees.compactMap(\.firstName) }.count, 50)
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 1, "the employees were loaded with the fetch")
        }
    }

    func testManyToManyTargetsLoadInOneRead() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.relationshipKeyPathsForPrefetching = ["projects"]
            let before = stack.coordinator.storeRoundTrips
            let employees = try stack.context.fetch(request)
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 1, "one batched read for the 4 projects")
            XCTAssertEqual(employees.map { $0.projects.compactMap(\.title).count }.reduce(0, +), 100)
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 1, "the projects were loaded with the fetch")
        }
    }

    func testEachStepOfAKeyPathIsOneRead() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Department>(entityName: "Department")
            request.relationshipKeyPathsForPrefetching = ["employees.projects"]
            let before = stack.coordinator.storeRoundTrips
            let departments = try stack.context.fetch(request)
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 2, "employees, then projects")
            let titles = Set(departments.flatMap { $0.employees.flatMap { $0.projects.compactMap(\.title) } })
            XCTAssertEqual(titles, ["P0", "P1", "P2", "P3"])
            XCTAssertEqual(stack.coordinator.storeRoundTrips - before, 2)
        }
    }
}
