import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class PredicateArchivingTests: XCTestCase {
    func testJSONRoundTrip() throws {
        let original = NSPredicate(format: "age > %d AND name BEGINSWITH[c] %@ AND d < %@", 18, "a\"b", Date(timeIntervalSinceReferenceDate: 99.5))
        let data = try JSONEncoder().encode(original)
        let decoded = try JSONDecoder().decode(NSPredicate.self, from: data)
        XCTAssertEqual(decoded, original)
        XCTAssertEqual(original, decoded)
        XCTAssertEqual(decoded.hash, original.hash)
        XCTAssertEqual(decoded.predicateFormat, original.predicateFormat)
        XCTAssertTrue(decoded.evaluate(with: ["age": 20, "name": "A\"Bc", "d": Date(timeIntervalSinceReferenceDate: 0)]))
        XCTAssertFalse(decoded.evaluate(with: ["age": 2, "name": "A\"Bc", "d": Date(timeIntervalSinceReferenceDate: 0)]))
    }

    func testDecodingTheConcreteClass() throws {
        let data = try JSONEncoder().encode(NSPredicate(format: "a == 1"))
        let comparison = try JSONDecoder().decode(NSComparisonPredicate.self, from: data)
        XCTAssertEqual(comparison.predicateOperatorType, .equalTo)
        XCTAssertThrowsError(try JSONDecoder().decode(NSCompoundPredicate.self, from: data))
        let compoundData = try JSONEncoder().encode(NSPredicate(format: "a == 1 OR b == 2"))
        XCTAssertEqual(try JSONDecoder().decode(NSCompoundPredicate.self, from: compoundData).compoundPredicateType, .or)
    }

    func testSubstitutionVariablesSurviveArchiving() throws {
        let template = NSPredicate(format: "age > $min")
        let decoded = try JSONDecoder().decode(NSPredicate.self, from: JSONEncoder().encode(template))
        XCTAssertTrue(decoded.evaluate(with: ["age": 5], substitutionVariables: ["min": 1]))
        XCTAssertEqual(decoded.withSubstitutionVariables(["min": 3]).predicateFormat, "age > 3")
    }

    func testUnarchivablePredicatesThrow() {
        XCTAssertThrowsError(try JSONEncoder().encode(NSPredicate { _, _ in true }))
        XCTAssertThrowsError(try JSONEncoder().encode(NSPredicate(format: "a == %@", Person("x", age: 1))))
        XCTAssertThrowsError(try JSONDecoder().decode(NSPredicate.self, from: Data(#""a ==""#.utf8)))
    }

    func testKeyedArchiverRoundTrip() throws {
        let original = NSPredicate(format: "ANY tags IN %@", ["a", "b"])
        let data = try NSKeyedArchiver.archivedData(withRootObject: original, requiringSecureCoding: true)
        let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClass: OpenCoreData.NSPredicate.self, from: data)
        XCTAssertEqual(decoded, original)
        XCTAssertTrue(decoded?.evaluate(with: ["tags": ["b"]]) ?? false)
    }
}
