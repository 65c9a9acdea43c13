import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Fetch requests against the in-memory store: predicates, sorting, limits, result types,
/// pending changes, subentities.
final class FetchRequestTests: XCTestCase {
    private func seeded() throws -> TestStack {
        let stack = TestStack()
        try stack.context.performAndWait {
            let sales = stack.department("Sales"), ops = stack.department("Ops")
            for (name, salary, dept) in [("Ann", 300, sales), ("Bob", 100, sales), ("Cid", 200, ops), ("Dee", 400, ops)] {
                stack.employee(name, salary: Int64(salary)).department = dept
            }
            try stack.context.save()
        }
        return stack
    }

    func testPredicateAndSortDescriptors() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.predicate = NSPredicate(format: "salary >= %d", 200)
            request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: false)]
            XCTAssertEqual(try stack.context.fetch(request).map(\.firstName), ["Dee", "Ann", "Cid"])

            request.predicate = NSPredicate(format: "department.name == %@", "Sales")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            XCTAssertEqual(try stack.context.fetch(request).map(\.firstName), ["Ann", "Bob"])
        }
    }

    func testASortKeyThatNamesNoPropertyThrowsAsAPredicateKeyDoes() throws {
        let stack = try seeded()
        let sqlite = try TemporaryCompanyStore()
        try sqlite.seed([("Ann", 300, "Archer"), ("Bob", 100, "Baker")])
        let (_, sqliteContext) = try sqlite.open()
        for context in [stack.context, sqliteContext] {
            try context.performAndWait {
                let request = NSFetchRequest<Employee>(entityName: "Employee")
                request.predicate = NSPredicate(format: "salaryy > 0")
                let predicateError = thrownError { _ = try context.fetch(request) }
                XCTAssertEqual(predicateError?.code, NSKeyValueValidationError)

                request.predicate = nil
                for key in ["salaryy", "department.nmae"] {
                    request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
                    let error = thrownError { _ = try context.fetch(request) }
                    XCTAssertEqual(error?.domain, NSCocoaErrorDomain, key)
                    XCTAssertEqual(error?.code, NSKeyValueValidationError, key)
                    XCTAssertTrue(error?.localizedDescription.contains("sort descriptor key '\(key)'") ?? false, "\(String(describing: error))")
                    request.fetchBatchSize = 1
                    XCTAssertEqual(thrownError { _ = try context.fetchBatched(request) }?.code, NSKeyValueValidationError, key)
                    request.fetchBatchSize = 0
                    request.resultType = .managedObjectIDResultType
                    XCTAssertEqual(thrownError { _ = try context.fetch(request) }?.code, NSKeyValueValidationError, key)
                    request.resultType = .managedObjectResultType
                }
                // Key paths through relationships, and what key-value coding reads from a value.
                request.sortDescriptors = [NSSortDescriptor(key: "department.name", ascending: true), NSSortDescriptor(key: "firstName.length", ascending: true)]
                XCTAssertNoThrow(try context.fetch(request))
            }
        }
    }

    func testObjectsMatchTheirIDsInPredicates() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let sales = try stack.context.fetch(NSFetchRequest<Department>(entityName: "Department")).first { $0.name == "Sales" }!
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.predicate = NSPredicate(format: "department == %@", sales.objectID)
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            XCTAssertEqual(try stack.context.fetch(request).map(\.firstName), ["Ann", "Bob"])
            request.predicate = NSPredicate(format: "department == %@", sales)
            XCTAssertEqual(try stack.context.count(for: request), 2)
        }
    }

    func testLimitOffsetAndCount() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]
            request.fetchOffset = 1
            request.fetchLimit = 2
            XCTAssertEqual(try stack.context.fetch(request).map(\.salary), [200, 300])
            XCTAssertEqual(try stack.context.count(for: request), 2)
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 4)
        }
    }

    func testResultTypes() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Department")
            ids.resultType = .managedObjectIDResultType
            XCTAssertEqual(try stack.context.fetch(ids).count, 2)

            let dicts = NSFetchRequest<[String: Any]>(entityName: "Department")
            dicts.resultType = .dictionaryResultType
            dicts.propertiesToFetch = ["name"]
            dicts.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            XCTAssertEqual(try stack.context.fetch(dicts).map { $0["name"] as? String }, ["Ops", "Sales"])

            let count = NSFetchRequest<NSNumber>(entityName: "Employee")
            count.resultType = .countResultType
            XCTAssertEqual(try stack.context.fetch(count).first?.intValue, 4)
        }
    }

    func testPendingChangesAreIncludedByDefault() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.predicate = NSPredicate(format: "salary > 250")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            let bob = try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first { $0.firstName == "Bob" }!
            bob.salary = 999                               // now matches
            let dee = try stack.context.fetch(request).first { $0.firstName == "Dee" }!
            stack.context.delete(dee)                      // deleted: left out
            _ = stack.employee("Eve", salary: 500)          // inserted: included
            XCTAssertEqual(try stack.context.fetch(request).map(\.firstName), ["Ann", "Bob", "Eve"])

            request.includesPendingChanges = false
            XCTAssertFalse(try stack.context.fetch(request).map(\.firstName).contains("Eve"))
        }
    }

    func testSubentitiesAreIncludedUnlessTurnedOff() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let boss = NSEntityDescription.insertNewObject(forEntityName: "Manager", into: stack.context)
            boss.setValue("Max", forKey: "firstName")
            boss.setValue(5, forKey: "bonus")
            try stack.context.save()
            let all = NSFetchRequest<NSManagedObject>(entityName: "Employee")
            XCTAssertEqual(try stack.context.count(for: all), 5)
            all.includesSubentities = false
            XCTAssertEqual(try stack.context.count(for: all), 4)
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Manager")), 1)
            XCTAssertTrue(boss.entity.isKindOf(entity: stack.model.entitiesByName["Employee"]!))
            XCTAssertEqual(boss.value(forKey: "bonus") as? Int, 5)
        }
    }

    func testUnknownEntityAndWrongResultClassThrow() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            XCTAssertThrowsError(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Nope")))
            XCTAssertThrowsError(try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Department")))
        }
    }

    func testFetchRequestTemplatesSubstituteVariables() throws {
        let model = CompanyModel.make()
        // Apple types templates NSFetchRequest<NSFetchRequestResult>: results are cast.
        let template = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
        template.predicate = NSPredicate(format: "salary > $MIN")
        model.setFetchRequestTemplate(template, forName: "RichEmployees")
        let stack = TestStack(model: model)
        try stack.context.performAndWait {
            _ = stack.employee("A", salary: 10); _ = stack.employee("B", salary: 1000)
            try stack.context.save()
            let request = stack.model.fetchRequestFromTemplate(withName: "RichEmployees", substitutionVariables: ["MIN": 500])!
            let employees = try XCTUnwrap(try stack.context.fetch(request) as? [Employee])
            XCTAssertEqual(employees.map(\.firstName), ["B"])
        }
    }

    func testFetchedPropertyIsLazyCachedAndReRunOnRefresh() throws {
        let model = CompanyModel.make()
        let richer = NSFetchedPropertyDescription()
        richer.name = "earnsMore"
        richer.userInfo = ["kind": "earner"]
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
        // $FETCHED_PROPERTY is the description itself; its userInfo is readable in the predicate.
        request.predicate = NSPredicate(format: "salary > $FETCH_SOURCE.salary AND $FETCHED_PROPERTY.userInfo.kind == 'earner'")
        request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]
        richer.fetchRequest = request
        model.entitiesByName["Employee"]!.properties.append(richer)
        let stack = TestStack(model: model)
        try stack.context.performAndWait {
            let low = stack.employee("Low", salary: 1)
            _ = stack.employee("Mid", salary: 5)
            try stack.context.save()
            XCTAssertEqual((low.value(forKey: "earnsMore") as? [NSManagedObject])?.compactMap { $0.value(forKey: "firstName") as? String }, ["Mid"])
            _ = stack.employee("High", salary: 9)
            try stack.context.save()
            XCTAssertEqual((low.value(forKey: "earnsMore") as? [NSManagedObject])?.count, 1, "cached: not re-run on every read")
            stack.context.refresh(low, mergeChanges: true)
            XCTAssertEqual((low.value(forKey: "earnsMore") as? [NSManagedObject])?.compactMap { $0.value(forKey: "firstName") as? String }, ["Mid", "High"], "re-run after a refresh")
        }
    }

    func testFetchedPropertyUsesFetchSource() throws {
        let model = CompanyModel.make()
        let colleagues = NSFetchedPropertyDescription()
        colleagues.name = "sameSalary"
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
        request.predicate = NSPredicate(format: "salary == $FETCH_SOURCE.salary AND SELF != $FETCH_SOURCE")
        colleagues.fetchRequest = request
        model.entitiesByName["Employee"]!.properties.append(colleagues)
        let stack = TestStack(model: model)
        try stack.context.performAndWait {
            let a = stack.employee("A", salary: 5), b = stack.employee("B", salary: 5)
            _ = stack.employee("C", salary: 6)
            try stack.context.save()
            XCTAssertEqual(a.value(forKey: "sameSalary") as? [NSManagedObject], [b])
        }
    }
    /// An object of a subclassed entity made with the base class's initializer is not an
    /// instance of the subclass: a typed fetch reports it instead of handing it out as one.
    func testATypedFetchRefusesAnObjectNotOfItsClass() throws {
        let stack = try seeded()
        try stack.context.performAndWait {
            let entity = try XCTUnwrap(stack.model.entitiesByName["Employee"])
            let plain = NSManagedObject(entity: entity, insertInto: stack.context)
            plain.setValue("Plain", forKey: "firstName")
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            XCTAssertThrowsError(try stack.context.fetch(request)) { error in
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
                XCTAssertEqual((error as NSError).code, NSCoreDataError)
            }
            let untyped = NSFetchRequest<NSManagedObject>(entityName: "Employee")
            untyped.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            XCTAssertEqual(try stack.context.fetch(untyped).map { $0.value(forKey: "firstName") as? String },
                           ["Ann", "Bob", "Cid", "Dee", "Plain"])
        }
    }

    /// A copied request has every setting of the original and changes apart from it.
    func testACopiedRequestKeepsEverySettingAndChangesApart() throws {
        let stack = TestStack()
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = NSPredicate(format: "salary > %d", 10)
        request.sortDescriptors = [NSSortDescriptor(key: "lastName", ascending: true)]
        request.fetchLimit = 3
        request.fetchOffset = 1
        request.fetchBatchSize = 20
        request.includesSubentities = false
        request.returnsObjectsAsFaults = false
        request.relationshipKeyPathsForPrefetching = ["department"]
        request.affectedStores = stack.coordinator.persistentStores
        let copy = try XCTUnwrap(request.copy() as? NSFetchRequest<Employee>)
        XCTAssertFalse(copy === request)
        XCTAssertEqual(copy.entityName, "Employee")
        XCTAssertEqual(copy.predicate, request.predicate)
        XCTAssertEqual(copy.sortDescriptors, request.sortDescriptors)
        XCTAssertEqual([copy.fetchLimit, copy.fetchOffset, copy.fetchBatchSize], [3, 1, 20])
        XCTAssertFalse(copy.includesSubentities)
        XCTAssertFalse(copy.returnsObjectsAsFaults)
        XCTAssertEqual(copy.relationshipKeyPathsForPrefetching, ["department"])
        XCTAssertTrue(copy.affectedStores?.first === stack.coordinator.persistentStores.first)
        copy.fetchLimit = 9
        XCTAssertEqual(request.fetchLimit, 3, "the original is unchanged")
        let save = NSSaveChangesRequest(inserted: [], updated: nil, deleted: nil, locked: nil)
        let savedCopy = try XCTUnwrap(save.copy(with: nil) as? NSSaveChangesRequest)
        XCTAssertEqual(savedCopy.insertedObjects, [])
        XCTAssertEqual(savedCopy.requestType, .saveRequestType)
    }

    /// `execute()` fetches in the context whose perform block is running — the innermost when
    /// blocks of two contexts nest, in `perform` and the async `perform` too — and throws
    /// outside any block.
    func testExecuteFetchesInTheContextOfTheRunningPerformBlock() async throws {
        let stack = TestStack()
        let other = stack.newContext()
        try stack.context.performAndWait {
            stack.employee("Saved")
            try stack.context.save()
            stack.employee("Unsaved")       // only this context sees it
        }
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        try stack.context.performAndWait {
            XCTAssertEqual(try request.execute().count, 2)
            try other.performAndWait { XCTAssertEqual(try request.execute().count, 1, "the inner block's context") }
            XCTAssertEqual(try request.execute().count, 2, "back in the outer block")
        }
        let done = expectation(description: "perform")
        let names = NotificationBox()
        // The callback form, called from synchronous code (in an async function `perform { }`
        // picks the async overload).
        func enqueue() {
            other.perform {
                names.append(["count": (try? request.execute().count) ?? -1])
                done.fulfill()
            }
        }
        enqueue()
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(names.infos.first?["count"] as? Int, 1)
        let counted = try await stack.context.perform { try request.execute().count }
        XCTAssertEqual(counted, 2)
        XCTAssertThrowsError(try request.execute()) { error in
            XCTAssertEqual((error as NSError).code, NSCoreDataError)
        }
    }

    /// `fetchRequest()` is typed `NSFetchRequest<NSFetchRequestResult>` as Apple's is; a
    /// subclass's generated-style typed twin gives `NSFetchRequest<Subclass>`.
    func testFetchRequestOfAClassIsTypedAsApplesAndSubclassesAddATypedTwin() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            _ = stack.department("Sales")
            try stack.context.save()
            let untyped: NSFetchRequest<NSFetchRequestResult> = Department.fetchRequest()
            XCTAssertEqual(untyped.entityName, "Department")
            XCTAssertEqual((try stack.context.fetch(untyped) as? [Department])?.map(\.name), ["Sales"])
            let typed: NSFetchRequest<Department> = Department.fetchRequest()
            XCTAssertEqual(try stack.context.fetch(typed).map(\.name), ["Sales"])
            // Without a type, the subclass's twin wins, as in Apple code (`let request = ...`).
            let inferred = Department.fetchRequest()
            XCTAssertEqual(try stack.context.fetch(inferred).map(\.name), ["Sales"])
            XCTAssertTrue(type(of: inferred) == NSFetchRequest<Department>.self)
        }
    }
}

extension Department {
    /// What Xcode generates for a subclass (class definition codegen).
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Department> {
        NSFetchRequest<Department>(entityName: "Department")
    }
}
