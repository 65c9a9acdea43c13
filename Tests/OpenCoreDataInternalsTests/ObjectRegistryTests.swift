@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The identity map's bookkeeping, which the unretained context reference of every managed
/// object relies on: every object that names a context is one the context can find when it
/// goes away. Uses `@testable` to reach the registry.
final class ObjectRegistryTests: XCTestCase {
    /// Two objects given one ID (a store that hands out an existing record's ID as a new one):
    /// the second takes the key, the first is still the context's and must not be lost.
    func testAnObjectPushedOutOfItsKeyIsStillFound() throws {
        let stack = TestStack()
        let entity = try XCTUnwrap(stack.model.entitiesByName["Employee"])
        let id = NSManagedObjectID(entity: entity, store: stack.coordinator.persistentStores.first, primaryKey: 42)
        weak var weakFirst: NSManagedObject?
        weak var weakContext: NSManagedObjectContext?
        var first: NSManagedObject? = NSManagedObject(entity: entity, insertInto: nil)
        let second = NSManagedObject(entity: entity, insertInto: nil)
        autoreleasepoolCompat {
            let context = stack.newContext()
            weakContext = context
            context.performAndWait {
                for object in [first!, second] {
                    object.objectID = id
                    object.managedObjectContext = context
                    context.registry.register(object)
                }
                XCTAssertTrue(context.registry.object(for: id.key) === second, "the later one holds the key")
                XCTAssertEqual(context.registry.allObjects.count, 2, "the earlier one is still the context's")
                XCTAssertEqual(context.registeredObjects.count, 2)

                // The displaced object going away takes its entry with it, and only its own.
                weakFirst = first
                first = nil
                XCTAssertNil(weakFirst)
                XCTAssertEqual(context.registry.allObjects.count, 1)
                XCTAssertTrue(context.registry.object(for: id.key) === second)

                let third = NSManagedObject(entity: entity, insertInto: nil)
                third.objectID = id
                third.managedObjectContext = context
                context.registry.register(third)   // displaces `second`
                XCTAssertEqual(context.registry.allObjects.count, 2)
                context.registry.forget(third)
                third.managedObjectContext = nil
                XCTAssertEqual(context.registry.allObjects.map(ObjectIdentifier.init), [ObjectIdentifier(second)])
            }
        }
        XCTAssertNil(weakContext)
        XCTAssertNil(second.managedObjectContext, "the context cleared the displaced object's reference as it went")
    }

    func testRemoveAllForgetsDisplacedObjectsToo() throws {
        let stack = TestStack()
        let entity = try XCTUnwrap(stack.model.entitiesByName["Employee"])
        let id = NSManagedObjectID(entity: entity, store: stack.coordinator.persistentStores.first, primaryKey: 7)
        let objects = [NSManagedObject(entity: entity, insertInto: nil), NSManagedObject(entity: entity, insertInto: nil)]
        stack.context.performAndWait {
            for object in objects {
                object.objectID = id
                object.managedObjectContext = stack.context
                stack.context.registry.register(object)
            }
            stack.context.reset()
            XCTAssertEqual(stack.context.registry.allObjects.count, 0)
            XCTAssertTrue(objects.allSatisfy { $0.managedObjectContext == nil }, "reset lets go of both")
        }
    }
}
