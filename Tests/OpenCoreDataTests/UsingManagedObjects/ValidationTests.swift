import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Property-level and inter-property validation, run at save ("Object Validation").
final class ValidationTests: XCTestCase {
    func testMissingMandatoryProperty() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = Employee(context: stack.context)     // firstName is required
            XCTAssertThrowsError(try stack.context.save()) { error in
                let e2 = error as NSError
                XCTAssertEqual(e2.domain, NSCocoaErrorDomain)
                XCTAssertEqual(e2.code, NSValidationMissingMandatoryPropertyError)
                XCTAssertEqual(e2.userInfo[NSValidationKeyErrorKey] as? String, "firstName")
                XCTAssertTrue(e2.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === e)
            }
        }
    }

    func testValidationPredicatesMapToApplesCodes() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Ok")
            var value: Any? = Int64(-1)
            XCTAssertThrowsError(try e.validateValue(&value, forKey: "salary")) { XCTAssertEqual(($0 as NSError).code, NSValidationNumberTooSmallError) }
            value = Int64(2_000_000)
            XCTAssertThrowsError(try e.validateValue(&value, forKey: "salary")) { error in
                XCTAssertEqual((error as NSError).code, NSValidationNumberTooLargeError)
                XCTAssertEqual((error as NSError).localizedDescription, "salary is too large")
                XCTAssertEqual(((error as NSError).userInfo[NSValidationValueErrorKey] as? Int64), 2_000_000)
            }
            value = Int64(500)
            XCTAssertNoThrow(try e.validateValue(&value, forKey: "salary"))
            value = ""
            XCTAssertThrowsError(try e.validateValue(&value, forKey: "firstName")) { XCTAssertEqual(($0 as NSError).code, NSValidationStringTooShortError) }
            value = String(repeating: "x", count: 21)
            XCTAssertThrowsError(try e.validateValue(&value, forKey: "firstName")) { XCTAssertEqual(($0 as NSError).code, NSValidationStringTooLongError) }
            value = "no-at-sign"
            XCTAssertThrowsError(try e.validateValue(&value, forKey: "email")) { XCTAssertEqual(($0 as NSError).code, NSValidationStringPatternMatchingError) }
            value = "a@b.c"
            XCTAssertNoThrow(try e.validateValue(&value, forKey: "email"))
            value = nil
            XCTAssertNoThrow(try e.validateValue(&value, forKey: "email"), "optional attributes accept nil")
        }
    }

    func testSeveralFailuresCombineIntoMultipleErrors() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("", salary: -5)
            e.email = "bad"
            XCTAssertThrowsError(try stack.context.save()) { error in
                XCTAssertEqual((error as NSError).code, NSValidationMultipleErrorsError)
                XCTAssertEqual(validationCodes(error), [NSValidationNumberTooSmallError, NSValidationStringTooShortError, NSValidationStringPatternMatchingError].sorted())
                for detail in (error as NSError).userInfo[NSDetailedErrorsKey] as! [NSError] {
                    XCTAssertNotNil(detail.userInfo[NSValidationKeyErrorKey])
                    XCTAssertNotNil(detail.userInfo[NSValidationObjectErrorKey])
                }
            }
        }
    }

    func testFailedSaveLeavesStoreAndContextUnchanged() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let good = stack.employee("Good")
            let bad = stack.employee("Bad", salary: -1)
            XCTAssertThrowsError(try stack.context.save())
            XCTAssertTrue(good.isInserted && bad.isInserted, "changes are still pending")
            XCTAssertTrue(good.objectID.isTemporaryID)
            let other = stack.newContext()
            try other.performAndWait {
                XCTAssertEqual(try other.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 0, "nothing was half-saved")
            }
            bad.salary = 1
            try stack.context.save()
            try other.performAndWait {
                XCTAssertEqual(try other.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 2)
            }
        }
    }

    func testRelationshipCounts() throws {
        let model = CompanyModel.make()
        let employees = model.entitiesByName["Department"]!.relationshipsByName["employees"]!
        employees.minCount = 1
        employees.maxCount = 2
        employees.isOptional = false
        let stack = TestStack(model: model)
        try stack.context.performAndWait {
            let d = stack.department("D")
            XCTAssertThrowsError(try stack.context.save()) { XCTAssertTrue(validationCodes($0).contains(NSValidationRelationshipLacksMinimumCountError) || validationCodes($0).contains(NSValidationMissingMandatoryPropertyError)) }
            d.employees = [stack.employee("A"), stack.employee("B"), stack.employee("C")]
            XCTAssertThrowsError(try stack.context.save()) { XCTAssertEqual(validationCodes($0), [NSValidationRelationshipExceedsMaximumCountError]) }
            d.employees.removeFirst()
            XCTAssertNoThrow(try stack.context.save())
        }
    }

    func testCustomPerKeyAndInterPropertyValidation() throws {
        try withNewBooking(of: "Booking") { context, b in
            var code: Any? = "lowercase"
            XCTAssertThrowsError(try b.validateValue(&code, forKey: "code")) { XCTAssertEqual(($0 as NSError).code, 42_001) }
            b.setValue("ABC", forKey: "code")
            b.setValue(10, forKey: "start")
            b.setValue(5, forKey: "end")
            XCTAssertThrowsError(try context.save()) { XCTAssertEqual(($0 as NSError).code, 42_002) }
            b.setValue(20, forKey: "end")
            XCTAssertNoThrow(try context.save())
        }
    }

    /// The per-key validator runs at save too, for every property, and sees numbers as
    /// `NSNumber` (so `as? Int` works, as on Apple platforms) even beyond the shared small ones.
    func testPerKeyValidatorRunsAtSaveAndSeesNumbersAsNSNumber() throws {
        try withNewBooking(of: "Booking") { context, b in
            b.setValue("lowercase", forKey: "code")
            XCTAssertThrowsError(try context.save()) { XCTAssertEqual(($0 as NSError).code, 42_001) }
            b.setValue("ABC", forKey: "code")
            b.setValue(1 << 40, forKey: "start")
            b.setValue(1 << 41, forKey: "end")
            XCTAssertThrowsError(try context.save()) { XCTAssertEqual(($0 as NSError).code, 42_003, "start as? Int") }
            b.setValue(7, forKey: "start")
            XCTAssertNoThrow(try context.save())
        }
    }

    /// A subclass overrides the validator and calls `super`: both classes' checks run.
    func testSubclassValidatorAddsToItsSuperclassChecks() throws {
        try withNewBooking(of: "GroupBooking") { context, b in
            XCTAssertTrue(b is GroupBooking)
            var code: Any? = "abc"
            XCTAssertThrowsError(try b.validateValue(&code, forKey: "code")) { XCTAssertEqual(($0 as NSError).code, 42_001) }
            var end: Any? = 0
            XCTAssertThrowsError(try b.validateValue(&end, forKey: "end")) { XCTAssertEqual(($0 as NSError).code, 42_004) }
            b.setValue("ABC", forKey: "code")
            b.setValue(2, forKey: "end")
            XCTAssertNoThrow(try context.save())
        }
    }

    /// A class that doesn't conform has no per-key validator, even with a method of that name.
    func testClassWithoutConformanceHasNoPerKeyValidator() throws {
        try withNewBooking(of: "UncheckedBooking") { context, b in
            XCTAssertTrue(b is UncheckedBooking)
            b.setValue("lowercase", forKey: "code")
            XCTAssertNoThrow(try context.save())
        }
    }

    /// Runs `body` with a new `Booking` object of the test class `className`, in its context.
    private func withNewBooking(of className: String, _ body: (NSManagedObjectContext, NSManagedObject) throws -> Void) throws {
        let stack = TestStack(model: Self.bookingModel(className: "OpenCoreDataTests.\(className)"))
        try stack.context.performAndWait {
            try body(stack.context, NSEntityDescription.insertNewObject(forEntityName: "Booking", into: stack.context))
        }
    }

    static func bookingModel(className: String) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Booking", className: className, properties: [
            NSAttributeDescription(name: "start", type: .integer64AttributeType, defaultValue: 0),
            NSAttributeDescription(name: "end", type: .integer64AttributeType, defaultValue: 0),
            NSAttributeDescription(name: "code", type: .stringAttributeType),
        ])]
        return model
    }

    /// Apple's framework stores a number in a numeric attribute as that attribute's type: an
    /// integer attribute takes the number's integer part, a Boolean any non-zero number as true.
    func testNumbersAreCoercedToTheAttributesNumericType() throws {
        let entity = NSEntityDescription()
        entity.name = "Reading"
        entity.properties = [("i16", NSAttributeType.integer16AttributeType), ("i32", .integer32AttributeType), ("i64", .integer64AttributeType),
                             ("d", .doubleAttributeType), ("f", .floatAttributeType), ("b", .booleanAttributeType), ("dec", .decimalAttributeType)]
            .map { NSAttributeDescription(name: $0.0, type: $0.1) }
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = try makeTemporaryDirectory("ocd-coercion").appendingPathComponent("Readings.sqlite")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = newContext(coordinator)
        try context.performAndWait {
            let r = NSEntityDescription.insertNewObject(forEntityName: "Reading", into: context)
            r.setValue(3.7, forKey: "i64")
            r.setValue(Float(-2.9), forKey: "i32")
            r.setValue(Decimal(string: "12.5")!, forKey: "i16")
            r.setValue(7, forKey: "d")
            r.setValue(0.1, forKey: "f")
            r.setValue(2, forKey: "b")
            r.setValue(1.25, forKey: "dec")
            XCTAssertEqual(r.value(forKey: "i64") as? Int64, 3)
            try context.save()
            context.refresh(r, mergeChanges: false)
            XCTAssertEqual(r.value(forKey: "i64") as? Int64, 3)
            XCTAssertEqual(r.value(forKey: "i32") as? Int32, -2)
            XCTAssertEqual(r.value(forKey: "i16") as? Int16, 12)
            XCTAssertEqual(r.value(forKey: "d") as? Double, 7)
            XCTAssertEqual(r.value(forKey: "f") as? Float, Float(0.1))
            XCTAssertEqual(r.value(forKey: "b") as? Bool, true)
            XCTAssertEqual(r.value(forKey: "dec") as? Decimal, Decimal(string: "1.25"))

            // Coerced, then range-checked as the attribute's type.
            r.setValue(40_000.5, forKey: "i16")
            XCTAssertThrowsError(try context.save()) { XCTAssertEqual(($0 as NSError).code, NSValidationNumberTooLargeError) }
            r.setValue(12, forKey: "i16")
            // What no integer can hold is still a validation error, not a trap.
            for bad in [Double.nan, .infinity, 1e300] {
                r.setValue(bad, forKey: "i64")
                XCTAssertThrowsError(try context.save(), "\(bad)") { XCTAssertEqual(($0 as NSError).code, NSManagedObjectValidationError) }
            }
        }
    }

    func testWrongTypeForAttributeFailsValidationInsteadOfTrapping() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let d = stack.department("D")
            d.setValue(Date(), forKey: "name")
            XCTAssertThrowsError(try stack.context.save()) { XCTAssertEqual(($0 as NSError).code, NSManagedObjectValidationError) }
        }
    }
}

