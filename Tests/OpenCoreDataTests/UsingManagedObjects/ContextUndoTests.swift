import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Undo and redo in a context ("Undo Management"): attributes, relationships, transient
/// properties, inserts and deletes, grouped per event.
final class ContextUndoTests: XCTestCase {
    func testUndoAndRedoAnAttributeChange() throws {
        let stack = TestStack(undo: true)
        try stack.context.performAndWait {
            let e = stack.employee("Fiona")
            try stack.context.save()
            stack.context.undoManager!.removeAllActions()
            e.firstName = "Fi"
            stack.context.processPendingChanges()
            XCTAssertTrue(stack.context.undoManager!.canUndo)
            stack.context.undoManager!.undo()
            XCTAssertEqual(e.firstName, "Fiona")
            stack.context.undoManager!.redo()
            XCTAssertEqual(e.firstName, "Fi")
        }
    }

    /// `undo()` and `redo()` on the context go to its undo manager, as Apple's do; without one
    /// they do nothing.
    func testTheContextsUndoAndRedoUseItsUndoManager() throws {
        let stack = TestStack(undo: true)
        try stack.context.performAndWait {
            let e = stack.employee("Fiona")
            try stack.context.save()
            stack.context.undoManager!.removeAllActions()
            e.firstName = "Fi"
            stack.context.processPendingChanges()
            stack.context.undo()
            XCTAssertEqual(e.firstName, "Fiona")
            stack.context.redo()
            XCTAssertEqual(e.firstName, "Fi")
            stack.context.undoManager = nil
            e.firstName = "F"
            stack.context.undo()
            XCTAssertEqual(e.firstName, "F")
        }
    }

    func testUndoCoversTransientProperties() throws {
        let stack = TestStack(undo: true)
        try stack.context.performAndWait {
            let e = stack.employee("T")
            try stack.context.save()
            stack.context.processPendingChanges()
            e.isSelected = true
            stack.context.processPendingChanges()
            stack.context.undoManager!.undo()
            XCTAssertFalse(e.isSelected, "transient values are undone too")
            stack.context.undoManager!.redo()
            XCTAssertTrue(e.isSelected)
        }
    }

    func testUndoARelationshipChangeRestoresBothSides() throws {
        let stack = TestStack(undo: true)
        try stack.context.performAndWait {
            let a = stack.department("A"), b = stack.department("B"), e = stack.employee("E")
            e.department = a
            try stack.context.save()
            stack.context.processPendingChanges()
            b.mutableSetValue(forKey: "employees").add(e)
            stack.context.processPendingChanges()
            XCTAssertTrue(e.department === b)
            stack.context.undoManager!.undo()
            XCTAssertTrue(e.department === a)
            XCTAssertEqual(a.employees, [e])
            XCTAssertEqual(b.employees, [])
        }
    }

    func testUndoInsertAndDelete() throws {
        let stack = TestStack(undo: true)
        try stack.context.performAndWait {
            let d = stack.department("D")
            stack.context.processPendingChanges()
            stack.context.undoManager!.undo()
            XCTAssertFalse(stack.context.insertedObjects.contains(d), "undoing an insert removes the object")
            stack.context.undoManager!.redo()
            XCTAssertTrue(stack.context.insertedObjects.contains(d))
            try stack.context.save()

            let e = stack.employee("E")
            e.department = d
            try stack.context.save()
            stack.context.processPendingChanges()
            stack.context.delete(e)
            stack.context.processPendingChanges()
            XCTAssertEqual(d.employees, [])
            stack.context.undoManager!.undo()
            XCTAssertFalse(e.isDeleted)
            XCTAssertEqual(d.employees, [e], "the nullified inverse comes back with the undone delete")
        }
    }

    func testChangesInOneEventUndoTogether() throws {
        let stack = TestStack(undo: true)
        try stack.context.performAndWait {
            let e = stack.employee("E", salary: 1)
            try stack.context.save()
            stack.context.processPendingChanges()
            e.salary = 2
            e.firstName = "F"
            stack.context.processPendingChanges()   // one event, one undo group
            e.salary = 3
            stack.context.processPendingChanges()
            stack.context.undoManager!.undo()
            XCTAssertEqual(e.salary, 2)
            XCTAssertEqual(e.firstName, "F")
            stack.context.undoManager!.undo()
            XCTAssertEqual(e.salary, 1)
            XCTAssertEqual(e.firstName, "E")
        }
    }

    func testRollbackRestoresSavedValuesAndClearsTheUndoStack() throws {
        let stack = TestStack(undo: true)
        try stack.context.performAndWait {
            let d = stack.department("D"), e = stack.employee("E")
            e.department = d
            try stack.context.save()
            e.firstName = "Changed"
            e.department = nil
            let extra = stack.employee("Extra")
            stack.context.rollback()
            XCTAssertEqual(e.firstName, "E")
            XCTAssertTrue(e.department === d)
            XCTAssertEqual(d.employees, [e])
            XCTAssertNil(extra.managedObjectContext)
            XCTAssertFalse(stack.context.hasChanges)
            XCTAssertFalse(stack.context.undoManager!.canUndo)
        }
    }

    func testDisabledRegistrationRecordsNothing() throws {
        let stack = TestStack(undo: true)
        try stack.context.performAndWait {
            let e = stack.employee("E")
            try stack.context.save()
            stack.context.processPendingChanges()
            stack.context.undoManager!.removeAllActions()
            stack.context.undoManager!.disableUndoRegistration()
            e.salary = 99
            stack.context.processPendingChanges()
            stack.context.undoManager!.enableUndoRegistration()
            XCTAssertFalse(stack.context.undoManager!.canUndo)
            XCTAssertEqual(e.salary, 99)
        }
    }
}
