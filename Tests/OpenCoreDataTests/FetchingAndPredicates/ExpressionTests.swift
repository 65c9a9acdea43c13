import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class ExpressionTests: XCTestCase {
    private func value(_ format: String, _ object: Any? = nil, file: StaticString = #filePath, line: UInt = #line) -> Any? {
        do {
            return try NSExpression(validatingFormat: format, argumentArray: []).value(with: object)
        } catch {
            XCTFail("\(format): \(error.localizedDescription)", file: file, line: line)
            return nil
        }
    }

    func testConstructorsAndAccessors() {
        let constant = NSExpression(forConstantValue: 5)
        XCTAssertEqual(constant.expressionType, .constantValue)
        XCTAssertEqual(constant.constantValue as? Int, 5)
        let keyPath = NSExpression(forKeyPath: "a.b")
        XCTAssertEqual(keyPath.expressionType, .keyPath)
        XCTAssertEqual(keyPath.keyPath, "a.b")
        XCTAssertEqual(NSExpression(forVariable: "x").variable, "x")
        XCTAssertEqual(NSExpression.expressionForEvaluatedObject().expressionType, .evaluatedObject)
        let function = NSExpression(forFunction: "sum:", arguments: [NSExpression(forConstantValue: [1, 2, 3])])
        XCTAssertEqual(function.function, "sum:")
        XCTAssertEqual(function.arguments?.count, 1)
        XCTAssertEqual(function.expressionValue(with: nil, context: nil) as? Int, 6)
        let aggregate = NSExpression(forAggregate: [NSExpression(forConstantValue: 1), NSExpression(forKeyPath: "a")])
        XCTAssertEqual(aggregate.expressionType, .aggregate)
        XCTAssertEqual((aggregate.collection as? [NSExpression])?.count, 2)
        let subquery = NSExpression(forSubquery: NSExpression(forKeyPath: "items"), usingIteratorVariable: "i", predicate: NSPredicate(format: "$i > 1"))
        XCTAssertEqual(subquery.expressionType, .subquery)
        XCTAssertEqual(subquery.variable, "i")
        XCTAssertEqual((subquery.expressionValue(with: ["items": [1, 2, 3]], context: nil) as? [Any])?.count, 2)
        let conditional = NSExpression(forConditional: NSPredicate(format: "SELF > 1"), trueExpression: NSExpression(forConstantValue: "big"), falseExpression: NSExpression(forConstantValue: "small"))
        XCTAssertEqual(conditional.expressionType, .conditional)
        XCTAssertEqual(conditional.expressionValue(with: 5, context: nil) as? String, "big")
        XCTAssertEqual(conditional.expressionValue(with: 0, context: nil) as? String, "small")
    }

    func testSetExpressions() {
        let a = NSExpression(forConstantValue: [1, 2, 3]), b = NSExpression(forConstantValue: [2, 3, 4])
        XCTAssertEqual(NSExpression(forUnionSet: a, with: b).expressionValue(with: nil, context: nil) as? Set<AnyHashable>, [1, 2, 3, 4])
        XCTAssertEqual(NSExpression(forIntersectSet: a, with: b).expressionValue(with: nil, context: nil) as? Set<AnyHashable>, [2, 3])
        XCTAssertEqual(NSExpression(forMinusSet: a, with: b).expressionValue(with: nil, context: nil) as? Set<AnyHashable>, [1])
        XCTAssertEqual(NSExpression(forUnionSet: a, with: b).expressionType, .unionSet)
        XCTAssertTrue(NSPredicate(format: "{1, 2} UNION {3} == {1, 2, 3}").evaluate(with: nil))
    }

    func testBlockExpression() {
        let e = NSExpression(block: { object, args, _ in
            (object as? Int ?? 0) + (args.first?.constantValue as? Int ?? 0)
        }, arguments: [NSExpression(forConstantValue: 10)])
        XCTAssertEqual(e.expressionType, .block)
        XCTAssertEqual(e.expressionValue(with: 5, context: nil) as? Int, 15)
    }

    func testArithmetic() {
        XCTAssertEqual(value("1 + 2 * 3") as? Int, 7)
        XCTAssertEqual(value("(1 + 2) * 3") as? Int, 9)
        XCTAssertEqual(value("7 / 2") as? Double, 3.5)
        XCTAssertEqual(value("2 ** 10") as? Int, 1024)
        XCTAssertEqual(value("2 ** 3 ** 2") as? Int, 512, "** is right-associative")
        XCTAssertEqual(value("10 - 4 - 3") as? Int, 3, "- is left-associative")
        XCTAssertEqual(value("-(2 + 3)") as? Int, -5)
        XCTAssertEqual(value("1.5 + 1") as? Double, 2.5)
        XCTAssertEqual(value("6 & 3") as? Int, 2)
        XCTAssertEqual(value("6 | 3") as? Int, 7)
        XCTAssertEqual(value("6 ^ 3") as? Int, 5)
        XCTAssertEqual(value("1 << 4") as? Int, 16)
        XCTAssertEqual(value("salary * 12", ["salary": 1000]) as? Int, 12000)
        XCTAssertEqual(value("\(Int.max) + 1") as? Double, Double(Int.max) + 1, "overflow falls back to Double")
        XCTAssertNil(value("missing + 1", [String: Any]()))
    }

    func testBuiltinFunctions() {
        XCTAssertEqual(value("sum({1, 2, 3})") as? Int, 6)
        XCTAssertEqual(value("count({1, 2, 3})") as? Int, 3)
        XCTAssertEqual(value("min({4, 2, 3})") as? Int, 2)
        XCTAssertEqual(value("max({4, 2, 3})") as? Int, 4)
        XCTAssertEqual(value("average({1, 2, 3, 4})") as? Double, 2.5)
        XCTAssertEqual(value("median({5, 1, 3})") as? Double, 3)
        XCTAssertEqual(value("median({4, 1, 3, 2})") as? Double, 2.5)
        XCTAssertEqual((value("mode({1, 2, 2, 3})") as? [Any])?.first as? Int, 2)
        XCTAssertEqual(value("stddev({2, 4, 4, 4, 5, 5, 7, 9})") as? Double, 2)
        XCTAssertEqual(value("sqrt(16)") as? Double, 4)
        XCTAssertEqual(value("log(1000)") as? Double ?? 0, 3, accuracy: 1e-12)
        XCTAssertEqual(value("ln(1)") as? Double, 0)
        XCTAssertEqual(value("exp(0)") as? Double, 1)
        XCTAssertEqual(value("floor(2.7)") as? Double, 2)
        XCTAssertEqual(value("ceiling(2.1)") as? Double, 3)
        XCTAssertEqual(value("abs(-4)") as? Int, 4)
        XCTAssertEqual(value("trunc(-2.7)") as? Double, -2)
        XCTAssertEqual(value("uppercase:('abc')") as? String, "ABC")
        XCTAssertEqual(value("lowercase:('ABC')") as? String, "abc")
        XCTAssertEqual(value("length:('abcd')") as? Int, 4)
        XCTAssertEqual(value("modulus:by:(7, 3)") as? Int, 1)
        XCTAssertEqual(value("modulus:by:(7.5, 2)") as? Double, 1.5)
        XCTAssertNotNil(value("now()") as? Date)
        let r = value("random()") as? Double ?? -1
        XCTAssertTrue(r >= 0 && r < 1)
        XCTAssertEqual(value("{10, 20, 30}[1]") as? Int, 20)
        XCTAssertEqual(value("{10, 20, 30}[LAST]") as? Int, 30)
        XCTAssertEqual(value("CAST('3.5', 'NSNumber')") as? Double, 3.5)
        XCTAssertEqual(value("CAST(12, 'NSString')") as? String, "12")
        XCTAssertThrowsError(try NSExpression(format: "CAST(1, 'NSWidget')").value(with: nil))
        XCTAssertThrowsError(try NSExpression(format: "uppercase:(3)").value(with: nil))
        XCTAssertThrowsError(try NSExpression(forFunction: "nonsense:", arguments: []).value(with: nil))
        XCTAssertThrowsError(try NSExpression(format: "FUNCTION(1, 'frobnicate:with:', 2)").value(with: nil))
    }

    func testVariablesAndContext() {
        let e = NSExpression(format: "$x * 2")
        XCTAssertEqual(e.expressionValue(with: nil, context: NSMutableDictionary(dictionary: ["x": 21])) as? Int, 42)
        XCTAssertNil(e.expressionValue(with: nil, context: nil))
        XCTAssertThrowsError(try e.value(with: nil))
        XCTAssertEqual(try e.value(with: nil, variables: ["x": 4]) as? Int, 8)
        let context = NSMutableDictionary()
        _ = NSExpression(format: "$y := 5").expressionValue(with: nil, context: context)
        XCTAssertEqual(context["y"] as? Int, 5)
    }

    func testStructuralEquality() {
        XCTAssertEqual(NSExpression(format: "a + 1"), NSExpression(format: "a+1"))
        XCTAssertNotEqual(NSExpression(format: "a + 1"), NSExpression(format: "a + 2"))
        XCTAssertNotEqual(NSExpression(format: "a + 1"), NSExpression(format: "1 + a"))
        XCTAssertEqual(NSExpression(forConstantValue: 1), NSExpression(forConstantValue: 1.0))
        XCTAssertNotEqual(NSExpression(forConstantValue: "1"), NSExpression(forConstantValue: 1))
        XCTAssertEqual(NSExpression(forConstantValue: [1, 2]), NSExpression(format: "{1, 2}"))
        XCTAssertEqual(NSExpression(forKeyPath: "a.b").hash, NSExpression(format: "a.b").hash)
        XCTAssertEqual(Set([NSExpression(format: "a"), NSExpression(format: "a"), NSExpression(format: "b")]).count, 2)
    }
}

