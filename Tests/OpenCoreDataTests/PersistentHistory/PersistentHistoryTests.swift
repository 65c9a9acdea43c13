import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Persistent history (Core Data's "Consuming Relevant Store Changes"): with
/// `NSPersistentHistoryTrackingKey`, every save records a transaction — author, context name,
/// time, and a change per inserted, updated and deleted object — that any context reads back
/// after a token, merges, and deletes when processed.
final class PersistentHistoryTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-history")
    }

    private func stack(tracking: Bool = true, url: URL? = nil) throws -> TestStack {
        let model = CompanyModel.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url ?? directory.appendingPathComponent("History.sqlite"),
                                           options: tracking ? [NSPersistentHistoryTrackingKey: true] : nil)
        return TestStack(model: model, coordinator: coordinator, context: newContext(coordinator))
    }

    private func history(_ stack: TestStack, after token: NSPersistentHistoryToken? = nil, resultType: NSPersistentHistoryResultType = .transactionsAndChanges) throws -> Any? {
        let reader = stack.newContext()
        return try reader.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
            request.resultType = resultType
            return (try reader.execute(request) as? NSPersistentHistoryResult)?.result
        }
    }

    private func transactions(_ stack: TestStack, after token: NSPersistentHistoryToken? = nil) throws -> [NSPersistentHistoryTransaction] {
        try history(stack, after: token) as? [NSPersistentHistoryTransaction] ?? []
    }

    func testEverySaveRecordsATransactionWithItsChanges() throws {
        let stack = try stack()
        let (ann, bob): (NSManagedObjectID, NSManagedObjectID) = try stack.context.performAndWait {
            stack.context.transactionAuthor = "importer"
            stack.context.name = "import context"
            let ann = stack.employee("Ann"), bob = stack.employee("Bob")
            try stack.context.save()
            return (ann.objectID, bob.objectID)
        }
        try stack.context.performAndWait {
            stack.context.transactionAuthor = "editor"
            (stack.context.object(with: ann) as! Employee).salary = 5
            stack.context.delete(stack.context.object(with: bob))
            try stack.context.save()
        }
        let recorded = try transactions(stack)
        XCTAssertEqual(recorded.count, 2)
        XCTAssertEqual(recorded.map(\.author), ["importer", "editor"])
        XCTAssertEqual(recorded[0].contextName, "import context")
        XCTAssertEqual(recorded[0].storeID, stack.coordinator.persistentStores[0].identifier)
        XCTAssertFalse(recorded[0].processID.isEmpty)
        XCTAssertLessThan(recorded[0].transactionNumber, recorded[1].transactionNumber)
        XCTAssertLessThanOrEqual(recorded[0].timestamp, recorded[1].timestamp)
        XCTAssertEqual(Set(recorded[0].changes?.map(\.changedObjectID) ?? []), [ann, bob])
        XCTAssertTrue(recorded[0].changes?.allSatisfy { $0.changeType == .insert && $0.transaction === recorded[0] } ?? false)
        let second = try XCTUnwrap(recorded[1].changes)
        let update = try XCTUnwrap(second.first { $0.changeType == .update })
        XCTAssertEqual(update.changedObjectID, ann)
        XCTAssertEqual(update.updatedProperties?.map(\.name), ["salary"], "only what the save changed")
        XCTAssertEqual(second.first { $0.changeType == .delete }?.changedObjectID, bob)
    }

    func testTokensSelectTheTransactionsAfterThem() throws {
        let stack = try stack()
        let beforeAnySave = try XCTUnwrap(stack.coordinator.currentPersistentHistoryToken(fromStores: nil), "a tracking store has a token before its first transaction")
        for name in ["A", "B", "C"] {
            try stack.context.performAndWait { _ = stack.employee(name); try stack.context.save() }
        }
        let all = try transactions(stack)
        XCTAssertEqual(all.count, 3)
        XCTAssertEqual(try transactions(stack, after: beforeAnySave).count, 3)
        XCTAssertEqual(try transactions(stack, after: all[0].token).map(\.transactionNumber), all.dropFirst().map(\.transactionNumber))
        XCTAssertTrue(try transactions(stack, after: all[2].token).isEmpty)
        let current = try XCTUnwrap(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        XCTAssertEqual(current, all[2].token, "the current token is the last transaction's")
        XCTAssertLessThan(all[0].token, all[1].token)
        XCTAssertFalse(all[1].token < all[0].token)
        // By date and by transaction.
        let byTransaction = NSPersistentHistoryChangeRequest.fetchHistory(after: all[1])
        let reader = stack.newContext()
        XCTAssertEqual(try reader.performAndWait { (try reader.execute(byTransaction) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] }?.count, 1)
        let byDate = NSPersistentHistoryChangeRequest.fetchHistory(after: all[0].timestamp.addingTimeInterval(-1))
        byDate.resultType = .count
        XCTAssertEqual(try reader.performAndWait { (try reader.execute(byDate) as? NSPersistentHistoryResult)?.result as? Int }, 3)
    }

    func testATokenArchivesAndComesBackEqual() throws {
        let stack = try stack()
        try stack.context.performAndWait { _ = stack.employee("A"); try stack.context.save() }
        let token = try XCTUnwrap(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let decoded = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: data))
        XCTAssertEqual(decoded, token)
        XCTAssertTrue(try transactions(stack, after: decoded).isEmpty)
        // Apple's tokens keep their store UUID → number dictionary under this key.
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        token.encode(with: archiver)
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = false
        let numbers = unarchiver.decodeObject(forKey: "NSPersistentHistoryTokenDictionary") as? NSDictionary
        XCTAssertEqual(numbers?.allKeys as? [String], [try XCTUnwrap(stack.coordinator.persistentStores.first?.identifier)])
    }

    func testResultTypes() throws {
        let stack = try stack()
        try stack.context.performAndWait { _ = stack.employee("A"); _ = stack.employee("B"); try stack.context.save() }
        XCTAssertEqual(try history(stack, resultType: .statusOnly) as? Bool, true)
        XCTAssertEqual(try history(stack, resultType: .count) as? Int, 1)
        XCTAssertNil((try history(stack, resultType: .transactionsOnly) as? [NSPersistentHistoryTransaction])?.first?.changes)
        XCTAssertEqual((try history(stack, resultType: .changesOnly) as? [NSPersistentHistoryChange])?.count, 2)
        XCTAssertEqual((try history(stack, resultType: .objectIDs) as? [NSManagedObjectID])?.count, 2)
    }

    func testAFetchRequestSelectsTransactionsByAuthor() throws {
        let stack = try stack()
        for author in ["app", "widget", "app"] {
            try stack.context.performAndWait { stack.context.transactionAuthor = author; _ = stack.employee(author); try stack.context.save() }
        }
        let fetch = try XCTUnwrap(NSPersistentHistoryTransaction.fetchRequest)
        fetch.predicate = NSPredicate(format: "author != %@", "app")
        let reader = stack.newContext()
        let found = try reader.performAndWait { (try reader.execute(NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] }
        XCTAssertEqual(found?.map(\.author), ["widget"])
    }

    func testDeletingHistoryBeforeATokenKeepsTheTransactionItMarks() throws {
        let stack = try stack()
        for name in ["A", "B", "C"] {
            try stack.context.performAndWait { _ = stack.employee(name); try stack.context.save() }
        }
        let all = try transactions(stack)
        let reader = stack.newContext()
        let delete = NSPersistentHistoryChangeRequest.deleteHistory(before: all[1].token)
        delete.resultType = .count
        XCTAssertEqual(try reader.performAndWait { (try reader.execute(delete) as? NSPersistentHistoryResult)?.result as? Int }, 1,
                       "only the transactions before the token's go")
        XCTAssertEqual(try transactions(stack).map(\.transactionNumber), [all[1].transactionNumber, all[2].transactionNumber])
        XCTAssertEqual(try transactions(stack, after: all[1].token).map(\.transactionNumber), [all[2].transactionNumber],
                       "an app that deletes up to its last token still fetches after it")
        _ = try reader.performAndWait { try reader.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: nil as NSPersistentHistoryToken?)) }
        XCTAssertTrue(try transactions(stack).isEmpty)
    }

    func testFetchingAfterATokenWhoseFollowingHistoryWasDeletedThrowsExpired() throws {
        let stack = try stack()
        for name in ["A", "B", "C"] {
            try stack.context.performAndWait { _ = stack.employee(name); try stack.context.save() }
        }
        let all = try transactions(stack)
        let reader = stack.newContext()
        _ = try reader.performAndWait { try reader.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: all[2].token)) }
        XCTAssertEqual(try transactions(stack, after: all[1].token).count, 1, "nothing after the token was lost")
        XCTAssertThrowsError(try transactions(stack, after: all[0].token)) { error in
            XCTAssertEqual((error as NSError).domain, NSCocoaErrorDomain)
            XCTAssertEqual((error as NSError).code, NSPersistentHistoryTokenExpiredError)
        }
        _ = try reader.performAndWait { try reader.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: nil as NSPersistentHistoryToken?)) }
        XCTAssertThrowsError(try transactions(stack, after: all[1].token), "with every transaction gone, the number still counts")
        XCTAssertTrue(try transactions(stack, after: all[2].token).isEmpty)
        let current = try XCTUnwrap(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        XCTAssertEqual(current, all[2].token, "the current token doesn't go back when history is deleted")
    }

    func testATransactionsObjectIDNotificationMergesIntoAContext() throws {
        let stack = try stack()
        let viewer = stack.newContext()
        let id: NSManagedObjectID = try stack.context.performAndWait { let e = stack.employee("Ann"); try stack.context.save(); return e.objectID }
        let ann = try viewer.performAndWait { try viewer.existingObject(with: id) as! Employee }
        let token = try XCTUnwrap(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        try stack.context.performAndWait { (stack.context.object(with: id) as! Employee).salary = 77; try stack.context.save() }
        for transaction in try transactions(stack, after: token) {
            viewer.performAndWait { viewer.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
        }
        XCTAssertEqual(viewer.performAndWait { ann.salary }, 77)
    }

    func testEachBatchRequestRecordsOneTransaction() throws {
        let stack = try stack()
        try stack.context.performAndWait {
            stack.context.transactionAuthor = "batch"
            _ = try stack.context.execute(NSBatchInsertRequest(entityName: "Employee", objects: [["firstName": "A"], ["firstName": "B"]]))
            let update = NSBatchUpdateRequest(entityName: "Employee")
            update.propertiesToUpdate = ["salary": 9]
            _ = try stack.context.execute(update)
            _ = try stack.context.execute(NSBatchInsertRequest(entityName: "Badge", objects: [["code": "x"]]))
            _ = try stack.context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Badge")))  // one SQL statement
            _ = try stack.context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Employee")))  // rows, delete rules
        }
        let recorded = try transactions(stack)
        XCTAssertEqual(recorded.count, 5)
        XCTAssertTrue(recorded.allSatisfy { $0.author == "batch" })
        XCTAssertEqual(recorded.map { $0.changes?.count ?? -1 }, [2, 2, 1, 1, 2])
        XCTAssertEqual(recorded.map { $0.changes?.first?.changeType }, [.insert, .update, .insert, .delete, .delete])
        XCTAssertEqual(recorded[1].changes?.first?.updatedProperties?.map(\.name), ["salary"])
    }

    func testABatchUpdateInSQLRecordsItsChanges() throws {
        let stack = try stack()
        try stack.context.performAndWait {
            _ = try stack.context.execute(NSBatchInsertRequest(entityName: "Badge", objects: [["code": "x"], ["code": "y"]]))
            let update = NSBatchUpdateRequest(entityName: "Badge")
            update.propertiesToUpdate = ["code": "z"]
            _ = try stack.context.execute(update)
        }
        let last = try XCTUnwrap(try transactions(stack).last)
        XCTAssertEqual(last.changes?.count, 2)
        XCTAssertTrue(last.changes?.allSatisfy { $0.changeType == .update && $0.updatedProperties?.map(\.name) == ["code"] } ?? false)
    }

    func testLightweightMigrationKeepsTheHistory() throws {
        let url = directory.appendingPathComponent("Migrating.sqlite")
        let old = try stack(url: url)
        let id: NSManagedObjectID = try old.context.performAndWait {
            old.context.transactionAuthor = "v1"
            let e = old.employee("Ann")
            try old.context.save()
            e.salary = 3
            try old.context.save()
            return e.objectID
        }
        let before = try transactions(old)
        let uri = id.uriRepresentation()
        try old.coordinator.remove(old.coordinator.persistentStores[0])

        // Version 2: a new entity first (entity numbers move) and a new attribute.
        let model = CompanyModel.make()
        let note = NSEntityDescription(name: "AAANote")
        note.properties = [NSAttributeDescription(name: "text", type: .stringAttributeType)]
        model.entities = [note] + model.entities
        model.entitiesByName["Employee"]?.properties.append(NSAttributeDescription(name: "nickname", type: .stringAttributeType))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [
            NSPersistentHistoryTrackingKey: true, NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
        ])
        let migrated = TestStack(model: model, coordinator: coordinator, context: newContext(coordinator))
        let after = try transactions(migrated)
        XCTAssertEqual(after.map(\.transactionNumber), before.map(\.transactionNumber))
        XCTAssertEqual(after.map(\.author), ["v1", "v1"])
        XCTAssertEqual(after.first?.changes?.first?.changedObjectID.entity.name, "Employee", "the change names the migrated entity")
        XCTAssertEqual(after.first?.changes?.first?.changedObjectID.uriRepresentation(), uri, "object URIs stay")
        XCTAssertEqual(after.last?.changes?.first?.updatedProperties?.map(\.name), ["salary"])
        // New transactions continue the numbering.
        try migrated.context.performAndWait { _ = migrated.employee("Bob"); try migrated.context.save() }
        XCTAssertEqual(try transactions(migrated, after: after.last?.token).count, 1)
    }

    func testAStoreWithoutTrackingHasNoHistory() throws {
        let stack = try stack(tracking: false)
        try stack.context.performAndWait { _ = stack.employee("A"); try stack.context.save() }
        XCTAssertNil(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        let error = thrownError { _ = try self.history(stack) }
        XCTAssertEqual(error?.code, NSPersistentStoreUnsupportedRequestTypeError)
    }

    func testAStoreThatKeptHistoryOpensReadOnlyWithoutTheOption() throws {
        let url = directory.appendingPathComponent("Kept.sqlite")
        let tracking = try stack(url: url)
        try tracking.context.performAndWait { _ = tracking.employee("Ann"); try tracking.context.save() }
        try tracking.coordinator.remove(tracking.coordinator.persistentStores[0])
        let plain = try stack(tracking: false, url: url)
        XCTAssertTrue(plain.coordinator.persistentStores[0].isReadOnly, "as Apple's store: read-only, so that no save goes unrecorded")
        XCTAssertEqual(try plain.context.performAndWait { try plain.context.count(for: NSFetchRequest<Employee>(entityName: "Employee")) }, 1)
        let error = thrownError { try plain.context.performAndWait { _ = plain.employee("Bob"); try plain.context.save() } }
        XCTAssertEqual(error?.code, NSPersistentStoreSaveError)
    }

    func testHistoryTablesAreApplesLayout() throws {
        let store = try TemporaryCompanyStore()
        let (_, context) = try store.open(options: [NSPersistentHistoryTrackingKey: true])
        try context.performAndWait {
            context.transactionAuthor = "me"
            let e = Employee(context: context)
            e.firstName = "Ann"
            try context.save()
        }
        XCTAssertEqual(try store.sql("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT"),
                       [["16001", "CHANGE"], ["16002", "TRANSACTION"], ["16003", "TRANSACTIONSTRING"]])
        XCTAssertEqual(try store.sql("SELECT Z_ENT, ZCHANGETYPE, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE"), [["16001", "0", "1", "1", nil]])
        XCTAssertEqual(try store.sql("SELECT ZNAME FROM ATRANSACTIONSTRING, ATRANSACTION WHERE ATRANSACTIONSTRING.Z_PK = ATRANSACTION.ZAUTHORTS"), [["me"]])
        XCTAssertEqual(try store.sql("SELECT ZAUTHOR FROM ATRANSACTION"), [[nil]], "strings live in ATRANSACTIONSTRING, as in Apple's stores")
        try context.performAndWait {
            let ann = try XCTUnwrap(context.fetch(NSFetchRequest<Employee>(entityName: "Employee")).first)
            ann.salary = 10
            try context.save()
        }
        // Employee's stored properties by name: badge, department, directReports, email, firstName,
        // lastName, manager, projects, salary (bit 8: 0x80 of the second byte), startDate.
        XCTAssertEqual(try store.sql("SELECT hex(ZCOLUMNS) FROM ACHANGE WHERE ZCHANGETYPE = 1"), [["0080"]])
    }

    func testADeletionKeepsTheValuesItsModelPreserves() throws {
        let model = CompanyModel.make()
        let employee = try XCTUnwrap(model.entitiesByName["Employee"])
        (employee.propertiesByName["lastName"] as? NSAttributeDescription)?.preservesValueInHistoryOnDeletion = true
        (employee.propertiesByName["email"] as? NSAttributeDescription)?.preservesValueInHistoryOnDeletion = true
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = directory.appendingPathComponent("Tombstones.sqlite")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [NSPersistentHistoryTrackingKey: true])
        let stack = TestStack(model: model, coordinator: coordinator, context: newContext(coordinator))
        try stack.context.performAndWait {
            let ann = stack.employee("Ann"); ann.lastName = "Archer"; ann.email = "ann@example.com"
            let bob = stack.employee("Bob"); bob.lastName = "Baker"
            try stack.context.save()
            stack.context.delete(ann)
            try stack.context.save()
            // A batch delete keeps them too.
            _ = try stack.context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Employee")))
        }
        let recorded = try transactions(stack)
        let deleted = try XCTUnwrap(recorded[1].changes?.first)
        XCTAssertEqual(deleted.changeType, .delete)
        XCTAssertEqual(deleted.tombstone?["lastName"] as? String, "Archer")
        XCTAssertEqual(deleted.tombstone?["email"] as? String, "ann@example.com")
        XCTAssertNil(deleted.tombstone?["firstName"], "only the preserved attributes")
        XCTAssertEqual(recorded[2].changes?.first?.tombstone?["lastName"] as? String, "Baker")
        XCTAssertNil(recorded[0].changes?.first?.tombstone, "insertions have none")
        XCTAssertEqual(try SQLiteInspector.rows(at: url.path, "SELECT ZTOMBSTONE0, ZTOMBSTONE1 FROM ACHANGE WHERE ZCHANGETYPE = 2 ORDER BY Z_PK"),
                       [["ann@example.com", "Archer"], [nil, "Baker"]], "ZTOMBSTONE<n>: the preserved attributes by name")
    }

    func testHistoryAppleWroteReadsHere() throws {
        let url = try copyAppleStore("alemar11__CoreDataPlus/SampleModel2/Fixtures/SampleModel2_V1.sqlite")
        let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url, usingModelCache: true)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
                                           options: [NSPersistentHistoryTrackingKey: true, NSReadOnlyPersistentStoreOption: true])
        let context = newContext(coordinator)
        let found = try context.performAndWait { (try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] }
        let transaction = try XCTUnwrap(found?.first)
        XCTAssertEqual(found?.count, 1)
        XCTAssertEqual(transaction.bundleID, "com.apple.dt.xctest.tool")
        XCTAssertEqual(transaction.processID, "xctest")
        XCTAssertNil(transaction.author)
        XCTAssertEqual(transaction.timestamp.timeIntervalSinceReferenceDate, 737_057_647.288, accuracy: 0.001)
        XCTAssertEqual(transaction.changes?.count, 5468)
        XCTAssertTrue(transaction.changes?.allSatisfy { $0.changeType == .insert } ?? false)
        let pages = transaction.changes?.filter { $0.changedObjectID.entity.name == "Page" }.count ?? 0
        XCTAssertEqual(pages, try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Page")) })
    }
}
