@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Small integers and Booleans are handed out as shared `NSNumber`s (``SharedNumbers``), with
/// the value and `objCType` a new `NSNumber(value:)` would have; other values get new ones.
final class SharedNumbersTests: XCTestCase {
    func testSmallValuesAreSharedAndKeepTheirType() {
        for value: Int64 in [-128, -1, 0, 1, 42, 1023] {
            XCTAssertTrue(SharedNumbers.number(value) === SharedNumbers.number(value))
            XCTAssertEqual(SharedNumbers.number(value).int64Value, value)
            XCTAssertEqual(SharedNumbers.number(Int32(value)).int32Value, Int32(value))
            XCTAssertEqual(SharedNumbers.number(Int16(value)).int16Value, Int16(value))
        }
        XCTAssertEqual(String(cString: SharedNumbers.number(Int64(7)).objCType), String(cString: NSNumber(value: Int64(7)).objCType))
        XCTAssertEqual(String(cString: SharedNumbers.number(Int32(7)).objCType), String(cString: NSNumber(value: Int32(7)).objCType))
        XCTAssertEqual(String(cString: SharedNumbers.number(Int16(7)).objCType), String(cString: NSNumber(value: Int16(7)).objCType))
        XCTAssertTrue(SharedNumbers.number(true) === SharedNumbers.number(true))
        XCTAssertEqual(SharedNumbers.number(true).boolValue, true)
        XCTAssertEqual(SharedNumbers.number(false).boolValue, false)
    }

    func testValuesOutsideTheRangeAreNewNumbers() {
        for value: Int64 in [-129, 1024, Int64.max, Int64.min] {
            XCTAssertEqual(SharedNumbers.number(value).int64Value, value)
            XCTAssertFalse(SharedNumbers.number(value) === SharedNumbers.number(value))
        }
        XCTAssertEqual(SharedNumbers.number(Int32.min).int32Value, Int32.min)
        XCTAssertEqual(SharedNumbers.number(Int16.max).int16Value, Int16.max)
    }

    func testKeyValueCodingHandsOutTheSharedNumbers() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let e = stack.employee("Ann", salary: 5)
            let salary = try XCTUnwrap(e.value(forKey: "salary") as? NSNumber)
            XCTAssertTrue(salary === SharedNumbers.number(Int64(5)))
            XCTAssertEqual(e.value(forKey: "salary") as? Int, 5, "casts work as with any NSNumber")
        }
    }
}
