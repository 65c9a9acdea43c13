import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The four delete rules ("Relationship Delete Rules").
final class DeleteRuleTests: XCTestCase {
    func testNullifyRemovesTheDeletedObjectFromTheInverse() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let d = stack.department("D"), e = stack.employee("E")
            e.department = d
            try stack.context.save()
            stack.context.delete(e)               // Employee.department: Nullify
            stack.context.processPendingChanges()
            XCTAssertEqual(d.employees, [])
            try stack.context.save()
            XCTAssertEqual(d.employees.count, 0)
        }
    }

    func testCascadeDeletesTheRelatedObjects() throws {
        let stack = TestStack(model: CompanyModel.make(departmentEmployeesRule: .cascadeDeleteRule))
        try stack.context.performAndWait {
            let d = stack.department("D"), a = stack.employee("A"), b = stack.employee("B")
            d.employees = [a, b]
            let badge = Badge(context: stack.context)
            a.badge = badge                        // Employee.badge: Cascade, one level further
            try stack.context.save()
            stack.context.delete(d)
            try stack.context.save()
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 0)
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<Badge>(entityName: "Badge")), 0)
        }
    }

    func testDenyFailsTheSaveWhileRelatedObjectsExist() throws {
        let stack = TestStack(model: CompanyModel.make(departmentEmployeesRule: .denyDeleteRule))
        try stack.context.performAndWait {
            let d = stack.department("D"), e = stack.employee("E")
            e.department = d
            try stack.context.save()
            stack.context.delete(d)
            XCTAssertThrowsError(try stack.context.save()) { error in
                XCTAssertEqual((error as NSError).code, NSValidationRelationshipDeniedDeleteError)
                XCTAssertEqual((error as NSError).userInfo[NSValidationKeyErrorKey] as? String, "employees")
            }
            stack.context.rollback()
            XCTAssertFalse(d.isDeleted)
            e.department = nil
            stack.context.delete(d)
            XCTAssertNoThrow(try stack.context.save(), "Deny allows the delete once the relationship is empty")
        }
    }

    func testNoActionLeavesTheInversePointingAtTheDeletedObject() throws {
        let stack = TestStack(model: CompanyModel.make(departmentEmployeesRule: .noActionDeleteRule))
        try stack.context.performAndWait {
            let d = stack.department("D"), e = stack.employee("E")
            e.department = d
            try stack.context.save()
            stack.context.delete(d)
            stack.context.processPendingChanges()
            XCTAssertTrue(e.department === d, "No Action: the employee still points at the deleted department")
            XCTAssertFalse(e.isUpdated)
        }
    }

    func testDeletingANewObjectDropsItWithoutReachingTheStore() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let d = stack.department("D")
            let e = stack.employee("New")
            e.department = d
            stack.context.delete(e)
            stack.context.processPendingChanges()
            XCTAssertFalse(stack.context.insertedObjects.contains(e))
            XCTAssertFalse(stack.context.deletedObjects.contains(e))
            XCTAssertEqual(d.employees, [], "the delete rule ran before the object was dropped")
            try stack.context.save()
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 0)
        }
    }

    /// With `propagatesDeletesAtEndOfEvent` false the delete rules wait for the save: the end
    /// of the event leaves related objects alone, the save cascades.
    func testDeletesPropagateAtSaveWhenNotAtTheEndOfEachEvent() throws {
        let stack = TestStack(model: CompanyModel.make(departmentEmployeesRule: .cascadeDeleteRule))
        try stack.context.performAndWait {
            XCTAssertTrue(stack.context.propagatesDeletesAtEndOfEvent)
            let d = stack.department("D"), e = stack.employee("E")
            e.department = d
            try stack.context.save()
            stack.context.propagatesDeletesAtEndOfEvent = false
            stack.context.delete(d)
            stack.context.processPendingChanges()
            XCTAssertFalse(e.isDeleted, "not at the end of the event")
            XCTAssertEqual(e.department, d)
            try stack.context.save()
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 0, "the save cascaded")

            // With the default, the end of the event cascades.
            stack.context.propagatesDeletesAtEndOfEvent = true
            let d2 = stack.department("D2"), e2 = stack.employee("E2")
            e2.department = d2
            try stack.context.save()
            stack.context.delete(d2)
            stack.context.processPendingChanges()
            XCTAssertTrue(e2.isDeleted)
        }
    }
}
