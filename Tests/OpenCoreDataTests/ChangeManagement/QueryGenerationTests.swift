import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Query generations: a context pinned with `setQueryGenerationFrom(_:)` reads the store as it
/// was when its generation began — fetches, counts, faults, relationships — while other contexts
/// save; it moves to the current generation when it saves, merges a save or is reset; other
/// contexts of the coordinator can share its generation through its token.
final class QueryGenerationTests: XCTestCase {
    private var stack: TestStack!

    override func setUpWithError() throws {
        let directory = try makeTemporaryDirectory("ocd-query-generations")
        stack = try TestStack(sqliteAt: directory.appendingPathComponent("Generations.sqlite"))
        try stack.context.performAndWait {
            let sales = stack.department("Sales")
            let ann = stack.employee("Ann", salary: 100)
            ann.department = sales
            try stack.context.save()
        }
    }

    private let employees = NSFetchRequest<Employee>(entityName: "Employee")

    /// Another context saves: Ann's salary becomes 200 and Bob joins Sales.
    private func saveElsewhere() throws {
        let writer = stack.newContext()
        try writer.performAndWait {
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            let ann = try XCTUnwrap(try writer.fetch(request).first)
            ann.salary = 200
            let bob = stack.employee("Bob", salary: 50, in: writer)
            bob.department = ann.department
            try writer.save()
        }
    }

    /// A new context pinned to the current generation by a first read.
    private func pinnedContext() throws -> NSManagedObjectContext {
        let context = stack.newContext()
        try context.performAndWait {
            try context.setQueryGenerationFrom(.current)
            XCTAssertEqual(try context.count(for: employees), 1)
        }
        return context
    }

    func testAContextIsUnpinnedUntilAskedAndThenHasAToken() throws {
        let context = stack.newContext()
        try context.performAndWait {
            XCTAssertNil(context.queryGenerationToken)
            try context.setQueryGenerationFrom(.current)
            XCTAssertNotNil(context.queryGenerationToken)
            XCTAssertNotEqual(context.queryGenerationToken, NSQueryGenerationToken.current)
            try context.setQueryGenerationFrom(nil)
            XCTAssertNil(context.queryGenerationToken)
        }
    }

    func testAPinnedContextKeepsSeeingItsGenerationWhileOthersSave() throws {
        let pinned = try pinnedContext()
        try saveElsewhere()
        try pinned.performAndWait {
            XCTAssertEqual(try pinned.count(for: employees), 1, "count in the generation")
            let fetched = try pinned.fetch(employees)
            XCTAssertEqual(fetched.map(\.firstName), ["Ann"])
            XCTAssertEqual(fetched.first?.salary, 100)
            XCTAssertEqual(fetched.first?.department?.employees.count, 1, "a relationship fault fires in the generation")
        }
        let unpinned = stack.newContext()
        try unpinned.performAndWait {
            XCTAssertEqual(try unpinned.count(for: employees), 2)
            XCTAssertEqual(try unpinned.fetch(employees).first { $0.firstName == "Ann" }?.salary, 200,
                           "the pinned context's older rows don't answer other contexts")
        }
    }

