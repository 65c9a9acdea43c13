@_spi(Testing) import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The SQLite store under the coordinator's store-management and multi-store protocols:
/// metadata without adding the store, destroying its files, two-phase saves, locked objects.
final class SQLiteCoordinatorTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-sqlite-coord")
    }

    private func stack(_ model: NSManagedObjectModel = CompanyModel.make(), at name: String = "Company.sqlite") throws -> TestStack {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent(name))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return TestStack(model: model, coordinator: coordinator, context: context)
    }

    func testMetadataIsReadableWithoutAddingTheStoreAndDestroyRemovesEveryFile() throws {
        let s = try stack()
        try s.context.performAndWait {
            _ = s.employee("E")
            try s.context.save()
        }
        let url = directory.appendingPathComponent("Company.sqlite")
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertEqual(metadata[NSStoreUUIDKey] as? String, s.coordinator.persistentStores[0].identifier)
        XCTAssertEqual(metadata[NSStoreTypeKey] as? String, NSSQLiteStoreType)
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path + "-wal"))

        try s.coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType)
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: url.path + suffix), "\(suffix) left behind")
        }
        XCTAssertTrue(s.coordinator.persistentStores.isEmpty)
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url))
    }

    func testAStoreWeWroteOpensThroughAModelRecoveredFromIt() throws {
        let s = try stack()
        try s.context.performAndWait {
            _ = s.employee("Recovered", salary: 7)
            try s.context.save()
        }
        let url = directory.appendingPathComponent("Company.sqlite")
        let recovered = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: recovered)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let rows = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee"))
            XCTAssertEqual(rows.count, 1)
            XCTAssertEqual(rows.first?.value(forKey: "salary") as? Int, 7)
        }
    }

    func testASQLiteStoreIsRolledBackWhenAnotherStoreRefusesTheSave() throws {
        NSPersistentStoreCoordinator.registerStoreClass(RefusingStore.self, forStoreType: "Refusing")
        let model = CompanyModel.make()
        let byName = model.entitiesByName
        model.setEntities([byName["Department"]!], forConfigurationName: "Org")
        model.setEntities(["Employee", "Manager", "Project", "Milestone", "Badge"].map { byName[$0]! }, forConfigurationName: "People")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = directory.appendingPathComponent("Org.sqlite")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Org", at: url)
        try coordinator.addPersistentStore(ofType: "Refusing", configurationName: "People", at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
            d.setValue("Org", forKey: "name")
            let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            e.setValue("Refused", forKey: "firstName")
            XCTAssertThrowsError(try context.save()) { XCTAssertEqual(($0 as NSError).code, 4242) }
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Department")), 1, "still pending in the context")
        }
        // Another coordinator reads the file: the department was not committed.
        let reader = NSPersistentStoreCoordinator(managedObjectModel: model)
        try reader.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Org", at: url)
        let readContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        readContext.persistentStoreCoordinator = reader
        try readContext.performAndWait {
            XCTAssertEqual(try readContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Department")), 0)
        }
    }

    func testEachStoreOfASaveWritesOnlyItsChangedColumns() throws {
        let model = CompanyModel.make()
        let byName = model.entitiesByName
        model.setEntities([byName["Department"]!], forConfigurationName: "Org")
        model.setEntities(["Employee", "Manager", "Project", "Milestone", "Badge"].map { byName[$0]! }, forConfigurationName: "People")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let org = directory.appendingPathComponent("Org.sqlite"), people = directory.appendingPathComponent("People.sqlite")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Org", at: org)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "People", at: people)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let (department, employee) = try context.performAndWait {
            let d = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
            d.setValue("Org", forKey: "name")
            let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            e.setValue("Ann", forKey: "firstName")
            try context.save()
            return (d, e)
        }
        // Written behind the stores' backs, in columns the next save does not change.
        try SQLiteInspector.execute(at: org.path, "UPDATE ZDEPARTMENT SET ZNAME = 'Renamed elsewhere'")
        try SQLiteInspector.execute(at: people.path, "UPDATE ZEMPLOYEE SET ZFIRSTNAME = 'Renamed elsewhere'")
        try context.performAndWait {
            department.setValue(5.0, forKey: "budget")
            employee.setValue(7, forKey: "salary")
            try context.save()
        }
        XCTAssertEqual(try SQLiteInspector.rows(at: org.path, "SELECT ZNAME, ZBUDGET, Z_OPT FROM ZDEPARTMENT"), [["Renamed elsewhere", "5.0", "2"]])
        XCTAssertEqual(try SQLiteInspector.rows(at: people.path, "SELECT ZFIRSTNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE"), [["Renamed elsewhere", "7", "2"]])
    }

    func testDetectConflictsBumpsTheRowVersionOnDisk() throws {
        let a = try stack()
        let department: Department = try a.context.performAndWait {
            let d = a.department("Locked")
            try a.context.save()
            return d
        }
        try a.context.performAndWait {
            a.context.detectConflicts(for: department)
            try a.context.save()
        }
        let b = try stack()
        try b.context.performAndWait {
            let theirs = try b.context.existingObject(with: b.coordinator.managedObjectID(forURIRepresentation: department.objectID.uriRepresentation())!)
            theirs.setValue("Renamed", forKey: "name")
            try b.context.save()
        }
        try a.context.performAndWait {
            department.name = "Stale"
            XCTAssertThrowsError(try a.context.save()) { XCTAssertEqual(($0 as NSError).code, NSManagedObjectMergeError) }
        }
        let versions = try SQLiteInspector.rows(at: directory.appendingPathComponent("Company.sqlite").path, "SELECT Z_OPT FROM ZDEPARTMENT")
        XCTAssertEqual(versions, [["3"]], "insert 1, locked save 2, other stack's update 3")
    }
    /// Under the error policy the SQLite store's `WHERE Z_OPT = ?` finds a conflict as it
    /// writes, so a save reads no record first; other policies read each changed record to
    /// resolve before writing. Either way a stale update fails with the full conflict.
    func testSavesUnderTheErrorPolicyReadNoRecordBeforeWriting() throws {
        let a = try stack()
        let department: Department = try a.context.performAndWait {
            let d = a.department("Plain")
            try a.context.save()
            return d
        }
        try a.context.performAndWait {
            let before = a.coordinator.storeRoundTrips
            department.name = "Renamed once"
            try a.context.save()
            XCTAssertEqual(a.coordinator.storeRoundTrips, before, "no read before the write")
            a.context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            department.name = "Renamed twice"
            try a.context.save()
            XCTAssertEqual(a.coordinator.storeRoundTrips, before + 1, "a resolving policy reads the record first")
            a.context.mergePolicy = NSErrorMergePolicy
        }
        let b = try stack()
        try b.context.performAndWait {
            let theirs = try b.context.existingObject(with: b.coordinator.managedObjectID(forURIRepresentation: department.objectID.uriRepresentation())!)
            theirs.setValue("Theirs", forKey: "name")
            try b.context.save()
        }
        try a.context.performAndWait {
            department.name = "Stale"
            XCTAssertThrowsError(try a.context.save()) { error in
                XCTAssertEqual((error as NSError).code, NSManagedObjectMergeError)
                let conflict = ((error as NSError).userInfo["conflictList"] as? [NSMergeConflict])?.first
                XCTAssertEqual(conflict?.oldVersionNumber, 3)
                XCTAssertEqual(conflict?.newVersionNumber, 4)
                XCTAssertEqual(conflict?.persistedSnapshot?["name"] as? String, "Theirs")
            }
            XCTAssertTrue(a.context.hasChanges, "the failed save keeps the change")
        }
    }
}
