import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class ValueComparisonTests: XCTestCase {
    func testNumbersCompareAcrossTypes() {
        XCTAssertTrue(ValueComparison.isEqual(Int16(3), 3.0, options: []))
        XCTAssertTrue(ValueComparison.isEqual(Decimal(3), Int64(3), options: []))
        XCTAssertTrue(ValueComparison.isEqual(NSNumber(value: 2.5), Float(2.5), options: []))
        XCTAssertTrue(ValueComparison.isEqual(true, 1, options: []))
        XCTAssertFalse(ValueComparison.isEqual(3, 3.5, options: []))
        XCTAssertFalse(ValueComparison.isEqual("3", 3, options: []))
        XCTAssertEqual(ValueComparison.compare(UInt8(2), 10.5, options: []), .orderedAscending)
        XCTAssertEqual(ValueComparison.compare(Decimal(string: "10.25")!, 10, options: []), .orderedDescending)
        XCTAssertEqual(ValueComparison.compare(Int.max, Int.max - 1, options: []), .orderedDescending)
    }

    func testNilAndNSNull() {
        XCTAssertTrue(ValueComparison.isEqual(nil, NSNull(), options: []))
        XCTAssertTrue(ValueComparison.isEqual(nil, nil, options: []))
        XCTAssertFalse(ValueComparison.isEqual(nil, 0, options: []))
        XCTAssertFalse(ValueComparison.isEqual("", NSNull(), options: []))
        XCTAssertNil(ValueComparison.compare(nil, 1, options: []))
        XCTAssertNil(ValueComparison.compare(NSNull(), NSNull(), options: []))
    }

    func testStringOptions() {
        XCTAssertFalse(ValueComparison.isEqual("Apple", "apple", options: []))
        XCTAssertTrue(ValueComparison.isEqual("Apple", "apple", options: .caseInsensitive))
        XCTAssertFalse(ValueComparison.isEqual("café", "cafe", options: .caseInsensitive))
        XCTAssertTrue(ValueComparison.isEqual("café", "cafe", options: .diacriticInsensitive))
        XCTAssertTrue(ValueComparison.isEqual("CAFÉ", "cafe", options: [.caseInsensitive, .diacriticInsensitive]))
        // Canonically equivalent forms are equal without any option.
        XCTAssertTrue(ValueComparison.isEqual("caf\u{E9}", "cafe\u{301}", options: []))
        XCTAssertEqual(ValueComparison.compare("b", "a", options: []), .orderedDescending)
        XCTAssertEqual(ValueComparison.compare("B", "a", options: .caseInsensitive), .orderedDescending)
    }

    func testFoldingFunction() {
        XCTAssertEqual(PredicateStringFolding.fold("Crème BRÛLÉE", options: [.caseInsensitive, .diacriticInsensitive]), "creme brulee")
        XCTAssertEqual(PredicateStringFolding.fold("ABC", options: .caseInsensitive), "abc")
        XCTAssertEqual(PredicateStringFolding.fold("ABC", options: []), "ABC")
        XCTAssertEqual(PredicateStringFolding.fold("Ünïcödé", caseInsensitive: false, diacriticInsensitive: true), "Unicode")
        XCTAssertEqual(PredicateStringFolding.fold("Straße", options: .caseInsensitive), PredicateStringFolding.fold("STRASSE", options: .caseInsensitive))
    }

    func testDatesDataAndObjects() {
        let d1 = Date(timeIntervalSinceReferenceDate: 10), d2 = Date(timeIntervalSinceReferenceDate: 20)
        XCTAssertEqual(ValueComparison.compare(d1, d2, options: []), .orderedAscending)
        XCTAssertTrue(ValueComparison.isEqual(d1, Date(timeIntervalSinceReferenceDate: 10), options: []))
        XCTAssertFalse(ValueComparison.isEqual(d1, 10, options: []))
        let uuid = UUID()
        XCTAssertTrue(ValueComparison.isEqual(uuid, uuid, options: []))
        XCTAssertFalse(ValueComparison.isEqual(uuid, UUID(), options: []))
        let ann = Person("Ann", age: 1)
        XCTAssertTrue(ValueComparison.isEqual(ann, ann, options: []))
        XCTAssertFalse(ValueComparison.isEqual(ann, Person("Ann", age: 1), options: []))
        XCTAssertTrue(ValueComparison.isEqual([1, 2], [1.0, 2.0], options: []))
        XCTAssertFalse(ValueComparison.isEqual([1, 2], [2, 1], options: []))
        XCTAssertTrue(ValueComparison.isEqual(Set([1, 2]), Set([2, 1]), options: []))
    }

    func testNumericValueArithmeticStaysExactForIntegers() {
        XCTAssertEqual(NumericValue(2)?.description, "2")
        XCTAssertEqual(NumericValue(Int64.max)?.description, "\(Int64.max)")
        XCTAssertNil(NumericValue("2"))
        XCTAssertNil(NumericValue(Date()))
    }
}

final class PredicateStringMatchingTests: XCTestCase {
    func testLikeAndMatchesHelpersAgreeWithPredicates() throws {
        XCTAssertTrue(PredicateStringMatching.like("Crème", pattern: "cr?me*", options: [.caseInsensitive, .diacriticInsensitive]))
        XCTAssertFalse(PredicateStringMatching.like("Crème", pattern: "cr?me*", options: []))
        XCTAssertTrue(try PredicateStringMatching.matches("abc123", regex: "[a-z]+[0-9]+", options: []))
        XCTAssertFalse(try PredicateStringMatching.matches("abc123x", regex: "[a-z]+[0-9]+", options: []))
        XCTAssertTrue(try PredicateStringMatching.matches("ABC", regex: "abc", options: .caseInsensitive))
        XCTAssertThrowsError(try PredicateStringMatching.matches("x", regex: "(", options: []))
        for (subject, pattern) in [("hello", "h*o"), ("hello", "h?llo"), ("hello", "*z*"), ("", "*"), ("a", "")] {
            XCTAssertEqual(PredicateStringMatching.like(subject, pattern: pattern, options: []),
                           NSPredicate(format: "SELF LIKE %@", pattern).evaluate(with: subject), "\(subject) LIKE \(pattern)")
        }
    }
}

final class PredicateEquatableTests: XCTestCase {
    struct RecordID: Hashable { let raw: Int }
    final class Record: PredicateEquatable {
        let id: RecordID
        init(_ raw: Int) { id = RecordID(raw: raw) }
        func isPredicateEqual(to other: Any) -> Bool? { (other as? RecordID).map { $0 == id } }
    }

    func testObjectsCanEqualTheirIdentifiers() {
        let record = Record(7)
        XCTAssertTrue(ValueComparison.isEqual(record, RecordID(raw: 7), options: []))
        XCTAssertTrue(ValueComparison.isEqual(RecordID(raw: 7), record, options: []))
        XCTAssertFalse(ValueComparison.isEqual(record, RecordID(raw: 8), options: []))
        XCTAssertTrue(ValueComparison.isEqual(record, record, options: []), "nil falls back to identity")
        XCTAssertFalse(ValueComparison.isEqual(record, Record(7), options: []))
        XCTAssertTrue(NSPredicate(format: "SELF IN %@", [RecordID(raw: 1), RecordID(raw: 7)]).evaluate(with: record))
    }
}
