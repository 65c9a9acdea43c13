@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The table under the identity map and the row cache: a dictionary of object keys that keeps
/// runs of eight consecutive primary keys together. Internal (Apple has no such type), so tested
/// through `@testable`.
final class ObjectKeyTableTests: XCTestCase {
    private func key(_ primaryKey: Int64, entity: Int32 = 1, store: Int32 = 1) -> ObjectKey {
        ObjectKey(storeToken: store, rootEntity: entity, primaryKey: primaryKey)
    }

    func testItStoresFindsReplacesAndRemovesValuesLikeADictionary() throws {
        var table = ObjectKeyTable<String>()
        XCTAssertTrue(table.isEmpty)
        XCTAssertNil(table.updateValue("a", forKey: key(5)))
        XCTAssertEqual(table.updateValue("b", forKey: key(5)), "a", "a second value replaces the first and returns it")
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table[key(5)], "b")
        XCTAssertNil(table[key(4)], "a neighbour in the same run has no value")
        XCTAssertNil(table.index(forKey: key(4)))
        XCTAssertNil(table[key(5, entity: 2)], "the same primary key of another entity is another key")
        XCTAssertNil(table[key(5, store: 2)], "and of another store")

        let index = try XCTUnwrap(table.index(forKey: key(5)))
        table[index] += "!"
        XCTAssertEqual(table[key(5)], "b!", "a value changes in place through its index")
        XCTAssertEqual(table.remove(at: index), "b!")
        XCTAssertNil(table[key(5)])
        XCTAssertEqual(table.count, 0)
        XCTAssertNil(table.removeValue(forKey: key(5)))
    }

    func testLookupsThatAlternateBetweenRunsFindTheirOwnValues() {
        // The table remembers the run it found last; each lookup here asks for another one.
        var table = ObjectKeyTable<String>()
        table.updateValue("a3", forKey: key(3))
        XCTAssertNil(table[key(3, entity: 2)], "same run number, other entity")
        XCTAssertEqual(table[key(3)], "a3")
        XCTAssertNil(table[key(11)], "the next run, not in the table")
        table.updateValue("b3", forKey: key(3, entity: 2))
        table.updateValue("a11", forKey: key(11))
        XCTAssertEqual(table[key(3, entity: 2)], "b3")
        XCTAssertEqual(table[key(3)], "a3")
        XCTAssertEqual(table[key(11)], "a11")
        XCTAssertEqual(table.removeValue(forKey: key(3)), "a3")
        XCTAssertEqual(table[key(3, entity: 2)], "b3")
        XCTAssertNil(table[key(3)])
        table.updateValue("a4", forKey: key(4))
        XCTAssertEqual(table[key(4)], "a4", "a key into the emptied run, right after a lookup elsewhere")
        XCTAssertEqual(table.count, 3)
    }

    func testKeysOfEveryShapeRoundTrip() {
        var table = ObjectKeyTable<Int>()
        let keys = [key(0), key(7), key(8), key(-1), key(-8), key(-9), key(.max), key(.min),
                    key(3, entity: -4), key(3, store: -2), key(1 << 40, entity: .max, store: .min)]
        for (i, key) in keys.enumerated() { table.updateValue(i, forKey: key) }
        XCTAssertEqual(table.count, keys.count)
        for (i, key) in keys.enumerated() { XCTAssertEqual(table[key], i, "\(key)") }
        let listed = Dictionary(uniqueKeysWithValues: table.keysAndValues.map { ($0.key, $0.value) })
        XCTAssertEqual(listed, Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }),
                       "every key is rebuilt from its run and offset")
        XCTAssertEqual(Set(table.values), Set(keys.indices))
    }

    func testConsecutivePrimaryKeysShareRunsOfEightSlots() {
        var table = ObjectKeyTable<Int>()
        for pk in Int64(16)..<24 { table.updateValue(Int(pk), forKey: key(pk)) }
        XCTAssertEqual(table.capacity, 8, "primary keys 16 to 23 fill one run")
        table.updateValue(0, forKey: key(24))
        XCTAssertEqual(table.capacity, 16, "24 starts the next")
        table.updateValue(0, forKey: key(16, entity: 2))
        XCTAssertEqual(table.capacity, 24, "another entity's keys are other runs")
    }

    func testARunThatEmptiesKeepsItsPlaceForItsOwnKeys() {
        var table = ObjectKeyTable<Int>()
        for pk in Int64(0)..<16 { table.updateValue(Int(pk), forKey: key(pk)) }
        for pk in Int64(0)..<8 { table.removeValue(forKey: key(pk)) }
        for pk in Int64(0)..<8 { XCTAssertNil(table[key(pk)], "an emptied run shows no stale value") }
        for pk in Int64(0)..<8 { table.updateValue(-Int(pk), forKey: key(pk)) }
        XCTAssertEqual(table.capacity, 16, "the same keys coming back fill their old run")
        for pk in Int64(0)..<8 { XCTAssertEqual(table[key(pk)], -Int(pk)) }
        for pk in Int64(800)..<808 { table.updateValue(Int(pk), forKey: key(pk)) }
        XCTAssertEqual(table.capacity, 24, "other keys get a run of their own")
        for pk in Int64(8)..<16 { XCTAssertEqual(table[key(pk)], Int(pk)) }
        XCTAssertEqual(table.count, 24)
    }

    func testAMostlyEmptyTableIsRebuiltSmallerWithItsRemainingValues() {
        var table = ObjectKeyTable<Int>()
        let total = 20_000
        table.reserveCapacity(forKeys: (0..<Int64(total)).lazy.map { self.key($0) })
        for pk in 0..<Int64(total) { table.updateValue(Int(pk), forKey: key(pk)) }
        XCTAssertEqual(table.capacity, total)
        for pk in 0..<Int64(total) where pk % 1_000 != 0 { table.removeValue(forKey: key(pk)) }
        XCTAssertEqual(table.count, 20)
        XCTAssertLessThanOrEqual(table.capacity, ObjectKeyTable<Int>.largestCapacity(holding: 20),
                                 "empty runs outnumbering the live ones seven to one are dropped")
        XCTAssertLessThan(table.capacity, total / 8)
        for pk in stride(from: Int64(0), to: Int64(total), by: 1_000) { XCTAssertEqual(table[key(pk)], Int(pk)) }
        for pk in 0..<Int64(total) where pk % 1_000 != 0 { XCTAssertNil(table[key(pk)]) }
        for pk in stride(from: Int64(0), to: Int64(total), by: 1_000) { table.removeValue(forKey: key(pk)) }
        XCTAssertTrue(table.isEmpty)
        XCTAssertLessThanOrEqual(table.capacity, ObjectKeyTable<Int>.largestCapacity(holding: 0))
    }

    func testASmallTableIsNotRebuilt() {
        var table = ObjectKeyTable<Int>()
        let slots = ObjectKeyTable<Int>.largestCapacity(holding: 0)
        for pk in 0..<Int64(slots) { table.updateValue(0, forKey: key(pk)) }
        for pk in 1..<Int64(slots) { table.removeValue(forKey: key(pk)) }
        XCTAssertEqual(table.capacity, slots, "a table of \(slots) slots stays warm as it is")
        for pk in 1..<Int64(slots) { table.updateValue(1, forKey: key(pk)) }
        XCTAssertEqual(table.capacity, slots, "and its keys come back to their runs")
    }

    func testKeysThatComeAndGoDoNotGrowTheTableWithoutBound() {
        // Every key new, as when the batches of a long iteration are faulted in and released.
        var table = ObjectKeyTable<Int>()
        var largest = 0
        for batch in Int64(0)..<2_000 {
            let keys = (0..<Int64(50)).map { key(batch * 50 + $0 * 997) }  // scattered: a run each
            for k in keys { table.updateValue(0, forKey: k) }
            largest = max(largest, table.capacity)
            for k in keys { table.removeValue(forKey: k) }
        }
        XCTAssertTrue(table.isEmpty)
        XCTAssertLessThanOrEqual(largest, ObjectKeyTable<Int>.largestCapacity(holding: 50) + 50 * 8,
                                 "100,000 keys passed through; the table stays sized for the 50 at a time")
    }

    func testReservingRoomOneKeyAtATimeStillGrowsGeometrically() {
        // A single fault's row is cached with a reservation for one key. Reserving exactly
        // what is asked would copy the arrays on every new run.
        var table = ObjectKeyTable<Int>()
        var allocations = Set<Int>()
        for pk in stride(from: Int64(0), to: 8 * 4_000, by: 8) {
            table.reserveCapacity(forKeys: [key(pk)])
            table.updateValue(0, forKey: key(pk))
            allocations.insert(table.reservedSlots)
        }
        XCTAssertEqual(table.count, 4_000)
        XCTAssertLessThanOrEqual(allocations.count, 16, "4,000 runs: a dozen doublings, not 4,000 copies")
    }

    func testAManyThousandKeyTableAgreesWithADictionary() {
        var table = ObjectKeyTable<Int>()
        var reference: [ObjectKey: Int] = [:]
        var random = SplitMix64(seed: 7)
        for step in 0..<60_000 {
            let k = key(Int64(random.next() % 5_000), entity: Int32(random.next() % 3))
            switch random.next() % 3 {
            case 0, 1:
                XCTAssertEqual(table.updateValue(step, forKey: k), reference.updateValue(step, forKey: k))
            default:
                XCTAssertEqual(table.removeValue(forKey: k), reference.removeValue(forKey: k))
            }
        }
        XCTAssertEqual(table.count, reference.count)
        for (k, v) in reference { XCTAssertEqual(table[k], v) }
        XCTAssertEqual(table.keysAndValues.count, reference.count)
        table.updateEach { $0 = -$0 }
        for (k, v) in reference { XCTAssertEqual(table[k], -v, "updateEach changes every value in place, and only values") }
        XCTAssertEqual(table.count, reference.count)
    }

    // MARK: The run directory (ObjectKeyRunDirectory)

    func testDenseKeysAreNumberedWithoutHashing() {
        var table = ObjectKeyTable<Int>()
        for pk in Int64(1)...20_000 { table.updateValue(Int(pk), forKey: key(pk)) }
        for pk in Int64(1)...20_000 { table.updateValue(Int(pk), forKey: key(pk, entity: 2)) }
        XCTAssertEqual(table.scatteredRuns, 0, "a store's primary keys count up: each entity's runs are one section")
        for pk in Int64(1)...20_000 { XCTAssertEqual(table[key(pk, entity: 2)], Int(pk)) }
    }

    func testKeysBelowASectionStartAnotherOne() {
        // A table emptied from its low keys up keeps a few empty high runs; the same fetch run
        // again brings the low keys back below them.
        var table = ObjectKeyTable<Int>()
        for pk in Int64(8_000)..<8_400 { table.updateValue(1, forKey: key(pk)) }
        for pk in Int64(0)..<8_800 { table.updateValue(Int(pk), forKey: key(pk)) }
        XCTAssertEqual(table.scatteredRuns, 0)
        XCTAssertEqual(table.count, 8_800)
        for pk in Int64(0)..<8_800 { XCTAssertEqual(table[key(pk)], Int(pk), "\(pk)") }
        XCTAssertEqual(table.capacity, 8_800, "the runs of 8,000 to 8,399 were found again, not made twice")
    }

    func testScatteredKeysAndManyEntitiesFallBackToHashingAndStayCorrect() {
        var table = ObjectKeyTable<Int>()
        var reference: [ObjectKey: Int] = [:]
        let limit = Int32(ObjectKeyRunDirectory.sectionLimit)
        for entity in 0..<(limit + 4) {
            for i in Int64(0)..<200 {
                let k = key(i * i * 64 - 5_000, entity: entity)  // far apart, and negative ones
                table.updateValue(Int(i), forKey: k)
                reference[k] = Int(i)
            }
        }
        XCTAssertGreaterThan(table.scatteredRuns, 0, "keys no section may hold are hashed")
        XCTAssertEqual(table.count, reference.count)
        for (k, v) in reference { XCTAssertEqual(table[k], v) }
        for (k, v) in reference where v % 2 == 0 { XCTAssertEqual(table.removeValue(forKey: k), v) }
        for (k, v) in reference { XCTAssertEqual(table[k], v % 2 == 0 ? nil : v) }
    }
}
