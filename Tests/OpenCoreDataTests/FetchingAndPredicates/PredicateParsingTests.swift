import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class PredicateParsingTests: XCTestCase {
    private func comparison(_ format: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) -> NSComparisonPredicate? {
        let p = try? NSPredicate(validatingFormat: format, argumentArray: args)
        XCTAssertNotNil(p, "\(format) should parse", file: file, line: line)
        return p as? NSComparisonPredicate
    }

    func testFormatInitializerReturnsTheConcreteSubclass() {
        XCTAssertTrue(NSPredicate(format: "a == 1") is NSComparisonPredicate)
        XCTAssertTrue(NSPredicate(format: "a == 1 AND b == 2") is NSCompoundPredicate)
        XCTAssertFalse(NSPredicate(format: "TRUEPREDICATE") is NSComparisonPredicate)
    }

    func testOperatorSynonyms() {
        let pairs: [(String, NSComparisonPredicate.Operator)] = [
            ("a = 1", .equalTo), ("a == 1", .equalTo), ("a != 1", .notEqualTo), ("a <> 1", .notEqualTo),
            ("a < 1", .lessThan), ("a > 1", .greaterThan), ("a <= 1", .lessThanOrEqualTo), ("a =< 1", .lessThanOrEqualTo),
            ("a >= 1", .greaterThanOrEqualTo), ("a => 1", .greaterThanOrEqualTo), ("a BETWEEN {1, 2}", .between),
            ("a contains 'x'", .contains), ("a in {1}", .in), ("a BeginsWith 'x'", .beginsWith), ("a endswith 'x'", .endsWith),
            ("a like 'x*'", .like), ("a matches 'x.*'", .matches),
        ]
        for (format, op) in pairs {
            XCTAssertEqual(comparison(format)?.predicateOperatorType, op, format)
        }
    }

    func testOptionsAndModifiers() {
        let p = comparison("ANY tags.name LIKE[cd] 'sw*'")
        XCTAssertEqual(p?.comparisonPredicateModifier, .any)
        XCTAssertEqual(p?.options, [.caseInsensitive, .diacriticInsensitive])
        XCTAssertEqual(comparison("SOME a == 1")?.comparisonPredicateModifier, .any)
        XCTAssertEqual(comparison("all a == 1")?.comparisonPredicateModifier, .all)
        XCTAssertEqual(comparison("a ==[n] 'x'")?.options, .normalized)
        XCTAssertEqual(comparison("a ==[l] 'x'")?.options, .localeSensitive)
        let none = NSPredicate(format: "NONE a == 1") as? NSCompoundPredicate
        XCTAssertEqual(none?.compoundPredicateType, .not)
        XCTAssertEqual((none?.subpredicates.first as? NSComparisonPredicate)?.comparisonPredicateModifier, .any)
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a ==[x] 'b'", argumentArray: []))
    }

    func testKeywordsAreCaseInsensitive() {
        XCTAssertEqual(NSPredicate(format: "a == 1 and b == 2 Or c == 3"), NSPredicate(format: "a == 1 AND b == 2 OR c == 3"))
        XCTAssertEqual(NSPredicate(format: "not a == nil"), NSPredicate(format: "NOT a == NIL"))
        XCTAssertEqual(NSPredicate(format: "self == yes"), NSPredicate(format: "SELF == TRUE"))
        XCTAssertEqual(NSPredicate(format: "truepredicate"), NSPredicate(value: true))
    }

    func testOrBindsTighterThanAnd() {
        // Documented decision (DEVIATIONS-predicates.md): `a OR b AND c` is `(a OR b) AND c`,
        // and `a AND b OR c` is `a AND (b OR c)`.
        let p = NSPredicate(format: "a == 1 AND b == 2 OR c == 3") as? NSCompoundPredicate
        XCTAssertEqual(p?.compoundPredicateType, .and)
        XCTAssertEqual((p?.subpredicates.last as? NSCompoundPredicate)?.compoundPredicateType, .or)
        XCTAssertTrue(NSPredicate(format: "a == 1 AND b == 2 OR c == 3").evaluate(with: ["a": 1, "b": 0, "c": 3]))
        XCTAssertFalse(NSPredicate(format: "a == 1 AND b == 2 OR c == 3").evaluate(with: ["a": 0, "b": 2, "c": 3]))
    }

    func testSameOperatorRunsFlatten() {
        let p = NSPredicate(format: "a == 1 AND b == 2 AND (c == 3 AND d == 4)") as? NSCompoundPredicate
        XCTAssertEqual(p?.subpredicates.count, 4)
    }

    func testNumbers() {
        XCTAssertEqual(comparison("a == 0x1F")?.rightExpression.constantValue as? Int, 31)
        XCTAssertEqual(comparison("a == 0o17")?.rightExpression.constantValue as? Int, 15)
        XCTAssertEqual(comparison("a == 0b101")?.rightExpression.constantValue as? Int, 5)
        XCTAssertEqual(comparison("a == 9.2e-5")?.rightExpression.constantValue as? Double, 9.2e-5)
        XCTAssertEqual(comparison("a == 1E3")?.rightExpression.constantValue as? Double, 1000)
        XCTAssertEqual(comparison("a == -12")?.rightExpression.constantValue as? Int, -12)
        XCTAssertEqual(comparison("a == 3.25")?.rightExpression.constantValue as? Double, 3.25)
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a == 0x", argumentArray: []))
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a == 12abc", argumentArray: []))
    }

    func testStringEscapes() {
        XCTAssertEqual(comparison(#"a == "x\"y\\z""#)?.rightExpression.constantValue as? String, "x\"y\\z")
        XCTAssertEqual(comparison(#"a == 'it\'s\n'"#)?.rightExpression.constantValue as? String, "it's\n")
        XCTAssertEqual(comparison(#"a == "\x41\u00e9\101""#)?.rightExpression.constantValue as? String, "AéA")
        XCTAssertEqual(comparison("a == 'single \"quoted\"'")?.rightExpression.constantValue as? String, "single \"quoted\"")
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a == 'open", argumentArray: []))
    }

    func testLiterals() {
        XCTAssertNil(comparison("a == nil")?.rightExpression.constantValue)
        XCTAssertEqual(comparison("a == nil")?.rightExpression.expressionType, .constantValue)
        XCTAssertEqual(comparison("a == NULL")?.rightExpression.expressionType, .constantValue)
        // `<null>`, as predicateFormat writes NSNull, in either case; not a comparison with `null`.
        for format in ["a == <null>", "a == <NULL>", "a == <Null>"] {
            XCTAssertEqual(comparison(format)?.rightExpression.expressionType, .constantValue, format)
            XCTAssertTrue(comparison(format)?.rightExpression.constantValue is NSNull, format)
        }
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a == <nul>", argumentArray: []))
        XCTAssertEqual(comparison("a == YES")?.rightExpression.constantValue as? Bool, true)
        XCTAssertEqual(comparison("a == no")?.rightExpression.constantValue as? Bool, false)
        XCTAssertEqual(comparison("SELF == 1")?.leftExpression.expressionType, .evaluatedObject)
        XCTAssertEqual(comparison("a IN {1, 'b', nil}")?.rightExpression.expressionType, .aggregate)
        XCTAssertEqual((comparison("a IN {}")?.rightExpression.collection as? [NSExpression])?.count, 0)
    }

    func testFormatSpecifiers() {
        XCTAssertEqual(comparison("%K == %@", "name", "Ann")?.leftExpression.keyPath, "name")
        XCTAssertEqual(comparison("%K == %@", "name", "Ann")?.rightExpression.constantValue as? String, "Ann")
        XCTAssertEqual(comparison("a == %d", 42)?.rightExpression.constantValue as? Int, 42)
        XCTAssertEqual(comparison("a == %i", Int32(7))?.rightExpression.constantValue as? Int, 7)
        XCTAssertEqual(comparison("a == %ld", 8)?.rightExpression.constantValue as? Int, 8)
        XCTAssertEqual(comparison("a == %lld", Int64(9))?.rightExpression.constantValue as? Int, 9)
        XCTAssertEqual(comparison("a == %u", UInt(10))?.rightExpression.constantValue as? Int, 10)
        XCTAssertEqual(comparison("a == %f", 1.5)?.rightExpression.constantValue as? Double, 1.5)
        XCTAssertEqual(comparison("a == %lf", Float(2.5))?.rightExpression.constantValue as? Double, 2.5)
        XCTAssertEqual(comparison("a == %@", [1, 2])?.rightExpression.expressionType, .constantValue)
        XCTAssertNil(comparison("a == %@", Optional<Int>.none as Any)?.rightExpression.constantValue)
        XCTAssertEqual(comparison("a LIKE %@", "x%")?.rightExpression.constantValue as? String, "x%")
        XCTAssertEqual(comparison("%K.@count > 1", "friends")?.leftExpression.keyPath, "friends.@count")
        // Quoted specifiers and variables are literal text.
        XCTAssertEqual(comparison("a == '%@'")?.rightExpression.constantValue as? String, "%@")
        XCTAssertEqual(comparison("a == '$x'")?.rightExpression.constantValue as? String, "$x")
    }

    func testFormatArgumentErrors() {
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a == %@ AND b == %@", argumentArray: [1])) { error in
            XCTAssertTrue(error.localizedDescription.contains("more % specifiers"), error.localizedDescription)
        }
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "%K == 1", argumentArray: [1]))
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a == %d", argumentArray: ["x"]))
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "a == %y", argumentArray: [1]))
    }

    func testUTIOperatorsAreRejectedWithAReason() {
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "type UTI-CONFORMS-TO 'public.image'", argumentArray: [])) { error in
            XCTAssertTrue(error.localizedDescription.contains("Uniform Type Identifier"), error.localizedDescription)
        }
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "type uti-equals 'public.png'", argumentArray: []))
    }

    func testEscapedReservedWordsAreKeys() {
        XCTAssertEqual(comparison("#size == 1")?.leftExpression.keyPath, "size")
        XCTAssertEqual(comparison("a.#first == 1")?.leftExpression.keyPath, "a.first")
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "size == 1", argumentArray: []))
    }

    func testVariablesAndAssignment() {
        XCTAssertEqual(comparison("a == $limit")?.rightExpression.expressionType, .variable)
        XCTAssertEqual(comparison("a == $limit")?.rightExpression.variable, "limit")
        let assignment = comparison("$x := 5 == 5")?.leftExpression
        XCTAssertEqual(assignment?.variable, "x")
    }

    func testExpressionsAndFunctions() {
        let e = comparison("(a + 1) * 2 > 3")?.leftExpression
        XCTAssertEqual(e?.function, "multiply:by:")
        XCTAssertEqual(e?.arguments?.first?.function, "add:to:")
        XCTAssertEqual(comparison("a + b * c == 1")?.leftExpression.function, "add:to:")
        XCTAssertEqual(comparison("2 ** 3 ** 2 == 512")?.leftExpression.arguments?.last?.function, "raise:toPower:")
        XCTAssertEqual(comparison("sum(a) > 1")?.leftExpression.function, "sum:")
        XCTAssertEqual(comparison("average:(a) > 1")?.leftExpression.function, "average:")
        XCTAssertEqual(comparison("modulus:by:(7, 3) == 1")?.leftExpression.function, "modulus:by:")
        XCTAssertEqual(comparison("now() > a")?.leftExpression.function, "now")
        XCTAssertEqual(comparison("a[FIRST] == 1")?.leftExpression.function, "objectFrom:withIndex:")
        XCTAssertEqual(comparison("a[2] == 1")?.leftExpression.arguments?.last?.constantValue as? Int, 2)
        XCTAssertEqual(comparison("SUBQUERY(items, $i, $i.price > 1).@count > 0")?.leftExpression.operand.expressionType, .subquery)
        XCTAssertEqual(comparison("CAST(a, 'NSNumber') > 1")?.leftExpression.function, "castObject:toType:")
        XCTAssertEqual(comparison("CAST(0, 'NSDate') == a")?.leftExpression.constantValue as? Date, Date(timeIntervalSinceReferenceDate: 0))
        XCTAssertEqual(comparison("TERNARY(a > 1, 'x', 'y') == 'x'")?.leftExpression.expressionType, .conditional)
        XCTAssertEqual(comparison("FUNCTION(name, 'uppercaseString') == 'X'")?.leftExpression.function, "uppercaseString")
        XCTAssertEqual(comparison("a UNION b == {}")?.leftExpression.expressionType, .unionSet)
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "bogus(a) == 1", argumentArray: []))
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "sum(a, b) == 1", argumentArray: []))
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "nope:(a) == 1", argumentArray: []))
    }

    func testSyntaxErrorsQuoteFormatAndPosition() {
        for bad in ["", "a ==", "a == 1 AND", "(a == 1", "a == 1)", "a b", "== 1", "a == 1 b == 2", "NOT", "{1, 2", "a[1 == 2", "a ! 1", "a == @", "ANY"] {
            XCTAssertThrowsError(try NSPredicate(validatingFormat: bad, argumentArray: []), bad) { error in
                let e = error as NSError
                XCTAssertEqual(e.domain, NSCocoaErrorDomain, bad)
                XCTAssertEqual(e.code, 2048, bad)
                XCTAssertTrue(e.localizedDescription.contains("\"\(bad)\""), e.localizedDescription)
                XCTAssertNotNil(e.userInfo[PredicateSyntaxError.positionKey] as? Int, bad)
            }
        }
        XCTAssertThrowsError(try NSPredicate(validatingFormat: "age >", argumentArray: [])) { error in
            XCTAssertEqual((error as NSError).userInfo[PredicateSyntaxError.positionKey] as? Int, 5)
        }
    }

    func testDeepNestingThrowsInsteadOfCrashing() {
        let deep = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        XCTAssertThrowsError(try NSPredicate(validatingFormat: deep, argumentArray: [])) { error in
            XCTAssertTrue(error.localizedDescription.contains("nests deeper"), error.localizedDescription)
        }
        let deepExpression = "a == " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        XCTAssertThrowsError(try NSPredicate(validatingFormat: deepExpression, argumentArray: []))
        let deepNot = String(repeating: "NOT ", count: 10_000) + "a == 1"
        XCTAssertThrowsError(try NSPredicate(validatingFormat: deepNot, argumentArray: []))
        let deepMinus = "a == " + String(repeating: "-", count: 10_000) + "1"
        XCTAssertThrowsError(try NSPredicate(validatingFormat: deepMinus, argumentArray: []))
        let deepPower = "a == 2" + String(repeating: " ** 2", count: 10_000)
        XCTAssertThrowsError(try NSPredicate(validatingFormat: deepPower, argumentArray: []))
        // Moderate nesting is fine.
        let fine = String(repeating: "(", count: 100) + "a == 1" + String(repeating: ")", count: 100)
        XCTAssertNoThrow(try NSPredicate(validatingFormat: fine, argumentArray: []))
    }

    /// Runs the deep-format checks and returns what went wrong (empty when all is well).
    private static func deepFormatProblems() -> [String] {
        var problems: [String] = []
        let parens = String(repeating: "(", count: 990) + "a == 1" + String(repeating: ")", count: 990)
        if (try? NSPredicate(validatingFormat: parens, argumentArray: []))?.evaluate(with: ["a": 1]) != true { problems.append("990 parentheses") }
        let expression = "a == " + String(repeating: "(", count: 990) + "1" + String(repeating: ")", count: 990)
        if (try? NSPredicate(validatingFormat: expression, argumentArray: []))?.evaluate(with: ["a": 1]) != true { problems.append("990 expression parentheses") }
        let nots = String(repeating: "NOT ", count: 96) + "a == 1"
        if let p = try? NSPredicate(validatingFormat: nots, argumentArray: []) {
            if !p.evaluate(with: ["a": 1]) { problems.append("96 NOTs evaluate") }
            if p != NSPredicate(format: p.predicateFormat) { problems.append("96 NOTs round trip") }
        } else {
            problems.append("96 NOTs parse")
        }
        do {
            _ = try NSPredicate(validatingFormat: String(repeating: "NOT ", count: 200) + "a == 1", argumentArray: [])
            problems.append("200 NOTs should be refused")
        } catch {
            if !error.localizedDescription.contains("operations deep") { problems.append("unclear error: \(error.localizedDescription)") }
        }
        return problems
    }

    func testDeepFormatsWorkOnASmallStackThread() {
        // Secondary threads get 512 KiB stacks; deep formats must neither overflow them while
        // parsing nor build trees too deep to evaluate, print and compare there.
        let done = expectation(description: "parsed")
        final class Box: @unchecked Sendable { var problems: [String] = ["did not run"] }
        let box = Box()
        let thread = Thread {
            box.problems = PredicateParsingTests.deepFormatProblems()
            done.fulfill()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        wait(for: [done], timeout: 60)
        XCTAssertEqual(box.problems, [])
    }

    func testExpressionFormatInitializer() throws {
        XCTAssertEqual(NSExpression(format: "a.b").keyPath, "a.b")
        XCTAssertEqual(NSExpression(format: "%K", "x.y").keyPath, "x.y")
        XCTAssertThrowsError(try NSExpression(validatingFormat: "a ==", argumentArray: []))
    }

    func testValidatingFormatForASubclassOfTheWrongKindThrows() {
        XCTAssertThrowsError(try NSComparisonPredicate(validatingFormat: "a == 1 OR b == 2", argumentArray: []))
        XCTAssertNoThrow(try NSComparisonPredicate(validatingFormat: "a == 1", argumentArray: []))
    }
}

