import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// NSBatchDeleteRequest (Core Data Batch Programming Guide, "Implementing Batch Deletes"):
/// records go from the store without a context; contexts see it when they merge the IDs;
/// relationships follow their delete rules. Every check runs on a SQLite store in a file and one at
/// `/dev/null` (in memory) and reads the outcome from a fresh context.
final class BatchDeleteRequestTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-batch-delete")
    }

    private func stacks(_ model: NSManagedObjectModel = CompanyModel.make()) throws -> [TestStack] {
        try sqliteFileAndMemoryStacks(model, in: directory)
    }

    private func names(_ stack: TestStack, _ entity: String = "Employee", key: String = "firstName") throws -> [String] {
        let context = stack.newContext()
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
            return try context.fetch(request).map { $0.value(forKey: key) as? String ?? "?" }
        }
    }

    private func seedEmployees(_ stack: TestStack, _ salaries: [(String, Int64)]) throws {
        try stack.context.performAndWait {
            for (name, salary) in salaries { _ = stack.employee(name, salary: salary) }
            try stack.context.save()
        }
    }

    private func employeesFetch(_ format: String? = nil) -> NSFetchRequest<NSFetchRequestResult> {
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
        fetch.predicate = format.map { NSPredicate(format: $0) }
        return fetch
    }

    func testDeletesTheRecordsAFetchRequestMatches() throws {
        for stack in try stacks() {
            try seedEmployees(stack, [("Ann", 100), ("Bob", 200), ("Cy", 300), ("Di", 400)])
            let result = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: employeesFetch("salary >= 250"))) }
            let delete = try XCTUnwrap(result as? NSBatchDeleteResult)
            XCTAssertEqual(delete.resultType, .resultTypeStatusOnly)
            XCTAssertEqual(delete.result as? Bool, true)
            XCTAssertEqual(try names(stack), ["Ann", "Bob"])
        }
    }

    func testResultTypesGiveStatusCountOrObjectIDs() throws {
        for stack in try stacks() {
            try seedEmployees(stack, [("Ann", 100), ("Bob", 200), ("Cy", 300)])
            let ids = try stack.context.performAndWait { try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).filter { $0.salary >= 200 }.map(\.objectID) }

            let byID = NSBatchDeleteRequest(fetchRequest: employeesFetch("salary >= 200"))
            byID.resultType = .resultTypeObjectIDs
            let deleted = try stack.context.performAndWait { try stack.context.execute(byID) as? NSBatchDeleteResult }
            XCTAssertEqual(Set(deleted?.result as? [NSManagedObjectID] ?? []), Set(ids))

            let counting = NSBatchDeleteRequest(fetchRequest: employeesFetch())
            counting.resultType = .resultTypeCount
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(counting) as? NSBatchDeleteResult }?.result as? Int, 1)

            let nothing = NSBatchDeleteRequest(fetchRequest: employeesFetch())
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(nothing) as? NSBatchDeleteResult }?.result as? Bool, true,
                           "as in Apple's store, the status is true when the request ran, even if it deleted nothing")
            nothing.resultType = .resultTypeCount
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(nothing) as? NSBatchDeleteResult }?.result as? Int, 0)
        }
    }

    func testFetchLimitAndSortDescriptorsChooseTheRecords() throws {
        for stack in try stacks() {
            try seedEmployees(stack, [("Ann", 400), ("Bob", 100), ("Cy", 300), ("Di", 200)])
            let fetch = employeesFetch()
            fetch.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]
            fetch.fetchLimit = 2
            _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: fetch)) }
            XCTAssertEqual(try names(stack), ["Ann", "Cy"])
        }
    }

    func testAPredicateTheStoreCannotTranslateStillSelectsExactly() throws {
        for stack in try stacks() {
            try seedEmployees(stack, [("Ann", 100), ("Bob", 200), ("Cy", 300)])
            let fetch = employeesFetch()
            fetch.predicate = NSPredicate { object, _ in ((object as? NSManagedObject)?.value(forKey: "firstName") as? String)?.hasPrefix("B") == true }
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            request.resultType = .resultTypeCount
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchDeleteResult }?.result as? Int, 1)
            XCTAssertEqual(try names(stack), ["Ann", "Cy"])
            XCTAssertTrue(stack.context.performAndWait { stack.context.registeredObjects.isEmpty }, "the executing context registers nothing")
        }
    }

    func testSubentitiesAreDeletedUnlessExcluded() throws {
        for stack in try stacks() {
            try stack.saveEmployeeAndManager()
            let fetch = employeesFetch()
            fetch.includesSubentities = false
            _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: fetch)) }
            XCTAssertEqual(try names(stack), ["Max"])
            _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: employeesFetch())) }
            XCTAssertEqual(try names(stack), [])
        }
    }

    func testObjectIDsOfOneInheritanceHierarchyAreDeleted() throws {
        for stack in try stacks() {
            try seedEmployees(stack, [("Ann", 100), ("Bob", 200)])
            try stack.context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Manager", into: stack.context).setValue("Cy", forKey: "firstName")
                try stack.context.save()
            }
            let ids = try stack.context.performAndWait { try stack.context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).filter { $0.firstName != "Bob" }.map(\.objectID) }
            let request = NSBatchDeleteRequest(objectIDs: ids)
            request.resultType = .resultTypeCount
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchDeleteResult }?.result as? Int, 2)
            XCTAssertEqual(try names(stack), ["Bob"])
        }
    }

    func testObjectIDsOfSeveralEntitiesNoIDsOrUnsavedObjectsAreRefused() throws {
        for stack in try stacks() {
            let (employee, department, unsaved): (NSManagedObjectID, NSManagedObjectID, NSManagedObjectID) = try stack.context.performAndWait {
                let e = stack.employee("Ann"), d = stack.department("Sales")
                try stack.context.save()
                return (e.objectID, d.objectID, stack.employee("New").objectID)
            }
            let mixed = thrownError { _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(objectIDs: [employee, department])) } }
            XCTAssertEqual(mixed?.domain, NSCocoaErrorDomain)
            XCTAssertEqual(mixed?.code, NSPersistentStoreOperationError)
            let temporary = thrownError { _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(objectIDs: [unsaved])) } }
            XCTAssertEqual(temporary?.code, NSPersistentStoreOperationError)
            let none = thrownError { _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(objectIDs: [])) } }
            XCTAssertEqual(none?.code, NSPersistentStoreOperationError)
            XCTAssertEqual(try names(stack), ["Ann"], "a refused request deletes nothing")
        }
    }

    func testContextsSeeTheDeletionWhenTheyMergeTheIDs() throws {
        for stack in try stacks() {
            try seedEmployees(stack, [("Ann", 100), ("Bob", 200)])
            let viewer = stack.newContext()
            let bob = try viewer.performAndWait { try XCTUnwrap(viewer.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first { $0.firstName == "Bob" }) }
            let request = NSBatchDeleteRequest(fetchRequest: employeesFetch("firstName == 'Bob'"))
            request.resultType = .resultTypeObjectIDs
            let ids = try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchDeleteResult }?.result as? [NSManagedObjectID] ?? []
            viewer.performAndWait {
                XCTAssertFalse(bob.isDeleted, "a batch delete does not reach contexts by itself")
                XCTAssertEqual(bob.firstName, "Bob")
            }
            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [viewer])
            viewer.performAndWait {
                XCTAssertTrue(bob.isDeleted, "merged: the object is deleted here too (it stays registered, as after Apple's merge)")
                XCTAssertEqual(try? viewer.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 1)
            }
        }
    }

    func testNullifyClearsTheInverseOfRecordsThatStay() throws {
        for stack in try stacks() {
            try stack.context.performAndWait {
                let sales = stack.department("Sales")
                stack.employee("Ann").department = sales
                stack.employee("Bob").department = sales
                try stack.context.save()
            }
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Department")
            _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: fetch)) }
            let check = stack.newContext()
            try check.performAndWait {
                let employees = try check.fetch(NSFetchRequest<Employee>(entityName: "Employee"))
                XCTAssertEqual(employees.count, 2)
                XCTAssertTrue(employees.allSatisfy { $0.department == nil })
            }
        }
    }

    func testCascadeDeletesWhatTheRecordsReachRecursively() throws {
        for stack in try stacks() {
            try stack.context.performAndWait {
                let project = NSEntityDescription.insertNewObject(forEntityName: "Project", into: stack.context) as! Project
                project.title = "Apollo"
                for title in ["design", "build"] {
                    let milestone = NSEntityDescription.insertNewObject(forEntityName: "Milestone", into: stack.context) as! Milestone
                    milestone.title = title
                    milestone.project = project
                }
                let ann = stack.employee("Ann")
                ann.projects = [project]
                let badge = NSEntityDescription.insertNewObject(forEntityName: "Badge", into: stack.context) as! Badge
                badge.code = "A1"
                ann.badge = badge
                try stack.context.save()
            }
            let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Project"))
            request.resultType = .resultTypeCount
            XCTAssertEqual(try stack.context.performAndWait { try stack.context.execute(request) as? NSBatchDeleteResult }?.result as? Int, 1,
                           "the count is of the records the request selected; cascades are not counted (Apple's sqlite3_changes of its DELETE)")
            XCTAssertEqual(try names(stack, "Milestone", key: "title"), [])
            let check = stack.newContext()
            try check.performAndWait {
                let ann = try XCTUnwrap(check.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first)
                XCTAssertEqual(ann.projects.count, 0, "the many-to-many link went with the project")
            }
            _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: employeesFetch())) }
            XCTAssertEqual(try names(stack, "Badge", key: "code"), [], "the badge went with its owner (cascade)")
        }
    }

    func testADenyRuleWithinReachRefusesTheRequest() throws {
        for stack in try stacks(CompanyModel.make(departmentEmployeesRule: .denyDeleteRule)) {
            try stack.context.performAndWait {
                _ = stack.department("Empty")
                try stack.context.save()
            }
            // As Apple's store: a deny rule is not supported in a batch delete, matching records or not.
            let error = thrownError { _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Department"))) } }
            XCTAssertEqual(error?.code, NSCoreDataError)
            XCTAssertEqual(error?.userInfo["Relationship"] as? String, "Department.employees")
            XCTAssertEqual(try names(stack, "Department", key: "name"), ["Empty"], "nothing was deleted")
            // Employees reach no deny rule: they can go.
            _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: employeesFetch())) }
        }
    }

    func testNullifyingARequiredInverseRefusesTheRequest() throws {
        let owner = NSEntityDescription(name: "Owner"), pet = NSEntityDescription(name: "Pet")
        let pets = NSRelationshipDescription(), petOwner = NSRelationshipDescription()
        pets.name = "pets"; pets.maxCount = 0; pets.deleteRule = .nullifyDeleteRule
        petOwner.name = "owner"; petOwner.maxCount = 1; petOwner.isOptional = false
        pets.destinationEntity = pet; pets.inverseRelationship = petOwner
        petOwner.destinationEntity = owner; petOwner.inverseRelationship = pets
        owner.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), pets]
        pet.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), petOwner]
        let model = NSManagedObjectModel()
        model.entities = [owner, pet]
        for stack in try stacks(model) {
            try stack.context.performAndWait {
                let ann = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: stack.context)
                ann.setValue("Ann", forKey: "name")
                _ = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: stack.context).setValue("Bob", forKey: "name")
                let rex = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: stack.context)
                rex.setValue("Rex", forKey: "name")
                rex.setValue(ann, forKey: "owner")
                try stack.context.save()
            }
            let all = thrownError { _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Owner"))) } }
            XCTAssertEqual(all?.code, NSValidationMissingMandatoryPropertyError, "Rex would be left without its required owner")
            XCTAssertEqual(try names(stack, "Owner", key: "name"), ["Ann", "Bob"])
            let bob = NSFetchRequest<NSFetchRequestResult>(entityName: "Owner")
            bob.predicate = NSPredicate(format: "name == 'Bob'")
            _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: bob)) }
            XCTAssertEqual(try names(stack, "Owner", key: "name"), ["Ann"])
        }
    }

    func testTheInMemoryStoreRefusesBatchRequestsAsApplesDoes() throws {
        let stack = TestStack()
        let error = thrownError { _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: employeesFetch())) } }
        XCTAssertEqual(error?.code, NSPersistentStoreUnsupportedRequestTypeError)
    }

    func testAnUnknownEntityOrAContextWithoutStoresThrows() throws {
        let stack = try stacks()[0]
        let unknown = thrownError { _ = try stack.context.performAndWait { try stack.context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Nope"))) } }
        XCTAssertEqual(unknown?.domain, NSCocoaErrorDomain)
        let bare = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let noCoordinator = thrownError { _ = try bare.performAndWait { try bare.execute(NSBatchDeleteRequest(fetchRequest: employeesFetch())) } }
        XCTAssertEqual(noCoordinator?.code, NSPersistentStoreUnsupportedRequestTypeError)
    }
}
