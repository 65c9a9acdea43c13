import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `NSFetchedResultsController`: the results of a request kept current as the context changes,
/// reported to a delegate. The expectations follow Apple's documentation of the class and its
/// delegate, and FreeCoreData's controller tests, which were run against Apple's framework
/// (`Tests/NSFetchedResultsControllerTests.m`: index paths of inserts, deletes, updates, moves
/// across sections, predicate boundary crossings, unrelated changes not reported).
final class FetchedResultsControllerTests: XCTestCase {
    private var stack: TestStack!
    private var context: NSManagedObjectContext { stack.context }

    override func setUp() {
        super.setUp()
        stack = TestStack()
    }

    override func tearDown() {
        stack = nil
        NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: nil)
        super.tearDown()
    }

    /// Employees sorted by department name, then first name; in sections by department name
    /// when `sectioned`.
    private func controller(sectioned: Bool, predicate: NSPredicate? = nil, cacheName: String? = nil,
                            delegate: (any NSFetchedResultsControllerDelegate)?) throws -> NSFetchedResultsController<Employee> {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = predicate
        request.sortDescriptors = (sectioned ? [NSSortDescriptor(key: "department.name", ascending: true)] : [])
            + [NSSortDescriptor(key: "firstName", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: sectioned ? "department.name" : nil, cacheName: cacheName)
        controller.delegate = delegate
        try controller.performFetch()
        return controller
    }

    @discardableResult
    private func employee(_ name: String, _ department: Department?, salary: Int64 = 1000) -> Employee {
        let e = stack.employee(name, salary: salary)
        e.department = department
        return e
    }

    // MARK: - Fetching and sections

    func testPerformFetchGivesTheSortedObjectsInOneSection() throws {
        try context.performAndWait {
            employee("Carol", nil); employee("Alice", nil); employee("Bob", nil)
            try context.save()
            let controller = try controller(sectioned: false, delegate: nil)
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Alice", "Bob", "Carol"])
            XCTAssertEqual(controller.sections?.count, 1)
            XCTAssertEqual(controller.sections?[0].numberOfObjects, 3)
            XCTAssertEqual(controller.sections?[0].name, "")
            XCTAssertNil(controller.sections?[0].indexTitle)
            XCTAssertEqual(controller.object(at: IndexPath(row: 1, section: 0)).firstName, "Bob")
            let carol = controller.fetchedObjects![2]
            XCTAssertEqual(controller.indexPath(forObject: carol), IndexPath(item: 2, section: 0))
        }
    }

    func testResultsAreNilBeforeTheFetchAndOneEmptySectionWhenNothingMatches() throws {
        try context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            XCTAssertNil(controller.fetchedObjects)
            XCTAssertNil(controller.sections)
            try controller.performFetch()
            XCTAssertEqual(controller.fetchedObjects?.count, 0)
            XCTAssertEqual(controller.sections?.count, 1, "without a section key path: one section, even empty")
            XCTAssertEqual(controller.sections?.first?.numberOfObjects, 0)

            // So the first object is an insert into it, with no section change.
            let recorder = ResultsRecorder()
            controller.delegate = recorder
            stack.employee("Alice")
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "insert Alice nil → 0.0", "did"])
            context.delete(controller.fetchedObjects![0])
            context.processPendingChanges()
            XCTAssertEqual(recorder.log.suffix(3), ["will", "delete Alice 0.0 → nil", "did"])
            XCTAssertEqual(controller.sections?.count, 1)

            // With a section key path, no objects means no sections.
            let sectioned = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "lastName", cacheName: nil)
            try sectioned.performFetch()
            XCTAssertEqual(sectioned.sections?.count, 0)
            XCTAssertTrue(controller.fetchRequest === request)
            XCTAssertTrue(controller.managedObjectContext === context)
        }
    }

    func testSectionsFollowTheSectionNameKeyPath() throws {
        try context.performAndWait {
            let engineering = stack.department("engineering"), sales = stack.department("Sales")
            employee("Carol", sales); employee("Alice", engineering); employee("Bob", engineering); employee("Dan", nil)
            try context.save()
            let controller = try controller(sectioned: true, delegate: nil)
            XCTAssertEqual(controller.sections?.map(\.name), ["", "Sales", "engineering"], "nil first, then by the section key's order")
            XCTAssertEqual(controller.sections?.map(\.numberOfObjects), [1, 1, 2])
            XCTAssertEqual(controller.sections?[2].objects?.map { ($0 as! Employee).firstName }, ["Alice", "Bob"])
            XCTAssertEqual(controller.sections?.map(\.indexTitle), [nil, "S", "E"], "the capitalized first letter")
            XCTAssertEqual(controller.sectionIndexTitles, ["S", "E"])
            XCTAssertEqual(controller.section(forSectionIndexTitle: "E", at: 1), 2)
            XCTAssertEqual(controller.sectionIndexTitle(forSectionName: "marketing"), "M")
            XCTAssertEqual(controller.indexPath(forObject: engineering.employees.first { $0.firstName == "Bob" }!), IndexPath(item: 1, section: 2))
            XCTAssertEqual(controller.sectionNameKeyPath, "department.name")
        }
    }

    func testTheDelegateNamesTheSectionIndexEntries() throws {
        final class Titles: NSObject, NSFetchedResultsControllerDelegate {
            func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String? {
                "[\(sectionName.prefix(2))]"
            }
        }
        let titles = Titles()
        try context.performAndWait {
            employee("Alice", stack.department("Engineering"))
            try context.save()
            let controller = try controller(sectioned: true, delegate: titles)
            XCTAssertEqual(controller.sections?.first?.indexTitle, "[En]")
            XCTAssertEqual(controller.sectionIndexTitles, ["[En]"])
        }
    }

    func testARequestWithoutSortDescriptorsOrOutOfOrderSectionsIsAnError() throws {
        try context.performAndWait {
            employee("Alice", stack.department("B")); employee("Bob", stack.department("A"))
            try context.save()
            let unsorted = NSFetchRequest<Employee>(entityName: "Employee")
            let first = NSFetchedResultsController(fetchRequest: unsorted, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let error = thrownError { try first.performFetch() }
            XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
            XCTAssertEqual(error?.code, NSCoreDataError)
            XCTAssertTrue(error?.localizedDescription.contains("sort descriptors") == true)

            // Sorted by first name, sectioned by department: "B", "A" — then "B" again.
            employee("Carol", context.registeredObjects.compactMap { $0 as? Department }.first { $0.name == "B" })
            try context.save()
            let byName = NSFetchRequest<Employee>(entityName: "Employee")
            byName.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            let second = NSFetchedResultsController(fetchRequest: byName, managedObjectContext: context, sectionNameKeyPath: "department.name", cacheName: nil)
            let outOfOrder = thrownError { try second.performFetch() }
            XCTAssertEqual(outOfOrder?.code, NSCoreDataError)
            XCTAssertTrue(outOfOrder?.localizedDescription.contains("out of order section name 'B'") == true, outOfOrder?.localizedDescription ?? "")
        }
    }

    func testResultsOtherThanObjectsAreFetchedAndSectioned() throws {
        try context.performAndWait {
            employee("Alice", stack.department("A")); employee("Bob", stack.department("B"))
            try context.save()
            let request = NSFetchRequest<NSDictionary>(entityName: "Employee")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["firstName"]
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "firstName", cacheName: nil)
            try controller.performFetch()
            XCTAssertEqual(controller.sections?.map(\.name), ["Alice", "Bob"])
            XCTAssertEqual(controller.fetchedObjects?.count, 2)
            XCTAssertEqual(controller.object(at: IndexPath(item: 0, section: 1))["firstName"] as? String, "Bob")
            XCTAssertEqual(controller.indexPath(forObject: ["firstName": "Bob"] as NSDictionary), IndexPath(item: 0, section: 1))
        }
    }

    // MARK: - Tracking: each change type

    func testAnInsertIsReportedAtItsNewIndexPath() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            let d = stack.department("Engineering")
            employee("Alice", d); employee("Carol", d)
            try context.save()
            let controller = try controller(sectioned: true, delegate: recorder)
            employee("Bob", d)
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "insert Bob nil → 0.1", "did"])
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Alice", "Bob", "Carol"])
            XCTAssertTrue(recorder.controllers.allSatisfy { $0 == controller }, "the delegate receives this controller")
        }
    }

    func testAnInsertIntoANewSectionReportsTheSectionFirst() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            employee("Alice", stack.department("Engineering"))
            try context.save()
            let controller = try controller(sectioned: true, delegate: recorder)
            employee("Carol", stack.department("Sales"))
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "section insert Sales 1", "insert Carol nil → 1.0", "did"])
            XCTAssertEqual(controller.sections?.map(\.name), ["Engineering", "Sales"])
        }
    }

    func testADeleteIsReportedAndAnEmptiedSectionIsDeleted() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            let engineering = stack.department("Engineering")
            employee("Alice", engineering)
            let bob = employee("Bob", engineering), carol = employee("Carol", stack.department("Sales"))
            try context.save()
            let controller = try controller(sectioned: true, delegate: recorder)
            context.delete(bob)
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "delete Bob 0.1 → nil", "did"])
            recorder.log.removeAll()
            context.delete(carol)
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "section delete Sales 1", "delete Carol 1.0 → nil", "did"])
            XCTAssertEqual(controller.sections?.map(\.name), ["Engineering"])
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Alice"])
            XCTAssertNil(controller.indexPath(forObject: carol))
        }
    }

    func testAChangeThatKeepsTheOrderIsAnUpdate() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            let d = stack.department("Engineering")
            let alice = employee("Alice", d); employee("Bob", d)
            try context.save()
            let controller = try controller(sectioned: true, delegate: recorder)
            alice.salary = 42
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "update Alice 0.0 → 0.0", "did"])
            recorder.log.removeAll()
            alice.firstName = "Abby"   // a sort key, still first
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "update Abby 0.0 → 0.0", "did"])
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Abby", "Bob"])
        }
    }

    func testASortKeyChangeThatReordersIsAMoveWithinTheSection() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            let d = stack.department("Engineering")
            let alice = employee("Alice", d); employee("Bob", d); employee("Carol", d)
            try context.save()
            let controller = try controller(sectioned: true, delegate: recorder)
            alice.firstName = "Zoe"
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "move Zoe 0.0 → 0.2", "did"])
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Bob", "Carol", "Zoe"])
        }
    }

    func testASectionKeyChangeMovesTheObjectAcrossSections() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            let engineering = stack.department("Engineering"), sales = stack.department("Sales")
            employee("Alice", engineering)
            let bob = employee("Bob", engineering); employee("Carol", sales)
            try context.save()
            let controller = try controller(sectioned: true, delegate: recorder)
            bob.department = sales
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "move Bob 0.1 → 1.0", "did"])
            XCTAssertEqual(controller.indexPath(forObject: bob), IndexPath(item: 0, section: 1))
            recorder.log.removeAll()

            // Moving the last one out of a section deletes it; into a new one inserts it.
            bob.department = stack.department("Marketing")
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "section insert Marketing 1", "move Bob 1.0 → 1.0", "did"])
            recorder.log.removeAll()
            controller.fetchedObjects!.first { $0.firstName == "Alice" }!.department = sales
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "section delete Engineering 0", "move Alice 0.0 → 1.0", "did"])
            XCTAssertEqual(controller.sections?.map(\.name), ["Marketing", "Sales"])
        }
    }

    func testObjectsThatStopOrStartMatchingThePredicateAreDeletedOrInserted() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            let d = stack.department("Engineering")
            let alice = employee("Alice", d, salary: 10), bob = employee("Bob", d, salary: 20)
            try context.save()
            let controller = try controller(sectioned: false, predicate: NSPredicate(format: "salary > 5"), delegate: recorder)
            alice.salary = 1
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "delete Alice 0.0 → nil", "did"])
            recorder.log.removeAll()
            alice.salary = 30
            bob.salary = 2
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "insert Alice nil → 0.0", "delete Bob 0.0 → nil", "did"])
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Alice"])
        }
    }

    func testChangesToOtherObjectsAreNotReported() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            let d = stack.department("Engineering")
            employee("Alice", d)
            try context.save()
            let controller = try controller(sectioned: false, predicate: NSPredicate(format: "department.name == 'Engineering'"), delegate: recorder)
            employee("Carol", stack.department("Sales"))   // does not match
            d.budget = 5                                    // another entity
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, [])
            XCTAssertEqual(controller.fetchedObjects?.count, 1)
        }
    }

    func testWithoutADelegateTheControllerDoesNotTrack() throws {
        try context.performAndWait {
            employee("Alice", nil)
            try context.save()
            let controller = try controller(sectioned: false, delegate: nil)
            employee("Bob", nil)
            context.processPendingChanges()
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Alice"], "no delegate, no tracking (Apple's documentation)")
            try controller.performFetch()
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Alice", "Bob"])
        }
    }

    func testSubentitiesAreTrackedWhenTheRequestIncludesThem() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            employee("Alice", nil)
            try context.save()
            let controller = try controller(sectioned: false, delegate: recorder)
            let manager = NSEntityDescription.insertNewObject(forEntityName: "Manager", into: context) as! Employee
            manager.firstName = "Bea"
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "insert Bea nil → 0.1", "did"])
            XCTAssertEqual(controller.fetchedObjects?.count, 2)
        }
    }

    func testADeleteCascadingFromAnotherObjectIsReported() throws {
        stack = TestStack(model: CompanyModel.make(departmentEmployeesRule: .cascadeDeleteRule))
        let recorder = ResultsRecorder()
        try context.performAndWait {
            let engineering = stack.department("Engineering")
            employee("Alice", engineering); employee("Bob", engineering); employee("Carol", stack.department("Sales"))
            try context.save()
            let controller = try controller(sectioned: true, delegate: recorder)
            context.delete(engineering)
            context.processPendingChanges()
            XCTAssertEqual(recorder.log, ["will", "section delete Engineering 0", "delete Alice 0.0 → nil", "delete Bob 0.1 → nil", "did"])
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Carol"])
        }
    }

    func testChangesMergedFromABackgroundContextAreReported() throws {
        let recorder = ResultsRecorder()
        let background = stack.newContext()
        let (aliceID, bobID): (NSManagedObjectID, NSManagedObjectID) = try context.performAndWait {
            let d = stack.department("Engineering")
            let alice = employee("Alice", d), bob = employee("Bob", d)
            try context.save()
            return (alice.objectID, bob.objectID)
        }
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) { [context] note in
            context.performAndWait { context.mergeChanges(fromContextDidSave: note) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let controller: NSFetchedResultsController<Employee> = try context.performAndWait { try self.controller(sectioned: false, delegate: recorder) }
        try background.performAndWait {
            let alice = try background.existingObject(with: aliceID) as! Employee
            alice.firstName = "Zoe"
            background.delete(try background.existingObject(with: bobID))
            let carol = Employee(context: background)
            carol.firstName = "Carol"; carol.salary = 1
            try background.save()
        }
        context.performAndWait {
            XCTAssertEqual(recorder.log.first, "will")
            XCTAssertEqual(recorder.log.last, "did")
            XCTAssertEqual(Set(recorder.log.dropFirst().dropLast()), ["delete Bob 0.1 → nil", "insert Carol nil → 0.0", "update Zoe 0.0 → 0.1"],
                           "Zoe keeps her order among the objects that did not change (there are none)")
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Carol", "Zoe"])
        }
    }

    // MARK: - Request settings

    /// The limit and offset shape the first fetch; tracked inserts are added beyond them, as
    /// Apple's controller does (it is widely reported to apply `fetchLimit` only in
    /// `performFetch()`; Apple documents nothing else).
    func testTheFetchLimitAppliesToTheFetchNotToTrackedInserts() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            for name in ["Alice", "Bob", "Carol"] { employee(name, nil) }
            try context.save()
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            request.fetchLimit = 2
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Alice", "Bob"])
            employee("Abe", nil)
            context.processPendingChanges()
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Abe", "Alice", "Bob"])
            XCTAssertEqual(recorder.log, ["will", "insert Abe nil → 0.0", "did"])
        }
    }

    /// `includesPendingChanges = false` shapes the first fetch (unsaved objects left out); the
    /// changes of later events are tracked as usual. Apple documents nothing more for a controller.
    func testWithoutPendingChangesTheFetchLeavesOutUnsavedObjects() throws {
        let recorder = ResultsRecorder()
        try context.performAndWait {
            employee("Bob", nil)
            try context.save()
            employee("Alice", nil)   // not saved
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
            request.includesPendingChanges = false
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Bob"])
            employee("Carol", nil)
            context.processPendingChanges()
            // Alice's insertion belongs to this event too (it had not ended at the fetch).
            XCTAssertEqual(recorder.log, ["will", "insert Alice nil → 0.0", "insert Carol nil → 0.2", "did"])
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Alice", "Bob", "Carol"])
        }
    }

    /// With `fetchBatchSize` the objects of a controller without sections stay faults until
    /// they are read, a batch at a time (the SQLite store); the results are the same.
    func testABatchedFetchKeepsObjectsAsFaultsUntilRead() throws {
        let store = try TemporaryCompanyStore()
        try store.seed((0..<10).map { ("E\($0)", Int64($0), nil) })
        let (_, context) = try store.open()
        try context.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: false)]
            request.fetchBatchSize = 3
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            let objects = try XCTUnwrap(controller.fetchedObjects)
            XCTAssertEqual(objects.count, 10)
            XCTAssertTrue(objects.allSatisfy(\.isFault), "nothing read yet")
            XCTAssertEqual(controller.object(at: IndexPath(item: 0, section: 0)).firstName, "E9")
            XCTAssertEqual(objects.filter { !$0.isFault }.count, 3, "reading one object loaded its batch")
            XCTAssertEqual(objects.map(\.salary), (0..<10).reversed().map(Int64.init))
        }
    }

    // MARK: - Differences

    func testADelegateTakingDifferencesGetsOnlyTheDifference() throws {
        final class DifferenceRecorder: NSObject, NSFetchedResultsControllerDelegate {
            var differences: [CollectionDifference<NSManagedObjectID>] = []
            var others = 0
            func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
                differences.append(diff)
            }
            func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { others += 1 }
            func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { others += 1 }
        }
        let recorder = DifferenceRecorder()
        try context.performAndWait {
            let alice = employee("Alice", nil), bob = employee("Bob", nil), carol = employee("Carol", nil)
            try context.save()
            let controller = try controller(sectioned: false, delegate: recorder)
            let before = controller.fetchedObjects!.map(\.objectID)
            alice.firstName = "Zoe"
            context.delete(bob)
            employee("Abe", nil)
            carol.salary = 7
            context.processPendingChanges()
            XCTAssertEqual(recorder.others, 0, "no other delegate method (Apple's documentation)")
            XCTAssertEqual(recorder.differences.count, 1)
            let after = controller.fetchedObjects!.map(\.objectID)
            XCTAssertEqual(before.applying(recorder.differences[0]), after)
            XCTAssertEqual(controller.fetchedObjects?.map(\.firstName), ["Abe", "Carol", "Zoe"])

            // With sections the difference is not used.
            let sectioned = try self.controller(sectioned: true, delegate: recorder)
            employee("Bo", nil)
            context.processPendingChanges()
            XCTAssertEqual(recorder.differences.count, 2, "the unsectioned controller still reports")
            XCTAssertEqual(recorder.others, 2, "the sectioned one calls will and did")
            XCTAssertEqual(sectioned.fetchedObjects?.count, 4)
        }
    }

    // MARK: - Many changes at once

    /// Random events of inserts, deletes, renames, department moves and salary changes across a
    /// predicate boundary: after each, replaying the reported changes as a table view does
    /// (deletes at old index paths, then inserts at new ones; a move is both) on the previous
    /// sections gives the controller's sections, and those are what a new fetch returns.
    func testReportedChangesReplayToTheNewResults() throws {
        for sectioned in [true, false] {
            stack = TestStack()
            let recorder = ResultsRecorder()
            try context.performAndWait {
                var random = SeededRandom(seed: sectioned ? 7 : 11)
                let departments = ["A", "B", "C", "D"].map { stack.department($0) }
                var counter = 0
                func newEmployee() {
                    counter += 1
                    employee(String(format: "E%03d", random.next(1000)) + "-\(counter)",
                             random.next(5) == 0 ? nil : departments[random.next(departments.count)], salary: Int64(random.next(100)))
                }
                for _ in 0..<40 { newEmployee() }
                try context.save()
                let controller = try controller(sectioned: sectioned, predicate: NSPredicate(format: "salary >= 30"), delegate: recorder)
                for event in 0..<60 {
                    var table = TableModel(controller.sections!)
                    recorder.reset()
                    for _ in 0...random.next(5) {
                        // Objects not yet saved are left alone: the context reports no update of
                        // them after the event that inserted them, so no controller sees one.
                        let all = try context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).filter { !$0.isDeleted && !$0.isInserted }
                        guard let e = all.isEmpty ? nil : all[random.next(all.count)] else { newEmployee(); continue }
                        switch random.next(6) {
                        case 0: newEmployee()
                        case 1: context.delete(e)
                        case 2: e.firstName = String(format: "E%03d", random.next(1000)) + "-\(counter)"; counter += 1
                        case 3: e.department = random.next(5) == 0 ? nil : departments[random.next(departments.count)]
                        case 4: e.salary = Int64(random.next(100))
                        default: e.email = "e\(event)@example.com"
                        }
                    }
                    if random.next(3) == 0 { try context.save() } else { context.processPendingChanges() }
                    try table.apply(recorder)
                    XCTAssertTrue(table.sections == TableModel(controller.sections!).sections, "event \(event), sectioned: \(sectioned)")
                    let fresh = try context.fetch(controller.fetchRequest)
                    XCTAssertTrue(controller.fetchedObjects?.map(ObjectIdentifier.init) == fresh.map(ObjectIdentifier.init), "event \(event), sectioned: \(sectioned)")
                }
            }
        }
    }

    // MARK: - Cache

    func testTheCacheKeepsSectionInformationAcrossFetches() throws {
        let model = CountingBook.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for (title, genre) in [("Dune", "SF"), ("Emma", "Novel"), ("Solaris", "SF")] {
                let book = NSEntityDescription.insertNewObject(forEntityName: "CountingBook", into: context)
                book.setValue(title, forKey: "title"); book.setValue(genre, forKey: "genre")
            }
            try context.save()
            func fetchSections(cacheName: String?, predicate: NSPredicate? = nil) throws -> (names: [String], genreReads: Int) {
                let request = NSFetchRequest<NSManagedObject>(entityName: "CountingBook")
                request.predicate = predicate
                request.sortDescriptors = [NSSortDescriptor(key: "genre", ascending: true), NSSortDescriptor(key: "title", ascending: true)]
                let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "genre", cacheName: cacheName)
                CountingBook.genreReads = 0
                try controller.performFetch()
                return (controller.sections!.map(\.name), CountingBook.genreReads)
            }
            XCTAssertEqual(try fetchSections(cacheName: "Books").names, ["Novel", "SF"])
            let cached = try fetchSections(cacheName: "Books")
            XCTAssertEqual(cached.names, ["Novel", "SF"])
            XCTAssertEqual(cached.genreReads, 0, "the section names come from the cache")
            XCTAssertEqual(try fetchSections(cacheName: nil).genreReads, 3, "without a cache each object's section key is read")

            // Another configuration under the same name is not served from the cache.
            let changed = try fetchSections(cacheName: "Books", predicate: NSPredicate(format: "title != 'Emma'"))
            XCTAssertEqual(changed.names, ["SF"])
            XCTAssertEqual(changed.genreReads, 2)

            NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: "Books")
            XCTAssertEqual(try fetchSections(cacheName: "Books").genreReads, 3, "a deleted cache is built again")
            XCTAssertEqual(try fetchSections(cacheName: "Books").genreReads, 0)

            // Different objects than the cache holds: the cache is not used.
            let book = NSEntityDescription.insertNewObject(forEntityName: "CountingBook", into: context)
            book.setValue("Ubik", forKey: "title"); book.setValue("SF", forKey: "genre")
            try context.save()
            let grown = try fetchSections(cacheName: "Books")
            XCTAssertEqual(grown.genreReads, 4)
            XCTAssertEqual(grown.names, ["Novel", "SF"])
        }
    }
}

