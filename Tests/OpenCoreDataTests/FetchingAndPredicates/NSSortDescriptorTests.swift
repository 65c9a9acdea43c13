import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class NSSortDescriptorTests: XCTestCase {
    private typealias SortDescriptor = OpenCoreData.NSSortDescriptor

    /// Foundation's `NSSortDescriptor(keyPath:ascending:)`: keyed by the property's name, so a
    /// store sorts; a plain Swift type's path sorts in memory by the values it reads.
    func testSwiftKeyPathsNameTheirKeyOrCompareTheirValues() throws {
        let stack = TestStack()  // the key is named through the loaded model
        let byLastName = NSSortDescriptor(keyPath: \Employee.lastName, ascending: false)
        XCTAssertEqual(byLastName.key, "lastName")
        XCTAssertFalse(byLastName.ascending)
        try stack.context.performAndWait {
            for (first, last) in [("Ann", "Berg"), ("Bob", "Adams"), ("Cy", "Cole")] { stack.employee(first).lastName = last }
            try stack.context.save()
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.sortDescriptors = [byLastName]
            XCTAssertEqual(try stack.context.fetch(request).map(\.firstName), ["Cy", "Ann", "Bob"])
        }
        struct Item { var rank: Int }
        // (XCTest imports Foundation, whose NSSortDescriptor this file then sees too.)
        let byRank = OpenCoreData.NSSortDescriptor(keyPath: \Item.rank, ascending: true)
        XCTAssertNil(byRank.key)
        XCTAssertEqual(byRank.compare(Item(rank: 1), to: Item(rank: 2)), .orderedAscending)
        let byRankReversed = OpenCoreData.NSSortDescriptor(keyPath: \Item.rank, ascending: true) { a, b in
            (a as! Int) < (b as! Int) ? .orderedDescending : .orderedAscending
        }
        XCTAssertEqual(byRankReversed.compare(Item(rank: 1), to: Item(rank: 2)), .orderedDescending)
    }

    func testAscendingAndDescending() {
        let values: [[String: Any]] = [["n": 3], ["n": 1], ["n": 2]]
        XCTAssertEqual(values.sorted(using: [SortDescriptor(key: "n", ascending: true)]).map { $0["n"] as? Int }, [1, 2, 3])
        XCTAssertEqual(values.sorted(using: [SortDescriptor(key: "n", ascending: false)]).map { $0["n"] as? Int }, [3, 2, 1])
        let d = SortDescriptor(key: "n", ascending: true)
        XCTAssertEqual(d.compare(["n": 1], to: ["n": 2]), .orderedAscending)
        XCTAssertEqual(d.compare(["n": 2], to: ["n": 2.0]), .orderedSame)
        XCTAssertEqual((d.reversedSortDescriptor as? SortDescriptor)?.compare(["n": 1], to: ["n": 2]), .orderedDescending)
        XCTAssertEqual(d.key, "n")
        XCTAssertTrue(d.ascending)
    }

    func testNilSortsFirstAscendingAndLastDescending() {
        let values: [[String: Any]] = [["n": 2], [:], ["n": NSNull()], ["n": 1]]
        let up = values.sorted(using: [SortDescriptor(key: "n", ascending: true)]).map { $0["n"] as? Int }
        XCTAssertEqual(up, [nil, nil, 1, 2])
        let down = values.sorted(using: [SortDescriptor(key: "n", ascending: false)]).map { $0["n"] as? Int }
        XCTAssertEqual(down, [2, 1, nil, nil])
    }

    func testSelectors() {
        let names = ["b", "A", "file10", "file9", "a", "C"]
        XCTAssertEqual(names.sorted(using: [SortDescriptor(key: "self", ascending: true)]), ["A", "C", "a", "b", "file10", "file9"])
        let caseInsensitive = names.sorted(using: [SortDescriptor(key: "self", ascending: true, selector: Selector("caseInsensitiveCompare:"))])
        XCTAssertEqual(caseInsensitive.prefix(3).map { $0.lowercased() }, ["a", "a", "b"])
        let finder = ["file10", "File9", "file1"].sorted(using: [SortDescriptor(key: "self", ascending: true, selector: "localizedStandardCompare:")])
        XCTAssertEqual(finder, ["file1", "File9", "file10"])
        XCTAssertNotNil(SortDescriptor(key: "x", ascending: true, selector: "localizedCompare:").selector)
        let localized = ["b", "a"].sorted(using: [SortDescriptor(key: nil, ascending: true, selector: "localizedCaseInsensitiveCompare:")])
        XCTAssertEqual(localized, ["a", "b"])
    }

    func testComparatorAndMultipleKeysAndStability() {
        let people: [[String: Any]] = [["g": 1, "n": "b", "i": 0], ["g": 0, "n": "z", "i": 1], ["g": 1, "n": "a", "i": 2], ["g": 1, "n": "a", "i": 3]]
        let sorted = people.sorted(using: [SortDescriptor(key: "g", ascending: false), SortDescriptor(key: "n", ascending: true)])
        XCTAssertEqual(sorted.map { $0["i"] as? Int }, [2, 3, 0, 1])
        let byLength = SortDescriptor(key: "n", ascending: true) { a, b in
            let x = (a as? String)?.count ?? 0, y = (b as? String)?.count ?? 0
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        XCTAssertEqual(byLength.compare(["n": "aa"], to: ["n": "b"]), .orderedDescending)
    }

    func testKeyPathsThroughToOneAndKeyValueCodingObjects() {
        let a = Person("A", age: 1), b = Person("B", age: 2), bossZ = Person("Z", age: 9), bossY = Person("Y", age: 9)
        a.manager = bossZ
        b.manager = bossY
        let sorted = [a, b].sorted(using: [SortDescriptor(key: "manager.name", ascending: true)])
        XCTAssertEqual(sorted.map(\.name), ["B", "A"])
        XCTAssertEqual(NSArray(array: [3, 1, 2]).sortedArray(using: [SortDescriptor(key: nil, ascending: true)]).compactMap { $0 as? Int }, [1, 2, 3])
    }

    func testDatesAndMixedNumbers() {
        let d1 = Date(timeIntervalSinceReferenceDate: 5), d2 = Date(timeIntervalSinceReferenceDate: 1)
        XCTAssertEqual([d1, d2].sorted(using: [SortDescriptor(key: "self", ascending: true)]), [d2, d1])
        let mixed: [Any] = [2.5, 1, Int16(2)]
        XCTAssertEqual(mixed.sorted(using: [SortDescriptor(key: nil, ascending: true)]).map { "\($0)" }, ["1", "2", "2.5"])
    }

    func testEquality() {
        XCTAssertEqual(SortDescriptor(key: "a", ascending: true), SortDescriptor(key: "a", ascending: true))
        XCTAssertNotEqual(SortDescriptor(key: "a", ascending: true), SortDescriptor(key: "a", ascending: false))
        XCTAssertNotEqual(SortDescriptor(key: "a", ascending: true), SortDescriptor(key: "a", ascending: true, selector: "caseInsensitiveCompare:"))
    }
}

final class SortDescriptorBridgeTests: XCTestCase {
    struct Item { var rank: Int; var name: String }

    func testWrapsFoundationSortDescriptor() {
        let items = [Item(rank: 1, name: "b"), Item(rank: 3, name: "a"), Item(rank: 2, name: "c")]
        let reverse = OpenCoreData.NSSortDescriptor(SortDescriptor(\Item.rank, order: .reverse))
        XCTAssertEqual(items.sorted(using: [reverse]).map(\.rank), [3, 2, 1])
        let byName = OpenCoreData.NSSortDescriptor(SortDescriptor(\Item.name))
        XCTAssertEqual(items.sorted(using: [byName]).map(\.name), ["a", "b", "c"])
        XCTAssertNil(byName.key)
    }
}
