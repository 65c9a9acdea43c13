@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `UnretainedReference` (internals): it does not keep its object alive, compares by identity
/// without touching the object, and hands the object out while it lives.
final class UnretainedReferenceTests: XCTestCase {
    private final class Box { let value: Int; init(_ value: Int) { self.value = value } }

    func testItNeitherRetainsNorLosesItsObject() {
        var box: Box? = Box(7)
        weak var watcher = box
        let reference = UnretainedReference(box!)
        XCTAssertEqual(reference.object.value, 7)
        XCTAssertEqual(reference.withObject { $0.value + 1 }, 8)
        box = nil
        XCTAssertNil(watcher, "the reference kept nothing alive")
    }

    func testIdentityIsComparedByAddress() {
        let a = Box(1), b = Box(1)
        let reference = UnretainedReference(a)
        XCTAssertTrue(reference.refers(to: a))
        XCTAssertFalse(reference.refers(to: b))
        XCTAssertTrue(reference.refers(toSameObjectAs: UnretainedReference(a)))
        XCTAssertFalse(reference.refers(toSameObjectAs: UnretainedReference(b)))
    }
}