    func testAFaultFiresInTheGeneration() throws {
        let pinned = stack.newContext()
        let ann: Employee = try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.returnsObjectsAsFaults = true
            request.includesPropertyValues = false
            return try XCTUnwrap(try pinned.fetch(request).first)
        }
        try saveElsewhere()
        pinned.performAndWait {
            XCTAssertTrue(ann.isFault)
            XCTAssertEqual(ann.salary, 100)
        }
    }

    func testUnpinningReadsTheLatestData() throws {
        let pinned = try pinnedContext()
        try saveElsewhere()
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(nil)
            XCTAssertEqual(try pinned.count(for: employees), 2)
        }
    }

    func testAnotherContextSharesAGenerationThroughItsToken() throws {
        let first = stack.newContext(), second = stack.newContext()
        let token: NSQueryGenerationToken = try first.performAndWait {
            try first.setQueryGenerationFrom(.current)
            return try XCTUnwrap(first.queryGenerationToken)
        }
        try saveElsewhere()
        try second.performAndWait {
            try second.setQueryGenerationFrom(token)
            XCTAssertEqual(second.queryGenerationToken, token)
            XCTAssertEqual(try second.count(for: employees), 1, "the first context's generation, from before the save")
        }
    }

    func testSavingResettingAndMergingMoveAPinnedContextToTheCurrentGeneration() throws {
        let pinned = try pinnedContext()
        try saveElsewhere()
        try pinned.performAndWait {
            pinned.reset()
            XCTAssertEqual(try pinned.count(for: employees), 2, "after reset")
        }
        try saveElsewhere()
        try pinned.performAndWait {
            XCTAssertEqual(try pinned.count(for: employees), 2, "pinned again at the first read after the reset")
            _ = stack.employee("Cy", in: pinned)
            let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: pinned, queue: nil) { note in
                XCTAssertNotNil(note.userInfo?[NSManagedObjectContextQueryGenerationKey] as? NSQueryGenerationToken,
                                "a pinned context's save names its new generation")
            }
            try pinned.save()
            NotificationCenter.default.removeObserver(observer)
            XCTAssertEqual(try pinned.count(for: employees), 4, "after its save: Ann, Bob, Bob and Cy")
        }
        let writer = stack.newContext()
        let note: Notification = try writer.performAndWait {
            let saved = SavedNotification()
            let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) { saved.note = $0 }
            defer { NotificationCenter.default.removeObserver(observer) }
            _ = stack.employee("Dee", in: writer)
            try writer.save()
            XCTAssertNil(saved.note?.userInfo?[NSManagedObjectContextQueryGenerationKey], "an unpinned context's save names none")
            return try XCTUnwrap(saved.note)
        }
        try pinned.performAndWait {
            XCTAssertEqual(try pinned.count(for: employees), 4)
            pinned.mergeChanges(fromContextDidSave: note)
            XCTAssertEqual(try pinned.count(for: employees), 5, "after merging a save")
        }
    }

    func testStoresThatCannotKeepGenerationsRefuseThem() throws {
        let memory = TestStack()
        try memory.context.performAndWait {
            XCTAssertThrowsError(try memory.context.setQueryGenerationFrom(.current)) { error in
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
                XCTAssertEqual((error as NSError).code, NSPersistentStoreUnsupportedRequestTypeError)
            }
            XCTAssertNil(memory.context.queryGenerationToken)
        }
        let directory = try makeTemporaryDirectory("ocd-query-generations-delete")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Journal.sqlite"),
                                           options: [NSSQLitePragmasOption: ["journal_mode": "DELETE"]])
        let context = newContext(coordinator)
        try context.performAndWait {
            XCTAssertThrowsError(try context.setQueryGenerationFrom(.current)) { error in
                XCTAssertEqual((error as NSError).code, NSPersistentStoreUnsupportedRequestTypeError)
                XCTAssertTrue("\(error)".contains("journal_mode"), "\(error)")
            }
        }
    }

    func testATokenOfAnotherCoordinatorOrFromAnArchiveIsRefused() throws {
        let other = try TestStack(sqliteAt: try makeTemporaryDirectory("ocd-query-generations-other").appendingPathComponent("Other.sqlite"))
        let foreign: NSQueryGenerationToken = try other.context.performAndWait {
            try other.context.setQueryGenerationFrom(.current)
            return try XCTUnwrap(other.context.queryGenerationToken)
        }
        let context = stack.newContext()
        try context.performAndWait {
            XCTAssertThrowsError(try context.setQueryGenerationFrom(foreign)) { XCTAssertEqual(($0 as NSError).code, NSCoreDataError) }
            let data = try NSKeyedArchiver.archivedData(withRootObject: foreign, requiringSecureCoding: true)
            let decoded = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: NSQueryGenerationToken.self, from: data))
            XCTAssertThrowsError(try context.setQueryGenerationFrom(decoded)) { XCTAssertEqual(($0 as NSError).code, NSCoreDataError) }
            let current = try NSKeyedArchiver.archivedData(withRootObject: NSQueryGenerationToken.current, requiringSecureCoding: true)
            let decodedCurrent = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: NSQueryGenerationToken.self, from: current))
            XCTAssertEqual(decodedCurrent, NSQueryGenerationToken.current)
            XCTAssertNoThrow(try context.setQueryGenerationFrom(decodedCurrent))
        }
    }

    func testAGenerationHoldsAgainstAnotherProcessesCommit() throws {
        let url = try XCTUnwrap(stack.coordinator.persistentStores.first?.url)
        let pinned = try pinnedContext()
        let other = try OtherSQLiteProcess(url)
        defer { other.finish() }
        _ = try other.run("UPDATE ZEMPLOYEE SET ZSALARY = 999")
        try pinned.performAndWait {
            pinned.refreshAllObjects()
            XCTAssertEqual(try pinned.fetch(employees).first?.salary, 100)
        }
        let unpinned = stack.newContext()
        try unpinned.performAndWait {
            unpinned.stalenessInterval = 0
            XCTAssertEqual(try unpinned.fetch(employees).first?.salary, 999)
        }
    }
}

