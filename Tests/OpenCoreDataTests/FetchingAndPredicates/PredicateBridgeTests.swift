import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

// The Swift-native bridge: `#Predicate` → NSPredicate, `SortDescriptor` → keyed NSSortDescriptor,
// and the key path names behind both. Every translation is checked three ways: its exact
// `predicateFormat`, a fetch with it against a fetch with that format parsed, and both against
// Swift's own evaluation of the `Predicate` — the ground truth the bridge must reproduce.

extension Employee {
    /// Computed, transforming a stored value: has no key.
    var doubledSalary: Int64 { salary * 2 }
    /// Computed, reading a stored value unchanged: reads exactly the key "salary".
    var salaryAlias: Int64 { salary }
}

extension Department {
    var shoutedName: String? { name?.uppercased() }
}

final class PredicateBridgeTests: XCTestCase {
    private var stack: TestStack!
    private var employees: [Employee] = []
    private var sales: Department!

    override func setUpWithError() throws {
        stack = TestStack()
        try stack.context.performAndWait {
            sales = stack.department("Sales"); sales.budget = 100
            let engineering = stack.department("Engineering"); engineering.budget = 500
            let ann = stack.employee("Ann", salary: 1000), bob = stack.employee("Bob", salary: 2000)
            let cid = stack.employee("Cid", salary: 3000), dee = stack.employee("Dee", salary: 4000)
            let eve = stack.employee("eve", salary: 2500)
            ann.lastName = "Lee"; cid.lastName = "Ng"; dee.lastName = "Lee"; eve.lastName = "Öz"
            ann.email = "ann@example.com"; bob.email = "bob@example.org"
            ann.department = sales; dee.department = sales; bob.department = engineering; eve.department = engineering
            dee.manager = ann; bob.manager = ann; eve.manager = dee
            ann.startDate = Date(timeIntervalSinceReferenceDate: 1000)
            let apollo = Project(context: stack.context); apollo.title = "Apollo"
            let zeus = Project(context: stack.context); zeus.title = "Zeus"
            apollo.members = [ann, bob]; zeus.members = [dee, ann]
            try stack.context.save()
            employees = [ann, bob, cid, dee, eve]
        }
    }

    override func tearDown() {
        employees = []
        sales = nil
        stack = nil
    }

    /// Translates `predicate`, checks its format, and checks that fetching with it, fetching with
    /// the format parsed, and Swift's evaluation select the same employees.
    private func assertTranslation(_ predicate: Predicate<Employee>, _ format: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let translated = try NSPredicate(translating: predicate)
        XCTAssertEqual(translated.predicateFormat, format, file: file, line: line)
        try stack.context.performAndWait {
            let expected = try employees.filter { try predicate.evaluate($0) }.compactMap(\.firstName).sorted()
            XCTAssertEqual(try fetchNames(translated), expected, "bridged fetch", file: file, line: line)
            XCTAssertEqual(try fetchNames(parse(format, file: file, line: line)), expected, "format fetch", file: file, line: line)
        }
    }

    private func fetchNames(_ predicate: NSPredicate) throws -> [String] {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = predicate
        return try stack.context.fetch(request).compactMap(\.firstName).sorted()
    }

