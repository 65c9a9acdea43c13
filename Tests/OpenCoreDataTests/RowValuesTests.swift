@testable import OpenCoreData
import XCTest

/// `RowValues`, the values of a store row, snapshot or committed state: an array with copy on
/// write that frees values without references without destroying each. Internal (Apple has no
/// such type), so through `@testable`. What would break silently is a leak (a reference not
/// released) or a write seen through a copy, so both are checked.
final class RowValuesTests: XCTestCase {
    private final class Tracked {}

    func testAWriteDoesNotChangeACopy() {
        var values: RowValues = [.integer(1), .string("two"), .null]
        let copy = values
        values[0] = .integer(10)
        values[2] = .bool(true)
        guard case .integer(1) = copy[0], case .null = copy[2], case .integer(10) = values[0], case .bool(true) = values[2] else {
            return XCTFail("copy \(Array(copy)), values \(Array(values))")
        }
        XCTAssertEqual(values.count, 3)
        XCTAssertEqual(RowValues().count, 0)
    }

    func testFreeingReleasesTheReferencesItsValuesHold() {
        weak var made: Tracked?
        do {
            let tracked = Tracked()
            made = tracked
            _ = RowValues(count: 3) { $0 == 1 ? .boxed(AnyBox(tracked)) : .integer(Int64($0)) }
        }
        XCTAssertNil(made, "a value made with a reference is released with its storage")
    }

    func testAReferenceWrittenOverNumbersIsReleased() {
        weak var written: Tracked?
        do {
            var values = RowValues(count: 2) { .integer(Int64($0)) }
            let tracked = Tracked()
            written = tracked
            values[1] = .boxed(AnyBox(tracked))
            let copy = values   // the write after this one copies the storage with the reference
            values[0] = .double(1.5)
            XCTAssertNotNil(written)
            _ = copy
        }
        XCTAssertNil(written, "a reference written into a row of numbers is released with it, and with its copies")
    }

    func testValuesWithoutReferencesKeepTheirNumbers() {
        let values = RowValues(count: 4) { .integer(Int64($0 * 7)) }
        XCTAssertEqual(values.map { value -> Int64 in if case .integer(let n) = value { return n } else { return -1 } }, [0, 7, 14, 21])
        XCTAssertFalse(values.contains { $0.holdsReference })
        XCTAssertTrue(StoredValue.string("s").holdsReference)
        XCTAssertFalse(StoredValue.date(Date()).holdsReference)
    }
}