/// The notification a context posted on its own queue, read back on that queue.
private final class SavedNotification: @unchecked Sendable {
    // @unchecked Sendable: written on one queue and read after it (its performAndWait, or a
    // semaphore) has finished.
    var note: Notification?
}

extension QueryGenerationTests {
    /// Apple's header: nested contexts defer to their parent's data and return nil; setting a
    /// generation on one is a programmer error (here a thrown error).
    func testAChildContextReadsItsParentsGeneration() throws {
        let parent = try pinnedContext()
        try saveElsewhere()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait {
            XCTAssertNil(child.queryGenerationToken)
            XCTAssertThrowsError(try child.setQueryGenerationFrom(.current)) { XCTAssertEqual(($0 as NSError).code, NSCoreDataError) }
            let fetched = try child.fetch(employees)
            XCTAssertEqual(fetched.count, 1, "the parent's generation")
            XCTAssertEqual(fetched.first?.salary, 100)
        }
    }

    /// Apple's header: batch update and delete requests don't move a pinned context's generation.
    func testABatchRequestDoesNotMoveTheGeneration() throws {
        let pinned = stack.newContext()
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            let token = pinned.queryGenerationToken
            let update = NSBatchUpdateRequest(entityName: "Employee")
            update.propertiesToUpdate = ["salary": 300]
            _ = try pinned.execute(update)
            XCTAssertEqual(pinned.queryGenerationToken, token)
            XCTAssertEqual(try pinned.fetch(employees).first?.salary, 100, "the batch update came after the generation")
        }
    }
}

extension QueryGenerationTests {
    /// A writer saves in a loop on its own queue while the pinned context reads: every read
    /// sees the generation, none the writer's progress, and the writer is never blocked by the
    /// generation's open read transaction (WAL).
    func testAPinnedContextReadsOneStateWhileAWriterSavesConcurrently() throws {
        let pinned = try pinnedContext()
        let stack = try XCTUnwrap(self.stack)
        let writer = stack.newContext()
        let saves = 40
        let done = DispatchSemaphore(value: 0)
        let failure = SavedNotification()
        DispatchQueue.global().async {
            writer.performAndWait {
                do {
                    for i in 0..<saves {
                        _ = stack.employee("Writer \(i)", in: writer)
                        try writer.save()
                    }
                } catch {
                    failure.note = Notification(name: .init("failed"), object: nil, userInfo: ["error": error])
                }
            }
            done.signal()
        }
        var counts: Set<Int> = []
        var finished = false
        while !finished {
            finished = done.wait(timeout: .now()) == .success
            try pinned.performAndWait {
                counts.insert(try pinned.count(for: employees))
                counts.insert(try pinned.fetch(employees).count)
            }
        }
        XCTAssertNil(failure.note, "the writer saved every time")
        XCTAssertEqual(counts, [1], "every read in the generation")
        let unpinned = stack.newContext()
        XCTAssertEqual(try unpinned.performAndWait { try unpinned.count(for: employees) }, saves + 1)
    }
}