/// A book whose reads of `genre` through key-value coding are counted.
final class CountingBook: NSManagedObject {
    nonisolated(unsafe) static var genreReads = 0

    override func value(forKey key: String) -> Any? {
        if key == "genre" { Self.genreReads += 1 }
        return super.value(forKey: key)
    }

    static func model() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "CountingBook", className: "OpenCoreDataTests.CountingBook", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
            NSAttributeDescription(name: "genre", type: .stringAttributeType),
        ])]
        return model
    }
}

/// Records a controller's delegate calls as text: "will", "section insert Sales 1",
/// "move Bob 0.1 → 1.0" (section.item), "did".
final class ResultsRecorder: NSObject, NSFetchedResultsControllerDelegate {
    var log: [String] = []
    var controllers: [NSFetchedResultsController<NSFetchRequestResult>] = []
    /// The changes of one event, between will-change and did-change.
    struct Batch {
        var sectionChanges: [(type: NSFetchedResultsChangeType, index: Int)] = []
        var objectChanges: [(object: NSManagedObject, type: NSFetchedResultsChangeType, old: IndexPath?, new: IndexPath?)] = []
    }
    var batches: [Batch] = []

    func reset() { log = []; batches = [] }

    static func text(_ type: NSFetchedResultsChangeType) -> String {
        switch type {
        case .insert: "insert"
        case .delete: "delete"
        case .move: "move"
        case .update: "update"
        @unknown default: "?"
        }
    }

