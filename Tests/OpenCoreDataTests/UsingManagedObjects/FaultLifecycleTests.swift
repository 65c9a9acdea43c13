import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// A fault's life as its object sees it: `faultingState` while it turns into an object or back,
/// and a fault whose record another context deleted ("inaccessible faults").
final class FaultLifecycleTests: XCTestCase {
    /// `faultingState` is not 0 only while the context runs the faulting hooks.
    func testFaultingStateIsNonZeroOnlyDuringTheFaultingHooks() throws {
        let store = try TemporaryCompanyStore()
        store.model.entitiesByName["Department"]!.managedObjectClassName = NSStringFromClass(StateRecordingDepartment.self)
        try store.seed([])
        let (_, context) = try store.open()
        try context.performAndWait {
            let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context) as! StateRecordingDepartment
            department.setValue("D", forKey: "name")
            try context.save()
            XCTAssertEqual(department.faultingState, 0)
            context.refresh(department, mergeChanges: false)
            XCTAssertEqual(department.faultingState, 0)
            _ = department.value(forKey: "name")   // fires the fault
            XCTAssertEqual(department.faultingState, 0)
            XCTAssertEqual(department.states.map { $0.hook }, ["willTurnIntoFault", "didTurnIntoFault", "awakeFromFetch"])
            XCTAssertTrue(department.states.allSatisfy { $0.state != 0 }, "\(department.states)")
        }
    }

    /// A fault whose record was deleted elsewhere reads as default values; with
    /// `shouldDeleteInaccessibleFaults` (the default) it counts as deleted.
    func testAnInaccessibleFaultReadsAsDeletedByDefault() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer"), ("Bob", 2000, "Baker")])
        let (coordinator, context) = try store.open()
        let (ann, bob) = try context.performAndWait { () -> (NSManagedObjectID, NSManagedObjectID) in
            (try store.employee("Ann", in: context).objectID, try store.employee("Bob", in: context).objectID)
        }
        context.performAndWait { context.reset() }
        let other = newContext(coordinator)
        try other.performAndWait {
            other.delete(other.object(with: ann))
            other.delete(other.object(with: bob))
            try other.save()
        }
        try context.performAndWait {
            let fault = context.object(with: ann) as! Employee
            XCTAssertNil(fault.firstName)
            XCTAssertEqual(fault.salary, 0)
            XCTAssertTrue(fault.isDeleted)
            XCTAssertFalse(context.deletedObjects.contains(fault), "nothing for the store to delete")
            try context.save()

            context.shouldDeleteInaccessibleFaults = false
            let kept = context.object(with: bob) as! Employee
            XCTAssertNil(kept.firstName)
            XCTAssertFalse(kept.isDeleted)
        }
    }

    /// A subclass decides per fault, and is told which object it is.
    func testASubclassDecidesWhichInaccessibleFaultsToHandle() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, nil)])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: store.model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store.url)
        let context = DecidingContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let ann = try context.performAndWait { try store.employee("Ann", in: context).objectID }
        context.performAndWait { context.reset() }
        let other = newContext(coordinator)
        try other.performAndWait {
            other.delete(other.object(with: ann))
            try other.save()
        }
        context.performAndWait {
            let fault = context.object(with: ann)
            XCTAssertNil(fault.value(forKey: "firstName"))   // fires the fault
            XCTAssertFalse(fault.isDeleted, "the subclass answered false")
            XCTAssertEqual(context.asked, [ann])
        }
    }

    /// `refreshAllObjects()` turns every registered object without changes into a fault; an
    /// object with changes keeps them (CoreDataPlus's investigation test, run against Apple's
    /// framework). `refresh(_:mergeChanges: true)` of an object without changes faults it too.
    func testRefreshAllObjectsTurnsUnchangedObjectsIntoFaults() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let ann = stack.employee("Ann"), bob = stack.employee("Bob")
            try stack.context.save()
            _ = ann.firstName; _ = bob.firstName
            bob.salary = 4242
            stack.context.refreshAllObjects()
            XCTAssertTrue(ann.isFault)
            XCTAssertFalse(bob.isFault)
            XCTAssertEqual(bob.salary, 4242)
            XCTAssertEqual(ann.firstName, "Ann", "the fault fires again")
            stack.context.refresh(ann, mergeChanges: true)
            XCTAssertTrue(ann.isFault)
            XCTAssertEqual(ann.firstName, "Ann")
        }
    }

    /// After the save that removed it, a deleted object is no longer deleted, registered or in
    /// a context: it is a fault of a record that is gone.
    func testASavedDeletionLeavesTheObjectOutsideTheContext() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let ann = stack.employee("Ann")
            try stack.context.save()
            let id = ann.objectID
            stack.context.delete(ann)
            XCTAssertTrue(ann.isDeleted)
            try stack.context.save()
            XCTAssertFalse(ann.isDeleted)
            XCTAssertNil(ann.managedObjectContext)
            XCTAssertNil(stack.context.registeredObject(for: id))
            XCTAssertTrue(ann.isFault)
        }
    }

    /// `prepareForDeletion()` runs when `delete(_:)` is called, and again on a second call.
    func testPrepareForDeletionRunsWhenDeleteIsCalled() throws {
        let stack = TestStack(model: CompanyModel.withHooks())
        try stack.context.performAndWait {
            let hooked = HookedObject.make(in: stack.context)
            try stack.context.save()
            hooked.events.removeAll()
            stack.context.delete(hooked)
            XCTAssertEqual(hooked.events, ["prepareForDeletion"], "before the event ends")
            stack.context.delete(hooked)
            XCTAssertEqual(hooked.events, ["prepareForDeletion", "prepareForDeletion"])
            stack.context.processPendingChanges()
            XCTAssertEqual(hooked.events.filter { $0 == "prepareForDeletion" }.count, 2, "not again when delete rules run")
        }
    }
}

final class StateRecordingDepartment: NSManagedObject {
    var states: [(hook: String, state: Int)] = []
    override func awakeFromFetch() { states.append(("awakeFromFetch", faultingState)) }
    override func willTurnIntoFault() { states.append(("willTurnIntoFault", faultingState)) }
    override func didTurnIntoFault() { states.append(("didTurnIntoFault", faultingState)) }
}

final class DecidingContext: NSManagedObjectContext, @unchecked Sendable {
    var asked: [NSManagedObjectID] = []
    override func shouldHandleInaccessibleFault(_ fault: NSManagedObject, for oid: NSManagedObjectID, triggeredByProperty property: NSPropertyDescription?) -> Bool {
        asked.append(oid)
        return false
    }
}
