@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `RowValues`, the values of a store row, snapshot or committed state: a copy-on-write
/// collection that keeps numbers, Booleans, dates and nulls in 8-byte cells and other values in
/// places after them. Internal (Apple has no such type), so through `@testable`. What would
/// break silently is a value read back different, a leak (a reference not released), or a
/// write seen through a copy, so each is checked.
final class RowValuesTests: XCTestCase {
    private final class Tracked {}

    private func describe(_ values: RowValues) -> String { "\(Array(values))" }

    func testEveryKindOfValueReadsBackAsWritten() {
        let date = Date(timeIntervalSinceReferenceDate: 123.5)
        let id = NSManagedObjectID(entity: NSEntityDescription(name: "E", properties: []), store: nil, primaryKey: 7)
        let written: [StoredValue] = [.null, .integer(-5), .double(.nan), .double(-0.0), .bool(true), .bool(false), .date(date),
                                      .string("text"), .data(Data([1, 2])), .decimal(Decimal(string: "1.25")!), .uuid(UUID()),
                                      .url(URL(string: "x-coredata://a")!), .objectID(id), .objectIDs([id]), .integer(.min)]
        for values in [RowValues(written), RowValues(count: written.count) { written[$0] }] {
            XCTAssertEqual(values.count, written.count)
            for (slot, value) in written.enumerated() {
                XCTAssertTrue(values[slot].isSame(as: value), "slot \(slot): \(values[slot]) read, \(value) written")
            }
            XCTAssertEqual(values[3].isSame(as: .double(0.0)), true)
            if case .double(let d) = values[3] { XCTAssertEqual(d.sign, .minus, "a cell keeps a double's bits") }
        }
        XCTAssertEqual(RowValues(written).integer(at: 1), -5)
        XCTAssertNil(RowValues(written).integer(at: 0), "null is no integer")
        XCTAssertNil(RowValues(written).integer(at: 7), "text is no integer")
        XCTAssertEqual(RowValues(written).bool(at: 4), true)
        XCTAssertNil(RowValues(written).double(at: 1), "an integer is not read as a double")
    }

    func testAWriterWithTooFewPlacesKeepsEveryValue() {
        let values = RowValues(count: 3, placesForOtherValues: 1) { writer in
            writer.set(.string("a"), at: 0)
            writer.setInteger(1, at: 1)
            writer.set(.data(Data([2])), at: 2)   // no place left: laid out again
        }
        XCTAssertEqual(describe(values), describe([.string("a"), .integer(1), .data(Data([2]))]))
        let unused = RowValues(count: 2, placesForOtherValues: 2) { writer in
            writer.setInteger(1, at: 0)
            writer.set(.null, at: 1)              // places nobody takes stay null
        }
        XCTAssertEqual(describe(unused), describe([.integer(1), .null]))
    }

    func testAWriteDoesNotChangeACopy() {
        var values: RowValues = [.integer(1), .string("two"), .null]
        let copy = values
        values[0] = .integer(10)
        values[1] = .string("deux")
        values[2] = .bool(true)
        XCTAssertEqual(describe(copy), describe([.integer(1), .string("two"), .null]))
        XCTAssertEqual(describe(values), describe([.integer(10), .string("deux"), .bool(true)]))
        XCTAssertEqual(RowValues().count, 0)
    }

    func testAValueThatNeedsAPlaceCanReplaceANumber() {
        var values = RowValues(count: 3) { .integer(Int64($0)) }
        values[1] = .string("one")       // no place yet: laid out again
        values[1] = .string("uno")       // in its place
        values[2] = .objectIDs([])
        XCTAssertEqual(describe(values), describe([.integer(0), .string("uno"), .objectIDs([])]))
    }

    func testFreeingReleasesTheReferencesItsValuesHold() {
        weak var made: Tracked?
        do {
            let tracked = Tracked()
            made = tracked
            let values = RowValues(count: 3) { $0 == 1 ? .boxed(AnyBox(tracked)) : .integer(Int64($0)) }
            XCTAssertNotNil(made)
            _ = values
        }
        XCTAssertNil(made, "a value made with a reference is released with its storage")
    }

    func testReferencesWrittenLaterAreReleased() {
        weak var overNumber: Tracked?
        weak var replaced: Tracked?
        /// A box holding a new object that only the box references.
        func boxed(_ reference: inout Tracked?) -> StoredValue {
            let tracked = Tracked()
            reference = tracked
            return .boxed(AnyBox(tracked))
        }
        do {
            var values = RowValues(count: 3) { .integer(Int64($0)) }
            values[1] = boxed(&overNumber)
            values[2] = boxed(&replaced)
            XCTAssertNotNil(replaced)
            values[2] = .integer(2)          // its place lets go of the box
            XCTAssertNil(replaced, "a place a number replaces releases its value")
            let copy = values                // the next write copies the storage with `overNumber`
            values[0] = .double(1.5)
            XCTAssertNotNil(overNumber)
            _ = copy
        }
        XCTAssertNil(overNumber, "a reference written into a row of numbers is released with it and its copies")
    }
}
