import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class PredicateEvaluationTests: XCTestCase {
    private let ann: [String: Any] = ["name": "Ann", "age": 30, "tags": ["swift", "linux"], "city": "Zürich", "score": 2.5]

    private func check(_ format: String, _ args: Any..., on object: Any?, is expected: Bool, file: StaticString = #filePath, line: UInt = #line) {
        let p = (try? NSPredicate(validatingFormat: format, argumentArray: args))
        XCTAssertNotNil(p, "\(format) should parse", file: file, line: line)
        guard let p else { return }
        do {
            let result = try p.evaluateThrowing(with: object)
            XCTAssertEqual(result, expected, format, file: file, line: line)
        } catch {
            XCTFail("\(format) threw \(error.localizedDescription)", file: file, line: line)
        }
    }

    func testEqualityAndOrdering() {
        check("age == 30", on: ann, is: true)
        check("age == 31", on: ann, is: false)
        check("age = 30.0", on: ann, is: true)
        check("age != 30", on: ann, is: false)
        check("age > 29 AND age < 31", on: ann, is: true)
        check("age >= 30 AND age <= 30", on: ann, is: true)
        check("age < 30", on: ann, is: false)
        check("score > 2", on: ann, is: true)
        check("name == 'Ann'", on: ann, is: true)
        check("name == 'ann'", on: ann, is: false)
        check("name ==[c] 'ann'", on: ann, is: true)
        check("name < 'Bob'", on: ann, is: true)
        check("name > 'Bob'", on: ann, is: false)
        check("age > 'abc'", on: ann, is: false)
    }

    func testNilSemantics() {
        check("missing == nil", on: ann, is: true)
        check("missing != nil", on: ann, is: false)
        check("name == nil", on: ann, is: false)
        check("name != nil", on: ann, is: true)
        check("missing < 5", on: ann, is: false)
        check("missing > 5", on: ann, is: false)
        check("missing BEGINSWITH 'a'", on: ann, is: false)
        check("n == nil", on: ["n": NSNull()], is: true)
        check("n == %@", NSNull(), on: ["n": Optional<Int>.none as Any], is: true)
        check("SELF == nil", on: nil, is: true)
    }

    func testStringOperators() {
        check("name BEGINSWITH 'A'", on: ann, is: true)
        check("name BEGINSWITH 'a'", on: ann, is: false)
        check("name BEGINSWITH[c] 'a'", on: ann, is: true)
        check("name ENDSWITH 'nn'", on: ann, is: true)
        check("name ENDSWITH 'x'", on: ann, is: false)
        check("name CONTAINS 'n'", on: ann, is: true)
        check("name CONTAINS 'z'", on: ann, is: false)
        check("city CONTAINS[d] 'Zuri'", on: ann, is: true)
        check("city CONTAINS 'Zuri'", on: ann, is: false)
        check("city CONTAINS[d] 'zuri'", on: ann, is: false)
        check("city ==[cd] 'ZURICH'", on: ann, is: true)
        check("'nn' IN name", on: ann, is: true)
        check("'xx' IN name", on: ann, is: false)
    }

    func testLike() {
        check("name LIKE 'A*'", on: ann, is: true)
        check("name LIKE 'A?n'", on: ann, is: true)
        check("name LIKE 'A?'", on: ann, is: false)
        check("name LIKE '*n*'", on: ann, is: true)
        check("name LIKE 'a*'", on: ann, is: false)
        check("name LIKE[c] 'a*'", on: ann, is: true)
        check("name LIKE 'Ann'", on: ann, is: true)
        check("name LIKE '*'", on: ["name": ""], is: true)
        check(#"name LIKE 'a\\*'"#, on: ["name": "a*"], is: true)
        check(#"name LIKE 'a\\*'"#, on: ["name": "ab"], is: false)
        check("name LIKE '*a*b*c*d*e*f*g*'", on: ["name": String(repeating: "a", count: 5000)], is: false)
    }

    func testMatchesIsWholeStringRegex() {
        check("name MATCHES 'A.n'", on: ann, is: true)
        check("name MATCHES 'A'", on: ann, is: false)
        check("name MATCHES 'a|An'", on: ["name": "An"], is: true)
        check("name MATCHES[c] 'ann'", on: ann, is: true)
        check("name MATCHES '[0-9]+'", on: ["name": "123"], is: true)
        check("name MATCHES '[0-9]+'", on: ["name": "12a"], is: false)
        XCTAssertThrowsError(try NSPredicate(format: "name MATCHES '('").evaluateThrowing(with: ann))
        XCTAssertFalse(NSPredicate(format: "name MATCHES '('").evaluate(with: ann))
    }

    func testCollectionsInContainsBetween() {
        check("tags CONTAINS 'swift'", on: ann, is: true)
        check("tags CONTAINS 'rust'", on: ann, is: false)
        check("age IN {29, 30}", on: ann, is: true)
        check("age IN {1, 2}", on: ann, is: false)
        check("age IN %@", [30, 40], on: ann, is: true)
        check("age IN %@", Set([1]), on: ann, is: false)
        check("name IN[c] {'ann', 'bob'}", on: ann, is: true)
        check("age BETWEEN {30, 40}", on: ann, is: true)
        check("age BETWEEN {18, 29}", on: ann, is: false)
        check("age BETWEEN %@", [10, 30], on: ann, is: true)
        check("'v' IN %@", ["k": "v"], on: nil, is: true)
        XCTAssertThrowsError(try NSPredicate(format: "age BETWEEN {1}").evaluateThrowing(with: ann))
    }

    func testAggregateModifiers() {
        let team: [String: Any] = ["members": [["age": 20], ["age": 40]], "nobody": [[String: Any]]()]
        check("ANY members.age > 30", on: team, is: true)
        check("ANY members.age > 50", on: team, is: false)
        check("ALL members.age > 10", on: team, is: true)
        check("ALL members.age > 30", on: team, is: false)
        check("NONE members.age > 50", on: team, is: true)
        check("NONE members.age > 30", on: team, is: false)
        check("ANY nobody.age > 0", on: team, is: false)
        check("ALL nobody.age > 0", on: team, is: true)
        check("members.@count == 2", on: team, is: true)
        check("members.@avg.age == 30", on: team, is: true)
        check("members.@max.age == 40", on: team, is: true)
        check("members.@sum.age < 10", on: team, is: false)
    }

    func testSetsOfKeyValueCodingObjects() {
        let ann = Person("Ann", age: 30), bob = Person("Bob", age: 40), cy = Person("Cy", age: 12)
        ann.friends = [bob, cy]
        bob.friends = [cy]
        check("ANY friends.name == 'Bob'", on: ann, is: true)
        check("ANY friends.friends.name == 'Cy'", on: ann, is: true)
        check("ALL friends.age > 11", on: ann, is: true)
        check("friends.@count == 2", on: ann, is: true)
        check("SUBQUERY(friends, $f, $f.age > 20).@count == 1", on: ann, is: true)
        check("SUBQUERY(friends, $f, $f.age > 50).@count > 0", on: ann, is: false)
        check("SUBQUERY(friends, $f, ANY $f.friends.name == 'Cy').@count == 1", on: ann, is: true)
        check("ageInt16 == 30", on: ann, is: true)
        check("SELF IN %@", [ann, bob], on: ann, is: true)
        check("SELF IN %@", [bob], on: ann, is: false)
        check("manager == nil", on: ann, is: true)
        check("SELF == %@", ann, on: ann, is: true)
    }

    func testUnknownKeyThrowsButEvaluateReturnsFalse() {
        let p = NSPredicate(format: "nmae == 'Ann'")
        XCTAssertThrowsError(try p.evaluateThrowing(with: Person("Ann", age: 1))) { error in
            XCTAssertTrue(error.localizedDescription.contains("nmae"))
        }
        XCTAssertFalse(p.evaluate(with: Person("Ann", age: 1)))
        XCTAssertTrue(NSPredicate(format: "NOT nmae == 'Ann'").evaluate(with: ["x": 1]))
    }

    func testSelfAsPlainValues() {
        check("SELF > 3", on: 5, is: true)
        check("SELF > 3", on: 2, is: false)
        check("SELF BEGINSWITH 'ab'", on: "abc", is: true)
        check("SELF IN {1, 2}", on: 2, is: true)
        check("SELF.@count == 3", on: [1, 2, 3], is: true)
        check("SELF[FIRST] == 1", on: [1, 2, 3], is: true)
        check("SELF[LAST] == 3", on: [1, 2, 3], is: true)
        check("SELF[SIZE] == 3", on: [1, 2, 3], is: true)
        check("SELF[1] == 2", on: [1, 2, 3], is: true)
        check("SELF['k'] == 'v'", on: ["k": "v"], is: true)
        XCTAssertThrowsError(try NSPredicate(format: "SELF[5] == 1").evaluateThrowing(with: [1]))
    }

    func testSubstitutionVariables() {
        let template = NSPredicate(format: "age > $minimum AND name BEGINSWITH $prefix")
        XCTAssertTrue(template.evaluate(with: ann, substitutionVariables: ["minimum": 18, "prefix": "A"]))
        XCTAssertFalse(template.evaluate(with: ann, substitutionVariables: ["minimum": 40, "prefix": "A"]))
        XCTAssertThrowsError(try template.evaluateThrowing(with: ann)) { error in
            XCTAssertTrue(error.localizedDescription.contains("$minimum"), error.localizedDescription)
        }
        let bound = template.withSubstitutionVariables(["minimum": 18])
        XCTAssertEqual(bound.predicateFormat, "age > 18 AND name BEGINSWITH $prefix")
        XCTAssertTrue(bound is NSCompoundPredicate)
        XCTAssertTrue(bound.evaluate(with: ann, substitutionVariables: ["prefix": "A"]))
        let subquery = NSPredicate(format: "SUBQUERY(members, $m, $m.age > $min).@count > 0")
        XCTAssertEqual(subquery.withSubstitutionVariables(["min": 1, "m": 99]).predicateFormat, "SUBQUERY(members, $m, $m.age > 1).@count > 0")
    }

    func testArithmeticAndFunctionsInPredicates() {
        check("age * 2 == 60", on: ann, is: true)
        check("age + 0.5 > 30", on: ann, is: true)
        check("age / 4 == 7.5", on: ann, is: true)
        check("age ** 2 == 900", on: ann, is: true)
        check("-age == -30", on: ann, is: true)
        check("modulus:by:(age, 7) == 2", on: ann, is: true)
        check("sum(tags.length) == 10", on: ann, is: true)
        check("uppercase:(name) == 'ANN'", on: ann, is: true)
        check("TERNARY(age > 18, 'adult', 'child') == 'adult'", on: ann, is: true)
        check("now() > CAST(0, 'NSDate')", on: nil, is: true)
        check("CAST('42', 'NSNumber') == 42", on: nil, is: true)
        check("FUNCTION(name, 'uppercaseString') == 'ANN'", on: ann, is: true)
        check("$x := age * 2 == 60", on: ann, is: true)
        check("average:({1, 2, 3}) == 2", on: nil, is: true)
    }

    func testBlockAndValuePredicates() {
        XCTAssertTrue(NSPredicate(value: true).evaluate(with: nil))
        XCTAssertFalse(NSPredicate(value: false).evaluate(with: nil))
        let block = NSPredicate { object, bindings in (object as? Int ?? 0) > (bindings?["limit"] as? Int ?? 0) }
        XCTAssertTrue(block.evaluate(with: 5, substitutionVariables: ["limit": 3]))
        XCTAssertFalse(block.evaluate(with: 1, substitutionVariables: ["limit": 3]))
    }

    func testFilteringCollections() {
        let people: [[String: Any]] = [["age": 10], ["age": 20], ["age": 30]]
        XCTAssertEqual(people.filtered(using: NSPredicate(format: "age >= 20")).count, 2)
        XCTAssertEqual(NSArray(array: [1, 2, 3, 4]).filtered(using: NSPredicate(format: "SELF > 2")).count, 2)
    }
}

final class PredicateEvaluationRootKindsTests: XCTestCase {
    struct Point: KeyValueCoding {
        var x: Int, y: Int
        func checkedValue(forKey key: String) throws -> Any? {
            switch key {
            case "x": return x
            case "y": return y
            default: throw KeyValueCodingError.undefinedKey(key, in: "Point")
            }
        }
    }

    func testTypedDictionariesNSDictionaryAndStructs() {
        XCTAssertTrue(NSPredicate(format: "a > 1").evaluate(with: ["a": 2] as [String: Int]))
        XCTAssertFalse(NSPredicate(format: "a > 1").evaluate(with: ["a": 0] as [String: Int]))
        XCTAssertTrue(NSPredicate(format: "a == 'x'").evaluate(with: NSDictionary(dictionary: ["a": "x"])))
        XCTAssertFalse(NSPredicate(format: "a == 'y'").evaluate(with: NSDictionary(dictionary: ["a": "x"])))
        XCTAssertTrue(NSPredicate(format: "x > 1 AND y < 0").evaluate(with: Point(x: 2, y: -1)))
        XCTAssertFalse(NSPredicate(format: "x > 1 AND y < 0").evaluate(with: Point(x: 2, y: 1)))
        XCTAssertTrue(NSPredicate(format: "ANY SELF.x == 3").evaluate(with: [Point(x: 1, y: 0), Point(x: 3, y: 0)]))
        XCTAssertTrue(NSPredicate(format: "@sum.x == 4").evaluate(with: [Point(x: 1, y: 0), Point(x: 3, y: 0)]))
        XCTAssertEqual([Point(x: 1, y: 0), Point(x: 3, y: 0)].filtered(using: NSPredicate(format: "x >= 2")).map(\.x), [3])
    }

    func testOptionalAndBoxedValues() {
        let optionalAge: Int? = 4
        XCTAssertTrue(NSPredicate(format: "a == 4").evaluate(with: ["a": optionalAge as Any]))
        XCTAssertTrue(NSPredicate(format: "a == nil").evaluate(with: ["a": Optional<Int>.none as Any]))
        XCTAssertTrue(NSPredicate(format: "a == 4").evaluate(with: ["a": NSNumber(value: 4)]))
        XCTAssertTrue(NSPredicate(format: "a == 4.5").evaluate(with: ["a": Float(4.5)]))
        XCTAssertTrue(NSPredicate(format: "a == %@", Decimal(string: "4.25")!).evaluate(with: ["a": 4.25]))
        XCTAssertTrue(NSPredicate(format: "a == YES").evaluate(with: ["a": true]))
        XCTAssertFalse(NSPredicate(format: "a == YES").evaluate(with: ["a": false]))
        XCTAssertTrue(NSPredicate(format: "a == %@", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
            .evaluate(with: ["a": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!]))
        XCTAssertTrue(NSPredicate(format: "a == %@", Data([1, 2])).evaluate(with: ["a": Data([1, 2])]))
        XCTAssertFalse(NSPredicate(format: "a == %@", Data([1, 2])).evaluate(with: ["a": Data([1, 3])]))
        XCTAssertTrue(NSPredicate(format: "a == %@", URL(string: "https://x.org")!).evaluate(with: ["a": URL(string: "https://x.org")!]))
        XCTAssertTrue(NSPredicate(format: "a == %%").evaluate(with: ["a": "%"]))
    }
}

/// `ANY`/`ALL`/`NONE` through nested to-many relationships — unordered then ordered
/// (`projects.milestones.title`), unordered twice (`projects.members.firstName`), three levels —
/// on employees with many projects, some without milestones and with repeated titles: the
/// in-memory store and SQLite give the evaluator's answer, and nothing traps on the equal
/// empty `NSOrderedSet`s of the projects without milestones.
final class NestedToManyPredicateTests: XCTestCase {
    /// Ann: 40 projects, every third without milestones, one milestone "x"; Bob: 40 projects
    /// with repeated titles but no "x", and Ann's manager; Cy: no projects.
    private func seed(_ context: NSManagedObjectContext) throws {
        try context.performAndWait {
            func employee(_ name: String) -> Employee {
                let e = Employee(context: context)
                e.firstName = name
                return e
            }
            let ann = employee("Ann"), bob = employee("Bob"), cy = employee("Cy")
            ann.manager = bob
            for (owner, special) in [(ann, 38), (bob, -1)] {
                var projects = Set<Project>()
                for i in 0..<40 {
                    let p = Project(context: context)
                    p.title = "\(owner.firstName!)-\(i)"
                    p.milestones = (0..<(i % 3)).map { j in
                        let m = Milestone(context: context)
                        m.title = i == special && j == 1 ? "x" : "m\(j)"
                        return m
                    }
                    projects.insert(p)
                }
                owner.projects = projects
            }
            _ = cy
            try context.save()
        }
    }

    private static let cases: [(String, Set<String>)] = [
        ("ANY projects.milestones.title == 'x'", ["Ann"]),
        ("ANY projects.milestones.title == 'm1'", ["Ann", "Bob"]),
        ("NONE projects.milestones.title == 'x'", ["Bob", "Cy"]),
        ("ALL projects.milestones.title BEGINSWITH 'm'", ["Bob", "Cy"]),
        ("ANY projects.members.firstName == 'Ann'", ["Ann"]),
        ("ANY directReports.projects.milestones.title == 'x'", ["Bob"]),
        ("ANY manager.projects.milestones.title == 'm0'", ["Ann"]),
        ("projects.milestones.@count == 27", ["Ann", "Bob"]),
    ]

    private func check(_ context: NSManagedObjectContext, file: StaticString = #filePath, line: UInt = #line) throws {
        try context.performAndWait {
            let everyone = try context.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
            XCTAssertEqual(everyone.count, 3, file: file, line: line)
            for (format, expected) in Self.cases {
                let predicate = NSPredicate(format: format)
                let request = NSFetchRequest<Employee>(entityName: "Employee")
                request.predicate = predicate
                let fetched = Set(try context.fetch(request).compactMap(\.firstName))
                XCTAssertEqual(fetched, expected, format, file: file, line: line)
                let evaluated = Set(everyone.filter { predicate.evaluate(with: $0) }.compactMap(\.firstName))
                XCTAssertEqual(evaluated, expected, "evaluated: \(format)", file: file, line: line)
            }
        }
    }

    func testInMemoryStore() throws {
        let stack = TestStack()
        try seed(stack.context)
        try check(stack.newContext())
    }

    func testSQLiteStore() throws {
        let store = try TemporaryCompanyStore()
        let (_, seeding) = try store.open()
        try seed(seeding)
        let (_, context) = try store.open()
        try check(context)
    }
}
