import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class CompoundPredicateTests: XCTestCase {
    private let isAdult = NSPredicate(format: "age >= 18")
    private let isAnn = NSPredicate(format: "name == 'Ann'")

    func testAndOrNot() {
        let ann: [String: Any] = ["name": "Ann", "age": 30], kid: [String: Any] = ["name": "Kid", "age": 5]
        let and = NSCompoundPredicate(andPredicateWithSubpredicates: [isAdult, isAnn])
        XCTAssertEqual(and.compoundPredicateType, .and)
        XCTAssertEqual(and.type, .and)
        XCTAssertEqual(and.subpredicates.count, 2)
        XCTAssertTrue(and.evaluate(with: ann))
        XCTAssertFalse(and.evaluate(with: kid))
        let or = NSCompoundPredicate(orPredicateWithSubpredicates: [isAdult, NSPredicate(format: "name == 'Kid'")])
        XCTAssertTrue(or.evaluate(with: kid))
        XCTAssertFalse(or.evaluate(with: ["name": "Bob", "age": 3]))
        let not = NSCompoundPredicate(notPredicateWithSubpredicate: isAdult)
        XCTAssertTrue(not.evaluate(with: kid))
        XCTAssertFalse(not.evaluate(with: ann))
    }

    func testEmptyCompounds() {
        XCTAssertTrue(NSCompoundPredicate(andPredicateWithSubpredicates: []).evaluate(with: nil))
        XCTAssertFalse(NSCompoundPredicate(orPredicateWithSubpredicates: []).evaluate(with: nil))
        XCTAssertEqual(NSCompoundPredicate(andPredicateWithSubpredicates: []).predicateFormat, "TRUEPREDICATE")
        XCTAssertEqual(NSCompoundPredicate(orPredicateWithSubpredicates: []).predicateFormat, "FALSEPREDICATE")
    }

    func testShortCircuitSkipsErrors() throws {
        // The unknown key on the right is never read when the left side decides.
        XCTAssertFalse(try NSPredicate(format: "age < 0 AND bogus == 1").evaluateThrowing(with: ["age": 1] as [String: Any]))
        XCTAssertTrue(try NSPredicate(format: "age > 0 OR bogus == 1").evaluateThrowing(with: ["age": 1] as [String: Any]))
        XCTAssertThrowsError(try NSPredicate(format: "age > 0 AND nmae == 1").evaluateThrowing(with: Person("A", age: 3)))
    }

    func testNestedPrinting() {
        let nested = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSCompoundPredicate(orPredicateWithSubpredicates: [isAdult, isAnn]),
            NSCompoundPredicate(notPredicateWithSubpredicate: isAnn),
        ])
        XCTAssertEqual(nested.predicateFormat, #"(age >= 18 OR name == "Ann") AND (NOT name == "Ann")"#)
        XCTAssertEqual(NSPredicate(format: nested.predicateFormat), nested)
    }

    func testEqualityAndHashing() {
        let a = NSCompoundPredicate(andPredicateWithSubpredicates: [isAdult, isAnn])
        let b = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "age >= 18"), NSPredicate(format: "name == \"Ann\"")])
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hash, b.hash)
        XCTAssertNotEqual(a, NSCompoundPredicate(orPredicateWithSubpredicates: [isAdult, isAnn]))
        XCTAssertNotEqual(a, NSCompoundPredicate(andPredicateWithSubpredicates: [isAnn, isAdult]))
        XCTAssertEqual(Set<NSPredicate>([a, b, isAdult]).count, 2)
    }

    func testComparisonPredicateInitializer() {
        let p = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "name"), rightExpression: NSExpression(forConstantValue: "an"),
                                      modifier: .direct, type: .beginsWith, options: [.caseInsensitive])
        XCTAssertEqual(p.predicateFormat, #"name BEGINSWITH[c] "an""#)
        XCTAssertTrue(p.evaluate(with: ["name": "Annie"]))
        XCTAssertFalse(p.evaluate(with: ["name": "Bob"]))
        XCTAssertEqual(p, NSPredicate(format: "name BEGINSWITH[c] 'an'"))
        let any = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "xs"), rightExpression: NSExpression(forConstantValue: 2),
                                        modifier: .any, type: .equalTo, options: [])
        XCTAssertTrue(any.evaluate(with: ["xs": [1, 2]]))
        XCTAssertEqual(NSComparisonPredicate.Operator.between.rawValue, 100)
        XCTAssertEqual(NSComparisonPredicate.Modifier.any.rawValue, 2)
        XCTAssertEqual(NSCompoundPredicate.LogicalType.or.rawValue, 2)
    }
}

final class CopyingTests: XCTestCase {
    func testCopiesAreTheSameImmutableObjects() {
        let p = NSPredicate(format: "a == 1 OR b == 2")
        XCTAssertTrue(p.copy() as AnyObject === p)
        XCTAssertEqual(p.copy() as? NSPredicate, NSPredicate(format: "a == 1 OR b == 2"))
        let e = NSExpression(format: "a + 1")
        XCTAssertTrue(e.copy() as AnyObject === e)
        let s = OpenCoreData.NSSortDescriptor(key: "a", ascending: true)
        XCTAssertTrue(s.copy() as AnyObject === s)
    }
}
