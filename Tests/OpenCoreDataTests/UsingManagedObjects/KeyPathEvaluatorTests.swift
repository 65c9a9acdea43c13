import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

final class KeyPathEvaluatorTests: XCTestCase {
    private func company() -> [String: Any] {
        ["name": "Acme",
         "employees": [["name": "Ann", "salary": 10], ["name": "Bob", "salary": 32], ["name": "Cy", "salary": 32]],
         "ceo": ["name": "Zed", "address": ["city": "Oslo"]]]
    }

    func testReadsNestedDictionaries() throws {
        XCTAssertEqual(try KeyPathEvaluator.value(of: company(), forKeyPath: "ceo.address.city") as? String, "Oslo")
        XCTAssertNil(try KeyPathEvaluator.value(of: company(), forKeyPath: "ceo.missing"))
        XCTAssertNil(try KeyPathEvaluator.value(of: nil, forKeyPath: "a.b"))
    }

    func testMapsKeysOverArrays() throws {
        let names = try KeyPathEvaluator.value(of: company(), forKeyPath: "employees.name") as? [Any]
        XCTAssertEqual(names?.compactMap { $0 as? String }, ["Ann", "Bob", "Cy"])
    }

    func testArrayMappingPutsNSNullForNil() throws {
        let values = try KeyPathEvaluator.value(of: [["a": 1], ["b": 2]], forKeyPath: "a") as? [Any]
        XCTAssertEqual(values?.count, 2)
        XCTAssertEqual(values?.first as? Int, 1)
        XCTAssertTrue(values?.last is NSNull)
    }

    func testMapsKeysOverSetsOfKeyValueCodingObjects() throws {
        let ann = Person("Ann", age: 30), bob = Person("Bob", age: 40), cy = Person("Cy", age: 40)
        ann.friends = [bob, cy]
        let ages = try KeyPathEvaluator.value(of: ann, forKeyPath: "friends.age") as? Set<AnyHashable>
        XCTAssertEqual(ages, [40])  // a set: duplicates collapse
        XCTAssertEqual(try KeyPathEvaluator.value(of: ann, forKeyPath: "friends.@count") as? Int, 2)
        XCTAssertEqual(try KeyPathEvaluator.value(of: ann, forKeyPath: "friends.@sum.age") as? Int, 80)
    }