final class PredicateInitializerTests: XCTestCase {
    func testVariadicAndArrayInitializersAgree() throws {
        let variadic = try NSPredicate(validatingFormat: "name == %@ AND age > %d", "Ann", 3)
        let array = try NSPredicate(validatingFormat: "name == %@ AND age > %d", argumentArray: ["Ann", 3])
        let plain = NSPredicate(format: "name == %@ AND age > %d", "Ann", 3)
        let plainArray = NSPredicate(format: "name == %@ AND age > %d", argumentArray: ["Ann", 3])
        XCTAssertEqual(variadic, array)
        XCTAssertEqual(variadic, plain)
        XCTAssertEqual(variadic, plainArray)
        XCTAssertNotEqual(variadic, NSPredicate(format: "name == %@ AND age > %d", "Bob", 3))
        XCTAssertEqual(NSPredicate(format: "a == 1", argumentArray: nil), NSPredicate(format: "a == 1"))
    }

    func testValuePredicatesCompareByValue() {
        XCTAssertEqual(NSPredicate(value: true), NSPredicate(format: "TRUEPREDICATE"))
        XCTAssertNotEqual(NSPredicate(value: true), NSPredicate(value: false))
        XCTAssertEqual(NSPredicate(value: false).predicateFormat, "FALSEPREDICATE")
        let block = NSPredicate { _, _ in true }
        XCTAssertEqual(block, block)
        XCTAssertNotEqual(block, NSPredicate { _, _ in true })
        XCTAssertTrue(block.predicateFormat.hasPrefix("BLOCKPREDICATE("))
    }
}