    static func text(_ path: IndexPath?) -> String {
        path.map { "\($0.section).\($0.item)" } ?? "nil"
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        log.append("will")
        controllers.append(controller)
        batches.append(Batch())
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        log.append("section \(Self.text(type)) \(sectionInfo.name) \(sectionIndex)")
        batches[batches.count - 1].sectionChanges.append((type, sectionIndex))
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let employee = anObject as! NSManagedObject
        log.append("\(Self.text(type)) \(employee.value(forKey: "firstName") as? String ?? "?") \(Self.text(indexPath)) → \(Self.text(newIndexPath))")
        batches[batches.count - 1].objectChanges.append((employee, type, indexPath, newIndexPath))
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        log.append("did")
    }
}

/// What a table view shows: objects in sections (by identity: a save changes the IDs of new
/// objects), changed the way UITableView applies a batch of updates.
struct TableModel {
    var sections: [[ObjectIdentifier]]

    init(_ sections: [any NSFetchedResultsSectionInfo]) {
        self.sections = sections.map { ($0.objects ?? []).map { ObjectIdentifier($0 as! NSManagedObject) } }
    }

    /// Deletes (and move sources) at the old index paths and section deletes first, then
    /// section inserts and inserts (and move destinations) at the new index paths; updates
    /// must name the object at both paths.
    mutating func apply(_ recorder: ResultsRecorder) throws {
        for batch in recorder.batches { try apply(batch) }
    }

