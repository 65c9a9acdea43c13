@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// A fetch on the SQLite store translates its request to SQL once: the store's answer to
/// "do you evaluate this?" and the fetch itself share the translation (the store's
/// `fetchTranslations`, through `@testable`), also when the context corrects the store's rows
/// for pending changes and asks for them in key order instead of the request's.
final class SQLiteFetchTranslationTests: XCTestCase {
    private func seeded() throws -> TestStack {
        let directory = try makeTemporaryDirectory("ocd-translate")
        let stack = try TestStack(sqliteAt: directory.appendingPathComponent("Company.sqlite"))
        try stack.context.performAndWait {
            for (name, salary) in [("Ann", 300), ("Bob", 100), ("Cat", 200)] { _ = stack.employee(name, salary: Int64(salary)) }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    private func translations(_ stack: TestStack) -> Int {
        (stack.coordinator.persistentStores[0] as! SQLiteStore).fetchTranslations
    }

    private func request() -> NSFetchRequest<Employee> {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = NSPredicate(format: "salary >= %d", 200)
        request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]
        return request
    }

    func testAFetchTranslatesItsRequestOnce() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let before = translations(stack)
            XCTAssertEqual(try stack.context.fetch(request()).map(\.firstName), ["Cat", "Ann"])
            XCTAssertEqual(translations(stack), before + 1)
            XCTAssertEqual(try stack.context.count(for: request()), 2)
            XCTAssertEqual(translations(stack), before + 2, "a count is one more request, translated once")
        }
    }

    func testAFetchCorrectedForPendingChangesIsTranslatedOnceToo() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let bob = try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first { $0.firstName == "Bob" }!
            bob.salary = 250
            let before = translations(stack)
            // The store's answer is corrected in memory: the rows come as candidates, in key
            // order without the request's ORDER BY and LIMIT, from the same translation.
            XCTAssertEqual(try stack.context.fetch(request()).map(\.firstName), ["Cat", "Bob", "Ann"])
            XCTAssertEqual(translations(stack), before + 1, "one preparation serves the candidates the context corrects")
        }
    }
}
