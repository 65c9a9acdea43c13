import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Uniqueness constraints at save: duplicates among the objects being saved and against records
/// already in the store reach the merge policy as NSConstraintConflicts; the default policy
/// fails the save with 133021, the others merge the duplicates into one record. Every check
/// runs on the in-memory and the SQLite store and reads the outcome from a fresh stack.
final class UniquenessConstraintTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-unique")
    }

    /// Client (unique `id`; VIPClient inherits it) ⇄ Order (cascade from Client), and Account
    /// (unique `bank` + `number`).
    private static func makeModel() -> NSManagedObjectModel {
        let client = NSEntityDescription(name: "Client")
        let vip = NSEntityDescription(name: "VIPClient")
        let order = NSEntityDescription(name: "Order")
        let account = NSEntityDescription(name: "Account")
        let orders = NSRelationshipDescription()
        orders.name = "orders"; orders.maxCount = 0; orders.deleteRule = .cascadeDeleteRule
        let owner = NSRelationshipDescription()
        owner.name = "client"; owner.maxCount = 1; owner.deleteRule = .nullifyDeleteRule
        orders.destinationEntity = order; orders.inverseRelationship = owner
        owner.destinationEntity = client; owner.inverseRelationship = orders
        client.properties = [NSAttributeDescription(name: "id", type: .stringAttributeType),
                             NSAttributeDescription(name: "name", type: .stringAttributeType),
                             NSAttributeDescription(name: "city", type: .stringAttributeType), orders]
        client.uniquenessConstraints = [["id"]]
        vip.properties = [NSAttributeDescription(name: "level", type: .integer64AttributeType, defaultValue: 0)]
        client.subentities = [vip]
        order.properties = [NSAttributeDescription(name: "title", type: .stringAttributeType), owner]
        account.properties = [NSAttributeDescription(name: "bank", type: .stringAttributeType),
                              NSAttributeDescription(name: "number", type: .integer64AttributeType, defaultValue: 0),
                              NSAttributeDescription(name: "holder", type: .stringAttributeType)]
        account.uniquenessConstraints = [["bank", "number"]]
        let model = NSManagedObjectModel()
        model.entities = [client, vip, order, account]
        return model
    }

    /// A coordinator on one store kind; `fresh()` gives a context that shares nothing with the
    /// saving one (SQLite: a new coordinator on the file).
    private final class Stack {
        let model = UniquenessConstraintTests.makeModel()
        let sqliteURL: URL?
        let coordinator: NSPersistentStoreCoordinator

        init(sqliteURL: URL?) throws {
            self.sqliteURL = sqliteURL
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: sqliteURL == nil ? NSInMemoryStoreType : NSSQLiteStoreType, configurationName: nil, at: sqliteURL, options: nil)
        }

        func context(_ policy: Any? = nil) -> NSManagedObjectContext {
            let c = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            c.persistentStoreCoordinator = coordinator
            if let policy { c.mergePolicy = policy }
            return c
        }

        func fresh() throws -> NSManagedObjectContext {
            guard let sqliteURL else { return context() }
            let other = NSPersistentStoreCoordinator(managedObjectModel: model)
            try other.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: sqliteURL, options: nil)
            let c = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            c.persistentStoreCoordinator = other
            return c
        }

        func insert(_ entity: String, _ values: [String: Any], in context: NSManagedObjectContext) -> NSManagedObject {
            let object = NSManagedObject(entity: model.entitiesByName[entity]!, insertInto: context)
            for (key, value) in values { object.setValue(value, forKey: key) }
            return object
        }

        /// Inserts client "c1" named `name` (with `city` unless nil) and one order titled `order`
        /// for it — the stored record and the duplicate that collides with it — into `context`.
        func insertClient(_ name: String, city: String?, order: String, in context: NSManagedObjectContext) -> NSManagedObject {
            var values: [String: Any] = ["id": "c1", "name": name]
            if let city { values["city"] = city }
            let client = insert("Client", values, in: context)
            insert("Order", ["title": order], in: context).setValue(client, forKey: "client")
            return client
        }

        /// Every row of `entity` (sub-entities included) from a fresh context, as dictionaries.
        func rows(_ entity: String, sortedBy key: String = "id") throws -> [[String: Any]] {
            let c = try fresh()
            return try c.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
                return try c.fetch(request).map { object in
                    var values: [String: Any] = ["objectID": object.objectID.uriRepresentation(), "entity": object.entity.name ?? "?"]
                    for name in object.entity.attributesByName.keys { values[name] = object.value(forKey: name) }
                    if object.entity.relationshipsByName["orders"] != nil, let orders = object.value(forKey: "orders") as? Set<NSManagedObject> {
                        values["orders"] = orders.compactMap { $0.value(forKey: "title") as? String }.sorted()
                    }
                    if object.entity.name == "Order" { values["client"] = (object.value(forKey: "client") as? NSManagedObject)?.value(forKey: "id") }
                    return values
                }
            }
        }
    }

    private func stacks() throws -> [(String, Stack)] {
        [("in-memory", try Stack(sqliteURL: nil)), ("SQLite", try Stack(sqliteURL: directory.appendingPathComponent("Unique-\(UUID().uuidString).sqlite")))]
    }

    /// Saves a client `c1` (name "Old", city `city`) with one order "o1"; returns its ID.
    private func seed(_ stack: Stack, city: String? = "Paris") throws -> NSManagedObjectID {
        let c = stack.context()
        return try c.performAndWait {
            let client = stack.insertClient("Old", city: city, order: "o1", in: c)
            try c.save()
            return client.objectID
        }
    }

    private func saveError(_ context: NSManagedObjectContext) -> NSError? {
        context.performAndWait {
            do { try context.save(); return nil } catch { return error as NSError }
        }
    }

    // MARK: NSErrorMergePolicy

    func testErrorPolicyReportsStoreDuplicateAndWritesNothing() throws {
        for (kind, stack) in try stacks() {
            let existing = try seed(stack)
            let c = stack.context()
            let duplicate = c.performAndWait { stack.insert("Client", ["id": "c1", "name": "New"], in: c) }
            let error = try XCTUnwrap(saveError(c), kind)
            XCTAssertEqual(error.domain, NSCocoaErrorDomain, kind)
            XCTAssertEqual(error.code, NSManagedObjectConstraintMergeError, kind)
            let conflicts = try XCTUnwrap(error.userInfo["conflictList"] as? [NSConstraintConflict], kind)
            XCTAssertEqual(conflicts.count, 1, kind)
            c.performAndWait {
                XCTAssertEqual(conflicts[0].constraint, ["id"], kind)
                XCTAssertEqual(conflicts[0].constraintValues["id"] as? String, "c1", kind)
                XCTAssertEqual(conflicts[0].databaseObject?.objectID, existing, kind)
                XCTAssertEqual(conflicts[0].databaseSnapshot?["name"] as? String, "Old", kind)
                XCTAssertTrue(conflicts[0].conflictingObjects.count == 1 && conflicts[0].conflictingObjects[0] === duplicate, kind)
                XCTAssertEqual(conflicts[0].conflictingSnapshots.count, 1, kind)
                // The save changed nothing: the duplicate is still pending.
                XCTAssertTrue(c.insertedObjects.contains(duplicate), kind)
            }
            let rows = try stack.rows("Client")
            XCTAssertEqual(rows.count, 1, kind)
            XCTAssertEqual(rows.first?["name"] as? String, "Old", kind)
        }
    }

    func testErrorPolicyReportsDuplicatesAmongNewObjects() throws {
        for (kind, stack) in try stacks() {
            let c = stack.context()
            c.performAndWait {
                _ = stack.insert("Client", ["id": "x", "name": "A"], in: c)
                _ = stack.insert("Client", ["id": "x", "name": "B"], in: c)
                _ = stack.insert("Client", ["id": "y", "name": "C"], in: c)
            }
            let error = try XCTUnwrap(saveError(c), kind)
            XCTAssertEqual(error.code, NSManagedObjectConstraintMergeError, kind)
            let conflicts = try XCTUnwrap(error.userInfo["conflictList"] as? [NSConstraintConflict], kind)
            XCTAssertEqual(conflicts.count, 1, kind)
            XCTAssertNil(conflicts.first?.databaseObject, kind)
            XCTAssertNil(conflicts.first?.databaseSnapshot, kind)
            XCTAssertEqual(conflicts.first?.conflictingObjects.count, 2, kind)
            XCTAssertEqual(try stack.rows("Client").count, 0, kind)
        }
    }

    func testChangingASavedObjectToATakenValueConflicts() throws {
        for (kind, stack) in try stacks() {
            let existing = try seed(stack)
            let c = stack.context()
            let other = try c.performAndWait { () -> NSManagedObject in
                let o = stack.insert("Client", ["id": "c2"], in: c)
                try c.save()
                o.setValue("c1", forKey: "id")
                return o
            }
            let error = try XCTUnwrap(saveError(c), kind)
            XCTAssertEqual(error.code, NSManagedObjectConstraintMergeError, kind)
            let conflict = try XCTUnwrap((error.userInfo["conflictList"] as? [NSConstraintConflict])?.first, kind)
            XCTAssertEqual(conflict.databaseObject?.objectID, existing, kind)
            XCTAssertTrue(conflict.conflictingObjects.first === other, kind)
            XCTAssertEqual(conflict.conflictingSnapshots.first?["id"] as? String, "c2", "a saved object's snapshot is its last saved state")
            XCTAssertEqual(try stack.rows("Client").compactMap { $0["id"] as? String }, ["c1", "c2"], kind)
        }
    }

    func testNilValuesAndDeletedRecordsDoNotConflict() throws {
        for (kind, stack) in try stacks() {
            let existing = try seed(stack)
            let c = stack.context()
            try c.performAndWait {
                _ = stack.insert("Client", ["name": "no id 1"], in: c)
                _ = stack.insert("Client", ["name": "no id 2"], in: c)
                // Deleting the record that holds "c1" frees the value for a new object.
                c.delete(c.object(with: existing))
                _ = stack.insert("Client", ["id": "c1", "name": "Replacement"], in: c)
                try c.save()
            }
            let rows = try stack.rows("Client", sortedBy: "name")
            XCTAssertEqual(rows.compactMap { $0["name"] as? String }, ["Replacement", "no id 1", "no id 2"], kind)
            XCTAssertNotEqual(rows.first?["objectID"] as? URL, existing.uriRepresentation(), kind)
        }
    }

    // MARK: Merging policies, duplicate of a stored record

    /// Saves a duplicate of the seeded `c1` (name "New", city `city`, one new order "o2") with
    /// `policy`; returns the client rows and order rows afterwards.
    private func upsert(_ stack: Stack, policy: Any, seedCity: String? = "Paris", city: String? = nil) throws -> (NSManagedObjectID, [[String: Any]], [[String: Any]]) {
        let existing = try seed(stack, city: seedCity)
        let c = stack.context(policy)
        try c.performAndWait {
            let d = stack.insertClient("New", city: city, order: "o2", in: c)
            try c.save()
            // The duplicate was merged away: it left the context, which holds no pending change.
            XCTAssertNil(d.managedObjectContext)
            XCTAssertFalse(c.hasChanges)
            XCTAssertFalse(c.registeredObjects.contains(d))
        }
        return (existing, try stack.rows("Client"), try stack.rows("Order", sortedBy: "title"))
    }

    func testObjectTrumpMergesNewValuesIntoTheStoredRecord() throws {
        for (kind, stack) in try stacks() {
            let (existing, clients, orders) = try upsert(stack, policy: NSMergeByPropertyObjectTrumpMergePolicy)
            XCTAssertEqual(clients.count, 1, kind)
            XCTAssertEqual(clients[0]["objectID"] as? URL, existing.uriRepresentation(), "the stored record keeps its primary key (\(kind))")
            XCTAssertEqual(clients[0]["name"] as? String, "New", kind)
            XCTAssertNil(clients[0]["city"], "a new object's whole state trumps, nil included (\(kind))")
            XCTAssertEqual(clients[0]["orders"] as? [String], ["o1", "o2"], kind)
            XCTAssertEqual(orders.map { $0["client"] as? String }, ["c1", "c1"], kind)
        }
    }

    func testOverwriteReplacesEveryAttribute() throws {
        for (kind, stack) in try stacks() {
            let (existing, clients, orders) = try upsert(stack, policy: NSOverwriteMergePolicy)
            XCTAssertEqual(clients.count, 1, kind)
            XCTAssertEqual(clients[0]["objectID"] as? URL, existing.uriRepresentation(), kind)
            XCTAssertEqual(clients[0]["name"] as? String, "New", kind)
            XCTAssertNil(clients[0]["city"], "overwrite pushes the whole new object, nil included (\(kind))")
            XCTAssertEqual(orders.map { $0["client"] as? String }, ["c1", "c1"], kind)
        }
    }

    func testStoreTrumpKeepsStoredValuesAndFillsMissingOnes() throws {
        for (kind, stack) in try stacks() {
            let (existing, clients, orders) = try upsert(stack, policy: NSMergeByPropertyStoreTrumpMergePolicy, seedCity: nil, city: "Rome")
            XCTAssertEqual(clients.count, 1, kind)
            XCTAssertEqual(clients[0]["objectID"] as? URL, existing.uriRepresentation(), kind)
            XCTAssertEqual(clients[0]["name"] as? String, "Old", kind)
            XCTAssertEqual(clients[0]["city"] as? String, "Rome", kind)
            XCTAssertEqual(clients[0]["orders"] as? [String], ["o1", "o2"], kind)
            XCTAssertEqual(orders.count, 2, kind)
        }
    }

    func testRollbackDiscardsTheDuplicateAndCutsItsRelationships() throws {
        for (kind, stack) in try stacks() {
            let (existing, clients, orders) = try upsert(stack, policy: NSRollbackMergePolicy, seedCity: nil, city: "Rome")
            XCTAssertEqual(clients.count, 1, kind)
            XCTAssertEqual(clients[0]["objectID"] as? URL, existing.uriRepresentation(), kind)
            XCTAssertEqual(clients[0]["name"] as? String, "Old", kind)
            XCTAssertNil(clients[0]["city"], kind)
            XCTAssertEqual(clients[0]["orders"] as? [String], ["o1"], kind)
            // The new order stays (it is no duplicate) but no longer points at a discarded client.
            XCTAssertEqual(orders.map { $0["title"] as? String }, ["o1", "o2"], kind)
            XCTAssertEqual(orders.map { $0["client"] as? String }, ["c1", nil], kind)
        }
    }

    func testSavedObjectTakingAStoredValueMergesByPolicy() throws {
        for (policy, expectedCity) in [(NSMergeByPropertyObjectTrumpMergePolicy, "Paris"), (NSOverwriteMergePolicy, "Rome")] {
            for (kind, stack) in try stacks() {
                let existing = try seed(stack)
                let c = stack.context(policy)
                try c.performAndWait {
                    let other = stack.insert("Client", ["id": "c2", "name": "Two", "city": "Rome"], in: c)
                    try c.save()
                    other.setValue("c1", forKey: "id")
                    other.setValue("Renamed", forKey: "name")
                    try c.save()
                }
                let rows = try stack.rows("Client")
                XCTAssertEqual(rows.count, 1, "\(kind), \(policy)")
                XCTAssertEqual(rows.first?["objectID"] as? URL, existing.uriRepresentation(), "\(kind), \(policy)")
                XCTAssertEqual(rows.first?["name"] as? String, "Renamed", "\(kind), \(policy)")
                XCTAssertEqual(rows.first?["city"] as? String, expectedCity, "object trump takes only what the saved object changed (\(kind), \(policy))")
            }
        }
    }

    // MARK: Duplicates among new objects, compound constraints, sub-entities

    func testDuplicatesAmongNewObjectsCollapseIntoTheFirst() throws {
        for (policy, expected) in [(NSMergeByPropertyObjectTrumpMergePolicy, "C"), (NSMergeByPropertyStoreTrumpMergePolicy, "A")] {
            for (kind, stack) in try stacks() {
                let c = stack.context(policy)
                try c.performAndWait {
                    let objects = ["A", "B", "C"].map { stack.insert("Client", ["id": "x", "name": $0], in: c) }
                    try c.save()
                    XCTAssertEqual(objects.map { $0.managedObjectContext != nil }, [true, false, false], kind)
                    XCTAssertFalse(objects[0].objectID.isTemporaryID, kind)
                }
                let rows = try stack.rows("Client")
                XCTAssertEqual(rows.count, 1, kind)
                XCTAssertEqual(rows.first?["name"] as? String, expected, "\(kind), \(policy)")
            }
        }
    }

    func testDuplicatesAmongNewObjectsMergeTheirRelationships() throws {
        for (policy, expectedOrders, expectedClients) in [(NSOverwriteMergePolicy, ["o1", "o2"], ["x", "x"]), (NSRollbackMergePolicy, ["o1"], ["x", nil])] {
            for (kind, stack) in try stacks() {
                let c = stack.context(policy)
                try c.performAndWait {
                    for (name, title) in [("A", "o1"), ("B", "o2")] {
                        let client = stack.insert("Client", ["id": "x", "name": name], in: c)
                        stack.insert("Order", ["title": title], in: c).setValue(client, forKey: "client")
                    }
                    try c.save()
                }
                let clients = try stack.rows("Client")
                XCTAssertEqual(clients.count, 1, "\(kind), \(policy)")
                XCTAssertEqual(clients.first?["orders"] as? [String], expectedOrders, "\(kind), \(policy)")
                XCTAssertEqual(try stack.rows("Order", sortedBy: "title").map { $0["client"] as? String }, expectedClients, "\(kind), \(policy)")
            }
        }
    }

    func testCompoundConstraintNeedsEveryValueEqual() throws {
        for (kind, stack) in try stacks() {
            let c = stack.context()
            try c.performAndWait {
                for (bank, number) in [("b1", 1), ("b1", 2), ("b2", 1)] {
                    _ = stack.insert("Account", ["bank": bank, "number": Int64(number), "holder": "first"], in: c)
                }
                try c.save()
            }
            let duplicate = stack.context()
            duplicate.performAndWait { _ = stack.insert("Account", ["bank": "b1", "number": Int64(2), "holder": "second"], in: duplicate) }
            let error = try XCTUnwrap(saveError(duplicate), kind)
            XCTAssertEqual(error.code, NSManagedObjectConstraintMergeError, kind)
            XCTAssertEqual((error.userInfo["conflictList"] as? [NSConstraintConflict])?.first?.constraint, ["bank", "number"], kind)
            duplicate.performAndWait { duplicate.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy }
            XCTAssertNil(saveError(duplicate), kind)
            let rows = try stack.rows("Account", sortedBy: "holder")
            XCTAssertEqual(rows.count, 3, kind)
            XCTAssertEqual(Set(rows.map { "\($0["bank"] ?? "")-\($0["number"] ?? "")-\($0["holder"] ?? "")" }), ["b1-1-first", "b2-1-first", "b1-2-second"], kind)
        }
    }

    func testParentConstraintCoversSubEntityRows() throws {
        for (kind, stack) in try stacks() {
            let existing = try seed(stack)
            let c = stack.context()
            c.performAndWait { _ = stack.insert("VIPClient", ["id": "c1", "name": "VIP", "level": Int64(3)], in: c) }
            let error = try XCTUnwrap(saveError(c), kind)
            XCTAssertEqual(error.code, NSManagedObjectConstraintMergeError, kind)
            XCTAssertEqual((error.userInfo["conflictList"] as? [NSConstraintConflict])?.first?.databaseObject?.objectID, existing, kind)
            c.performAndWait { c.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy }
            XCTAssertNil(saveError(c), kind)
            let rows = try stack.rows("Client")
            XCTAssertEqual(rows.count, 1, kind)
            XCTAssertEqual(rows.first?["name"] as? String, "VIP", kind)
            XCTAssertEqual(rows.first?["entity"] as? String, "Client", "the stored record keeps its entity (\(kind))")
        }
    }

    // MARK: Custom policies

    private final class RecordingPolicy: NSMergePolicy, @unchecked Sendable {
        var seen: [NSConstraintConflict] = []
        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }
        override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
            seen += list
            // Keep the stored name, let super merge the rest.
            for conflict in list {
                if let name = conflict.databaseSnapshot?["name"] { for o in conflict.conflictingObjects { o.setValue(name, forKey: "name") } }
            }
            try super.resolve(constraintConflicts: list)
        }
    }

    func testCustomPolicySeesConflictsAndCallsSuper() throws {
        for (kind, stack) in try stacks() {
            _ = try seed(stack, city: nil)
            let policy = RecordingPolicy()
            let c = stack.context(policy)
            try c.performAndWait {
                _ = stack.insert("Client", ["id": "c1", "name": "New", "city": "Oslo"], in: c)
                try c.save()
            }
            XCTAssertEqual(policy.seen.count, 1, kind)
            let rows = try stack.rows("Client")
            XCTAssertEqual(rows.count, 1, kind)
            XCTAssertEqual(rows.first?["name"] as? String, "Old", kind)
            XCTAssertEqual(rows.first?["city"] as? String, "Oslo", kind)
        }
    }

    private final class DoNothingPolicy: NSMergePolicy, @unchecked Sendable {
        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }
        override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {}
    }

    func testConflictsAPolicyLeavesFailTheSave() throws {
        for (kind, stack) in try stacks() {
            _ = try seed(stack)
            let c = stack.context(DoNothingPolicy())
            c.performAndWait { _ = stack.insert("Client", ["id": "c1"], in: c) }
            XCTAssertEqual(saveError(c)?.code, NSManagedObjectConstraintMergeError, kind)
            XCTAssertEqual(try stack.rows("Client").count, 1, kind)
        }
    }
}