/// Custom validation: `code` must be upper-case and `start` fit in 32 bits (per key), and
/// end ≥ start (inter-property).
class Booking: NSManagedObject, PropertyValueValidating {
    func validate(_ key: String, value: inout Any?) throws {
        if key == "code", let s = value as? String, s != s.uppercased() {
            throw NSError(domain: NSCocoaErrorDomain, code: 42_001, userInfo: [NSLocalizedDescriptionKey: "code must be upper-case"])
        }
        if key == "start", let n = value as? Int, Int32(exactly: n) == nil {
            throw NSError(domain: NSCocoaErrorDomain, code: 42_003, userInfo: [NSLocalizedDescriptionKey: "start must fit in 32 bits"])
        }
    }
    override func validateForInsert() throws {
        try super.validateForInsert()
        let start = value(forKey: "start") as? Int ?? 0, end = value(forKey: "end") as? Int ?? 0
        if end < start { throw NSError(domain: NSCocoaErrorDomain, code: 42_002, userInfo: [NSLocalizedDescriptionKey: "end before start"]) }
    }
}

/// Adds a check of its own to `Booking`'s: `end` must be positive.
final class GroupBooking: Booking {
    override func validate(_ key: String, value: inout Any?) throws {
        try super.validate(key, value: &value)
        if key == "end", let n = value as? Int, n <= 0 {
            throw NSError(domain: NSCocoaErrorDomain, code: 42_004, userInfo: [NSLocalizedDescriptionKey: "end must be positive"])
        }
    }
}

/// Has a method shaped like a validator but doesn't conform to `PropertyValueValidating`.
final class UncheckedBooking: NSManagedObject {
    func validate(_ key: String, value: inout Any?) throws {
        throw NSError(domain: NSCocoaErrorDomain, code: 42_005, userInfo: [NSLocalizedDescriptionKey: "never called"])
    }
}