    func testCollectionOperators() throws {
        let c = company()
        XCTAssertEqual(try KeyPathEvaluator.value(of: c, forKeyPath: "employees.@count") as? Int, 3)
        XCTAssertEqual(try KeyPathEvaluator.value(of: c, forKeyPath: "employees.@sum.salary") as? Int, 74)
        XCTAssertEqual(try KeyPathEvaluator.value(of: c, forKeyPath: "employees.@avg.salary") as? Double ?? 0, 74.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(try KeyPathEvaluator.value(of: c, forKeyPath: "employees.@min.salary") as? Int, 10)
        XCTAssertEqual(try KeyPathEvaluator.value(of: c, forKeyPath: "employees.@max.name") as? String, "Cy")
        let distinct = try KeyPathEvaluator.value(of: c, forKeyPath: "employees.@distinctUnionOfObjects.salary") as? [Any]
        XCTAssertEqual(distinct?.compactMap { $0 as? Int }, [10, 32])
        let union = try KeyPathEvaluator.value(of: c, forKeyPath: "employees.@unionOfObjects.salary") as? [Any]
        XCTAssertEqual(union?.count, 3)
    }

    func testCountAloneAndOnRootCollections() throws {
        XCTAssertEqual(try KeyPathEvaluator.value(of: [1, 2, 3], forKeyPath: "@count") as? Int, 3)
        XCTAssertEqual(try KeyPathEvaluator.value(of: [1, 2, 3], forKeyPath: "@sum") as? Int, 6)
        XCTAssertEqual(try KeyPathEvaluator.value(of: Set([1.5, 2.5]), forKeyPath: "@max") as? Double, 2.5)
        XCTAssertEqual(try KeyPathEvaluator.value(of: NSArray(array: [1, 2]), forKeyPath: "@count") as? Int, 2)
    }

    func testOperatorsOnEmptyCollections() throws {
        let empty: [Int] = []
        XCTAssertEqual(try KeyPathEvaluator.value(of: empty, forKeyPath: "@sum") as? Int, 0)
        XCTAssertEqual(try KeyPathEvaluator.value(of: empty, forKeyPath: "@avg") as? Int, 0)
        XCTAssertNil(try KeyPathEvaluator.value(of: empty, forKeyPath: "@max"))
    }

    func testArrayAndSetUnionOperators() throws {
        let nested: [[String: Any]] = [["tags": ["a", "b"]], ["tags": ["b", "c"]]]
        let all = try KeyPathEvaluator.value(of: nested, forKeyPath: "@unionOfArrays.tags") as? [Any]
        XCTAssertEqual(all?.compactMap { $0 as? String }, ["a", "b", "b", "c"])
        let distinct = try KeyPathEvaluator.value(of: nested, forKeyPath: "@distinctUnionOfArrays.tags") as? [Any]
        XCTAssertEqual(distinct?.compactMap { $0 as? String }, ["a", "b", "c"])
        let sets = try KeyPathEvaluator.value(of: nested, forKeyPath: "@distinctUnionOfSets.tags") as? Set<AnyHashable>
        XCTAssertEqual(sets, ["a", "b", "c"])
    }

    func testUnknownKeyThrowsKeyValueCodingError() {
        XCTAssertThrowsError(try KeyPathEvaluator.value(of: Person("Ann", age: 1), forKeyPath: "nmae")) { error in
            let nsError = error as NSError
            XCTAssertEqual(nsError.domain, NSCocoaErrorDomain)
            XCTAssertEqual(nsError.code, 1024)
            XCTAssertTrue(nsError.localizedDescription.contains("nmae"))
        }
        XCTAssertThrowsError(try KeyPathEvaluator.value(of: 42, forKeyPath: "foo"))
        XCTAssertThrowsError(try KeyPathEvaluator.value(of: [1, 2], forKeyPath: "@bogus"))
        XCTAssertThrowsError(try KeyPathEvaluator.value(of: "text", forKeyPath: "@count"), "strings are not collections")
    }

    func testToOneChainsAndOptionalValues() throws {
        let ann = Person("Ann", age: 30), boss = Person("Boss", age: 50)
        ann.manager = boss
        XCTAssertEqual(try KeyPathEvaluator.value(of: ann, forKeyPath: "manager.name") as? String, "Boss")
        XCTAssertNil(try KeyPathEvaluator.value(of: boss, forKeyPath: "manager.name"))
        XCTAssertNil(try KeyPathEvaluator.value(of: boss, forKeyPath: "nickname"))
        let optionalDictionary: [String: Any?] = ["a": nil, "b": 2]
        XCTAssertNil(try KeyPathEvaluator.value(of: optionalDictionary, forKeyPath: "a"))
        XCTAssertEqual(try KeyPathEvaluator.value(of: optionalDictionary, forKeyPath: "b") as? Int, 2)
    }

    func testNSDictionaryAndBuiltinAccessors() throws {
        let dictionary = NSDictionary(dictionary: ["name": "ann", "n": 7])
        XCTAssertEqual(try KeyPathEvaluator.value(of: dictionary, forKeyPath: "name.length") as? Int, 3)
        XCTAssertEqual(try KeyPathEvaluator.value(of: dictionary, forKeyPath: "name.uppercaseString") as? String, "ANN")
        XCTAssertEqual(try KeyPathEvaluator.value(of: dictionary, forKeyPath: "n.doubleValue") as? Double, 7.0)
        XCTAssertNil(try KeyPathEvaluator.value(of: ["x": 1], forKeyPath: "self.x"), "dictionaries look 'self' up as a key")
        XCTAssertEqual(try KeyPathEvaluator.value(of: Person("Ann", age: 3), forKeyPath: "self.age") as? Int, 3)
    }

    func testSingleKeyDoesNotSplitDots() throws {
        XCTAssertEqual(try KeyPathEvaluator.value(of: ["a.b": 1], forKey: "a.b") as? Int, 1)
        XCTAssertNil(try KeyPathEvaluator.value(of: ["a.b": 1], forKeyPath: "a.b"))
    }

    func testKVCValueKindsClassification() {
        XCTAssertNil(KVCValueKinds.collection("abc"))
        XCTAssertNil(KVCValueKinds.collection(Data([1, 2])))
        XCTAssertNil(KVCValueKinds.collection(["k": 1]))
        XCTAssertEqual(KVCValueKinds.collection(Set([1, 2]))?.kind, .set)
        XCTAssertEqual(KVCValueKinds.collection([1, 2])?.kind, .array)
        XCTAssertEqual(KVCValueKinds.collection(NSOrderedSet(array: [1]))?.kind, .orderedSet)
        XCTAssertTrue(KVCValueKinds.isNull(NSNull()))
        let doubleOptional: Int?? = .some(nil)
        XCTAssertTrue(KVCValueKinds.isNull(doubleOptional as Any))
        XCTAssertFalse(KVCValueKinds.isNull(0))
    }

    /// A key path through two to-many levels, the inner one ordered: each project gives an
    /// `NSOrderedSet` of milestones, and the employee's set of projects a set of those. Linux's
    /// `NSOrderedSet` compares by contents but hashes by identity, so the empty ones (projects
    /// without milestones) used to be equal members of a Swift `Set` with different hashes,
    /// which traps once the set grows ("Duplicate elements of type 'AnyHashable'").
    func testNestedToManyKeyPathsThroughOrderedSetsGiveDistinctCollections() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let ann = stack.employee("Ann")
            var titles = Set<String>()
            var milestoneCount = 0
            var projects = Set<Project>()
            for i in 0..<40 {
                let project = Project(context: stack.context)
                project.title = "P\(i)"
                // Every third project has no milestones; titles repeat across projects.
                project.milestones = (0..<(i % 3)).map { j in
                    let m = Milestone(context: stack.context)
                    m.title = "M\((i + j) % 7)"
                    titles.insert(m.title!)
                    milestoneCount += 1
                    return m
                }
                projects.insert(project)
            }
            ann.projects = projects
            // A set of the projects' milestone collections: the 14 empty ones are one member.
            let collections = try XCTUnwrap(ann.value(forKeyPath: "projects.milestones"))
            let members = try XCTUnwrap(KVCValueKinds.collection(collections)?.elements)
            XCTAssertEqual(members.count, 26 + 1)
            XCTAssertEqual(members.filter { ($0 as? NSOrderedSet)?.count == 0 }.count, 1)
            XCTAssertEqual(ann.value(forKeyPath: "projects.milestones.@count") as? Int, 27)
            // Set-of-sets of titles, flattened by the operators.
            XCTAssertNotNil(ann.value(forKeyPath: "projects.milestones.title"))
            let union = ann.value(forKeyPath: "projects.@distinctUnionOfSets.milestones") as? Set<AnyHashable>
            XCTAssertEqual(union?.count, milestoneCount)
            let titleUnion = ann.value(forKeyPath: "projects.@distinctUnionOfArrays.milestones.title") as? [Any]
            XCTAssertEqual(Set(titleUnion?.compactMap { $0 as? String } ?? []), titles)
            XCTAssertEqual(titleUnion?.count, titles.count, "distinct")
        }
    }

    /// Members equal by contents collapse without their hashes being trusted: arrays, ordered
    /// sets, sets of different classes holding the same values, numbers of different types.
    func testDistinctUnionsOfCollectionsCompareContents() throws {
        let groups: [Any] = [NSOrderedSet(), NSOrderedSet(), NSOrderedSet(array: [1, 2]), NSOrderedSet(array: [1, 2]),
                             NSOrderedSet(array: [2, 1]), [1, 2] as [Any], NSArray(array: [1.0, 2.0]), NSOrderedSet(array: [3])]
        let distinct = try XCTUnwrap(KeyPathEvaluator.value(of: groups, forKeyPath: "@distinctUnionOfObjects.self") as? [Any])
        XCTAssertEqual(distinct.count, 4, "empty; [1, 2] (and [1.0, 2.0]); [2, 1]; [3]")
        let values = try XCTUnwrap(KeyPathEvaluator.value(of: [1, 1.0, NSNumber(value: 1), "a", NSString(string: "a")] as [Any],
                                                          forKeyPath: "@distinctUnionOfObjects.self") as? [Any])
        XCTAssertEqual(values.count, 2)
        // A set of many equal collections, mapped from a set: one member, no trap.
        let people = Set((0..<64).map { Person("P\($0)", age: $0) })
        let friends = try KeyPathEvaluator.value(of: people, forKeyPath: "friends")
        XCTAssertEqual(KVCValueKinds.collection(friends)?.elements.count, 1)
    }
}
