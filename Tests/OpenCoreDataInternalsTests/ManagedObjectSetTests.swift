@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The set behind a context's change sets: members found by identity and walked in the order
/// they were inserted. Internal (Apple's sets are `NSSet`s), so tested through `@testable`; the
/// last test checks the order's visible effect through Apple's API.
final class ManagedObjectSetTests: XCTestCase {
    private func objects(_ count: Int) -> [NSManagedObject] {
        let entity = CompanyModel.make().entitiesByName["Department"]!
        return (0..<count).map { _ in NSManagedObject(entity: entity, insertInto: nil) }
    }

    func testMembersAreFoundByIdentityAndWalkedInInsertionOrder() {
        let all = objects(5)
        var set = ManagedObjectSet()
        for object in all.reversed() { XCTAssertTrue(set.insert(object)) }
        XCTAssertFalse(set.insert(all[2]), "a member is not inserted twice")
        XCTAssertEqual(set.count, 5)
        XCTAssertEqual(Array(set).map(ObjectIdentifier.init), all.reversed().map(ObjectIdentifier.init),
                       "a second insert of a member leaves it where it was")
        XCTAssertTrue(set.contains(all[0]))
        XCTAssertEqual(set.set, Set(all))
    }

    func testRemovedMembersLeaveTheWalkAndComeBackAtTheEnd() {
        let all = objects(4)
        var set = ManagedObjectSet(all)
        XCTAssertTrue(set.remove(all[1]))
        XCTAssertFalse(set.remove(all[1]))
        XCTAssertFalse(set.contains(all[1]))
        XCTAssertEqual(Array(set).map(ObjectIdentifier.init), [all[0], all[2], all[3]].map(ObjectIdentifier.init))
        XCTAssertTrue(set.insert(all[1]))
        XCTAssertEqual(Array(set).map(ObjectIdentifier.init), [all[0], all[2], all[3], all[1]].map(ObjectIdentifier.init))
        set.removeAll()
        XCTAssertTrue(set.isEmpty)
        XCTAssertEqual(Array(set).count, 0)
    }

