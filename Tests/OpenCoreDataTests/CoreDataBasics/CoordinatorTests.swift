@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The coordinator presenting several stores as one: configurations, routing, atomic saves
/// across stores, metadata, migration, URIs. `@testable` lets a test store refuse a save.
final class CoordinatorTests: XCTestCase {
    private func twoStoreStack(peopleStoreType: String = NSInMemoryStoreType) throws -> (TestStack, NSPersistentStore, NSPersistentStore) {
        let model = CompanyModel.make()
        let byName = model.entitiesByName
        model.setEntities([byName["Department"]!], forConfigurationName: "Org")
        model.setEntities(["Employee", "Manager", "Project", "Milestone", "Badge"].map { byName[$0]! }, forConfigurationName: "People")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let org = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: "Org", at: nil)
        let people = try coordinator.addPersistentStore(ofType: peopleStoreType, configurationName: "People", at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (TestStack(model: model, coordinator: coordinator, context: context), org, people)
    }

    func testConfigurationsRouteEachEntityToItsStore() throws {
        let (stack, org, people) = try twoStoreStack()
        try stack.context.performAndWait {
            let d = stack.department("Org-only")
            let e = stack.employee("People-only")
            try stack.context.save()
            XCTAssertTrue(d.objectID.persistentStore === org)
            XCTAssertTrue(e.objectID.persistentStore === people)
            stack.context.reset()
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<Department>(entityName: "Department")), 1)
            XCTAssertEqual(try stack.context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 1)
            let onlyOrg = NSFetchRequest<Employee>(entityName: "Employee")
            onlyOrg.affectedStores = [org]
            XCTAssertEqual(try stack.context.count(for: onlyOrg), 0, "affectedStores limits the fetch")
        }
    }

    func testCrossStoreRelationshipsAreRefusedAndNothingIsSaved() throws {
        let (stack, _, _) = try twoStoreStack()
        try stack.context.performAndWait {
            let d = stack.department("D")
            let e = stack.employee("E")
            e.department = d
            let before = d.objectID  // e's is never asked for before the save
            XCTAssertThrowsError(try stack.context.save()) { error in
                XCTAssertEqual((error as NSError).code, NSManagedObjectExternalRelationshipError)
                XCTAssertTrue((error as NSError).localizedDescription.contains("fetched properties"))
            }
            XCTAssertTrue(d.objectID.isTemporaryID, "IDs are restored after a failed save")
            XCTAssertEqual(d.objectID, before)
            XCTAssertTrue(stack.context.object(with: before) === d)
            XCTAssertTrue(e.objectID.isTemporaryID)
            XCTAssertTrue(stack.context.object(with: e.objectID) === e)
            let observer = stack.newContext()
            try observer.performAndWait {
                XCTAssertEqual(try observer.count(for: NSFetchRequest<Department>(entityName: "Department")), 0)
            }
        }
    }

    func testASaveAcrossStoresIsAllOrNothing() throws {
        NSPersistentStoreCoordinator.registerStoreClass(RefusingStore.self, forStoreType: "Refusing")
        let (stack, _, _) = try twoStoreStack(peopleStoreType: "Refusing")
        try stack.context.performAndWait {
            _ = stack.department("Would be saved alone")
            _ = stack.employee("Refused")
            XCTAssertThrowsError(try stack.context.save()) { XCTAssertEqual(($0 as NSError).code, 4242, "the store's error reaches the caller unchanged") }
            let observer = stack.newContext()
            try observer.performAndWait {
                XCTAssertEqual(try observer.count(for: NSFetchRequest<Department>(entityName: "Department")), 0, "the other store was rolled back")
            }
            XCTAssertTrue(stack.context.hasChanges)
        }
    }

    /// The overlay's store types do what the `String` forms do: add, read and write metadata,
    /// migrate, destroy and register, each by `NSPersistentStore.StoreType`.
    func testStoreTypesInTheOverlaysSpelling() throws {
        XCTAssertEqual(NSPersistentStore.StoreType.sqlite.rawValue, NSSQLiteStoreType)
        XCTAssertEqual(NSPersistentStore.StoreType.inMemory.rawValue, NSInMemoryStoreType)
        XCTAssertEqual(NSPersistentStore.StoreType.binary.rawValue, NSBinaryStoreType)
        XCTAssertEqual(NSPersistentStore.StoreType.xml.rawValue, NSXMLStoreType)
        let directory = try makeTemporaryDirectory("ocd-storetype")
        let url = directory.appendingPathComponent("Company.sqlite")
        let model = CompanyModel.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        XCTAssertEqual(store.type, NSPersistentStore.StoreType.sqlite.rawValue)
        let context = newContext(coordinator)
        try context.performAndWait {
            let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            e.setValue("Kept", forKey: "firstName")
            try context.save()
        }

        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        XCTAssertEqual(metadata[NSStoreTypeKey] as? String, NSSQLiteStoreType)
        metadata["Tag"] = "written"
        try NSPersistentStoreCoordinator.setMetadata(metadata, type: .sqlite, at: url)
        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)["Tag"] as? String, "written")

        let copy = directory.appendingPathComponent("Copy.sqlite")
        let moved = try coordinator.migratePersistentStore(store, to: copy, type: .sqlite)
        XCTAssertEqual(moved.url, copy)
        try context.performAndWait {
            context.reset()
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")), 1)
        }
        try coordinator.destroyPersistentStore(at: copy, type: .sqlite)
        XCTAssertTrue(coordinator.persistentStores.isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy.path))

        let memory = try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        XCTAssertEqual(memory.type, NSInMemoryStoreType)

        NSPersistentStoreCoordinator.registerStoreClass(InMemoryStoreForTypeTest.self, type: NSPersistentStore.StoreType(rawValue: "OverlayTestStore"))
        XCTAssertTrue(NSPersistentStoreCoordinator.registeredStoreTypes["OverlayTestStore"] == InMemoryStoreForTypeTest.self)
        NSPersistentStoreCoordinator.registerStoreClass(nil, type: NSPersistentStore.StoreType(rawValue: "OverlayTestStore"))
        XCTAssertNil(NSPersistentStoreCoordinator.registeredStoreTypes["OverlayTestStore"])
    }

    /// Writing a SQLite store's metadata without adding it replaces the application's keys, keeps
    /// the store's own (UUID, model hashes) when left out so the store still opens, and refuses
    /// a value a property list cannot hold without changing the file.
    func testSetMetadataOnASQLiteFileKeepsTheStoresOwnKeys() throws {
        let url = try makeTemporaryDirectory("ocd-setmetadata").appendingPathComponent("Company.sqlite")
        let model = CompanyModel.make()
        let uuid = try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url).identifier
        try NSPersistentStoreCoordinator.setMetadata(["Old": 1], forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        try NSPersistentStoreCoordinator.setMetadata(["Tag": "mine"], forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertEqual(metadata["Tag"] as? String, "mine")
        XCTAssertNil(metadata["Old"], "the application's keys are replaced")
        XCTAssertEqual(metadata[NSStoreUUIDKey] as? String, uuid)
        XCTAssertNotNil(metadata[NSStoreModelVersionHashesKey])
        let reopened = try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        XCTAssertEqual(reopened.metadata["Tag"] as? String, "mine")
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.setMetadata(["Bad": NSObject()], forPersistentStoreOfType: NSSQLiteStoreType, at: url)) { error in
            XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
        }
        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)["Tag"] as? String, "mine")
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.setMetadata([:], forPersistentStoreOfType: NSSQLiteStoreType, at: url.appendingPathExtension("missing")))
    }

    /// Adding, removing and migrating stores post the coordinator's store-change notifications:
    /// will-change before, did-change after with the stores added and removed, will-remove with
    /// the store; a migration posts one did-change for the whole move.
    func testStoreChangesPostTheCoordinatorsNotifications() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        let box = NotificationBox()
        var tokens: [NSObjectProtocol] = []
        for name in [Notification.Name.NSPersistentStoreCoordinatorStoresWillChange, .NSPersistentStoreCoordinatorStoresDidChange] {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: coordinator, queue: nil) { note in
                box.append(["name": note.name.rawValue].merging((note.userInfo ?? [:]).reduce(into: [String: Any]()) { $0["\($1.key)"] = $1.value }) { a, _ in a })
            })
        }
        let removing = NotificationBox()
        tokens.append(NotificationCenter.default.addObserver(forName: .NSPersistentStoreCoordinatorWillRemoveStore, object: nil, queue: nil) { note in
            removing.append(["store": note.object as Any])
        })
        defer { tokens.forEach(NotificationCenter.default.removeObserver) }

        let memory = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        XCTAssertEqual(box.infos.map { $0["name"] as? String }, [Notification.Name.NSPersistentStoreCoordinatorStoresWillChange.rawValue, Notification.Name.NSPersistentStoreCoordinatorStoresDidChange.rawValue])
        XCTAssertTrue((box.infos[1][NSAddedPersistentStoresKey] as? [NSPersistentStore])?.first === memory)

        let url = try makeTemporaryDirectory("ocd-storenotes").appendingPathComponent("Moved.sqlite")
        let moved = try coordinator.migratePersistentStore(memory, to: url, type: .sqlite)
        XCTAssertEqual(box.infos.count, 4, "one will-change and one did-change for the whole migration")
        XCTAssertTrue((box.infos[3][NSAddedPersistentStoresKey] as? [NSPersistentStore])?.first === moved)
        XCTAssertTrue((box.infos[3][NSRemovedPersistentStoresKey] as? [NSPersistentStore])?.first === memory)
        let changed = box.infos[3][NSUUIDChangedPersistentStoresKey] as? [NSPersistentStore]
        XCTAssertTrue(changed?.first === memory && changed?.last === moved)

        try coordinator.remove(moved)
        XCTAssertEqual(box.infos.count, 6)
        XCTAssertTrue((box.infos[5][NSRemovedPersistentStoresKey] as? [NSPersistentStore])?.first === moved)
        XCTAssertTrue(removing.infos.last?["store"] as AnyObject === moved)
    }

    /// A store's URL; an object ID from its URI string; the deprecated lock methods take the lock
    /// that `perform` uses.
    func testURLsIDsFromStringsAndTheCoordinatorsLock() throws {
        let stack = TestStack()
        let store = stack.coordinator.persistentStores[0]
        XCTAssertEqual(stack.coordinator.url(for: store).path, "/dev/null")
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("A")
            try stack.context.save()
            return e.objectID
        }
        XCTAssertEqual(stack.coordinator.managedObjectID(for: id.uriRepresentation().absoluteString), id)
        XCTAssertNil(stack.coordinator.managedObjectID(for: "not a uri"))
        /// Whether another thread can take the lock now (`sync` would run on this thread).
        func anotherThreadTakesTheLock() -> Bool {
            let done = DispatchSemaphore(value: 0)
            let taken = NotificationBox()
            DispatchQueue.global().async {
                let got = stack.coordinator.tryLock()
                if got { stack.coordinator.unlock() }
                taken.append(["got": got])
                done.signal()
            }
            done.wait()
            return taken.infos.first?["got"] as? Bool ?? false
        }
        stack.coordinator.lock()
        XCTAssertFalse(anotherThreadTakesTheLock(), "another thread cannot take the lock while it is held")
        stack.coordinator.unlock()
        XCTAssertTrue(anotherThreadTakesTheLock())
    }

    /// The async `perform` runs its block under the coordinator's lock and returns its result;
    /// a throwing block's error reaches the caller.
    func testTheAsyncPerformReturnsTheBlocksResult() async throws {
        let stack = TestStack()
        let count = await stack.coordinator.perform { stack.coordinator.persistentStores.count }
        XCTAssertEqual(count, 1)
        do {
            _ = try await stack.coordinator.perform { () throws -> Int in throw CocoaError(.coreData) }
            XCTFail("the block's error is thrown")
        } catch let error as CocoaError {
            XCTAssertEqual(error.code, .coreData)
        }
    }

    func testMigrateCopiesRecordsAndRelationshipsToANewStore() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let d = stack.department("Moved")
            stack.employee("A").department = d
            stack.employee("B").department = d
            try stack.context.save()
        }
        let old = stack.coordinator.persistentStores[0]
        let new = try stack.coordinator.migratePersistentStore(old, to: URL(fileURLWithPath: "/dev/null"), options: nil, withType: NSInMemoryStoreType)
        XCTAssertEqual(stack.coordinator.persistentStores.count, 1)
        XCTAssertTrue(stack.coordinator.persistentStores[0] === new)
        XCTAssertNotEqual(new.identifier, old.identifier)
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let d = try fresh.fetch(NSFetchRequest<Department>(entityName: "Department"))[0]
            XCTAssertEqual(d.name, "Moved")
            XCTAssertEqual(Set(d.employees.compactMap(\.firstName)), ["A", "B"])
            XCTAssertTrue(d.objectID.persistentStore === new)
        }
    }

    func testMetadataAndDestroy() throws {
        let stack = TestStack()
        let store = stack.coordinator.persistentStores[0]
        let uuid = store.metadata[NSStoreUUIDKey] as? String
        stack.coordinator.setMetadata(["Custom": "value"], for: store)
        XCTAssertEqual(stack.coordinator.metadata(for: store)["Custom"] as? String, "value")
        XCTAssertEqual(stack.coordinator.metadata(for: store)[NSStoreUUIDKey] as? String, uuid, "the UUID survives")
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: "NoSuchType", at: URL(fileURLWithPath: "/tmp/x"))) {
            XCTAssertEqual(($0 as NSError).code, NSPersistentStoreInvalidTypeError)
        }

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-destroy-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        try stack.coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: file)
        try stack.coordinator.destroyPersistentStore(at: file, ofType: NSInMemoryStoreType)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertEqual(stack.coordinator.persistentStores.count, 1, "the destroyed store was removed")
    }

    func testURIsResolveAndUnknownStoresDoNot() throws {
        let stack = TestStack()
        let id: NSManagedObjectID = try stack.context.performAndWait {
            let e = stack.employee("U")
            try stack.context.save()
            return e.objectID
        }
        XCTAssertEqual(stack.coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()), id)
        XCTAssertNil(stack.coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://00000000-0000-0000-0000-000000000000/Employee/p1")!))
        XCTAssertNil(stack.coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(id.persistentStore!.identifier!)/Nope/p1")!))
        XCTAssertNil(stack.coordinator.managedObjectID(forURIRepresentation: URL(string: "https://example.com")!))
    }

    func testCustomStoreTypesRegisterByName() throws {
        NSPersistentStoreCoordinator.registerStoreClass(RefusingStore.self, forStoreType: "Refusing")
        XCTAssertTrue(NSPersistentStoreCoordinator.registeredStoreTypes["Refusing"] == RefusingStore.self)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        let store = try coordinator.addPersistentStore(ofType: "Refusing", configurationName: nil, at: nil)
        XCTAssertTrue(store is RefusingStore)
    }

    /// `execute(_:with:)` answers a fetch from the stores: saved objects, registered in the
    /// context, without its unsaved changes; other requests are refused.
    func testExecuteWithAContextFetchesWhatTheStoresHold() throws {
        let stack = TestStack()
        let coordinator = stack.coordinator
        try stack.context.performAndWait {
            _ = stack.employee("Saved")
            try stack.context.save()
            _ = stack.employee("Unsaved")
        }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
        let objects = try XCTUnwrap(try coordinator.execute(request, with: stack.context) as? [NSManagedObject])
        stack.context.performAndWait {
            XCTAssertEqual(objects.map { $0.value(forKey: "firstName") as? String }, ["Saved"])
            XCTAssertTrue(objects.allSatisfy { $0.managedObjectContext === stack.context })
        }
        request.resultType = .countResultType
        XCTAssertEqual((try coordinator.execute(request, with: stack.context) as? [NSNumber])?.first, 1)
        XCTAssertEqual(stack.context.performAndWait { stack.context.insertedObjects.count }, 1, "the context's own changes are untouched")

        let save = NSSaveChangesRequest(inserted: nil, updated: nil, deleted: nil, locked: nil)
        XCTAssertEqual(thrownError { _ = try coordinator.execute(save, with: stack.context) }?.code, NSPersistentStoreOperationError)
        let stranger = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        stranger.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        XCTAssertEqual(thrownError { _ = try coordinator.execute(NSFetchRequest<NSFetchRequestResult>(entityName: "Employee"), with: stranger) }?.code,
                       NSPersistentStoreOperationError)
    }

    /// `assign(_:to:)` saves a new object to the store chosen, not the first that could hold
    /// it; what Apple refuses with an exception fails the next save.
    func testAssignChoosesTheStoreANewObjectIsSavedTo() throws {
        let model = CompanyModel.make()
        model.setEntities([model.entitiesByName["Department"]!], forConfigurationName: "Org")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let first = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let second = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let org = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: "Org", at: nil)
        let stack = TestStack(model: model, coordinator: coordinator, context: newContext(coordinator))
        try stack.context.performAndWait {
            let a = stack.employee("A"), b = stack.employee("B"), c = stack.employee("C")
            stack.context.assign(b, to: second)
            try stack.context.obtainPermanentIDs(for: [c])
            try stack.context.save()
            XCTAssertTrue(a.objectID.persistentStore === first)
            XCTAssertTrue(b.objectID.persistentStore === second)
            XCTAssertTrue(c.objectID.persistentStore === first)

            stack.context.assign(a, to: second)            // saved already
            XCTAssertEqual(thrownError { try stack.context.save() }?.code, NSPersistentStoreOperationError)
            let d = stack.employee("D")
            stack.context.assign(d, to: org)               // Org holds only Department
            let refused = thrownError { try stack.context.save() }
            XCTAssertEqual(refused?.code, NSPersistentStoreOperationError)
            XCTAssertTrue(refused?.localizedDescription.contains("'Org'") == true, refused?.localizedDescription ?? "")
            XCTAssertTrue(d.objectID.isTemporaryID, "nothing was saved")
            try stack.context.save()                       // the refusal is reported once
            XCTAssertTrue(d.objectID.persistentStore === first)
        }
    }
}

/// A store that holds nothing and refuses every save with error 4242.
final class RefusingStore: NSPersistentStore, RowListingStore, @unchecked Sendable {
    func allRows(for plan: FetchPlan) throws -> [StoreRow] { [] }
    func row(for objectID: NSManagedObjectID) throws -> StoreRow? { nil }
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] { (1...Int64(count)).map { $0 } }
    func save(_ changes: StoreChanges) throws { throw NSError(domain: "test", code: 4242) }
    func prepareSave(_ changes: StoreChanges) throws -> PreparedStoreSave { throw NSError(domain: "test", code: 4242) }
}

/// A registrable store class for the overlay test (registration only needs the class).
private final class InMemoryStoreForTypeTest: NSAtomicStore, @unchecked Sendable {}