    private func assertUntranslatable(_ predicate: Predicate<Employee>, mentions fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try NSPredicate(translating: predicate), file: file, line: line) { error in
            let e = error as NSError
            XCTAssertEqual(e.domain, NSCocoaErrorDomain, file: file, line: line)
            XCTAssertEqual(e.code, 2048, file: file, line: line)
            XCTAssertTrue(e.localizedDescription.contains(fragment), "\(e.localizedDescription) does not mention \(fragment)", file: file, line: line)
        }
        XCTAssertNil(NSPredicate(predicate), file: file, line: line)
    }

    // MARK: Comparisons and logic

    func testComparisonOperators() throws {
        try assertTranslation(#Predicate { $0.salary == 2000 }, "salary == 2000")
        try assertTranslation(#Predicate { $0.salary != 2000 }, "salary != 2000")
        try assertTranslation(#Predicate { $0.salary < 2500 }, "salary < 2500")
        try assertTranslation(#Predicate { $0.salary <= 2500 }, "salary <= 2500")
        try assertTranslation(#Predicate { $0.salary > 2500 }, "salary > 2500")
        try assertTranslation(#Predicate { $0.salary >= 2500 }, "salary >= 2500")
        try assertTranslation(#Predicate { 2500 < $0.salary }, "2500 < salary")
        // nil is unequal to a value in Swift and in the format language alike (Bob has no last name).
        try assertTranslation(#Predicate { $0.lastName != "Lee" }, "lastName != \"Lee\"")
        // String order is Swift's: upper case before lower case, "Ö" after "Z".
        try assertTranslation(#Predicate { ($0.firstName ?? "") < "D" }, "TERNARY(firstName != nil, firstName, \"\") < \"D\"")
        try assertTranslation(#Predicate { ($0.lastName ?? "") > "M" }, "TERNARY(lastName != nil, lastName, \"\") > \"M\"")
    }

    func testAndOrNotFlattenRuns() throws {
        try assertTranslation(#Predicate { $0.salary >= 1000 && $0.salary < 4000 && $0.firstName != "Bob" },
                              "salary >= 1000 AND salary < 4000 AND firstName != \"Bob\"")
        try assertTranslation(#Predicate { $0.salary < 1500 || $0.salary > 3500 || $0.firstName == "Cid" },
                              "salary < 1500 OR salary > 3500 OR firstName == \"Cid\"")
        try assertTranslation(#Predicate { !($0.salary < 2500) && ($0.lastName == "Lee" || $0.lastName == nil) },
                              "(NOT salary < 2500) AND (lastName == \"Lee\" OR lastName == nil)")
    }

    func testCapturedConstants() throws {
        let limit: Int64 = 2500, name = "Cid", noName: String? = nil
        try assertTranslation(#Predicate { $0.salary > limit }, "salary > 2500")
        try assertTranslation(#Predicate { $0.firstName == name }, "firstName == \"Cid\"")
        try assertTranslation(#Predicate { $0.lastName == noName }, "lastName == nil")
        let cutoff = Date(timeIntervalSinceReferenceDate: 500), past = Date.distantPast
        try assertTranslation(#Predicate { ($0.startDate ?? past) > cutoff },
                              "TERNARY(startDate != nil, startDate, CAST(-63114076800, \"NSDate\")) > CAST(500, \"NSDate\")")
    }

    func testBooleans() throws {
        stack.context.performAndWait { employees[2].isSelected = true }
        try assertTranslation(#Predicate { $0.isSelected }, "isSelected == 1")
        try assertTranslation(#Predicate { $0.isSelected == false }, "isSelected == 0")
        try assertTranslation(#Predicate { _ in true }, "TRUEPREDICATE")
    }

    // MARK: Optionals

    func testOptionalChainingBecomesAKeyPath() throws {
        try assertTranslation(#Predicate { $0.department?.name == "Sales" }, "department.name == \"Sales\"")
        try assertTranslation(#Predicate { $0.manager?.department?.name == "Sales" }, "manager.department.name == \"Sales\"")
        try assertTranslation(#Predicate { $0.manager?.manager?.firstName == "Ann" }, "manager.manager.firstName == \"Ann\"")
    }

    func testNilCoalescing() throws {
        try assertTranslation(#Predicate { ($0.lastName ?? "") == "Lee" }, "TERNARY(lastName != nil, lastName, \"\") == \"Lee\"")
        try assertTranslation(#Predicate { ($0.department?.budget ?? 0) > 200 },
                              "TERNARY(department.budget != nil, department.budget, 0) > 200")
    }

    func testFlatMapThatDoesNotReadOnIsGuarded() throws {
        // Without a department Swift answers nil, even though the transform ignores its argument.
        try assertTranslation(#Predicate { e in e.department.flatMap { _ in e.firstName } == nil },
                              "TERNARY(department != nil, firstName, nil) == nil")
    }

    func testFlatMapThatIsNotAKeyPathIsGuarded() throws {
        // On nil Swift answers nil, so the translation must not evaluate the comparison on nil.
        try assertTranslation(#Predicate { $0.department.flatMap { $0.budget > 200 } == nil },
                              "TERNARY(department != nil, TERNARY(department.budget > 200, 1, 0), nil) == nil")
    }

    // MARK: Collections and strings

    func testContainsOnAConstantCollectionIsIn() throws {
        let names = ["Ann", "Dee"]
        try assertTranslation(#Predicate { names.contains($0.firstName ?? "") },
                              "TERNARY(firstName != nil, firstName, \"\") IN {\"Ann\", \"Dee\"}")
    }

    func testRangesBecomeBetweenOrBounds() throws {
        try assertTranslation(#Predicate { (1500...3000).contains($0.salary) }, "salary BETWEEN {1500, 3000}")
        try assertTranslation(#Predicate { (1000..<3000).contains($0.salary) }, "salary >= 1000 AND salary < 3000")
    }

    func testStringContainsAndStartsWith() throws {
        try assertTranslation(#Predicate { ($0.email ?? "").contains("example.org") },
                              "TERNARY(email != nil, email, \"\") CONTAINS \"example.org\"")
        try assertTranslation(#Predicate { ($0.firstName ?? "").starts(with: "D") },
                              "TERNARY(firstName != nil, firstName, \"\") BEGINSWITH \"D\"")
        try assertTranslation(#Predicate { ($0.lastName ?? "").isEmpty }, "TERNARY(lastName != nil, lastName, \"\").length == 0")
    }

    func testToManyCountIsEmptyContainsWhereAllSatisfyFilter() throws {
        try assertTranslation(#Predicate { $0.directReports.count > 1 }, "directReports.@count > 1")
        try assertTranslation(#Predicate { $0.projects.isEmpty }, "projects.@count == 0")
        try assertTranslation(#Predicate { $0.projects.contains(where: { $0.title == "Zeus" }) },
                              "SUBQUERY(projects, $_local_1, $_local_1.title == \"Zeus\").@count > 0")
        try assertTranslation(#Predicate { $0.directReports.allSatisfy { $0.salary > 2200 } },
                              "SUBQUERY(directReports, $_local_1, NOT $_local_1.salary > 2200).@count == 0")
        try assertTranslation(#Predicate { $0.projects.filter { $0.members.count > 1 }.count == 2 },
                              "SUBQUERY(projects, $_local_1, $_local_1.members.@count > 1).@count == 2")
    }

    func testArithmetic() throws {
        try assertTranslation(#Predicate { $0.salary * 2 + 100 > 5100 }, "salary * 2 + 100 > 5100")
        try assertTranslation(#Predicate { $0.salary - 500 <= 1500 }, "salary - 500 <= 1500")
        try assertTranslation(#Predicate { $0.salary % 2000 == 0 }, "modulus:by:(salary, 2000) == 0")
        try assertTranslation(#Predicate { -$0.salary < -2500 }, "0 - salary < -2500")
        // Parts that do not read the object are computed by Swift, with Swift's integer division.
        try assertTranslation(#Predicate { $0.salary > 7 / 2 * 1000 }, "salary > 3000")
        try assertTranslation(#Predicate { ($0.department?.budget ?? 1) / 4 > 100 },
                              "TERNARY(department.budget != nil, department.budget, 1) / 4 > 100")
    }

    func testConditional() throws {
        try assertTranslation(#Predicate { ($0.salary > 2000 ? "high" : "low") == "high" },
                              "TERNARY(salary > 2000, \"high\", \"low\") == \"high\"")
    }

    func testComputedPropertyReadingAStoredValueUnchangedUsesItsKey() throws {
        try assertTranslation(#Predicate { $0.salaryAlias > 2500 }, "salary > 2500")
    }

    // MARK: What does not translate

    func testUntranslatableExpressionsThrowAndSayWhy() {
        assertUntranslatable(#Predicate { $0.salary / 3 > 700 }, mentions: "integer division")
        assertUntranslatable(#Predicate { ($0.firstName ?? "").count > 3 }, mentions: "UTF-16")
        assertUntranslatable(#Predicate { $0.doubledSalary > 5000 }, mentions: "not a chain of @Managed properties")
        assertUntranslatable(#Predicate { $0.department?.shoutedName == "SALES" }, mentions: "not a chain of @Managed properties")
        assertUntranslatable(#Predicate { $0.department!.name == "Sales" }, mentions: "PredicateExpressions.ForcedUnwrap has no NSPredicate equivalent")
    }

    func testPlainSwiftTypesHaveNoKeys() {
        struct Item: Codable { var rank: Int }
        XCTAssertThrowsError(try NSPredicate(translating: #Predicate<Item> { $0.rank > 1 })) { error in
            XCTAssertTrue((error as NSError).localizedDescription.contains("not an NSManagedObject subclass"))
        }
    }

    func testSubclassInitializerRefusesAnotherKind() throws {
        XCTAssertNoThrow(try NSComparisonPredicate(translating: #Predicate<Employee> { $0.salary > 1 }))
        XCTAssertThrowsError(try NSComparisonPredicate(translating: #Predicate<Employee> { $0.salary > 1 && $0.salary < 5 }))
        XCTAssertTrue(NSPredicate(#Predicate<Employee> { $0.salary > 1 && $0.salary < 5 }) is NSCompoundPredicate)
    }

    // MARK: Key path names

    func testKeyPathNames() throws {
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.salary), "salary")
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.department?.name), "department.name")
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.department?.budget), "department.budget")
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.manager?.manager?.firstName), "manager.manager.firstName")
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.department!.name), "department.name")
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.department!.name!), "department.name")
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.firstName!), "firstName")
        XCTAssertEqual(try KeyPathNames.name(of: \Department.employees), "employees")
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.manager?.department), "manager.department")
        XCTAssertThrowsError(try KeyPathNames.name(of: \Employee.manager?.directReports))
        XCTAssertEqual(try KeyPathNames.name(of: \Employee.salaryAlias), "salary")
        XCTAssertThrowsError(try KeyPathNames.name(of: \Employee.doubledSalary))
        XCTAssertThrowsError(try KeyPathNames.name(of: \Employee.department?.shoutedName))
        XCTAssertThrowsError(try KeyPathNames.name(of: \Department.employees.count))
        XCTAssertThrowsError(try KeyPathNames.name(of: \Employee.objectID))
    }

    func testProbesLeaveRealObjectsAlone() throws {
        _ = try KeyPathNames.name(of: \Employee.manager?.department?.budget)
        stack.context.performAndWait {
            XCTAssertFalse(stack.context.hasChanges)
            XCTAssertEqual(employees.map(\.salary), [1000, 2000, 3000, 4000, 2500])
        }
    }

    // MARK: Sort descriptors

    func testSortDescriptorKeysAndDirections() throws {
        let bySalary = NSSortDescriptor(SortDescriptor(\Employee.salary, order: .reverse))
        XCTAssertEqual(bySalary.key, "salary")
        XCTAssertFalse(bySalary.ascending)
        XCTAssertEqual(bySalary.selector, "compare:")
        let byDepartment = try NSSortDescriptor(translating: SortDescriptor(\Employee.department?.name))
        XCTAssertEqual(byDepartment.key, "department.name")
        XCTAssertTrue(byDepartment.ascending)
        XCTAssertEqual(try NSSortDescriptor(translating: SortDescriptor(\Employee.lastName, comparator: .lexical)).key, "lastName")
    }

    func testFetchOrderMatchesSwiftSorting() throws {
        let orders: [[SortDescriptor<Employee>]] = [
            [SortDescriptor(\.salary)],
            [SortDescriptor(\.lastName), SortDescriptor(\.salary, order: .reverse)],
            [SortDescriptor(\.department?.name, order: .reverse), SortDescriptor(\.firstName)],
            [SortDescriptor(\.manager?.firstName), SortDescriptor(\.startDate), SortDescriptor(\.salary)],
        ]
        try stack.context.performAndWait {
            for order in orders {
                let request = NSFetchRequest<Employee>(entityName: "Employee")
                request.sortDescriptors = try order.map { try NSSortDescriptor(translating: $0) }
                XCTAssertTrue(request.sortDescriptors!.allSatisfy { $0.key != nil })
                XCTAssertEqual(try stack.context.fetch(request).map(\.firstName), employees.sorted(using: order).map(\.firstName),
                               "\(request.sortDescriptors!)")
            }
        }
    }

    func testUnnamedSortKeysFallBackToComparingInMemory() throws {
        let descriptor = SortDescriptor(\Employee.doubledSalary, order: .reverse)
        XCTAssertThrowsError(try NSSortDescriptor(translating: descriptor))
        let wrapped = NSSortDescriptor(descriptor)
        XCTAssertNil(wrapped.key)
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [wrapped]
            XCTAssertEqual(try stack.context.fetch(request).map(\.firstName), ["Dee", "Cid", "eve", "Bob", "Ann"])
        }
    }

    // MARK: Fetch requests

    func testFetchRequestFromSwiftQuery() throws {
        let request = try NSFetchRequest<Employee>(entityName: "Employee",
                                                   predicate: #Predicate { $0.salary > 1500 && $0.department != nil },
                                                   sortBy: [SortDescriptor(\.department?.name), SortDescriptor(\.salary, order: .reverse)])
        XCTAssertEqual(request.predicate?.predicateFormat, "salary > 1500 AND department != nil")
        XCTAssertEqual(request.sortDescriptors?.map(\.key), ["department.name", "salary"])
        try stack.context.performAndWait {
            XCTAssertEqual(try stack.context.fetch(request).map(\.firstName), ["eve", "Bob", "Dee"])
        }
        XCTAssertThrowsError(try NSFetchRequest<Employee>(entityName: "Employee", predicate: nil, sortBy: [SortDescriptor(\.doubledSalary)]))
    }
}

/// An entity with the attribute types the company model lacks, for constants of every kind.
final class Gadget: NSManagedObject {
    @Managed var serial: UUID?
    @Managed var homepage: URL?
    @Managed var price: Decimal
    @Managed var blob: Data?
    @Managed var weight: Double
    @Managed var stock: Int16
}

final class PredicateBridgeConstantTests: XCTestCase {
    private static func model() -> NSManagedObjectModel {
        let gadget = NSEntityDescription(name: "Gadget", className: "OpenCoreDataTests.Gadget")
        gadget.properties = [
            NSAttributeDescription(name: "serial", type: .UUIDAttributeType, isOptional: true, defaultValue: nil),
            NSAttributeDescription(name: "homepage", type: .URIAttributeType, isOptional: true, defaultValue: nil),
            NSAttributeDescription(name: "price", type: .decimalAttributeType, isOptional: false, defaultValue: Decimal(0)),
            NSAttributeDescription(name: "blob", type: .binaryDataAttributeType, isOptional: true, defaultValue: nil),
            NSAttributeDescription(name: "weight", type: .doubleAttributeType, isOptional: false, defaultValue: 0.0),
            NSAttributeDescription(name: "stock", type: .integer16AttributeType, isOptional: false, defaultValue: 0),
        ]
        let model = NSManagedObjectModel()
        model.entities = [gadget]
        return model
    }

    func testConstantsOfEveryAttributeType() throws {
        let stack = TestStack(model: Self.model())
        let serial = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
        let homepage = URL(string: "https://example.com/a")!
        let blob = Data([1, 2, 3])
        let price = Decimal(string: "9.99")!
        var gadgets: [Gadget] = []
        try stack.context.performAndWait {
            for i in 0..<3 {
                let g = Gadget(context: stack.context)
                g.stock = Int16(i * 10)
                g.weight = Double(i) + 0.5
                g.price = i == 1 ? price : Decimal(i)
                if i == 0 { g.serial = serial; g.homepage = homepage; g.blob = blob }
                gadgets.append(g)
            }
            try stack.context.save()
        }
        let cases: [(Predicate<Gadget>, String)] = [
            (#Predicate { $0.serial == serial }, "serial == CAST(\"11111111-2222-3333-4444-555555555555\", \"NSUUID\")"),
            (#Predicate { $0.homepage == homepage }, "homepage == CAST(\"https://example.com/a\", \"NSURL\")"),
            (#Predicate { $0.blob == blob }, "blob == CAST(\"AQID\", \"NSData\")"),
            (#Predicate { $0.price == price }, "price == 9.99"),
            (#Predicate { $0.weight > 1.25 }, "weight > 1.25"),
            (#Predicate { $0.stock >= 10 && $0.serial == nil }, "stock >= 10 AND serial == nil"),
        ]
        for (predicate, format) in cases {
            let translated = try NSPredicate(translating: predicate)
            XCTAssertEqual(translated.predicateFormat, format)
            try stack.context.performAndWait {
                let expected = try gadgets.filter { try predicate.evaluate($0) }.map(\.stock)
                XCTAssertFalse(expected.isEmpty, format)
                for p in [translated, parse(format)] {
                    let request = NSFetchRequest<Gadget>(entityName: "Gadget")
                    request.predicate = p
                    XCTAssertEqual(try stack.context.fetch(request).map(\.stock).sorted(), expected.sorted(), p.predicateFormat)
                }
            }
        }
    }

    func testKeyPathNamesResolveConcurrently() {
        _ = TestStack(model: Self.model())
        let expected = ["serial", "homepage", "price", "blob", "weight", "stock"]
        final class Results: @unchecked Sendable {  // guarded by `lock`
            let lock = NSLock()
            var names = [String](repeating: "", count: 60)
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 60) { i in
            // Key paths of a non-Sendable root are not Sendable: make them on the worker thread.
            let keyPaths: [PartialKeyPath<Gadget>] = [\.serial, \.homepage, \.price, \.blob, \.weight, \.stock]
            let name = (try? KeyPathNames.name(of: keyPaths[i % 6])) ?? "failed"
            results.lock.lock(); results.names[i] = name; results.lock.unlock()
        }
        XCTAssertEqual(results.names, (0..<60).map { expected[$0 % 6] })
    }
}
