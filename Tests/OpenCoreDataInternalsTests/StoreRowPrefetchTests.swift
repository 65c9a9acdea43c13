@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The prefetch hint a fetch gives while it makes objects of its rows
/// (`UnsafeBufferPointer<StoreRow>.prefetchValues(at:)`). A hint has no visible effect, so what
/// is tested is that it points at the right memory: the values' storage, not some other word
/// of the row. Internal (Apple has no such thing), so through `@testable`.
final class StoreRowPrefetchTests: XCTestCase {
    func testTheHintAddressesTheRowsValueStorage() throws {
        let entity = NSEntityDescription(name: "Row", properties: [])
        let values: [StoredValue] = [.integer(1), .integer(2), .string("three")]
        let rows = (1...3).map { StoreRow(objectID: NSManagedObjectID(entity: entity, store: nil, primaryKey: $0), values: RowValues(values + [.integer($0)]), version: 1) }
        XCTAssertGreaterThanOrEqual(StoreRow.valuesStorageOffset, 0, "row values are one reference on this platform")
        try rows.withUnsafeBufferPointer { buffer in
            for i in buffer.indices {
                let storage = try XCTUnwrap(UnsafeRawPointer(buffer.baseAddress! + i).load(fromByteOffset: StoreRow.valuesStorageOffset, as: UnsafeRawPointer?.self))
                // The hinted line starts with the storage's reference count, the word about to change.
                XCTAssertEqual(storage, buffer[i].values.storageAddress, "row \(i)")
                buffer.prefetchValues(at: i)
            }
            buffer.prefetchValues(at: buffer.count)  // past the end: nothing
        }
    }
}
