@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// `uuid == %@`, `!=` and `IN` on the SQLite store: answered in SQL (16-byte blob, or the
/// canonical text another writer may have stored), with exactly the evaluator's answer,
/// nil included. Uses `@testable` to ask whether the store answers the plan itself.
final class SQLiteUUIDPredicateTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-uuid")
    }

    private let ids = [UUID(), UUID(), UUID()]

    private func makeStore() throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let item = NSEntityDescription(name: "Item")
        item.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType),
                           NSAttributeDescription(name: "uid", type: .UUIDAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [item]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = directory.appendingPathComponent("UUID.sqlite")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = newContext(coordinator)
        try context.performAndWait {
            for (name, uid) in [("a", ids[0]), ("b", ids[1]), ("none", nil), ("text", ids[2])] as [(String, UUID?)] {
                let o = NSManagedObject(entity: item, insertInto: context)
                o.setValue(name, forKey: "name")
                o.setValue(uid, forKey: "uid")
            }
            try context.save()
        }
        // Another writer stored this one as lower-case text, not as 16 bytes.
        try SQLiteInspector.execute(at: url.path, "UPDATE ZITEM SET ZUID = '\(ids[2].uuidString.lowercased())' WHERE ZNAME = 'text'")
        return (coordinator, newContext(coordinator))
    }

    func testUUIDComparisonsAreAnsweredInSQLAsInMemory() throws {
        let (coordinator, context) = try makeStore()
        let cases: [(String, [Any], [String])] = [
            ("uid == %@", [ids[0]], ["a"]),
            ("uid != %@", [ids[0]], ["b", "none", "text"]),
            ("uid == %@", [ids[2]], ["text"]),
            ("uid IN %@", [[ids[1], ids[2]]], ["b", "text"]),
            ("uid == nil", [], ["none"]),
            ("NOT (uid == %@)", [ids[1]], ["a", "none", "text"]),
        ]
        try context.performAndWait {
            let all = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            for (format, args, expected) in cases {
                let predicate = NSPredicate(format: format, argumentArray: args)
                let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                request.predicate = predicate
                let plan = FetchPlan(entity: coordinator.managedObjectModel.entitiesByName["Item"]!, predicate: predicate,
                                     sortDescriptors: [], includesSubentities: true, fetchLimit: 0, fetchOffset: 0, affectedStores: nil)
                XCTAssertTrue(coordinator.storesEvaluate(plan), "\(format) is answered in SQL")
                let fromStore = try context.fetch(request).map { $0.value(forKey: "name") as! String }.sorted()
                let inMemory = all.filter { predicate.evaluate(with: $0) }.map { $0.value(forKey: "name") as! String }.sorted()
                XCTAssertEqual(fromStore, expected, format)
                XCTAssertEqual(inMemory, expected, "\(format) in memory")
            }
        }
    }
}
