import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Core Data keeps both sides of every relationship in step ("Relationships and Fetched Properties").
final class RelationshipMaintenanceTests: XCTestCase {
    func testMovingAnEmployeeBetweenDepartmentsThroughMutableSetValue() throws {
        // The seed's example: add the employee to the new department's employees set; Core Data
        // removes it from the old department and updates employee.department.
        let stack = TestStack()
        try stack.context.performAndWait {
            let oldDepartment = stack.department("Engineering"), newDepartment = stack.department("Sales")
            let employee = stack.employee("Fiona")
            employee.department = oldDepartment
            XCTAssertEqual(oldDepartment.employees, [employee])

            newDepartment.mutableSetValue(forKey: "employees").add(employee)

            XCTAssertTrue(employee.department === newDepartment)
            XCTAssertEqual(oldDepartment.employees, [])
            XCTAssertEqual(newDepartment.employees, [employee])
            XCTAssertEqual(newDepartment.mutableSetValue(forKey: "employees").count, 1)
            try stack.context.save()

            newDepartment.mutableSetValue(forKey: "employees").remove(employee)
            XCTAssertNil(employee.department)
        }
    }

    func testSettingToOneUpdatesToManyInverse() {
        let stack = TestStack()
        stack.context.performAndWait {
            let d = stack.department("R&D"), e1 = stack.employee("A"), e2 = stack.employee("B")
            e1.setValue(d, forKey: "department")
            e2.department = d
            XCTAssertEqual(d.value(forKey: "employees") as? Set<NSManagedObject>, [e1, e2])
            e1.department = nil
            XCTAssertEqual(d.employees, [e2])
        }
    }

    func testReplacingToManyUpdatesEveryInverse() {
        let stack = TestStack()
        stack.context.performAndWait {
            let d = stack.department("R&D"), other = stack.department("Ops")
            let a = stack.employee("A"), b = stack.employee("B"), c = stack.employee("C")
            d.employees = [a, b]
            XCTAssertTrue(a.department === d && b.department === d)
            other.setValue(Set([b, c]), forKey: "employees")
            XCTAssertTrue(b.department === other && c.department === other)
            XCTAssertEqual(d.employees, [a], "b moved away from d")
        }
    }

    func testOneToOneStealsTheTargetFromItsPreviousOwner() {
        let stack = TestStack()
        stack.context.performAndWait {
            let a = stack.employee("A"), b = stack.employee("B")
            let badge = Badge(context: stack.context)
            a.badge = badge
            XCTAssertTrue(badge.owner === a)
            b.badge = badge
            XCTAssertTrue(badge.owner === b)
            XCTAssertNil(a.badge, "a one-to-one target has one owner")
            badge.owner = nil
            XCTAssertNil(b.badge)
        }
    }

    func testManyToManyKeepsBothSides() {
        let stack = TestStack()
        stack.context.performAndWait {
            let p1 = Project(context: stack.context), p2 = Project(context: stack.context)
            let a = stack.employee("A"), b = stack.employee("B")
            a.mutableSetValue(forKey: "projects").add(p1)
            a.projects.insert(p2)  // a Set value written back through @Managed
            p1.members.insert(b)
            XCTAssertEqual(p1.members, [a, b])
            XCTAssertEqual(p2.members, [a])
            XCTAssertEqual(b.projects, [p1])
            p1.mutableSetValue(forKey: "members").remove(a)
            XCTAssertEqual(a.projects, [p2])
        }
    }

    func testEditingTheUnorderedSideOfAManyToManyKeepsTheOrderedSidesOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-playlists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PlaylistModel.make())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: folder.appendingPathComponent("Music.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            try PlaylistModel.saveAndEditTheUnorderedSide(in: context)
            context.reset()
            XCTAssertEqual(try PlaylistModel.titlesOfFirst(in: context), ["y", "x", "z"], "the playlist that was not saved keeps its order")
        }
    }

    func testReflexiveRelationship() {
        let stack = TestStack()
        stack.context.performAndWait {
            let boss = stack.employee("Boss"), x = stack.employee("X"), y = stack.employee("Y")
            x.manager = boss
            boss.mutableSetValue(forKey: "directReports").add(y)
            XCTAssertEqual(boss.directReports, [x, y])
            XCTAssertTrue(y.manager === boss)
            y.manager = x
            XCTAssertEqual(boss.directReports, [x])
            XCTAssertEqual(x.directReports, [y])
        }
    }

    func testOrderedRelationshipKeepsOrderAndInverse() {
        let stack = TestStack()
        stack.context.performAndWait {
            let project = Project(context: stack.context)
            let m1 = Milestone(context: stack.context), m2 = Milestone(context: stack.context), m3 = Milestone(context: stack.context)
            let list = project.mutableOrderedSetValue(forKey: "milestones")
            list.add(m1)
            list.add(m3)
            list.insert(m2, at: 1)
            XCTAssertEqual(project.milestones, [m1, m2, m3])
            XCTAssertEqual((project.value(forKey: "milestones") as? NSOrderedSet)?.array.count, 3)
            XCTAssertEqual(list.array.count, 3)
            XCTAssertTrue(m2.project === project)
            list.removeObject(at: 0)
            XCTAssertNil(m1.project)
            XCTAssertEqual(project.milestones, [m2, m3])
            m3.project = nil
            XCTAssertEqual(project.milestones, [m2])
        }
    }

    func testObjectsIDsAndFaultStateOfRelationships() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let d = stack.department("D"), e = stack.employee("E")
            e.department = d
            try stack.context.save()
            XCTAssertEqual(d.objectIDs(forRelationshipNamed: "employees"), [e.objectID])
            XCTAssertFalse(d.hasFault(forRelationshipNamed: "employees"))
        }
        // A second context loads the department; its relationship stays a fault until read.
        let other = stack.newContext()
        try other.performAndWait {
            let request = NSFetchRequest<Department>(entityName: "Department")
            let d = try other.fetch(request)[0]
            XCTAssertTrue(d.hasFault(forRelationshipNamed: "employees"))
            XCTAssertEqual(d.objectIDs(forRelationshipNamed: "employees").count, 1)
            XCTAssertEqual(d.employees.first?.firstName, "E")
            XCTAssertFalse(d.hasFault(forRelationshipNamed: "employees"))
        }
    }
}
