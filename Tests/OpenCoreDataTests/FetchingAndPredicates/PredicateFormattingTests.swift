import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class PredicateFormattingTests: XCTestCase {
    func testCanonicalForms() {
        let cases: [(String, String)] = [
            ("a = 1", "a == 1"),
            ("a <> 1", "a != 1"),
            ("a =< 1", "a <= 1"),
            ("a => 1", "a >= 1"),
            ("name beginswith[c] 'x'", #"name BEGINSWITH[c] "x""#),
            ("name like[cd] \"x*\"", #"name LIKE[cd] "x*""#),
            ("a = 1 && b = 2", "a == 1 AND b == 2"),
            ("a = 1 || b = 2", "a == 1 OR b == 2"),
            ("!(a = 1)", "NOT a == 1"),
            ("(a = 1 || b = 2) and not c = 3", "(a == 1 OR b == 2) AND (NOT c == 3)"),
            ("not (a = 1 and b = 2)", "NOT (a == 1 AND b == 2)"),
            ("self == 'x'", #"SELF == "x""#),
            ("SELF.name == 'x'", #"name == "x""#),
            ("flag == YES", "flag == 1"),
            ("flag == false", "flag == 0"),
            ("a == nil", "a == nil"),
            ("a IN {1, 'b'}", #"a IN {1, "b"}"#),
            ("any tags.name == 'x'", #"ANY tags.name == "x""#),
            ("all tags.name == 'x'", #"ALL tags.name == "x""#),
            ("none tags.name == 'x'", #"NOT ANY tags.name == "x""#),
            ("a between {1, 2}", "a BETWEEN {1, 2}"),
            ("truepredicate", "TRUEPREDICATE"),
            ("FALSEPREDICATE", "FALSEPREDICATE"),
            ("(a + 1) * 2 > 3", "(a + 1) * 2 > 3"),
            ("a + b * c == 1", "a + b * c == 1"),
            ("a - (b - c) == 1", "a - (b - c) == 1"),
            ("(a - b) - c == 1", "a - b - c == 1"),
            ("(2 ** 3) ** 2 == 64", "(2 ** 3) ** 2 == 64"),
            ("#size == 1", "#size == 1"),
            ("a == $x", "a == $x"),
            ("a == 1.5", "a == 1.5"),
            ("a == 2.0", "a == 2"),
            ("a == -3", "a == -3"),
            ("x[first] == 1", "x[FIRST] == 1"),
            ("sum(a) > 1", "sum:(a) > 1"),
            ("SUBQUERY(items, $i, $i.price > 1 and $i.qty < 2).@count > 0", "SUBQUERY(items, $i, $i.price > 1 AND $i.qty < 2).@count > 0"),
            ("name matches[c] '[a-z]+'", #"name MATCHES[c] "[a-z]+""#),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(parse(input).predicateFormat, expected, input)
        }
    }

    func testFormatArgumentsPrintAsValues() {
        XCTAssertEqual(NSPredicate(format: "%K == %@", "name", "O'Brien \"Bob\"").predicateFormat, #"name == "O'Brien \"Bob\"""#)
        XCTAssertEqual(NSPredicate(format: "a IN %@", ["x", "y"]).predicateFormat, #"a IN {"x", "y"}"#)
        XCTAssertEqual(NSPredicate(format: "d > %@", Date(timeIntervalSinceReferenceDate: 86400)).predicateFormat, #"d > CAST(86400, "NSDate")"#)
        XCTAssertEqual(NSPredicate(format: "a == %@", NSNull()).predicateFormat, "a == <null>")
        XCTAssertEqual(NSPredicate(format: "a == %d", 7).predicateFormat, "a == 7")
    }

    func testDescriptionIsPredicateFormat() {
        let p = NSPredicate(format: "a == 1")
        XCTAssertEqual(p.description, p.predicateFormat)
        XCTAssertEqual(NSExpression(format: "a + 1").description, "a + 1")
    }

    func testRoundTripGivesEqualPredicate() throws {
        let formats = [
            "a == 1", "a = 1 AND b = 2 OR c = 3", "(a = 1 AND b = 2) OR c = 3", "NOT (a = 1 OR b = 2)",
            "name BEGINSWITH[cd] 'Ab'", "name ENDSWITH 'z'", "name CONTAINS[c] 'mid'", "name LIKE 'a?c*'",
            "name MATCHES '^[A-Z].*'", "age BETWEEN {18, 65}", "age IN {1, 2, 3}", "'x' IN tags",
            "ANY friends.name == 'Bob'", "ALL friends.age > 10", "NONE friends.age > 10", "SOME friends.age < 3",
            "friends.@count > 2", "friends.@sum.age > 10", "@count == 0",
            "SUBQUERY(friends, $f, $f.age > 3 AND $f.name BEGINSWITH 'B').@count > 0",
            "a + b * c - d / e ** 2 == -1", "-a == 3", "-(a + 1) == 3", "a[FIRST] == 1", "a[LAST] == 1", "a[SIZE] == 1", "a[1 + 1] == 1",
            "sum:(a) == count:(b)", "now() > d", "uppercase:(name) == 'A'", "modulus:by:(a, 3) == 1",
            "CAST(a, 'NSNumber') > 1", "CAST(1000, 'NSDate') < d", "TERNARY(a > 1, 'x', 'y') == 'x'",
            "FUNCTION(name, 'uppercaseString') == 'X'", "a == $x", "$y := 3 == 3", "a UNION b == {1}",
            "a INTERSECT b MINUS c == {}", "x == nil", "x != NULL", "f == YES", "#first == 1", "a.#in == 2",
            "a ==[n] 'x'", "a ==[l] 'x'", "a ==[cdn] 'x'", "a == 1.25", "a == 1e20", "a == 0x7fffffffffffffff",
            "TRUEPREDICATE", "FALSEPREDICATE", "NOT TRUEPREDICATE", "a & 3 == 1", "a | b ^ c == 1", "a << 2 >> 1 == 4",
            "name == \"tab\\tnew\\nline\\\\quote\\\"\"", "name == '\\u0001control'", "{1, {2, 3}} == a", "a.b.c.d == 1",
        ]
        for format in formats {
            let first = parse(format)
            let printed = first.predicateFormat
            let second = parse(printed)
            XCTAssertEqual(first, second, "\(format) → \(printed) → \(second.predicateFormat)")
            XCTAssertEqual(first.hash, second.hash, format)
            XCTAssertEqual(second.predicateFormat, printed, format)
        }
    }

    func testKeysThatNeedEscapingArePrintedWithAHash() throws {
        for (key, printed) in [("@", "#@ == 1"), ("@1", "#@1 == 1"), ("@_x", "#@_x == 1"), ("size", "#size == 1"), ("@count", "@count == 1"), ("a@b", "a@b == 1")] {
            let predicate = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: key), rightExpression: NSExpression(forConstantValue: 1),
                                                  modifier: .direct, type: .equalTo, options: [])
            XCTAssertEqual(predicate.predicateFormat, printed, key)
            let reparsed = try NSPredicate(validatingFormat: predicate.predicateFormat, argumentArray: [])
            XCTAssertEqual(reparsed, predicate, key)
        }
    }

    func testRoundTripOfArgumentValues() {
        let date = Date(timeIntervalSinceReferenceDate: 123.5)
        let uuid = UUID()
        let url = URL(string: "https://example.com/a?b=c")!
        let data = Data([0, 1, 2, 255])
        for arg in [Double.infinity, -Double.infinity, date, uuid, url, data, Decimal(string: "12.5")!, "multi\nline", [1, 2], NSNull()] as [Any] {
            let p = NSPredicate(format: "a == %@", arg)
            let again = NSPredicate(format: p.predicateFormat)
            XCTAssertEqual(p, again, "\(arg): \(p.predicateFormat)")
        }
    }
}
