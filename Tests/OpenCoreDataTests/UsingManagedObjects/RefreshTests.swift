import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Refreshing objects ("Using Managed Objects": faults, refreshObject:mergeChanges:, merging with
/// transient properties).
final class RefreshTests: XCTestCase {
    /// The seed's example: "Sarit Smith" is edited in two contexts. Context one renames her Fiona
    /// and saves; context two sets lastName to Jones (cached fullName "Sarit Jones") and refreshes
    /// with merging. firstName takes the store's "Fiona", lastName keeps the local "Jones", and the
    /// transient fullName is put back to its pre-refresh value "Sarit Jones" AFTER awakeFromFetch.
    func testFionaSmithRefreshWithMergeChanges() throws {
        let stack = TestStack(model: SeedPerson.model())
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let p = NSEntityDescription.insertNewObject(forEntityName: "SeedPerson", into: stack.context) as! SeedPerson
            p.firstName = "Sarit"; p.lastName = "Smith"
            try stack.context.save()
            return p.objectID
        }
        let contextOne = stack.newContext(), contextTwo = stack.newContext()
        let inTwo: SeedPerson = try contextTwo.performAndWait { try contextTwo.existingObject(with: id) as! SeedPerson }
        contextTwo.performAndWait { XCTAssertEqual(inTwo.fullName, "Sarit Smith", "computed in awakeFromFetch") }

        try contextOne.performAndWait {
            let p = try contextOne.existingObject(with: id) as! SeedPerson
            p.firstName = "Fiona"
            p.fullName = "Fiona Smith"
            try contextOne.save()
        }
        contextTwo.performAndWait {
            inTwo.lastName = "Jones"
            inTwo.fullName = "Sarit Jones"
            inTwo.log.removeAll()
            contextTwo.refresh(inTwo, mergeChanges: true)
            XCTAssertEqual(inTwo.firstName, "Fiona", "unchanged locally: takes the store's new value")
            XCTAssertEqual(inTwo.lastName, "Jones", "changed locally: keeps the local change")
            XCTAssertEqual(inTwo.fullName, "Sarit Jones", "transient: restored to its pre-refresh value")
            XCTAssertEqual(inTwo.log, ["awakeFromFetch: Fiona Smith"], "awakeFromFetch saw the store's values, then was overridden")
            XCTAssertTrue(inTwo.hasChanges)
        }
        try contextTwo.performAndWait {
            try contextTwo.save()   // the refresh took the store's version: no conflict
        }
    }

    func testRefreshWithoutMergingBreaksReferencesToRelatedObjects() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            weak var weakDepartment: Department?
            let e: Employee = try autoreleasepoolCompat {
                let d = stack.department("D")
                let e = stack.employee("E")
                e.department = d
                try stack.context.save()
                weakDepartment = d
                return e
            }
            _ = e.department               // the employee holds the department strongly
            XCTAssertNotNil(weakDepartment)
            stack.context.refresh(e, mergeChanges: false)
            XCTAssertTrue(e.isFault)
            XCTAssertNil(weakDepartment, "turning the employee into a fault released the department")
            XCTAssertEqual(e.department?.name, "D", "firing the fault loads it again")
        }
    }

    /// Apple documents `refresh(_:mergeChanges: false)` as "the context discards pending changes
    /// and the managed object becomes a fault"; every value of an object not yet saved is a
    /// pending change, and there is no store or cached state to reload. So the object stays
    /// inserted, becomes a fault, and reads as nil once fired; `mergeChanges: true` keeps its
    /// values (they are the local changes applied over nothing). No test suite run against
    /// Apple's framework pins this case down (FreeCoreData's and CoreDataPlus's refresh tests
    /// use saved objects), so this follows the documented wording.
    func testRefreshWithoutMergingDiscardsAnInsertedObjectsValues() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let kept = stack.employee("Kept", salary: 10)
            stack.context.refresh(kept, mergeChanges: true)
            XCTAssertFalse(kept.isFault)
            XCTAssertEqual(kept.firstName, "Kept", "merging keeps the local values of a new object")

            let d = stack.department("D")
            let e = stack.employee("Dropped", salary: 20)
            e.department = d
            stack.context.refresh(e, mergeChanges: false)
            XCTAssertTrue(e.isFault)
            XCTAssertTrue(e.isInserted, "still to be saved")
            XCTAssertTrue(stack.context.insertedObjects.contains(e))
            XCTAssertNil(e.firstName, "the unsaved value is gone: nothing to reload it from")
            XCTAssertNil(e.department)
            XCTAssertFalse(e.isFault)

            e.firstName = "Again"
            XCTAssertEqual(thrownError { try stack.context.save() }?.code, NSValidationMissingMandatoryPropertyError,
                           "the required salary went with the other values")
            e.salary = 30
            try stack.context.save()
            XCTAssertFalse(e.objectID.isTemporaryID)
            XCTAssertEqual(e.firstName, "Again")
        }
    }

    func testRefreshAllObjectsPicksUpChangesSavedElsewhere() throws {
        let stack = TestStack()
        let mine: Employee = try stack.context.performAndWait {
            let e = stack.employee("Old")
            try stack.context.save()
            return e
        }
        let other = stack.newContext()
        try other.performAndWait {
            (try other.existingObject(with: mine.objectID) as! Employee).firstName = "New"
            try other.save()
        }
        stack.context.performAndWait {
            stack.context.refreshAllObjects()
            XCTAssertEqual(mine.firstName, "New")
        }
    }
}

/// The seed's SeedPerson with a transient, cached fullName computed in awakeFromFetch.
final class SeedPerson: NSManagedObject {
    @Managed var firstName: String?
    @Managed var lastName: String?
    @Managed var fullName: String?
    var log: [String] = []

    override func awakeFromFetch() {
        super.awakeFromFetch()
        fullName = "\(firstName ?? "") \(lastName ?? "")"
        log.append("awakeFromFetch: \(fullName!)")
    }

    static func model() -> NSManagedObjectModel {
        let fullName = NSAttributeDescription(name: "fullName", type: .stringAttributeType)
        fullName.isTransient = true
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "SeedPerson", className: "OpenCoreDataTests.SeedPerson", properties: [
            NSAttributeDescription(name: "firstName", type: .stringAttributeType),
            NSAttributeDescription(name: "lastName", type: .stringAttributeType),
            fullName,
        ])]
        return model
    }
}
