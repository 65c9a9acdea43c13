import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Change state, change dictionaries, lifecycle hooks and the objects-did-change notification.
final class ChangeTrackingTests: XCTestCase {
    private func hookedStack() -> TestStack { TestStack(model: CompanyModel.withHooks()) }

    func testInsertUpdateDeleteStateAcrossSaves() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let c = stack.context
            let e = stack.employee("Fiona")
            XCTAssertTrue(e.isInserted); XCTAssertTrue(e.hasChanges); XCTAssertTrue(e.objectID.isTemporaryID)
            XCTAssertEqual(c.insertedObjects, [e])
            try c.save()
            XCTAssertFalse(e.isInserted); XCTAssertFalse(e.hasChanges); XCTAssertFalse(e.objectID.isTemporaryID)
            XCTAssertFalse(c.hasChanges)

            e.salary = 2000
            XCTAssertTrue(e.isUpdated); XCTAssertEqual(c.updatedObjects, [e])
            XCTAssertEqual(e.changedValues()["salary"] as? Int, 2000)
            XCTAssertEqual(e.committedValues(forKeys: ["salary"])["salary"] as? Int, 1000)
            XCTAssertTrue(e.hasPersistentChangedValues)
            try c.save()
            XCTAssertEqual(e.committedValues(forKeys: nil)["salary"] as? Int, 2000)
            XCTAssertTrue(e.changedValues().isEmpty)

