@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `.dictionaryResultType` fetches: fetched columns (attributes, to-one relationships as
/// object IDs, key paths through to-ones), DISTINCT, GROUP BY with each aggregate, HAVING,
/// aggregates without GROUP BY, result types, sub-entities, pending changes and bad requests.
/// Every request runs on an in-memory store and on an SQLite store seeded the same way; both
/// must give the expected dictionaries, and the SQLite store must have answered in SQL when
/// the request translates exactly. Uses `@testable` for the coordinator's counter of
/// store-answered dictionary fetches, which Apple does not expose.
final class DictionaryResultTests: XCTestCase {
    private var directory: URL!
    private var memory: TestStack!
    private var sqlite: TestStack!
    /// Printable names of seeded object IDs (IDs differ between the two stores).
    private var labels: [NSManagedObjectID: String] = [:]

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-dict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        memory = TestStack()
        let model = CompanyModel.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Company.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        sqlite = TestStack(model: model, coordinator: coordinator, context: context)
        try seed(memory)
        try seed(sqlite)
    }

    override func tearDownWithError() throws {
        memory = nil
        sqlite = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sales (Ann, Bob, Max the manager), Ops (Cat, Dan), Empty; Eve has no department, Cat
    /// no last name. Saved one object at a time so keys follow this order in both stores.
    private func seed(_ stack: TestStack) throws {
        try stack.context.performAndWait {
            var departments: [String: Department] = [:]
            for (name, budget) in [("Sales", 100.5), ("Ops", 50.0), ("Empty", 0.25)] {
                let d = stack.department(name)
                d.budget = budget
                try stack.context.save()
                departments[name] = d
                labels[d.objectID] = name
            }
            let people: [(String, String?, Int64, String?, Double)] = [
                ("Ann", "Lee", 300, "Sales", 10), ("Bob", "Lee", 100, "Sales", 30), ("Cat", nil, 200, "Ops", 20),
                ("Dan", "Kim", 200, "Ops", 40), ("Eve", "Lee", 500, nil, 50),
            ]
            for (first, last, salary, department, start) in people {
                let e = stack.employee(first, salary: salary)
                e.lastName = last
                e.department = department.flatMap { departments[$0] }
                e.startDate = Date(timeIntervalSinceReferenceDate: start)
                try stack.context.save()
                labels[e.objectID] = first
            }
            let max = NSEntityDescription.insertNewObject(forEntityName: "Manager", into: stack.context) as! Employee
            max.firstName = "Max"
            max.lastName = "Kim"
            max.salary = 1000
            max.department = departments["Sales"]
            max.startDate = Date(timeIntervalSinceReferenceDate: 60)
            max.setValue(7, forKey: "bonus")
            try stack.context.save()
            labels[max.objectID] = "Max"
            // Ann and Dan report to Max (a Manager: the to-one's target entity comes from the
            // row's Z_ENT companion column in SQLite).
            for employee in try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee")) where ["Ann", "Dan"].contains(employee.firstName) {
                employee.manager = max
            }
            try stack.context.save()
            stack.context.reset()
        }
    }

    private func describe(_ value: Any) -> String {
        switch value {
        case let id as NSManagedObjectID: return labels[id] ?? "unknown ID"
        case let s as String: return "'\(s)'"
        case let d as Date: return "date:\(d.timeIntervalSinceReferenceDate)"
        case let n as NSNumber:
            // Floating point ("d", "f") or integer; Foundation on Linux reports small integers
            // of any width as "i", so integer widths are not told apart.
            let type = String(cString: n.objCType)
            return type == "d" || type == "f" ? "d:\(n.doubleValue)" : "i:\(n.int64Value)"
        default: return "\(type(of: value)):\(value)"
        }
    }

    private func describe(_ row: NSDictionary) -> String {
        row.allKeys.map { "\($0)" }.sorted().map { "\($0)=\(describe(row[$0]!))" }.joined(separator: " ")
    }

    /// Runs the request on both stores; returns the in-memory store's rows after checking that
    /// the SQLite store gave the same, and whether SQL answered it (`inSQL`).
    private func fetch(_ entity: String = "Employee", inSQL: Bool, file: StaticString = #filePath, line: UInt = #line,
                       _ configure: (NSFetchRequest<NSDictionary>) -> Void) throws -> [String] {
        var results: [[String]] = []
        for (index, stack) in [memory!, sqlite!].enumerated() {
            let request = NSFetchRequest<NSDictionary>(entityName: entity)
            request.entity = stack.model.entitiesByName[entity]
            request.resultType = .dictionaryResultType
            configure(request)
            let before = stack.coordinator.dictionaryFetchesAnsweredByStores
            let rows = try stack.context.performAndWait { try stack.context.fetch(request) }
            results.append(rows.map(describe))
            let answered = stack.coordinator.dictionaryFetchesAnsweredByStores - before
            XCTAssertEqual(answered, index == 1 && inSQL ? 1 : 0, "answered by the store", file: file, line: line)
        }
        XCTAssertEqual(results[0], results[1], "the in-memory and SQLite stores differ", file: file, line: line)
        return results[0]
    }

    private func aggregate(_ name: String, _ function: String, _ keyPath: String, _ type: NSAttributeType = .undefinedAttributeType) -> NSExpressionDescription {
        let d = NSExpressionDescription()
        d.name = name
        d.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: keyPath)])
        d.expressionResultType = type
        return d
    }

    func testAttributesToOneRelationshipsAndKeyPaths() throws {
        let rows = try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["firstName", "salary", "department", "department.name"]
            r.predicate = NSPredicate(format: "salary >= %d", 200)
            r.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: false)]
        }
        XCTAssertEqual(rows, [
            "department=Sales department.name='Sales' firstName='Max' salary=i:1000",
            "firstName='Eve' salary=i:500",
            "department=Sales department.name='Sales' firstName='Ann' salary=i:300",
            "department=Ops department.name='Ops' firstName='Cat' salary=i:200",
            "department=Ops department.name='Ops' firstName='Dan' salary=i:200",
        ])
        // A property description and a key-path expression description under its own name.
        let budget = NSExpressionDescription()
        budget.name = "money"
        budget.expression = NSExpression(forKeyPath: "budget")
        let departments = try fetch("Department", inSQL: true) { r in
            r.propertiesToFetch = [r.entity!.propertiesByName["name"]!, budget]
            r.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            r.fetchOffset = 1
            r.fetchLimit = 1
        }
        XCTAssertEqual(departments, ["money=d:50.0 name='Ops'"])
    }

    func testToOneWithSubentityTargetAndReflexiveKeyPath() throws {
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["firstName", "manager", "manager.firstName", "manager.department.name"]
            r.predicate = NSPredicate(format: "salary < %d", 1000)
            r.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
        }, [
            "firstName='Ann' manager=Max manager.department.name='Sales' manager.firstName='Max'",
            "firstName='Bob'",
            "firstName='Cat'",
            "firstName='Dan' manager=Max manager.department.name='Sales' manager.firstName='Max'",
            "firstName='Eve'",
        ])
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["manager", aggregate("n", "count:", "firstName")]
            r.propertiesToGroupBy = ["manager"]
        }, ["manager=Max n=i:2", "n=i:4"], "Ann (reporting to Max) is the first row")
        XCTAssertEqual(try fetch(inSQL: false) { r in
            r.propertiesToFetch = ["manager", aggregate("n", "count:", "firstName")]
            r.propertiesToGroupBy = ["manager"]
            // Not a grouped key: rows are sorted before grouping, in memory; Max comes first.
            r.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: false)]
        }, ["n=i:4", "manager=Max n=i:2"])
    }

    func testDictionaryFetchesRegisterNoObjects() throws {
        for stack in [memory!, sqlite!] {
            try stack.context.performAndWait {
                let request = NSFetchRequest<NSDictionary>(entityName: "Employee")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = ["firstName", "department.name"]
                request.predicate = NSPredicate(format: "firstName BEGINSWITH %@", "A")  // in memory on both stores
                XCTAssertEqual(try stack.context.fetch(request).count, 1)
                XCTAssertTrue(stack.context.registeredObjects.isEmpty)
            }
        }
    }

    func testDefaultPropertiesAreAttributesAndToOneRelationships() throws {
        let rows = try fetch("Department", inSQL: true) { r in r.predicate = NSPredicate(format: "name == %@", "Ops") }
        XCTAssertEqual(rows, ["budget=d:50.0 name='Ops'"])
    }

    func testDistinctKeepsTheFirstOfEqualRowsInOrder() throws {
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["lastName"]
            r.returnsDistinctResults = true
        }, ["lastName='Lee'", "", "lastName='Kim'"], "unsorted: in the order of each value's first row")
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["lastName"]
            r.returnsDistinctResults = true
            r.sortDescriptors = [NSSortDescriptor(key: "lastName", ascending: false)]
            r.fetchLimit = 2
        }, ["lastName='Lee'", "lastName='Kim'"])
        XCTAssertEqual(try fetch(inSQL: false) { r in
            r.propertiesToFetch = ["lastName"]
            r.returnsDistinctResults = true
            r.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]  // not fetched: evaluated in memory
        }, ["lastName='Lee'", "", "lastName='Kim'"])
    }

    func testGroupByWithEachAggregate() throws {
        let rows = try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["department", aggregate("n", "count:", "salary"), aggregate("total", "sum:", "salary"),
                                   aggregate("mean", "average:", "salary"), aggregate("low", "min:", "salary"),
                                   aggregate("high", "max:", "salary"), aggregate("first", "min:", "firstName"),
                                   aggregate("latest", "max:", "startDate"), aggregate("named", "count:", "lastName")]
            r.propertiesToGroupBy = ["department"]
        }
        XCTAssertEqual(rows, [
            "department=Sales first='Ann' high=i:1000 latest=date:60.0 low=i:100 mean=d:466.6666666666667 n=i:3 named=i:3 total=i:1400",
            "department=Ops first='Cat' high=i:200 latest=date:40.0 low=i:200 mean=d:200.0 n=i:2 named=i:1 total=i:400",
            "first='Eve' high=i:500 latest=date:50.0 low=i:500 mean=d:500.0 n=i:1 named=i:1 total=i:500",
        ], "groups in the order of their first row; the nil department is a group of its own")
    }

    func testGroupByKeyPathAndSortByGroupedAttribute() throws {
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["lastName", aggregate("n", "count:", "firstName")]
            r.propertiesToGroupBy = ["lastName"]
            r.sortDescriptors = [NSSortDescriptor(key: "lastName", ascending: true)]
        }, ["n=i:1", "lastName='Kim' n=i:2", "lastName='Lee' n=i:3"], "nil values form one group, sorted first")
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["department.name", aggregate("total", "sum:", "salary")]
            r.propertiesToGroupBy = ["department.name"]
        }, ["department.name='Sales' total=i:1400", "department.name='Ops' total=i:400", "total=i:500"])
    }

    func testHavingFiltersGroups() throws {
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["lastName", aggregate("n", "count:", "firstName"), aggregate("mean", "average:", "salary")]
            r.propertiesToGroupBy = ["lastName"]
            r.havingPredicate = NSPredicate(format: "n >= 2 AND mean >= %d", 300)
        }, ["lastName='Lee' mean=d:300.0 n=i:3", "lastName='Kim' mean=d:600.0 n=i:2"])
        // A grouped attribute that is not fetched still filters; string operators translate
        // too, and a predicate that doesn't (two key paths compared) is evaluated in memory
        // with the same answer.
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = [aggregate("total", "sum:", "salary")]
            r.propertiesToGroupBy = ["lastName"]
            r.havingPredicate = NSPredicate(format: "lastName == %@", "Kim")
        }, ["total=i:1200"])
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["lastName", aggregate("total", "sum:", "salary")]
            r.propertiesToGroupBy = ["lastName"]
            r.havingPredicate = NSPredicate(format: "lastName BEGINSWITH %@", "K")
        }, ["lastName='Kim' total=i:1200"])
        XCTAssertEqual(try fetch(inSQL: false) { r in
            r.propertiesToFetch = ["lastName", aggregate("total", "sum:", "salary")]
            r.propertiesToGroupBy = ["lastName"]
            r.havingPredicate = NSPredicate(format: "lastName BEGINSWITH %@ AND total == total", "K")
        }, ["lastName='Kim' total=i:1200"])
    }

    /// Apple's idiom: the having predicate names an expression description as a variable
    /// (`$n`), as in `NSPredicate(format: "$count > 1")`.
    func testHavingNamesExpressionDescriptionsAsVariables() throws {
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["lastName", aggregate("n", "count:", "firstName")]
            r.propertiesToGroupBy = ["lastName"]
            r.havingPredicate = NSPredicate(format: "$n >= 2")
        }, ["lastName='Lee' n=i:3", "lastName='Kim' n=i:2"])
    }

    /// `"objectID"` among the properties to fetch, and an expression description of
    /// `.objectIDAttributeType` over the evaluated object, give each row's object ID.
    func testObjectIDsAmongTheFetchedProperties() throws {
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["objectID", "firstName"]
            r.predicate = NSPredicate(format: "salary >= 500")
            r.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
        }, ["firstName='Eve' objectID=Eve", "firstName='Max' objectID=Max"])
        XCTAssertEqual(try fetch(inSQL: true) { r in
            let id = NSExpressionDescription()
            id.name = "id"
            id.expression = NSExpression.expressionForEvaluatedObject()
            id.expressionResultType = .objectIDAttributeType
            r.propertiesToFetch = [id]
            r.predicate = NSPredicate(format: "firstName == %@", "Ann")
        }, ["id=Ann"])
    }

    func testAggregatesWithoutGroupByGiveOneDictionary() throws {
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = [aggregate("n", "count:", "salary"), aggregate("total", "sum:", "salary"),
                                   aggregate("mean", "average:", "salary"), aggregate("earliest", "min:", "startDate"),
                                   aggregate("managed", "count:", "manager")]
            r.predicate = NSPredicate(format: "salary > %d", 150)
        }, ["earliest=date:10.0 managed=i:2 mean=d:440.0 n=i:5 total=i:2200"], "count: of a to-one counts the set ones")
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = [aggregate("n", "count:", "salary"), aggregate("total", "sum:", "salary")]
            r.predicate = NSPredicate(format: "salary > %d", 5000)
        }, ["n=i:0"], "no rows: count 0, sum nil (left out)")
        // A Double sum is added in memory (in row order) on every store: SQLite's order of
        // terms could change its last bits.
        XCTAssertEqual(try fetch("Department", inSQL: false) { r in
            r.propertiesToFetch = [aggregate("total", "sum:", "budget")]
        }, ["total=d:150.75"])
    }

    func testExpressionResultTypeConvertsTheValue() throws {
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = [aggregate("sumAsDouble", "sum:", "salary", .doubleAttributeType),
                                   aggregate("meanAsInteger", "average:", "salary", .integer64AttributeType),
                                   aggregate("meanAsInt32", "average:", "salary", .integer32AttributeType),
                                   aggregate("countAsInt16", "count:", "salary", .integer16AttributeType)]
        }, ["countAsInt16=i:6 meanAsInt32=i:383 meanAsInteger=i:383 sumAsDouble=d:2300.0"], "average 383.33 truncates toward zero")
        // A decimal result is computed in memory (SQLite has no decimal arithmetic).
        XCTAssertEqual(try fetch(inSQL: false) { r in
            r.propertiesToFetch = [aggregate("mean", "average:", "salary", .decimalAttributeType)]
            r.predicate = NSPredicate(format: "salary <= %d", 200)
        }, ["mean=" + describe(Decimal(500.0 / 3.0))])
    }

    func testSubentities() throws {
        XCTAssertEqual(try fetch("Manager", inSQL: true) { r in r.propertiesToFetch = ["firstName", "bonus"] }, ["bonus=i:7 firstName='Max'"])
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = [aggregate("n", "count:", "firstName")]
            r.includesSubentities = false
        }, ["n=i:5"])
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = [aggregate("n", "count:", "firstName")]
        }, ["n=i:6"])
    }

    func testDictionaryResultsReflectTheStoreNotPendingChanges() throws {
        let total = aggregate("total", "sum:", "salary")
        for stack in [memory!, sqlite!] {
            try stack.context.performAndWait {
                let all = try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
                all.first { $0.firstName == "Ann" }!.salary = 1
                stack.context.delete(all.first { $0.firstName == "Bob" }!)
                _ = stack.employee("New", salary: 7777)
                XCTAssertTrue(stack.context.hasChanges)
            }
        }
        XCTAssertEqual(try fetch(inSQL: true) { r in r.propertiesToFetch = [total] }, ["total=i:2300"])
        XCTAssertEqual(try fetch(inSQL: false) { r in
            r.propertiesToFetch = ["firstName"]
            // Two key paths compared: evaluated in memory, and still the store's state.
            r.predicate = NSPredicate(format: "firstName BEGINSWITH %@ AND salary == salary", "A")
        }, ["firstName='Ann'"])
        XCTAssertEqual(try fetch(inSQL: true) { r in
            r.propertiesToFetch = ["firstName", "salary"]
            r.predicate = NSPredicate(format: "salary < %d", 150)
        }, ["firstName='Bob' salary=i:100"])
    }

    func testChildContextReadsItsParentsState() throws {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = memory.context
        let request = NSFetchRequest<[String: Any]>(entityName: "Department")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name"]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let names = try child.performAndWait { try child.fetch(request).map { $0["name"] as? String } }
        XCTAssertEqual(names, ["Empty", "Ops", "Sales"])
    }

    func testBadRequestsThrow() throws {
        let cases: [(String, (NSFetchRequest<NSDictionary>) -> Void)] = [
            ("group-by without dictionary results", { r in r.resultType = .managedObjectResultType; r.propertiesToGroupBy = ["lastName"] }),
            ("fetched but not grouped", { r in r.propertiesToFetch = ["firstName", "lastName"]; r.propertiesToGroupBy = ["lastName"] }),
            ("unknown property", { r in r.propertiesToFetch = ["nickname"] }),
            ("unknown key path step", { r in r.propertiesToFetch = ["department.title"] }),
            ("to-many relationship", { r in r.propertiesToFetch = ["projects"] }),
            ("having without group-by", { r in r.propertiesToFetch = ["firstName"]; r.havingPredicate = NSPredicate(format: "firstName != nil") }),
            ("sum of a string", { r in r.propertiesToFetch = [self.aggregate("s", "sum:", "firstName")] }),
            ("aggregate and plain property without group-by", { r in r.propertiesToFetch = ["firstName", self.aggregate("n", "count:", "salary")] }),
            ("sort by an aggregate's name", { r in
                r.propertiesToFetch = ["lastName", self.aggregate("n", "count:", "salary")]
                r.propertiesToGroupBy = ["lastName"]
                r.sortDescriptors = [NSSortDescriptor(key: "n", ascending: true)]
            }),
            ("unsupported expression", { r in
                let d = NSExpressionDescription()
                d.name = "x"
                d.expression = NSExpression(format: "salary * 2")
                r.propertiesToFetch = [d]
            }),
        ]
        for stack in [memory!, sqlite!] {
            for (label, configure) in cases {
                let request = NSFetchRequest<NSDictionary>(entityName: "Employee")
                request.resultType = .dictionaryResultType
                configure(request)
                let error: Error? = stack.context.performAndWait {
                    do { _ = try stack.context.fetch(request); return nil } catch { return error }
                }
                let e = error as NSError?
                XCTAssertNotNil(e, label)
                XCTAssertEqual(e?.domain, NSCocoaErrorDomain, label)
                XCTAssertEqual(e?.code, NSCoreDataError, label)
                XCTAssertFalse(e?.localizedDescription.isEmpty ?? true, label)
            }
        }
    }
}