    /// Removals past half the slots compact them; order and membership must survive that.
    func testAgreesWithAnOrderedModelOverRandomInsertsAndRemovals() {
        let pool = objects(200)
        var set = ManagedObjectSet()
        var model: [ObjectIdentifier] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let object = pool.randomElement(using: &generator)!
            let id = ObjectIdentifier(object)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                XCTAssertEqual(set.insert(object), !model.contains(id))
                if !model.contains(id) { model.append(id) }
            case 1:
                // What the context does when an object's flag says it is not a member.
                guard !model.contains(id) else { continue }
                set.insertNew(object)
                model.append(id)
            default:
                XCTAssertEqual(set.remove(object), model.contains(id))
                model.removeAll { $0 == id }
            }
        }
        XCTAssertEqual(set.count, model.count)
        XCTAssertEqual(Array(set).map(ObjectIdentifier.init), model)
        for object in pool { XCTAssertEqual(set.contains(object), model.contains(ObjectIdentifier(object))) }
    }

    /// Members added unchecked are found once a lookup builds the index, and members added
    /// after that are found through it.
    func testUncheckedInsertsAreFoundBeforeAndAfterTheIndexIsBuilt() {
        let all = objects(4)
        var set = ManagedObjectSet()
        set.insertNew(all[0])
        set.insertNew(all[1])
        XCTAssertEqual(set.count, 2)
        XCTAssertTrue(set.contains(all[1]), "the first lookup builds the index from the members")
        XCTAssertFalse(set.contains(all[2]))
        set.insertNew(all[2])
        XCTAssertTrue(set.contains(all[2]), "an unchecked insert keeps a built index current")
        XCTAssertFalse(set.insert(all[0]))
        XCTAssertTrue(set.remove(all[1]))
        set.insertNew(all[3])
        XCTAssertEqual(Array(set).map(ObjectIdentifier.init), [0, 2, 3].map { ObjectIdentifier(all[$0]) })
    }

    func testUnionAndFilterKeepTheOrder() {
        let all = objects(6)
        let first = ManagedObjectSet(all[0..<4]), second = ManagedObjectSet([all[5], all[1], all[4]])
        XCTAssertEqual(Array(first.union(second)).map(ObjectIdentifier.init), [0, 1, 2, 3, 5, 4].map { ObjectIdentifier(all[$0]) })
        XCTAssertEqual(Array(first.filter { $0 !== all[2] }).map(ObjectIdentifier.init), [0, 1, 3].map { ObjectIdentifier(all[$0]) })
        XCTAssertEqual(Array(first.filter { $0 !== all[0] }).map(ObjectIdentifier.init), [1, 2, 3].map { ObjectIdentifier(all[$0]) })
        XCTAssertEqual(Array(first.filter { $0 !== all[3] }).map(ObjectIdentifier.init), [0, 1, 2].map { ObjectIdentifier(all[$0]) })
        XCTAssertEqual(Array(first.filter { _ in true }).map(ObjectIdentifier.init), [0, 1, 2, 3].map { ObjectIdentifier(all[$0]) })
        XCTAssertTrue(first.filter { _ in false }.isEmpty)
        var filtered = first.filter { $0 !== all[1] }
        XCTAssertTrue(filtered.contains(all[3]))
        XCTAssertFalse(filtered.contains(all[1]), "a filtered set indexes its own members")
        var gapped = first
        gapped.remove(all[1])
        XCTAssertEqual(Array(gapped.filter { $0 !== all[3] }).map(ObjectIdentifier.init), [0, 2].map { ObjectIdentifier(all[$0]) },
                       "members removed before the filter stay out")
    }

    /// `set` is made once and kept until the members change; every change makes it again.
    func testTheSetIsKeptUntilTheMembersChange() {
        let all = objects(4)
        var set = ManagedObjectSet(all[..<3])
        XCTAssertEqual(set.set, Set(all[..<3]))
        XCTAssertEqual(set.set, Set(all[..<3]), "kept")
        set.insertNew(all[3])
        XCTAssertEqual(set.set, Set(all), "an unchecked insert")
        XCTAssertFalse(set.insert(all[0]))
        XCTAssertEqual(set.set, Set(all), "a member inserted again changes nothing")
        set.remove(all[1])
        XCTAssertEqual(set.set, Set([all[0], all[2], all[3]]), "a removal")
        XCTAssertTrue(set.insert(all[1]))
        XCTAssertEqual(set.set, Set(all), "an insert")
        set.removeAll()
        XCTAssertEqual(set.set, [], "removing all")
    }

    /// Two sets (or a set and an array) hold the same objects in the same order, gaps of
    /// removed members aside.
    func testSameMembersInOrderAreComparedByAddress() {
        let all = objects(5)
        var a = ManagedObjectSet(all)
        var b = ManagedObjectSet(all)
        XCTAssertTrue(a.hasSameMembers(inOrder: b))
        XCTAssertTrue(a.hasSameMembers(inOrder: all))
        a.remove(all[1])
        XCTAssertFalse(a.hasSameMembers(inOrder: b), "a member fewer")
        XCTAssertTrue(a.hasSameMembers(inOrder: [all[0], all[2], all[3], all[4]]), "the gap is skipped")
        b.remove(all[1])
        XCTAssertTrue(a.hasSameMembers(inOrder: b))
        b.remove(all[4])
        XCTAssertTrue(b.insert(all[4]))
        XCTAssertTrue(a.hasSameMembers(inOrder: b), "the same order, gaps in other places")
        XCTAssertFalse(a.hasSameMembers(inOrder: [all[0], all[3], all[2], all[4]]), "another order")
        XCTAssertFalse(a.hasSameMembers(inOrder: [all[0], all[2], all[3], all[1]]), "another member")
        XCTAssertTrue(ManagedObjectSet().hasSameMembers(inOrder: []))
    }

    /// New objects get primary keys in the order they were made (the order a save walks them).
    func testSavedObjectsGetPrimaryKeysInTheOrderTheyWereMade() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let departments = (0..<100).map { stack.department("D\($0)") }
            try stack.context.save()
            let keys = departments.map { Int($0.objectID.uriRepresentation().lastPathComponent.dropFirst())! }
            XCTAssertEqual(keys, keys.sorted())
            XCTAssertEqual(Set(keys).count, 100)
        }
    }
}