extension QueryGenerationTests {
    /// The generation belongs to the pinned context, not to the thread: a context that is not
    /// pinned, asked to read while the pinned one is inside a read (here from `awakeFromFetch`
    /// of an object the pinned context fetches), reads the latest data.
    func testAnUnpinnedContextReadingInsideAPinnedReadSeesTheLatestData() throws {
        let model = GenerationProbe.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = try makeTemporaryDirectory("ocd-query-generations-nested").appendingPathComponent("Nested.sqlite")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        func insertProbe(_ name: String) throws {
            let writer = newContext(coordinator)
            try writer.performAndWait {
                let probe = NSEntityDescription.insertNewObject(forEntityName: "GenerationProbe", into: writer)
                probe.setValue(name, forKey: "name")
                try writer.save()
            }
        }
        try insertProbe("first")
        let pinned = newContext(coordinator), unpinned = newContext(coordinator)
        let probes = NSFetchRequest<NSManagedObject>(entityName: "GenerationProbe")
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            XCTAssertEqual(try pinned.count(for: probes), 1)
        }
        try insertProbe("second")
        let seen = SeenCounts()
        GenerationProbe.onAwake.set {
            unpinned.performAndWait { seen.counts.append((try? unpinned.count(for: probes)) ?? -1) }
        }
        defer { GenerationProbe.onAwake.set(nil) }
        try pinned.performAndWait {
            let fetched = try pinned.fetch(probes)
            XCTAssertEqual(fetched.count, 1, "the pinned context's generation")
            XCTAssertEqual(fetched.first?.value(forKey: "name") as? String, "first")
        }
        XCTAssertEqual(seen.counts, [2], "the unpinned context read the latest data, from inside the pinned read")
    }

    /// A token names the stores it was made with: once its store is removed, the token names no
    /// generation of the coordinator, whatever store replaces it. (Tokens name stores by their
    /// process-unique number, never by address, which a store added later may reuse.)
    func testATokenOfARemovedStoreIsRefusedByTheStoreThatReplacesIt() throws {
        let coordinator = stack.coordinator
        let context = stack.newContext()
        let token: NSQueryGenerationToken = try context.performAndWait {
            try context.setQueryGenerationFrom(.current)
            return try XCTUnwrap(context.queryGenerationToken)
        }
        try coordinator.remove(try XCTUnwrap(coordinator.persistentStores.first))
        let replacement = try makeTemporaryDirectory("ocd-query-generations-replaced").appendingPathComponent("Replacement.sqlite")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: replacement, options: nil)
        let fresh = stack.newContext()
        try fresh.performAndWait {
            XCTAssertThrowsError(try fresh.setQueryGenerationFrom(token)) { XCTAssertEqual(($0 as NSError).code, NSCoreDataError) }
            XCTAssertNoThrow(try fresh.setQueryGenerationFrom(.current))
        }
    }

    /// A parent that asked for `.current` fixes its generation at the first read, also one its
    /// child makes through it; the parent then keeps reading that generation.
    func testAChildsFirstReadFixesItsParentsGeneration() throws {
        let parent = stack.newContext()
        try parent.performAndWait { try parent.setQueryGenerationFrom(.current) }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        XCTAssertEqual(try child.performAndWait { try child.count(for: employees) }, 1)
        try saveElsewhere()
        try parent.performAndWait {
            XCTAssertEqual(try parent.count(for: employees), 1, "the generation the child's read fixed")
        }
        XCTAssertEqual(try child.performAndWait { try child.fetch(employees).count }, 1)
    }
}

/// Counts read inside another context's read, appended on that context's queue.
private final class SeenCounts: @unchecked Sendable {
    // @unchecked Sendable: appended inside the pinned context's performAndWait, read after it.
    var counts: [Int] = []
}

/// An object that runs a test's closure when it awakes from a fetch.
final class GenerationProbe: NSManagedObject {
    /// The closure `awakeFromFetch` runs (nil: none).
    static let onAwake = LockedClosure()

    override func awakeFromFetch() {
        super.awakeFromFetch()
        Self.onAwake.get()?()
    }

    static func model() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "GenerationProbe", className: "OpenCoreDataTests.GenerationProbe", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
        ])]
        return model
    }
}

/// A closure set by one test and called from context queues.
final class LockedClosure: @unchecked Sendable {
    // @unchecked Sendable: `closure` is read and written under `lock`.
    private let lock = NSLock()
    private var closure: (@Sendable () -> Void)?
    func set(_ new: (@Sendable () -> Void)?) { lock.lock(); closure = new; lock.unlock() }
    func get() -> (@Sendable () -> Void)? { lock.lock(); defer { lock.unlock() }; return closure }
}
