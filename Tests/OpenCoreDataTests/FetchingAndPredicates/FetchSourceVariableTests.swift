import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The variables of fetched properties (`$FETCH_SOURCE`, `$FETCHED_PROPERTY`) in the forms apps
/// write them, and requests named by entity name.
final class FetchSourceVariableTests: XCTestCase {
    /// `%K == $FETCH_SOURCE.%K`: a key path argument may continue a variable's key path.
    func testAKeyPathArgumentContinuesAVariable() throws {
        let predicate = NSPredicate(format: "%K == $FETCH_SOURCE.%K", "name", "department.name")
        XCTAssertEqual(predicate.predicateFormat, "name == $FETCH_SOURCE.department.name")
        let stack = TestStack()
        try stack.context.performAndWait {
            let sales = stack.department("Sales"), ann = stack.employee("Ann")
            ann.department = sales
            let match = Department(context: stack.context)
            match.name = "Sales"
            XCTAssertTrue(predicate.evaluate(with: match, substitutionVariables: ["FETCH_SOURCE": ann]))
            XCTAssertFalse(predicate.evaluate(with: stack.department("Other"), substitutionVariables: ["FETCH_SOURCE": ann]))
        }
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a == $FETCH_SOURCE.%K", argumentArray: ["SELF"]))
    }

    /// A property's `userInfo` is an empty dictionary until set, and `$FETCHED_PROPERTY.userInfo.x`
    /// reads the fetched property's own values.
    func testFetchedPropertyUserInfoIsReadableFromItsPredicate() throws {
        let model = CompanyModel.make()
        XCTAssertEqual(model.entitiesByName["Employee"]!.attributesByName["salary"]!.userInfo?.count, 0)
        let department = model.entitiesByName["Department"]!
        let wellPaid = NSFetchedPropertyDescription()
        wellPaid.name = "wellPaid"
        wellPaid.userInfo = ["threshold": 5000]
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
        request.predicate = NSPredicate(format: "department == $FETCH_SOURCE AND salary > $FETCHED_PROPERTY.userInfo.threshold")
        wellPaid.fetchRequest = request
        department.properties.append(wellPaid)
        let stack = TestStack(model: model)
        try stack.context.performAndWait {
            let sales = stack.department("Sales")
            for (name, salary) in [("Low", 1000), ("High", 9000)] { stack.employee(name, salary: Int64(salary)).department = sales }
            try stack.context.save()
            let found = sales.value(forKey: "wellPaid") as? [NSManagedObject]
            XCTAssertEqual(found?.compactMap { $0.value(forKey: "firstName") as? String }, ["High"])
        }
    }

    /// A request made with an entity name knows its entity once it has been executed.
    func testARequestMadeWithAnEntityNameResolvesItsEntityWhenExecuted() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
            XCTAssertNil(request.entity)
            _ = try stack.context.fetch(request)
            XCTAssertTrue(request.entity === stack.model.entitiesByName["Employee"])
        }
        // Run again with another model of the same names, it fetches that model's entity.
        let other = TestStack()
        try other.context.performAndWait {
            _ = other.employee("Ann")
            try other.context.save()
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
            _ = try stack.context.performAndWait { try stack.context.fetch(request) }
            let found = try other.context.fetch(request) as? [NSManagedObject]
            XCTAssertEqual(found?.first?.entity, other.model.entitiesByName["Employee"])
            XCTAssertEqual(found?.count, 1)
        }
    }
}