            c.delete(e)
            XCTAssertTrue(e.isDeleted); XCTAssertEqual(c.deletedObjects, [e]); XCTAssertEqual(c.updatedObjects, [])
            try c.save()
            XCTAssertNil(e.managedObjectContext)
            XCTAssertEqual(try c.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 0)
        }
    }

    func testTransientChangesAreTrackedButNotPersistentChanges() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("T")
            try stack.context.save()
            e.isSelected = true
            XCTAssertTrue(e.hasChanges)
            XCTAssertFalse(e.hasPersistentChangedValues, "transient properties are not persistent changes")
            XCTAssertNil(e.changedValues()["isSelected"])
        }
    }

    func testChangedValuesForCurrentEventReturnsOldValuesUntilProcessPendingChanges() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Old")
            try stack.context.save()
            e.firstName = "New"
            e.firstName = "Newer"
            XCTAssertEqual(e.changedValuesForCurrentEvent()["firstName"] as? String, "Old")
            stack.context.processPendingChanges()
            XCTAssertTrue(e.changedValuesForCurrentEvent().isEmpty)
            XCTAssertEqual(e.changedValues()["firstName"] as? String, "Newer")
        }
    }

    /// Saves employees A and B, then (on the context's queue) updates A, deletes B and inserts
    /// C, leaving the event open; `box` is emptied after the save.
    private func changeEachKind(in stack: TestStack, _ box: NotificationBox) throws -> (updated: Employee, deleted: Employee, inserted: Employee) {
        let a = stack.employee("A"), b = stack.employee("B")
        try stack.context.save()
        box.removeAll()
        a.salary = 5
        stack.context.delete(b)
        return (a, b, stack.employee("C"))
    }

    func testObjectsDidChangeNotificationCarriesTheEventsObjects() throws {
        let stack = TestStack()
        let box = NotificationBox()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: stack.context, queue: nil) { note in
            box.append(note.userInfo ?? [:])
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try stack.context.performAndWait {
            let (a, b, c) = try changeEachKind(in: stack, box)
            stack.context.processPendingChanges()
            XCTAssertEqual(box.infos.count, 1)
            let info = box.infos[0]
            XCTAssertEqual(info[NSInsertedObjectsKey] as? Set<NSManagedObject>, [c])
            XCTAssertEqual(info[NSUpdatedObjectsKey] as? Set<NSManagedObject>, [a])
            XCTAssertEqual(info[NSDeletedObjectsKey] as? Set<NSManagedObject>, [b])
        }
    }

    /// A save reports its new objects twice: in the objects-did-change notification of its last
    /// event (that event's objects) and in did-save (all of them). The two may share one `Set`
    /// when they are the same objects; they must never mix up whose they are.
    func testASavesLastEventAndDidSaveReportTheirOwnNewObjects() throws {
        let stack = TestStack()
        let changes = NotificationBox(), saves = NotificationBox()
        let tokens = [
            NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: stack.context, queue: nil) { changes.append($0.userInfo ?? [:]) },
            NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: stack.context, queue: nil) { saves.append($0.userInfo ?? [:]) },
        ]
        defer { tokens.forEach(NotificationCenter.default.removeObserver) }
        try stack.context.performAndWait {
            let first = (0..<3).map { stack.department("D\($0)") }
            stack.context.processPendingChanges()  // an event of its own
            let second = (0..<2).map { stack.department("E\($0)") }
            try stack.context.save()
            XCTAssertEqual(changes.infos.map { $0[NSInsertedObjectsKey] as? Set<NSManagedObject> }, [Set(first), Set(second)])
            XCTAssertEqual(saves.infos.last?[NSInsertedObjectsKey] as? Set<NSManagedObject>, Set(first + second),
                           "did-save reports every new object, not only the last event's")

            changes.removeAll()
            let third = (0..<2).map { stack.department("F\($0)") }
            try stack.context.save()
            XCTAssertEqual(changes.infos.map { $0[NSInsertedObjectsKey] as? Set<NSManagedObject> }, [Set(third)])
            XCTAssertEqual(saves.infos.last?[NSInsertedObjectsKey] as? Set<NSManagedObject>, Set(third), "a second save reports its own objects")
            XCTAssertEqual(stack.context.insertedObjects, [], "and the context has none left")

            third[0].setValue("F0'", forKey: "name")
            third[1].setValue("F1'", forKey: "name")
            try stack.context.save()
            XCTAssertEqual(saves.infos.last?[NSUpdatedObjectsKey] as? Set<NSManagedObject>, Set(third))
            XCTAssertEqual(saves.infos.last?[NSInsertedObjectsKey] as? Set<NSManagedObject>, [])
        }
    }

    func testWillSaveAndDidSaveNotificationsAndHooks() throws {
        let stack = hookedStack()
        let box = NotificationBox()
        let t1 = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextWillSave, object: stack.context, queue: nil) { _ in box.append(["will": true]) }
        let t2 = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: stack.context, queue: nil) { note in box.append(note.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(t1); NotificationCenter.default.removeObserver(t2) }
        try stack.context.performAndWait {
            let hooked = HookedObject.make(in: stack.context)
            try stack.context.save()
            XCTAssertEqual(box.infos.count, 2)
            XCTAssertNotNil(box.infos[0]["will"])
            XCTAssertEqual((box.infos[1][NSInsertedObjectsKey] as? Set<NSManagedObject>)?.count, 1)
            XCTAssertEqual(hooked.events, ["awakeFromInsert", "willSave", "didSave"])
            stack.context.delete(hooked)
            try stack.context.save()
            XCTAssertEqual(hooked.events.suffix(5), ["prepareForDeletion", "willSave", "didSave", "willTurnIntoFault", "didTurnIntoFault"])
        }
    }

    func testDidSaveNotificationsNameTheSavedObjectsAndTheirIDs() throws {
        let stack = TestStack()
        let box = NotificationBox()
        let t1 = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: stack.context, queue: nil) { note in box.append(note.userInfo ?? [:]) }
        let t2 = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didSaveObjectIDsNotification, object: stack.context, queue: nil) { note in box.append(note.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(t1); NotificationCenter.default.removeObserver(t2) }
        try stack.context.performAndWait {
            let (a, b, c) = try changeEachKind(in: stack, box)
            let bID = b.objectID
            try stack.context.save()
            XCTAssertEqual(box.infos.count, 2, "DidSave, then DidSaveObjectIDs")
            let (objects, ids) = (box.infos[0], box.infos[1])
            XCTAssertEqual(objects[NSInsertedObjectsKey] as? Set<NSManagedObject>, [c])
            XCTAssertEqual(objects[NSUpdatedObjectsKey] as? Set<NSManagedObject>, [a])
            XCTAssertEqual(objects[NSDeletedObjectsKey] as? Set<NSManagedObject>, [b])
            for info in [objects, ids] {
                XCTAssertEqual(info[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID>, [c.objectID])
                XCTAssertEqual(info[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID>, [a.objectID])
                XCTAssertEqual(info[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID>, [bID])
            }
            XCTAssertEqual(ids.count, 3, "the IDs notification carries IDs only")

            box.removeAll()
            a.salary = 6
            try stack.context.save()
            XCTAssertEqual(box.infos[0][NSInsertedObjectsKey] as? Set<NSManagedObject>, [], "kinds without objects are empty sets")
            XCTAssertEqual(box.infos[1][NSDeletedObjectIDsKey] as? Set<NSManagedObjectID>, [])
            XCTAssertEqual(box.infos[1][NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID>, [a.objectID])
        }
    }

    func testAwakeFromFetchRunsWhenAnotherContextLoadsTheObject() throws {
        let stack = hookedStack()
        try stack.context.performAndWait {
            _ = HookedObject.make(in: stack.context)
            try stack.context.save()
        }
        let other = stack.newContext()
        try other.performAndWait {
            let fetched = try other.fetch(NSFetchRequest<HookedObject>(entityName: "Hooked"))
            XCTAssertEqual(fetched.first?.events, [], "fetched as a fault: not awake yet")
            _ = fetched.first?.value(forKey: "n")   // fires the fault
            XCTAssertEqual(fetched.first?.events, ["awakeFromFetch"])
        }
    }

    /// A class that does not ignore changes to unmodeled properties becomes updated when it
    /// reports one with `didChangeValue(forKey:)`; the default class stays unchanged.
    func testUnmodeledPropertyChangesCountWhenTheClassSaysSo() throws {
        let model = CompanyModel.make()
        model.entitiesByName["Badge"]!.managedObjectClassName = NSStringFromClass(TrackedBadge.self)
        let stack = TestStack(model: model)
        try stack.context.performAndWait {
            let badge = TrackedBadge(context: stack.context)
            let employee = stack.employee("E")
            try stack.context.save()
            XCTAssertFalse(TrackedBadge.contextShouldIgnoreUnmodeledPropertyChanges)
            XCTAssertTrue(NSManagedObject.contextShouldIgnoreUnmodeledPropertyChanges)
            badge.scratch = "changed"
            XCTAssertTrue(badge.isUpdated)
            XCTAssertEqual(stack.context.updatedObjects, [badge])
            employee.willChangeValue(forKey: "unmodeled")
            employee.didChangeValue(forKey: "unmodeled")
            XCTAssertFalse(employee.hasChanges, "NSManagedObject ignores them")
            try stack.context.save()
            XCTAssertFalse(stack.context.hasChanges)
        }
    }

    /// The deprecated `NSLocking` methods lock and unlock the context's lock.
    @available(*, deprecated)
    func testDeprecatedContextLockIsALock() {
        let context = TestStack().context
        context.lock()
        XCTAssertTrue(context.tryLock(), "the lock is recursive, as Apple's is")
        context.unlock()
        let taken = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var otherGotIt = true
        Thread.detachNewThread {
            otherGotIt = context.tryLock()
            taken.signal()
        }
        taken.wait()
        XCTAssertFalse(otherGotIt, "held by this thread")
        context.unlock()
    }
}

final class HookedObject: NSManagedObject {
    var events: [String] = []
    override func awakeFromInsert() { events.append("awakeFromInsert") }
    override func awakeFromFetch() { events.append("awakeFromFetch") }
    override func willSave() { events.append("willSave") }
    override func didSave() { events.append("didSave") }
    override func prepareForDeletion() { events.append("prepareForDeletion") }
    override func willTurnIntoFault() { events.append("willTurnIntoFault") }
    override func didTurnIntoFault() { events.append("didTurnIntoFault") }

    static func make(in context: NSManagedObjectContext) -> HookedObject {
        NSEntityDescription.insertNewObject(forEntityName: "Hooked", into: context) as! HookedObject
    }
}

extension CompanyModel {
    /// The company model plus a "Hooked" entity whose class records lifecycle calls.
    static func withHooks() -> NSManagedObjectModel {
        let model = make()
        let hooked = NSEntityDescription(name: "Hooked", className: "OpenCoreDataTests.HookedObject",
                                         properties: [NSAttributeDescription(name: "n", type: .integer64AttributeType)])
        model.entities += [hooked]
        return model
    }
}

/// Collects notification userInfos from any thread.
final class NotificationBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [[AnyHashable: Any]] = []
    func append(_ info: [AnyHashable: Any]) { lock.lock(); storage.append(info); lock.unlock() }
    func removeAll() { lock.lock(); storage.removeAll(); lock.unlock() }
    var infos: [[AnyHashable: Any]] { lock.lock(); defer { lock.unlock() }; return storage }
}

/// A badge with state the model does not describe, which it asks its context to track.
final class TrackedBadge: NSManagedObject {
    override class var contextShouldIgnoreUnmodeledPropertyChanges: Bool { false }
    var scratch: String? {
        didSet { didChangeValue(forKey: "scratch") }
    }
}
