import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Key-value coding on managed objects ("Using Managed Objects": accessors and KVC).
final class KeyValueCodingTests: XCTestCase {
    func testValueForKeyReturnsFoundationTypes() {
        let stack = TestStack()
        stack.context.performAndWait {
            let e = stack.employee("Fiona", salary: 5000)
            XCTAssertEqual(e.value(forKey: "firstName") as? String, "Fiona")
            XCTAssertEqual(e.value(forKey: "salary") as? Int, 5000)
            XCTAssertEqual(e.value(forKey: "salary") as? Int64, 5000)
            XCTAssertEqual(e.value(forKey: "salary") as? Double, 5000)
            XCTAssertNil(e.value(forKey: "lastName"))
            XCTAssertEqual(e.value(forKey: "isSelected") as? Bool, false)
            e.setValue(NSNumber(value: 42), forKey: "salary")
            XCTAssertEqual(e.salary, 42)
            e.setValue(nil, forKey: "firstName")
            XCTAssertNil(e.firstName)
        }
    }

    func testUnknownKeyThrowsFromCheckedValue() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Fiona")
            XCTAssertThrowsError(try e.checkedValue(forKey: "salry")) { error in
                XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
                XCTAssertTrue((error as NSError).localizedDescription.contains("salry"))
            }
            XCTAssertThrowsError(try { var v: Any? = 1; try e.validateValue(&v, forKey: "nope") }())
        }
    }

    func testKeyPathsThroughRelationshipsAndCollectionOperators() {
        let stack = TestStack()
        stack.context.performAndWait {
            let d = stack.department("Sales")
            for (name, salary) in [("A", 100), ("B", 200), ("C", 600), ("D", 200)] {
                stack.employee(name, salary: Int64(salary)).department = d
            }
            let any = d.employees.first!
            XCTAssertEqual(any.value(forKeyPath: "department.name") as? String, "Sales")
            XCTAssertEqual((d.value(forKeyPath: "employees.@count") as? NSNumber)?.intValue, 4)
            XCTAssertEqual((d.value(forKeyPath: "employees.@sum.salary") as? NSNumber)?.intValue, 1100)
            XCTAssertEqual((d.value(forKeyPath: "employees.@avg.salary") as? NSNumber)?.doubleValue, 275)
            XCTAssertEqual((d.value(forKeyPath: "employees.@max.salary") as? NSNumber)?.intValue, 600)
            XCTAssertEqual((d.value(forKeyPath: "employees.@min.salary") as? NSNumber)?.intValue, 100)
            let distinct = d.value(forKeyPath: "employees.@distinctUnionOfObjects.salary") as? [Any]
            XCTAssertEqual(distinct?.count, 3)

            any.setValue("Marketing", forKeyPath: "department.name")
            XCTAssertEqual(d.name, "Marketing")
            d.setValue(Int64(7), forKeyPath: "employees.salary")
            XCTAssertTrue(d.employees.allSatisfy { $0.salary == 7 })
        }
    }

    func testPrimitiveAccessorsDoNotMaintainInverses() {
        let stack = TestStack()
        stack.context.performAndWait {
            let d = stack.department("D"), e = stack.employee("E")
            e.setPrimitiveValue(d, forKey: "department")
            XCTAssertTrue(e.primitiveValue(forKey: "department") as? Department === d)
            XCTAssertEqual(d.employees, [], "primitive setters leave the inverse alone")
            e.setPrimitiveValue("Zed", forKey: "firstName")
            XCTAssertEqual(e.primitiveValue(forKey: "firstName") as? String, "Zed")
        }
    }

    func testManagedPropertyWrapperReadsAndWritesTypedStorage() {
        let stack = TestStack()
        stack.context.performAndWait {
            let e = stack.employee("Typed", salary: 12)
            e.salary += 30
            XCTAssertEqual(e.salary, 42)
            XCTAssertEqual(e.value(forKey: "salary") as? Int, 42, "the wrapper and KVC share one storage")
            e.email = "a@b.c"
            XCTAssertEqual(e.value(forKey: "email") as? String, "a@b.c")
            e.email = nil
            XCTAssertNil(e.email)
            XCTAssertEqual(e.startDate, Date(timeIntervalSinceReferenceDate: 0), "set in awakeFromInsert")
        }
    }

    func testManagedWithAnExplicitKeyMapsToThatProperty() throws {
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Aliased", className: "OpenCoreDataTests.Aliased", properties: [
            NSAttributeDescription(name: "firstName", type: .stringAttributeType),
            NSAttributeDescription(name: "age", type: .integer16AttributeType, defaultValue: 0),
        ])]
        let stack = TestStack(model: model)
        try stack.context.performAndWait {
            let a = Aliased(context: stack.context)
            a.givenName = "Zoe"
            a.age = 30
            XCTAssertEqual(a.value(forKey: "firstName") as? String, "Zoe", "@Managed(\"firstName\") writes the firstName property")
            a.setValue("Ann", forKey: "firstName")
            XCTAssertEqual(a.givenName, "Ann")
            XCTAssertEqual(a.age, 30)
            try stack.context.save()
        }
    }

    func testWrongTypeIsAcceptedAndRejectedAtSave() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Wrong")
            e.setValue("not a number", forKey: "salary")   // Apple accepts this and fails at save
            XCTAssertEqual(e.value(forKey: "salary") as? String, "not a number")
            XCTAssertThrowsError(try stack.context.save()) { error in
                XCTAssertEqual((error as NSError).code, NSManagedObjectValidationError)
                XCTAssertEqual((error as NSError).userInfo[NSValidationKeyErrorKey] as? String, "salary")
            }
        }
    }

    /// Several properties at once, and one by name through the subscript, with the change
    /// tracking of `setValue(_:forKey:)`; nil travels as `NSNull` both ways.
    func testSeveralValuesAtOnceAndOneBySubscript() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Fiona", salary: 10)
            try stack.context.save()
            e.setValuesForKeys(["firstName": "Fay", "salary": 20, "lastName": NSNull()])
            XCTAssertEqual(e.firstName, "Fay")
            XCTAssertEqual(e.salary, 20)
            XCTAssertNil(e.lastName)
            XCTAssertTrue(e.isUpdated)
            let values = e.dictionaryWithValues(forKeys: ["firstName", "salary", "email"])
            XCTAssertEqual(values["firstName"] as? String, "Fay")
            XCTAssertEqual(values["salary"] as? Int, 20)
            XCTAssertTrue(values["email"] is NSNull, "nil is reported as NSNull")
            XCTAssertEqual(values.count, 3)
            e["lastName"] = "Smith"
            XCTAssertEqual(e.lastName, "Smith")
            XCTAssertEqual(e["lastName"] as? String, "Smith")
            XCTAssertEqual(Set(e.changedValues().keys), ["firstName", "salary", "lastName"])
        }
    }

    /// Objects are `Identifiable` by their identity: two objects are two ids, one object keeps
    /// its id when its object ID becomes permanent.
    func testManagedObjectsAreIdentifiableByTheirIdentity() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let a = stack.employee("A"), b = stack.employee("B")
            XCTAssertNotEqual(a.id, b.id)
            let before = a.id
            try stack.context.save()
            XCTAssertEqual(a.id, before)
            XCTAssertEqual(a.id, ObjectIdentifier(a))
        }
    }

    /// Hand-written accessors in Apple's pattern — change notifications around a primitive
    /// write, set-mutation notifications around a to-many change — record their changes (the
    /// notifications themselves do nothing: there is no key-value observing to inform).
    func testHandWrittenAccessorsInApplesPatternRecordTheirChanges() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let d = stack.department("Ops")
            let e = stack.employee("Fiona")
            try stack.context.save()
            e.willChangeValue(forKey: "lastName")
            e.setPrimitiveValue("Smith", forKey: "lastName")
            e.didChangeValue(forKey: "lastName")
            d.willChangeValue(forKey: "employees", withSetMutation: .union, using: [AnyHashable(e)])
            d.mutableSetValue(forKey: "employees").add(e)
            d.didChangeValue(forKey: "employees", withSetMutation: .union, using: [AnyHashable(e)])
            XCTAssertTrue(e.isUpdated)
            XCTAssertTrue(e.department === d, "the inverse follows")
            try stack.context.save()
            stack.context.refreshAllObjects()
            XCTAssertEqual(e.lastName, "Smith")
            XCTAssertEqual(d.employees.count, 1)
            XCTAssertEqual(NSKeyValueSetMutationKind.union.rawValue, 1)
            XCTAssertEqual(NSKeyValueSetMutationKind.set.rawValue, 4)
        }
    }
}

/// A subclass whose Swift property names differ from the model's: `@Managed("key")`.
final class Aliased: NSManagedObject {
    @Managed("firstName") var givenName: String?
    @Managed var age: Int16
}