final class ExpressionEdgeCaseTests: XCTestCase {
    /// Arithmetic edge cases must give a value or an error, never trap.
    func testArithmeticEdgesDoNotTrap() throws {
        let minimum = NSExpression(forConstantValue: Int.min)
        XCTAssertEqual(try NSExpression(forFunction: "modulus:by:", arguments: [minimum, NSExpression(forConstantValue: -1)]).value(with: nil) as? Int, 0)
        XCTAssertEqual(try NSExpression(forFunction: "abs:", arguments: [minimum]).value(with: nil) as? Double, 9.223372036854775808e18)
        XCTAssertEqual(try NSExpression(format: "-x").value(with: ["x": Int.min]) as? Double, 9.223372036854775808e18)
        XCTAssertEqual(try NSExpression(format: "1 / 0").value(with: nil) as? Double, .infinity)
        XCTAssertNotNil(try NSExpression(format: "x + 1").value(with: ["x": Decimal(1)]))
        XCTAssertNotNil(try NSExpression(format: "x + (1 / 0)").value(with: ["x": Decimal(1)]))
        XCTAssertNotNil(try NSExpression(format: "x * 2").value(with: ["x": Decimal.nan]))
        XCTAssertEqual(try NSExpression(format: "1 << 200").value(with: nil) as? Int, 0)
        XCTAssertEqual((try NSExpression(format: "modulus:by:(5, 0)").value(with: nil) as? Double)?.isNaN, true)
        XCTAssertTrue(NSPredicate(format: "x > 1").evaluate(with: ["x": Decimal.greatestFiniteMagnitude]))
        XCTAssertFalse(NSPredicate(format: "x < %@", Double.nan).evaluate(with: ["x": 1]))
        XCTAssertTrue(NSPredicate(format: "x > %@", Decimal(1)).evaluate(with: ["x": Double.infinity]))
    }
}
