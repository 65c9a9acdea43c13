import CSQLite
@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Predicates that follow relationships — to-one key paths, ANY/ALL/NONE over to-many key
/// paths (one-to-many and many-to-many), collection operators and SUBQUERY — are answered by
/// the SQLite store in SQL, with exactly the in-memory evaluator's answer; and never through
/// SQL while unsaved changes of related objects could change that answer.
final class SQLiteRelationshipPredicateTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-relpred")
    }

    /// The company graph, saved to a SQLite store:
    ///
    ///  - departments: Sales (100.5), Développement (2000), Ops (0, nobody);
    ///  - Ann Lee (Manager, bonus 10) 5000, Sales, projects Apollo + Zeus, badge A1;
    ///  - Bob Öz 3000, Sales, manager Ann, project (untitled);
    ///  - Cleo (no last name; Manager, bonus 5) 7000, Développement, manager Ann, project Apollo;
    ///  - Dan Straße 100, no department, manager Cleo, no projects;
    ///  - Eve ÉCOLE 0, Développement, no manager, projects Zeus + Hermès;
    ///  - Apollo's ordered milestones: "Launch", then one without a title.
    private func makeStore() throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Company.sqlite"))
        let context = newContext(coordinator)
        try context.performAndWait {
            func department(_ name: String, _ budget: Double) -> Department {
                let d = Department(context: context)
                d.name = name
                d.budget = budget
                return d
            }
            func employee(_ entity: String, _ first: String, _ last: String?, _ salary: Int64, _ d: Department?, manager: Employee?) -> Employee {
                let e = NSEntityDescription.insertNewObject(forEntityName: entity, into: context) as! Employee
                e.firstName = first
                e.lastName = last
                e.salary = salary
                e.department = d
                e.manager = manager
                return e
            }
            func project(_ title: String?, _ members: [Employee]) -> Project {
                let p = Project(context: context)
                p.title = title
                p.members = Set(members)
                return p
            }
            let sales = department("Sales", 100.5), development = department("Développement", 2000)
            _ = department("Ops", 0)
            let ann = employee("Manager", "Ann", "Lee", 5000, sales, manager: nil)
            ann.setValue(10, forKey: "bonus")
            let bob = employee("Employee", "Bob", "Öz", 3000, sales, manager: ann)
            let cleo = employee("Manager", "Cleo", nil, 7000, development, manager: ann)
            cleo.setValue(5, forKey: "bonus")
            let dan = employee("Employee", "Dan", "Straße", 100, nil, manager: cleo)
            let eve = employee("Employee", "Eve", "ÉCOLE", 0, development, manager: nil)
            _ = dan
            let apollo = project("Apollo", [ann, cleo])
            _ = project("Zeus", [ann, eve])
            _ = project("Hermès", [eve])
            _ = project(nil, [bob])
            let launch = Milestone(context: context)
            launch.title = "Launch"
            let untitled = Milestone(context: context)
            apollo.milestones = [launch, untitled]
            let badge = Badge(context: context)
            badge.code = "A1"
            ann.badge = badge
            try context.save()
        }
        return coordinator
    }

    /// The `key` values (first names, department names, titles) of the `entity` objects that
    /// match `format` in a fresh context, sorted; and whether every result came back a fault
    /// (the store answered: nothing was evaluated in memory).
    private func fetch(_ coordinator: NSPersistentStoreCoordinator, _ entity: String, _ format: String, _ args: [Any] = [],
                       key: String) throws -> [String] {
        let context = newContext(coordinator)
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.predicate = NSPredicate(format: format, argumentArray: args)
            let names = try context.fetch(request).map { ($0.value(forKey: key) as? String) ?? "-" }.sorted()
            // count(for:) agrees (COUNT(*) in SQL when the store answers).
            XCTAssertEqual(try context.count(for: request), names.count, "count(for:) \(format)")
            return names
        }
    }

    /// What the in-memory evaluator says over every `entity` object.
    private func evaluated(_ coordinator: NSPersistentStoreCoordinator, _ entity: String, _ format: String, _ args: [Any] = [],
                           key: String) throws -> [String] {
        let context = newContext(coordinator)
        return try context.performAndWait {
            let predicate = NSPredicate(format: format, argumentArray: args)
            return try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity))
                .filter { try predicate.evaluateThrowing(with: $0) }
                .map { ($0.value(forKey: key) as? String) ?? "-" }.sorted()
        }
    }

    /// Whether the store answers `format` on `entity` in SQL (the plan is exact).
    private func answeredInSQL(_ coordinator: NSPersistentStoreCoordinator, _ entity: String, _ format: String, _ args: [Any] = []) -> Bool {
        let plan = FetchPlan(entity: coordinator.managedObjectModel.entitiesByName[entity]!, predicate: NSPredicate(format: format, argumentArray: args),
                             sortDescriptors: [], includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil)
        return coordinator.storesEvaluate(plan)
    }

    private struct Case {
        let entity: String, format: String, args: [Any], expected: [String], exact: Bool
        init(_ entity: String, _ format: String, _ expected: [String], args: [Any] = [], exact: Bool = true) {
            self.entity = entity; self.format = format; self.args = args; self.expected = expected; self.exact = exact
        }
    }

    private static let keys = ["Employee": "firstName", "Manager": "firstName", "Department": "name", "Project": "title"]

    private func check(_ cases: [Case], file: StaticString = #filePath, line: UInt = #line) throws {
        let coordinator = try makeStore()
        for c in cases {
            let key = Self.keys[c.entity]!
            let label = "\(c.entity): \(c.format)"
            XCTAssertEqual(try fetch(coordinator, c.entity, c.format, c.args, key: key), c.expected, label, file: file, line: line)
            XCTAssertEqual(try evaluated(coordinator, c.entity, c.format, c.args, key: key), c.expected, "in memory: \(label)", file: file, line: line)
            XCTAssertEqual(answeredInSQL(coordinator, c.entity, c.format, c.args), c.exact, "answered in SQL: \(label)", file: file, line: line)
        }
    }

    func testToOneKeyPaths() throws {
        try check([
            Case("Employee", "department.name == 'Sales'", ["Ann", "Bob"]),
            Case("Employee", "department.name == nil", ["Dan"]),
            Case("Employee", "department.name != 'Sales'", ["Cleo", "Dan", "Eve"]),
            Case("Employee", "department.name > 'M'", ["Ann", "Bob"]),
            Case("Employee", "department.name ==[cd] 'developpement'", ["Cleo", "Eve"]),
            Case("Employee", "department.budget > 1000", ["Cleo", "Eve"]),
            Case("Employee", "department.budget < 1000.5", ["Ann", "Bob"]),
            Case("Employee", "department.budget IN {0, 100.5}", ["Ann", "Bob"]),
            Case("Employee", "department.budget BETWEEN {100, 3000}", ["Ann", "Bob", "Cleo", "Eve"]),
            Case("Employee", "NOT (department.budget > 1000)", ["Ann", "Bob", "Dan"]),
            Case("Employee", "badge.code == 'A1'", ["Ann"]),
            // Two steps, and a destination (Employee) with a sub-entity (Manager): the manager
            // row is found by key whatever its Z_ENT.
            Case("Employee", "manager.firstName == 'Ann'", ["Bob", "Cleo"]),
            Case("Employee", "manager.department.budget > 50", ["Bob", "Cleo", "Dan"]),
            Case("Employee", "manager.department.name == nil", ["Ann", "Eve"]),
            Case("Employee", "manager.manager.firstName == 'Ann'", ["Dan"]),
            Case("Manager", "manager.firstName == 'Ann'", ["Cleo"]),
            Case("Employee", "department.name == 'Sales' AND salary < 4000", ["Bob"]),
            Case("Employee", "department.name == 'Ops' OR manager == nil", ["Ann", "Eve"]),
            Case("Employee", "department != nil AND manager.department == nil", ["Ann", "Eve"]),
            Case("Employee", "manager.department != nil", ["Bob", "Cleo", "Dan"]),
            Case("Employee", "NOT (badge == nil)", ["Ann"]),
            Case("Department", "SUBQUERY(employees, $e, $e.manager == nil).@count == 1", ["Développement", "Sales"]),
            // An object constant: the evaluator compares identity, left to memory.
            Case("Employee", "department == %@", [], args: ["Sales"], exact: false),
            // An attribute only the sub-entity has: left to memory (every manager here is a Manager).
            Case("Employee", "manager.bonus > 5", ["Bob", "Cleo"], exact: false),
        ])
    }

    func testStringOperatorsThroughRelationships() throws {
        try check([
            Case("Employee", "department.name BEGINSWITH[cd] 'deve'", ["Cleo", "Eve"]),
            Case("Employee", "department.name BEGINSWITH 'deve'", []),
            Case("Employee", "department.name ENDSWITH[d] 'ement'", ["Cleo", "Eve"]),
            Case("Employee", "department.name CONTAINS[c] 'ALE'", ["Ann", "Bob"]),
            Case("Employee", "department.name LIKE[c] 's*s'", ["Ann", "Bob"]),
            Case("Employee", "department.name MATCHES '[A-Z][a-z]+'", ["Ann", "Bob"]),
            Case("Employee", "department.name MATCHES[d] 'Dev.*'", ["Cleo", "Eve"]),
            Case("Employee", "NOT (department.name CONTAINS 'e')", ["Dan"]),
            Case("Employee", "manager.lastName BEGINSWITH[n] 'L'", ["Bob", "Cleo"]),
            Case("Employee", "lastName CONTAINS[c] 'SS'", ["Dan"]),
            Case("Employee", "lastName ==[cd] 'ecole'", ["Eve"]),
            Case("Employee", "lastName LIKE[cd] '?z'", ["Bob"]),
        ])
    }

    func testQuantifiersOverToManyKeyPaths() throws {
        try check([
            // Many-to-many (join table).
            Case("Employee", "ANY projects.title == 'Apollo'", ["Ann", "Cleo"]),
            Case("Employee", "SOME projects.title BEGINSWITH[cd] 'herm'", ["Eve"]),
            // ALL over members with a nil title (Bob's project) or none (Dan): vacuously true.
            Case("Employee", "ALL projects.title BEGINSWITH 'A'", ["Bob", "Cleo", "Dan"]),
            Case("Employee", "NONE projects.title == 'Zeus'", ["Bob", "Cleo", "Dan"]),
            Case("Employee", "ANY projects.title == nil", []),
            Case("Employee", "ANY projects.title != nil", ["Ann", "Cleo", "Eve"]),
            Case("Employee", "ANY projects.title IN {'Zeus', 'Nope'}", ["Ann", "Eve"]),
            Case("Project", "ANY members.department.name == 'Sales'", ["-", "Apollo", "Zeus"]),
            Case("Project", "ALL members.salary >= 3000", ["-", "Apollo"]),
            // One-to-many (the members' foreign key), from a sub-entity destination.
            Case("Employee", "ANY directReports.salary > 5000", ["Ann"]),
            Case("Employee", "ALL directReports.salary > 1000", ["Ann", "Bob", "Dan", "Eve"]),
            Case("Department", "ANY employees.lastName ==[c] 'öz'", ["Sales"]),
            // The set of last names holds no nil, so ALL ... != nil always holds.
            Case("Department", "ALL employees.lastName != nil", ["Développement", "Ops", "Sales"]),
            Case("Department", "NONE employees.salary BETWEEN {1, 6000}", ["Développement", "Ops"]),
            // A to-one before the to-many: nil department means no members.
            Case("Employee", "ANY department.employees.firstName == 'Eve'", ["Cleo", "Eve"]),
            Case("Employee", "ALL department.employees.salary > 1000", ["Ann", "Bob", "Dan"]),
            // An ordered to-many keeps nil titles as elements: left to memory.
            Case("Project", "ANY milestones.title == 'Launch'", ["Apollo"], exact: false),
        ])
    }

    func testCollectionOperatorsAndSubqueries() throws {
        try check([
            Case("Employee", "projects.@count >= 2", ["Ann", "Eve"]),
            Case("Employee", "projects.@count == 0", ["Dan"]),
            Case("Employee", "directReports.@count > 0", ["Ann", "Cleo"]),
            Case("Project", "milestones.@count == 2", ["Apollo"]),
            Case("Department", "employees.@count == 0", ["Ops"]),
            Case("Department", "employees.@sum.salary > 7000", ["Sales"]),
            Case("Department", "employees.@sum.salary == 0", ["Ops"]),
            Case("Department", "employees.@avg.salary == 3500", ["Développement"]),
            Case("Department", "employees.@avg.salary == 0", ["Ops"]),
            Case("Department", "employees.@avg.salary > 3999.5", ["Sales"]),
            Case("Department", "employees.@max.salary == 7000", ["Développement"]),
            Case("Department", "employees.@min.salary < 1000", ["Développement"]),
            Case("Department", "employees.@min.salary == nil", ["Ops"]),
            Case("Employee", "department.employees.@count == 2", ["Ann", "Bob", "Cleo", "Eve"]),
            Case("Employee", "department.employees.@count != 2", ["Dan"]),
            Case("Department", "SUBQUERY(employees, $e, $e.salary > 1000 AND $e.manager.firstName != nil).@count == 1", ["Développement", "Sales"]),
            Case("Department", "SUBQUERY(employees, $e, ANY $e.projects.title == 'Zeus').@count > 0", ["Développement", "Sales"]),
            Case("Employee", "SUBQUERY(projects, $p, $p.title LIKE '*e*').@count == 1", ["Ann"]),
            Case("Employee", "SUBQUERY(directReports, $r, $r.lastName == nil).@count > 0", ["Ann"]),
            // Strings have no exact SQL @min; an inexact SUBQUERY predicate counts nothing in SQL.
            Case("Department", "employees.@max.lastName == 'Öz'", ["Sales"], exact: false),
            Case("Department", "SUBQUERY(employees, $e, $e.manager.bonus > 5).@count > 0", ["Développement", "Sales"], exact: false),
        ])
    }

    /// `department == %@` with an object of the fetching context or an object ID: compared
    /// by key in SQL. An object of another context equals nothing here, as in memory.
    func testObjectsAndObjectIDsOfToOnePaths() throws {
        let coordinator = try makeStore()
        let other = newContext(coordinator)
        let otherSales = try other.performAndWait {
            let request = NSFetchRequest<Department>(entityName: "Department")
            request.predicate = NSPredicate(format: "name == 'Sales'")
            return try XCTUnwrap(other.fetch(request).first)
        }
        let context = newContext(coordinator)
        try context.performAndWait {
            func fetch(_ format: String, _ args: [Any]) throws -> (names: [String], inSQL: Bool) {
                let request = NSFetchRequest<Employee>(entityName: "Employee")
                request.predicate = NSPredicate(format: format, argumentArray: args)
                let plan = FetchPlan(entity: coordinator.managedObjectModel.entitiesByName["Employee"]!, predicate: request.predicate,
                                     sortDescriptors: [], includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil,
                                     context: context)
                return (try context.fetch(request).map { $0.firstName ?? "-" }.sorted(), coordinator.storesEvaluate(plan))
            }
            let departments = try context.fetch(NSFetchRequest<Department>(entityName: "Department"))
            let sales = try XCTUnwrap(departments.first { $0.name == "Sales" })
            let employees = try context.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
            let ann = try XCTUnwrap(employees.first { $0.firstName == "Ann" })
            let annBadge = try XCTUnwrap(ann.badge)

            var result = try fetch("department == %@", [sales])
            XCTAssertEqual(result.names, ["Ann", "Bob"]); XCTAssertTrue(result.inSQL)
            result = try fetch("department != %@", [sales])
            XCTAssertEqual(result.names, ["Cleo", "Dan", "Eve"]); XCTAssertTrue(result.inSQL)
            result = try fetch("manager == %@", [ann.objectID])
            XCTAssertEqual(result.names, ["Bob", "Cleo"]); XCTAssertTrue(result.inSQL, "a Manager's ID, destination Employee")
            result = try fetch("manager.manager == %@", [ann])
            XCTAssertEqual(result.names, ["Dan"]); XCTAssertTrue(result.inSQL)
            result = try fetch("badge == %@", [annBadge.objectID])
            XCTAssertEqual(result.names, ["Ann"]); XCTAssertTrue(result.inSQL)
            result = try fetch("manager == %@", [sales.objectID])
            XCTAssertEqual(result.names, [], "another entity's ID equals no employee"); XCTAssertTrue(result.inSQL)
            result = try fetch("manager != %@", [sales.objectID])
            XCTAssertEqual(result.names, ["Ann", "Bob", "Cleo", "Dan", "Eve"]); XCTAssertTrue(result.inSQL)
            // Another context's object: the evaluator compares identity, so nothing matches.
            result = try fetch("department == %@", [otherSales])
            XCTAssertEqual(result.names, []); XCTAssertFalse(result.inSQL)
            result = try fetch("department == %@", [otherSales.objectID])
            XCTAssertEqual(result.names, ["Ann", "Bob"]); XCTAssertTrue(result.inSQL)
            // The same answers in memory.
            for (format, arg, expected) in [("department == %@", sales as Any, ["Ann", "Bob"]), ("manager == %@", ann.objectID, ["Bob", "Cleo"]),
                                            ("department == %@", otherSales, [])] {
                let predicate = NSPredicate(format: format, argumentArray: [arg])
                XCTAssertEqual(try employees.filter { try predicate.evaluateThrowing(with: $0) }.map { $0.firstName ?? "-" }.sorted(), expected, format)
            }
        }
    }

    /// With unsaved changes, the context evaluates in memory and the store's narrowing filter
    /// must not drop a row that only a related object's unsaved change makes match.
    func testUnsavedChangesOfRelatedObjectsAreSeen() throws {
        let coordinator = try makeStore()
        let context = newContext(coordinator)
        try context.performAndWait {
            func names(_ format: String, pending: Bool = true) throws -> [String] {
                let request = NSFetchRequest<Employee>(entityName: "Employee")
                request.predicate = NSPredicate(format: format)
                request.includesPendingChanges = pending
                return try context.fetch(request).map { $0.firstName ?? "-" }.sorted()
            }
            let departments = try context.fetch(NSFetchRequest<Department>(entityName: "Department"))
            let sales = try XCTUnwrap(departments.first { $0.name == "Sales" })
            sales.name = "Ventes"
            XCTAssertEqual(try names("department.name == 'Ventes'"), ["Ann", "Bob"])
            XCTAssertEqual(try names("department.name == 'Sales'"), [])
            XCTAssertEqual(try names("department.name BEGINSWITH[c] 'v' AND salary > 0"), ["Ann", "Bob"])
            // Without pending changes the store answers from what is saved.
            XCTAssertEqual(try names("department.name == 'Sales'", pending: false), ["Ann", "Bob"])

            let projects = try context.fetch(NSFetchRequest<Project>(entityName: "Project"))
            try XCTUnwrap(projects.first { $0.title == "Apollo" }).title = "Artemis"
            XCTAssertEqual(try names("ANY projects.title == 'Artemis'"), ["Ann", "Cleo"])
            XCTAssertEqual(try names("NONE projects.title == 'Apollo'"), ["Ann", "Bob", "Cleo", "Dan", "Eve"])
            let dan = try XCTUnwrap(try context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first { $0.firstName == "Dan" })
            dan.salary = 900_000
            let count = NSFetchRequest<Department>(entityName: "Department")
            count.predicate = NSPredicate(format: "SUBQUERY(employees, $e, $e.salary > 100000).@count > 0")
            XCTAssertEqual(try context.fetch(count).count, 0, "Dan has no department")
            dan.department = sales
            XCTAssertEqual(try context.fetch(count).map { $0.name ?? "-" }, ["Ventes"])
            XCTAssertEqual(try context.count(for: count), 1)
        }
    }

    /// The SQL itself: to-one steps read the destination by key, a many-to-many goes through
    /// its join table, a one-to-many through the members' foreign key; values are bound.
    func testTheSQLFollowsForeignKeysAndJoinTables() throws {
        let coordinator = try makeStore()
        let store = try XCTUnwrap(coordinator.persistentStores.first as? SQLiteStore)
        let model = coordinator.managedObjectModel
        func filter(_ entity: String, _ format: String) throws -> SQLitePredicateFilter {
            let e = try XCTUnwrap(model.entitiesByName[entity])
            let table = try XCTUnwrap(store.plan(for: e)?.table)
            return try XCTUnwrap(SQLitePredicateFilter(NSPredicate(format: format), entity: e, table: table, schema: store.schema))
        }
        let toOne = try filter("Employee", "manager.department.name BEGINSWITH[c] 'sa'")
        XCTAssertTrue(toOne.isExact)
        XCTAssertTrue(toOne.sql.contains(#"FROM "ZEMPLOYEE" t1 WHERE t1.Z_PK = "ZEMPLOYEE"."ZMANAGER""#), toOne.sql)
        XCTAssertTrue(toOne.sql.contains(#"FROM "ZDEPARTMENT" t2 WHERE t2.Z_PK = t1."ZDEPARTMENT""#), toOne.sql)
        XCTAssertTrue(toOne.sql.contains("ocd_match(8, 1, "), toOne.sql)
        XCTAssertFalse(toOne.sql.contains("'sa'"), "the constant is bound: \(toOne.sql)")
        guard case .text("sa")? = toOne.bindings.first else { return XCTFail("\(toOne.bindings)") }

        let manyToMany = try filter("Employee", "ANY projects.title == 'Apollo'")
        XCTAssertTrue(manyToMany.isExact)
        let join = try XCTUnwrap(store.schema.joinTables.first { $0.primary.name == "projects" || $0.secondary.name == "projects" })
        XCTAssertTrue(manyToMany.sql.hasPrefix(#"EXISTS (SELECT 1 FROM "\#(join.name)" t1 JOIN "ZPROJECT" t2 ON t2.Z_PK = t1."#), manyToMany.sql)
        XCTAssertTrue(manyToMany.sql.contains(#"= "ZEMPLOYEE".Z_PK AND t2."ZTITLE" IS NOT NULL"#), manyToMany.sql)

        let oneToMany = try filter("Department", "employees.@count > 1")
        XCTAssertEqual(oneToMany.sql, #"((SELECT COUNT(*) FROM "ZEMPLOYEE" t1 WHERE t1."ZDEPARTMENT" = "ZDEPARTMENT".Z_PK) > ?)"#)

        let pending = SQLitePredicateFilter(NSPredicate(format: "department.name == 'x' AND salary > 5"), entity: model.entitiesByName["Employee"]!,
                                            table: store.plan(for: model.entitiesByName["Employee"]!)!.table, schema: store.schema, followsRelationships: false)
        XCTAssertEqual(pending?.isExact, false, "relationships are not followed while pending changes are evaluated")
        XCTAssertEqual(pending?.sql, #"(("ZEMPLOYEE"."ZSALARY" IS NOT NULL AND "ZEMPLOYEE"."ZSALARY" > ?))"#,
                       "a part that cannot fail narrows even after one left to memory")
    }

    /// Values reach SQL as bindings only: a quote in a constant is just a character.
    func testConstantsAreBoundNotSpliced() throws {
        try check([
            Case("Employee", "department.name == %@", [], args: ["x' OR 1=1 --"]),
            Case("Employee", "ANY projects.title BEGINSWITH %@", [], args: ["') OR 1=1 --"]),
        ])
    }

    /// Every statement the store generates quotes the table and column names it builds from
    /// the model (`"ZEMPLOYEE"."ZSALARY"`): inserts, updates, deletes, join-table pairs, ordered
    /// positions, fetches through relationships, counts, grouped dictionaries and to-many
    /// faults. Only `CREATE` statements keep Apple's unquoted schema text. Every statement run
    /// on the store's connection is traced and checked.
    func testGeneratedStatementsQuoteEveryNameFromTheModel() throws {
        let coordinator = try makeStore()
        let store = try XCTUnwrap(coordinator.persistentStores.first as? SQLiteStore)
        final class Trace: @unchecked Sendable { var statements: [String] = [] }
        let trace = Trace()
        let handle = try store.openConnection().handle
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            let trace = Unmanaged<Trace>.fromOpaque(context!).takeUnretainedValue()
            if let sql = sqlite3_sql(OpaquePointer(statement)) { trace.statements.append(String(cString: sql)) }
            return 0
        }, Unmanaged.passUnretained(trace).toOpaque())
        defer { sqlite3_trace_v2(handle, 0, nil, nil) }

        let context = newContext(coordinator)
        try context.performAndWait {
            let employees = try context.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
            let ann = try XCTUnwrap(employees.first { $0.firstName == "Ann" })
            _ = ann.projects.map(\.title)                                  // many-to-many fault
            _ = try XCTUnwrap(ann.department).employees.count             // one-to-many fault
            let project = Project(context: context)
            project.title = "Ares"
            project.members = Set(employees.prefix(2))                    // join-table pairs
            project.milestones = [Milestone(context: context), Milestone(context: context)]  // ordered positions
            ann.salary += 1
            context.delete(try XCTUnwrap(employees.first { $0.firstName == "Dan" }))
            try context.save()

            let related = NSFetchRequest<Employee>(entityName: "Employee")
            related.predicate = NSPredicate(format: "manager.department.name BEGINSWITH 'S' OR ANY projects.title == 'Apollo' OR department.employees.@count > 1")
            related.sortDescriptors = [NSSortDescriptor(key: "lastName", ascending: true)]
            _ = try context.fetch(related)
            _ = try context.count(for: related)
            let grouped = NSFetchRequest<NSDictionary>(entityName: "Employee")
            grouped.resultType = .dictionaryResultType
            let total = NSExpressionDescription()
            total.name = "total"
            total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "salary")])
            total.expressionResultType = .integer64AttributeType
            grouped.propertiesToFetch = ["department", total]
            grouped.propertiesToGroupBy = ["department"]
            grouped.havingPredicate = NSPredicate(format: "total > 0")
            _ = try context.fetch(grouped)
        }

        let names = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_"])Z[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_"])"#)
        let storeOwn: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT", "Z_MAX", "Z_NAME", "Z_SUPER", "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE",
                                     "Z_VERSION", "Z_UUID", "Z_PLIST", "Z_CONTENT"]
        let generated = trace.statements.filter { !$0.hasPrefix("CREATE") && $0.contains("Z") }
        XCTAssertGreaterThan(generated.count, 10, "\(trace.statements)")
        for sql in generated {
            let unquoted = names.matches(in: sql, range: NSRange(sql.startIndex..., in: sql))
                .map { String(sql[Range($0.range, in: sql)!]) }.filter { !storeOwn.contains($0) }
            XCTAssertEqual(unquoted, [], sql)
        }
        for table in ["ZEMPLOYEE", "ZPROJECT", "ZMILESTONE", "ZDEPARTMENT"] {
            XCTAssertTrue(generated.contains { $0.contains("\"\(table)\"") }, "no statement on \(table): \(generated)")
        }
    }
}