    private mutating func apply(_ recorder: ResultsRecorder.Batch) throws {
        let old = sections
        var deleteRows: [IndexPath] = [], insertRows: [(IndexPath, ObjectIdentifier)] = []
        for c in recorder.objectChanges {
            switch c.type {
            case .delete:
                deleteRows.append(try XCTUnwrap(c.old))
            case .insert:
                insertRows.append((try XCTUnwrap(c.new), ObjectIdentifier(c.object)))
            case .move:
                deleteRows.append(try XCTUnwrap(c.old)); insertRows.append((try XCTUnwrap(c.new), ObjectIdentifier(c.object)))
            case .update:
                let path = try XCTUnwrap(c.old)
                XCTAssertEqual(old[path.section][path.item], ObjectIdentifier(c.object), "an update names the object's old index path")
            @unknown default:
                XCTFail("unknown change type")
            }
        }
        for path in deleteRows {
            XCTAssertEqual(old[path.section][path.item], recorder.objectChanges.first { $0.old == path && ($0.type == .delete || $0.type == .move) }.map { ObjectIdentifier($0.object) },
                           "a delete or move names the object's old index path")
        }
        for path in deleteRows.sorted(by: >) { sections[path.section].remove(at: path.item) }
        for s in recorder.sectionChanges.filter({ $0.type == .delete }).map(\.index).sorted(by: >) {
            XCTAssertEqual(sections[s], [], "a deleted section lost all its rows")
            sections.remove(at: s)
        }
        for s in recorder.sectionChanges.filter({ $0.type == .insert }).map(\.index).sorted() { sections.insert([], at: s) }
        for (path, id) in insertRows.sorted(by: { $0.0 < $1.0 }) { sections[path.section].insert(id, at: path.item) }
        for c in recorder.objectChanges where c.type == .update {
            let path = try XCTUnwrap(c.new)
            XCTAssertEqual(sections[path.section][path.item], ObjectIdentifier(c.object), "an update names the object's new index path")
        }
    }
}

/// A small deterministic generator (a linear congruential one), so a failing sequence repeats.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
