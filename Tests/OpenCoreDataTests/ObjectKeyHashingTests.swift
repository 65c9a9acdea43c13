@testable import OpenCoreData
import XCTest

/// How the identity map's and the row cache's key hashes: runs of consecutive primary keys stay
/// together (for the CPU cache), and everything else is spread. Internal: Apple has no such key.
final class ObjectKeyHashingTests: XCTestCase {
    private func key(_ primaryKey: Int64, entity: Int32 = 1, store: Int32 = 1) -> ObjectKey {
        ObjectKey(storeToken: store, rootEntity: entity, primaryKey: primaryKey)
    }

    func testEightConsecutivePrimaryKeysHashToEightConsecutiveValues() {
        for seed in [0, 0x5eed, -12_345] {
            for runStart in stride(from: Int64(8_000), to: 8_080, by: 8) {
                let first = key(runStart)._rawHashValue(seed: seed)
                XCTAssertEqual(first & 7, 0, "a run starts at a multiple of eight")
                for offset in 1..<Int64(8) {
                    XCTAssertEqual(key(runStart + offset)._rawHashValue(seed: seed), first + Int(offset),
                                   "primary key \(runStart + offset) must sit next to \(runStart + offset - 1)")
                }
            }
        }
    }

    func testRunsEntitiesAndStoresAreSpreadOverTheTable() {
        // Bucket of each run in a table of 1,024 buckets: 1,000 runs should reach most of them.
        let runBuckets = Set((0..<Int64(1_000)).map { (key($0 * 8)._rawHashValue(seed: 0) >> 3) & 1_023 })
        XCTAssertGreaterThan(runBuckets.count, 550, "runs must not cluster (random placement reaches about 640)")

        let sameKeyElsewhere = [key(42, entity: 2), key(42, store: 2), key(42, entity: 1, store: 3)]
        let home = key(42)._rawHashValue(seed: 0) >> 3
        for other in sameKeyElsewhere {
            XCTAssertNotEqual(other._rawHashValue(seed: 0) >> 3, home, "\(other) must not share primary key 42's run")
        }
        XCTAssertNotEqual(key(42)._rawHashValue(seed: 1) >> 3, home, "the seed must move the runs")
    }

    func testAnIdentityMapSizedTableStillFindsAndRemovesEveryKey() {
        var table: [ObjectKey: Int] = [:]
        let keys = (1...Int64(50_000)).map { key($0) } + (1...Int64(1_000)).map { key($0 * 977, entity: 2) }
        for (i, key) in keys.enumerated() { table[key] = i }
        XCTAssertEqual(table.count, keys.count)
        for (i, key) in keys.enumerated() where i % 3 == 0 { XCTAssertEqual(table.removeValue(forKey: key), i) }
        for (i, key) in keys.enumerated() { XCTAssertEqual(table[key], i % 3 == 0 ? nil : i) }
    }
}
