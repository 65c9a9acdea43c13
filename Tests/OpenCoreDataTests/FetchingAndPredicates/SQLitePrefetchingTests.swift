import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `relationshipKeyPathsForPrefetching` on the SQLite store: the targets of each key-path step
/// load with one batched store read for all fetched objects — one-to-many (Department →
/// employees), many-to-many (Employee ⇄ projects) and two steps (employees.projects) — and
/// reading them afterwards needs no store access. Uses `@testable` for the coordinator's
/// round-trip counter, which Apple does not expose.
final class SQLitePrefetchingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-prefetch")
    }

    /// 10 departments of 5 employees; each employee works on 2 of 4 projects.
    private func seeded() throws -> TestStack {
        let stack = try TestStack(sqliteAt: directory.appendingPathComponent("Company.sqlite"))
        let context = stack.context
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
            let names = try stack.fetch(request, roundTrips: 1, "one batched read for the 50 employees") { departments in
                departments.flatMap { $0.employees.compactMap(\.firstName) }
            }
            XCTAssertEqual(names.count, 50)
        }
    }

    func testManyToManyTargetsLoadInOneRead() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.relationshipKeyPathsForPrefetching = ["projects"]
            let titles = try stack.fetch(request, roundTrips: 1, "one batched read for the 4 projects") { employees in
                employees.map { $0.projects.compactMap(\.title).count }.reduce(0, +)
            }
            XCTAssertEqual(titles, 100)
        }
    }

    func testEachStepOfAKeyPathIsOneRead() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Department>(entityName: "Department")
            request.relationshipKeyPathsForPrefetching = ["employees.projects"]
            let titles = try stack.fetch(request, roundTrips: 2, "employees, then projects") { departments in
                Set(departments.flatMap { $0.employees.flatMap { $0.projects.compactMap(\.title) } })
            }
            XCTAssertEqual(titles, ["P0", "P1", "P2", "P3"])
        }
    }
}
