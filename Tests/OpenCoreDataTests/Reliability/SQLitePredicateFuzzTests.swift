@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Random predicates over a random company graph: whatever the SQLite store answers in SQL (or
/// narrows and leaves to memory) is exactly what the in-memory evaluator says over every
/// object — attributes, to-one paths, ANY/ALL/NONE, collection operators, SUBQUERY, string
/// operators with every option, nils, and strings that differ only in case, accents,
/// composition or ligatures. Garbage predicates must throw alike, never crash.
final class SQLitePredicateFuzzTests: XCTestCase {
    private var directory: URL!
    /// Object IDs of the graph, for `department == %@`-style leaves.
    private var objectIDs: [NSManagedObjectID] = []

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-predfuzz")
    }

    /// Strings that fold, compose and compare in interesting ways (and nil).
    private static let strings: [String?] = [
        nil, "", "Ann", "ann", "ANN", "Åsa", "A\u{30A}sa", "école", "e\u{301}cole", "ÉCOLE", "Straße", "STRASSE", "strasse",
        "ﬁne", "fine", "Œuvre", "oeuvre", "Δelta", "δέλτα", "x*y", "a?b", "Zoë", "zoe", "Lee", "Öz", "n\u{303}", "ñ",
    ]
    /// Patterns for LIKE (wildcards, escapes) and MATCHES (valid and not).
    private static let likePatterns = ["*", "a*", "*e", "?nn", "*ss*", "\\*", "x\\*y", "*\u{E9}*", "ﬁ*", "?", ""]
    private static let regexPatterns = ["[a-z]+", ".*e.*", "A.*", "(?i)ann", "\\p{L}+", ".", "", "[", "(a|b"]

    private func makeGraph(_ rng: inout SplitMix64) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Fuzz.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            func string(_ rng: inout SplitMix64) -> String? { Self.strings.randomElement(using: &rng)! }
            let departments: [Department] = (0..<5).map { i in
                let d = Department(context: context)
                d.name = string(&rng) ?? "D\(i)"
                d.budget = [0, 0.5, -1.25, 100, 1e9, Double(i)].randomElement(using: &rng)!
                return d
            }
            let projects: [Project] = (0..<8).map { _ in
                let p = Project(context: context)
                p.title = string(&rng)
                let milestones: [Milestone] = (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                    let m = Milestone(context: context)
                    m.title = string(&rng)
                    return m
                }
                p.milestones = milestones
                return p
            }
            var employees: [Employee] = []
            for i in 0..<30 {
                let isManager = Int.random(in: 0..<4, using: &rng) == 0
                let e = NSEntityDescription.insertNewObject(forEntityName: isManager ? "Manager" : "Employee", into: context) as! Employee
                let first = string(&rng) ?? ""
                e.firstName = first.isEmpty ? "E\(i)" : first
                e.lastName = string(&rng)
                e.salary = [0, 1, 5, 100, 999, 1000, 5000, 1_000_000].randomElement(using: &rng)!
                e.email = Bool.random(using: &rng) ? nil : "e\(i)@x.org"
                e.startDate = Bool.random(using: &rng) ? nil : Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...4, using: &rng)) * 1000)
                if isManager { e.setValue(Int.random(in: 0...20, using: &rng), forKey: "bonus") }
                if Int.random(in: 0..<5, using: &rng) > 0 { e.department = departments.randomElement(using: &rng) }
                if !employees.isEmpty, Bool.random(using: &rng) { e.manager = employees.randomElement(using: &rng) }
                e.projects = Set((0..<Int.random(in: 0...3, using: &rng)).map { _ in projects.randomElement(using: &rng)! })
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    let b = Badge(context: context)
                    b.code = string(&rng)
                    e.badge = b
                }
                employees.append(e)
            }
            try context.save()
        }
        return coordinator
    }

    // MARK: Predicate generation

    /// A format and its arguments.
    private struct Format {
        var text: String
        var args: [Any]
    }

    private static let stringKeys: [String: [String]] = [
        "Employee": ["firstName", "lastName", "email", "department.name", "manager.firstName", "manager.lastName",
                     "manager.department.name", "badge.code"],
        "Department": ["name"],
        "Project": ["title"],
    ]
    private static let numberKeys: [String: [String]] = [
        "Employee": ["salary", "department.budget", "manager.salary", "manager.manager.salary", "manager.department.budget",
                     "projects.@count", "projects.milestones.@count", "directReports.@count", "directReports.@sum.salary", "directReports.@avg.salary",
                     "directReports.@min.salary", "directReports.@max.salary", "department.employees.@count", "manager.bonus"],
        "Department": ["budget", "employees.@count", "employees.@sum.salary", "employees.@avg.salary", "employees.@max.salary",
                       "employees.@min.salary"],
        "Project": ["members.@count", "milestones.@count", "members.@sum.salary", "members.@max.salary"],
    ]
    /// To-many key paths ending in a string or a number, for ANY/ALL/NONE.
    private static let manyStringKeys: [String: [String]] = [
        "Employee": ["projects.title", "directReports.lastName", "directReports.department.name", "department.employees.firstName",
                     "directReports.projects.title", "projects.milestones.title"],
        "Department": ["employees.firstName", "employees.lastName", "employees.manager.lastName", "employees.projects.title",
                       "employees.projects.milestones.title"],
        "Project": ["members.lastName", "members.department.name", "milestones.title"],
    ]
    private static let manyNumberKeys: [String: [String]] = [
        "Employee": ["directReports.salary", "projects.members.salary", "department.employees.salary"],
        "Department": ["employees.salary", "employees.department.budget"],
        "Project": ["members.salary", "members.department.budget"],
    ]
    private static let toManyKeys: [String: [(String, String)]] = [
        "Employee": [("projects", "Project"), ("directReports", "Employee")],
        "Department": [("employees", "Employee")],
        "Project": [("members", "Employee"), ("milestones", "Milestone")],
    ]

    private func options(_ rng: inout SplitMix64) -> String {
        ["", "", "[c]", "[d]", "[cd]", "[n]", "[cdn]", "[l]"].randomElement(using: &rng)!
    }

    /// A string of the pool, or NSNull for its nil.
    private func stringValue(_ rng: inout SplitMix64) -> Any {
        Self.strings.randomElement(using: &rng)!.map { $0 as Any } ?? NSNull()
    }

    private func stringComparison(_ key: String, _ rng: inout SplitMix64) -> Format {
        let op = ["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN"].randomElement(using: &rng)!
        let value: Any
        switch op {
        case "LIKE": value = Self.likePatterns.randomElement(using: &rng)!
        case "MATCHES": value = Self.regexPatterns.randomElement(using: &rng)!
        case "IN":
            let count = Int.random(in: 0...3, using: &rng)
            return Format(text: "\(key) IN\(options(&rng)) %@", args: [(0..<count).map { _ in stringValue(&rng) }])
        case "BETWEEN":
            return Format(text: "\(key) BETWEEN %@", args: [["a", Self.strings.randomElement(using: &rng)! ?? "z"]])
        default: value = stringValue(&rng)
        }
        return Format(text: "\(key) \(op)\(options(&rng)) %@", args: [value])
    }

    private func numberComparison(_ key: String, _ rng: inout SplitMix64) -> Format {
        let op = ["==", "!=", "<", "<=", ">", ">=", "IN", "BETWEEN"].randomElement(using: &rng)!
        let values: [Any] = [0, 1, 5, 100, 999, 1000, 2.5, 0.5, -1.25, 1e9, 1_000_000, NSNull(), "5"]
        switch op {
        case "IN": return Format(text: "\(key) IN %@", args: [[values.randomElement(using: &rng)!, values.randomElement(using: &rng)!]])
        case "BETWEEN": return Format(text: "\(key) BETWEEN {%@, %@}", args: [values.randomElement(using: &rng)!, values.randomElement(using: &rng)!])
        default: return Format(text: "\(key) \(op) %@", args: [values.randomElement(using: &rng)!])
        }
    }

    private func leaf(_ entity: String, _ rng: inout SplitMix64) -> Format {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0, 1: return stringComparison(Self.stringKeys[entity]!.randomElement(using: &rng)!, &rng)
        case 2, 3: return numberComparison(Self.numberKeys[entity]!.randomElement(using: &rng)!, &rng)
        case 4:
            let quantifier = ["ANY", "ALL", "NONE", "SOME"].randomElement(using: &rng)!
            let f = stringComparison(Self.manyStringKeys[entity]!.randomElement(using: &rng)!, &rng)
            return Format(text: "\(quantifier) \(f.text)", args: f.args)
        case 5:
            let quantifier = ["ANY", "ALL", "NONE"].randomElement(using: &rng)!
            let f = numberComparison(Self.manyNumberKeys[entity]!.randomElement(using: &rng)!, &rng)
            return Format(text: "\(quantifier) \(f.text)", args: f.args)
        case 6:
            let (key, destination) = Self.toManyKeys[entity]!.randomElement(using: &rng)!
            let inner = destination == "Milestone" ? stringComparison("$x.title", &rng)
                : destination == "Project" ? stringComparison("$x.title", &rng)
                : Bool.random(using: &rng) ? numberComparison("$x.salary", &rng) : stringComparison("$x.lastName", &rng)
            return Format(text: "SUBQUERY(\(key), $x, \(inner.text)).@count \(["==", ">", "<="].randomElement(using: &rng)!) %@",
                          args: inner.args + [Int.random(in: 0...2, using: &rng)])
        case 7:
            // A to-one path against an object ID (of any entity) or nil.
            let paths = ["Employee": ["department", "manager", "manager.department", "badge", "manager.manager"],
                         "Department": ["self"], "Project": ["self"]][entity]!
            let path = paths.randomElement(using: &rng)!
            guard path != "self", let id = objectIDs.randomElement(using: &rng) else {
                return Format(text: ["TRUEPREDICATE", "FALSEPREDICATE"].randomElement(using: &rng)!, args: [])
            }
            return Format(text: "\(path) \(["==", "!="].randomElement(using: &rng)!) %@", args: [Bool.random(using: &rng) ? id : NSNull()])
        default:
            // Dates and Booleans of the fetched entity, or a relationship against nil.
            switch entity {
            case "Employee":
                return Bool.random(using: &rng)
                    ? Format(text: "startDate \(["<", "==", ">=", "!="].randomElement(using: &rng)!) %@",
                             args: [Bool.random(using: &rng) ? NSNull() : Date(timeIntervalSinceReferenceDate: 1000) as Any])
                    : Format(text: "department == nil", args: [])
            default:
                return stringComparison(Self.stringKeys[entity]!.randomElement(using: &rng)!, &rng)
            }
        }
    }

    private func predicate(_ entity: String, depth: Int, _ rng: inout SplitMix64) -> Format {
        guard depth > 0, Int.random(in: 0..<3, using: &rng) == 0 else { return leaf(entity, &rng) }
        let a = predicate(entity, depth: depth - 1, &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return Format(text: "NOT (\(a.text))", args: a.args)
        case 1:
            let b = predicate(entity, depth: depth - 1, &rng)
            return Format(text: "(\(a.text)) AND (\(b.text))", args: a.args + b.args)
        default:
            let b = predicate(entity, depth: depth - 1, &rng)
            return Format(text: "(\(a.text)) OR (\(b.text))", args: a.args + b.args)
        }
    }

    // MARK: Comparing

    private enum Outcome: Equatable {
        case matches(Set<String>)
        case fails
    }

    private func storeAnswer(_ coordinator: NSPersistentStoreCoordinator, _ entity: String, _ predicate: NSPredicate) -> Outcome {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.predicate = predicate
            guard let objects = try? context.fetch(request) else { return .fails }
            return .matches(Set(objects.map { $0.objectID.uriRepresentation().absoluteString }))
        }
    }

    private func memoryAnswer(_ objects: [NSManagedObject], _ predicate: NSPredicate) -> Outcome {
        var matched = Set<String>()
        for object in objects {
            guard let match = try? predicate.evaluateThrowing(with: object) else { return .fails }
            if match { matched.insert(object.objectID.uriRepresentation().absoluteString) }
        }
        return .matches(matched)
    }

    private func answeredInSQL(_ coordinator: NSPersistentStoreCoordinator, _ entity: String, _ predicate: NSPredicate) -> Bool {
        coordinator.storesEvaluate(FetchPlan(entity: coordinator.managedObjectModel.entitiesByName[entity]!, predicate: predicate,
                                             sortDescriptors: [], includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil))
    }

    func testRandomPredicatesAnswerLikeTheEvaluator() throws {
        var rng = SplitMix64(seed: 0x5EED_0C0D)
        let coordinator = try makeGraph(&rng)
        // Every object, loaded once, for the evaluator.
        let reference = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reference.persistentStoreCoordinator = coordinator
        let entities = ["Employee", "Department", "Project"]
        let all: [String: [NSManagedObject]] = try reference.performAndWait {
            var all: [String: [NSManagedObject]] = [:]
            for entity in entities { all[entity] = try reference.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)) }
            return all
        }
        objectIDs = all.values.flatMap { $0.map(\.objectID) }.sorted { $0.uriRepresentation().absoluteString < $1.uriRepresentation().absoluteString }
        let deadline = Date().addingTimeInterval(2.5)
        var ran = 0, exact = 0, failing = 0
        while Date() < deadline {
            let entity = entities.randomElement(using: &rng)!
            let format = predicate(entity, depth: 3, &rng)
            guard let predicate = try? NSPredicate(validatingFormat: format.text, argumentArray: format.args) else {
                XCTFail("generated an unparsable format: \(format.text)")
                continue
            }
            let expected = reference.performAndWait { memoryAnswer(all[entity]!, predicate) }
            let actual = storeAnswer(coordinator, entity, predicate)
            XCTAssertEqual(actual, expected, "\(entity): \(format.text) \(format.args)")
            ran += 1
            if answeredInSQL(coordinator, entity, predicate) { exact += 1 }
            if expected == .fails { failing += 1 }
        }
        let fraction = Double(exact) / Double(max(ran, 1))
        print("SQLitePredicateFuzzTests: \(ran) predicates, \(exact) answered in SQL (\(Int((fraction * 100).rounded()))%), \(failing) throwing in memory")
        XCTAssertGreaterThan(ran, 100)
        XCTAssertGreaterThan(fraction, 0.3, "most generated predicates translate exactly")
    }

    /// Odd shapes — constants on the left, key paths on both sides, unknown keys and
    /// operators, dictionaries, strings and objects as operands, functions — never crash, and
    /// the store fails exactly when the evaluator does, otherwise agreeing with it.
    func testEdgePredicatesNeverCrashAndAgree() throws {
        var rng = SplitMix64(seed: 0xBAD_F00D)
        let coordinator = try makeGraph(&rng)
        let reference = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reference.persistentStoreCoordinator = coordinator
        let employees = try reference.performAndWait { try reference.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee")) }
        let someDepartment: Any = try reference.performAndWait {
            try reference.fetch(NSFetchRequest<NSManagedObject>(entityName: "Department")).first as Any
        }
        let formats: [(String, [Any])] = [
            ("'Ann' == firstName", []), ("5 < salary", []), ("salary == salary", []), ("firstName == lastName", []),
            ("nosuchkey == 1", []), ("department.nosuchkey == 1", []), ("ANY nosuch.title == 'x'", []),
            ("projects.@nosuch.title == 1", []), ("projects.@sum.title == 1", []), ("projects.@count.title == 1", []),
            ("ANY salary == 5", []), ("ALL firstName BEGINSWITH 'A'", []), ("ANY department.name == 'x'", []),
            ("projects.title == 'x'", []), ("projects CONTAINS %@", [someDepartment]),
            ("salary IN %@", [["a": 1]]), ("firstName IN 'Annabel'", []), ("salary BETWEEN {1, 2, 3}", []),
            ("salary BETWEEN 5", []), ("firstName MATCHES '('", []), ("ANY projects.title MATCHES '('", []),
            ("SUBQUERY(projects, $p, $p.title MATCHES '(').@count > 0", []), ("SUBQUERY(salary, $s, $s > 1).@count > 0", []),
            ("SUBQUERY(projects, $p, $p.nosuch == 1).@count > 0", []), ("SUBQUERY(projects, $p, $q.title == 1).@count > 0", []),
            ("$unbound == 1", []), ("firstName BEGINSWITH 5", []), ("salary BEGINSWITH '1'", []), ("startDate > 5", []),
            ("salary > '5'", []), ("firstName < 5", []), ("lowercase(firstName) == 'ann'", []), ("salary + 1 > 5", []),
            ("firstName.length > 3", []), ("department.name.length > 3", []), ("manager.bonus > 1", []),
            ("ANY directReports.bonus > 1", []), ("directReports.@avg.bonus > 1", []),
            ("SUBQUERY(projects, $p, SUBQUERY($p.members, $m, $m.salary > 5).@count > 1).@count > 0", []),
            ("SUBQUERY(projects, $p, ANY $p.members.department.name ==[cd] 'ecole').@count >= 1", []),
            ("NOT (NOT (ANY projects.title LIKE[cd] '*E*'))", []), ("salary == %@", [Double.nan]), ("salary < %@", [Double.infinity]),
            ("salary == %@", [Int64.max]), ("department.budget == %@", [Int64.max]), ("salary IN {}", []),
            ("ANY projects.title IN {}", []), ("ALL projects.title IN {nil}", []),
        ]
        var ran = 0
        for (text, args) in formats {
            guard let predicate = try? NSPredicate(validatingFormat: text, argumentArray: args) else { continue }
            let expected = reference.performAndWait { memoryAnswer(employees, predicate) }
            XCTAssertEqual(storeAnswer(coordinator, "Employee", predicate), expected, text)
            ran += 1
        }
        XCTAssertGreaterThan(ran, formats.count / 2)
        // Random token soup: throws or parses; what parses is evaluated both ways without crashing.
        let tokens = ["ANY", "ALL", "NONE", "NOT", "AND", "OR", "(", ")", "{", "}", ",", "==", "!=", "<", "BEGINSWITH[cd]", "LIKE",
                      "MATCHES", "IN", "BETWEEN", "SUBQUERY(projects, $p, $p.title == 'x').@count", "projects.title", "department.name",
                      "salary", "firstName", "@count", ".", "$p", "nil", "'A*'", "5", "2.5", "projects.@count", "directReports.@sum.salary"]
        let deadline = Date().addingTimeInterval(0.5)
        var parsed = 0
        while Date() < deadline {
            let text = (0..<Int.random(in: 1...9, using: &rng)).map { _ in tokens.randomElement(using: &rng)! }.joined(separator: " ")
            guard let predicate = try? NSPredicate(validatingFormat: text, argumentArray: []) else { continue }
            parsed += 1
            let expected = reference.performAndWait { memoryAnswer(employees, predicate) }
            XCTAssertEqual(storeAnswer(coordinator, "Employee", predicate), expected, text)
        }
        print("SQLitePredicateFuzzTests: \(ran) edge predicates, \(parsed) parsed token soups")
    }
}
