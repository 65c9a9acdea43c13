import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Values of fetched objects that are read, then changed, rolled back, refreshed or left behind
/// by a reset. (OpenCoreData keeps an unchanged fetched object's values in the row the store
/// returned and copies them only on the first change; these tests pin down that the copy is
/// invisible.) Only Apple's API.
final class FetchedObjectValueTests: XCTestCase {
    private func fetchAll(_ context: NSManagedObjectContext) throws -> [Employee] {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.returnsObjectsAsFaults = false
        request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]
        return try context.fetch(request)
    }

    func testChangingOneValueLeavesTheOthersAndTheCommittedValues() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer"), ("Bob", 2000, "Baker")])
        let (_, context) = try store.open()
        try context.performAndWait {
            let people = try fetchAll(context)
            let ann = people[0]
            XCTAssertEqual(ann.firstName, "Ann")
            XCTAssertTrue(ann.changedValues().isEmpty)

            ann.salary = 1500
            XCTAssertEqual(ann.salary, 1500)
            XCTAssertEqual(ann.firstName, "Ann", "the other values are unchanged")
            XCTAssertEqual(ann.lastName, "Archer")
            XCTAssertEqual(ann.changedValues().keys.sorted(), ["salary"])
            XCTAssertEqual((ann.committedValues(forKeys: ["salary"])["salary"] as? NSNumber)?.int64Value, 1000,
                           "the committed value is the stored one")
            XCTAssertEqual(people[1].salary, 2000, "another object of the same fetch is untouched")

            context.rollback()
            XCTAssertEqual(ann.salary, 1000)
            XCTAssertEqual(ann.firstName, "Ann")
            XCTAssertFalse(ann.hasChanges)
        }
    }

    func testSavingAChangedObjectMakesItsValuesTheCommittedOnes() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer")])
        let (_, context) = try store.open()
        try context.performAndWait {
            let ann = try fetchAll(context)[0]
            ann.lastName = "Arden"
            try context.save()
            XCTAssertEqual(ann.committedValues(forKeys: ["lastName"])["lastName"] as? String, "Arden")
            XCTAssertEqual(ann.firstName, "Ann")
            ann.salary = 10
            context.rollback()
            XCTAssertEqual(ann.lastName, "Arden", "rollback returns to the saved values, not the fetched ones")
            XCTAssertEqual(ann.salary, 1000)
        }
        XCTAssertEqual(try store.sql("SELECT ZLASTNAME FROM ZEMPLOYEE"), [["Arden"]])
    }

    func testRefreshOfAnUnchangedObjectTakesTheStoresNewValues() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer")])
        let (coordinator, context) = try store.open()
        try context.performAndWait {
            let ann = try fetchAll(context)[0]
            XCTAssertEqual(ann.salary, 1000)
            let other = newContext(coordinator)
            try other.performAndWait {
                try fetchAll(other)[0].salary = 3000
                try other.save()
            }
            context.refresh(ann, mergeChanges: true)
            XCTAssertEqual(ann.salary, 3000)
            XCTAssertEqual(ann.firstName, "Ann")
            XCTAssertFalse(ann.hasChanges)
        }
    }

    func testRelationshipsOfAFetchedObjectReadAndChange() throws {
        let store = try TemporaryCompanyStore()
        let (_, context) = try store.open()
        try context.performAndWait {
            let d = Department(context: context)
            d.name = "R&D"
            let e = Employee(context: context)
            e.firstName = "Ann"
            e.department = d
            try context.save()
            context.reset()

            let ann = try fetchAll(context)[0]
            XCTAssertEqual(ann.department?.name, "R&D")
            XCTAssertEqual(ann.firstName, "Ann", "reading the relationship keeps the attribute values")
            ann.department = nil
            XCTAssertNil(ann.department)
            XCTAssertEqual(ann.changedValues().keys.sorted(), ["department"])
        }
    }

    func testAnObjectLeftBehindByResetStillReadsItsLastValues() throws {
        let store = try TemporaryCompanyStore()
        try store.seed([("Ann", 1000, "Archer")])
        let (_, context) = try store.open()
        try context.performAndWait {
            let ann = try fetchAll(context)[0]
            context.reset()
            XCTAssertNil(ann.managedObjectContext)
            XCTAssertEqual(ann.firstName, "Ann")
            XCTAssertEqual(ann.salary, 1000)
        }
    }
}
