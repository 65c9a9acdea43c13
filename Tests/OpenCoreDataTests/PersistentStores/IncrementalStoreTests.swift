import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

// A custom NSIncrementalStore written the way Apple's Incremental Store Programming Guide (seed
// 001) builds one, checkpoint by checkpoint: a dictionary-backed store whose records are keyed
// by String reference objects. One test per checkpoint of the guide, plus registration,
// metadata, reference objects and error forwarding.

/// The "backing data store": records by entity name and reference, with a log of what Core Data
/// asked of the store. Shared between the test and the store the coordinator creates, by URL.
final class DictionaryBackingStore: @unchecked Sendable {
    // @unchecked Sendable: every field is guarded by `lock` (recursive: the store calls
    // context.object(with:), which calls back into the store to report registration).
    struct Record {
        /// Attributes by name; to-one relationships as the destination's reference (or NSNull);
        /// to-many relationships as arrays of references.
        var values: [String: Any]
        var version: UInt64
    }

    let lock = NSRecursiveLock()
    let uuid = UUID().uuidString
    private var _records: [String: [String: Record]] = [:]
    private var _log: [String] = []
    private var _registered: [String: Int] = [:]
    private var lastKey = 0
    /// Put to-one relationships into nodes (the guide's advice); to-many are always left out.
    var toOneInNode = true
    /// Thrown by the next execute(_:with:) (to test that errors reach the caller unchanged).
    var failure: NSError?

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body()
    }

    var records: [String: [String: Record]] {
        get { locked { _records } }
        set { locked { _records = newValue } }
    }
    var log: [String] { locked { _log } }
    func note(_ entry: String) { locked { _log.append(entry) } }
    func clearLog() { locked { _log.removeAll() } }
    var registeredCount: Int { locked { _registered.values.reduce(0, +) } }
    func register(_ ids: [String], _ delta: Int) {
        locked { for id in ids { _registered[id, default: 0] += delta } }
    }
    func newKey(_ entity: String) -> String {
        locked { lastKey += 1; return "\(entity.prefix(1))-\(lastKey)" }
    }

    func add(_ entity: String, _ key: String, _ values: [String: Any], version: UInt64 = 1) {
        locked { _records[entity, default: [:]][key] = Record(values: values, version: version) }
    }

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var byPath: [String: DictionaryBackingStore] = [:]  // guarded by registryLock
    static func at(_ url: URL) -> DictionaryBackingStore? {
        registryLock.lock(); defer { registryLock.unlock() }
        return byPath[url.path]
    }
    static func install(_ backing: DictionaryBackingStore, at url: URL) {
        registryLock.lock(); defer { registryLock.unlock() }
        byPath[url.path] = backing
    }
}

final class DictionaryIncrementalStore: NSIncrementalStore, @unchecked Sendable {
    // @unchecked Sendable: the store's data lives in the backing store, which locks it.
    static let storeType = "DictionaryIncrementalStore"

    var backing: DictionaryBackingStore {
        guard let url, let backing = DictionaryBackingStore.at(url) else {
            preconditionFailure("no backing store installed at \(url?.path ?? "nil")")
        }
        return backing
    }

    // Checkpoint "Opening an incremental store".
    override func loadMetadata() throws {
        guard let url, url.isFileURL, DictionaryBackingStore.at(url) != nil else {
            throw NSError(domain: "DictionaryStore", code: 1, userInfo: [NSLocalizedDescriptionKey: "No backing store at \(url?.absoluteString ?? "nil")"])
        }
        metadata = [NSStoreUUIDKey: backing.uuid, NSStoreTypeKey: Self.storeType]
    }

    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        if let failure = backing.failure { throw failure }
        if request.requestType == .fetchRequestType {
            // The guide's cast: the coordinator must hand over exactly this type.
            let fetchRequest = request as! NSFetchRequest<NSFetchRequestResult>
            let entity = fetchRequest.entity!
            backing.note("fetch \(entity.name!) \(fetchRequest.predicate?.predicateFormat ?? "-")")
            var matches: [(key: String, values: [String: Any])] = []
            for (key, record) in backing.records[entity.name!] ?? [:] {
                if let predicate = fetchRequest.predicate, !predicate.evaluate(with: record.values) { continue }
                matches.append((key, record.values))
            }
            let sortDescriptors = fetchRequest.sortDescriptors ?? []
            matches.sort { a, b in
                for descriptor in sortDescriptors {
                    let order = descriptor.compare(a.values, to: b.values)
                    if order != .orderedSame { return order == .orderedAscending }
                }
                return a.key < b.key
            }
            if fetchRequest.fetchOffset > 0 { matches = Array(matches.dropFirst(fetchRequest.fetchOffset)) }
            if fetchRequest.fetchLimit > 0 { matches = Array(matches.prefix(fetchRequest.fetchLimit)) }
            let ids = matches.map { newObjectID(for: entity, referenceObject: $0.key) }
            if fetchRequest.resultType == .managedObjectIDResultType { return ids }
            return ids.map { context!.object(with: $0) }
        }
        if request.requestType == .saveRequestType {
            let save = request as! NSSaveChangesRequest
            backing.note("save +\(save.insertedObjects?.count ?? -1) ~\(save.updatedObjects?.count ?? -1) -\(save.deletedObjects?.count ?? -1)")
            backing.locked {
                var records = backing.records
                for object in save.insertedObjects ?? [] {
                    records[object.entity.name!, default: [:]][key(object)] = DictionaryBackingStore.Record(values: values(of: object), version: 1)
                }
                for object in save.updatedObjects ?? [] {
                    let old = records[object.entity.name!]?[key(object)]?.version ?? 0
                    records[object.entity.name!, default: [:]][key(object)] = DictionaryBackingStore.Record(values: values(of: object), version: old + 1)
                }
                for object in save.deletedObjects ?? [] {
                    records[object.entity.name!]?[key(object)] = nil
                }
                backing.records = records
            }
            return [Any]()
        }
        throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError)
    }

    private func key(_ object: NSManagedObject) -> String { referenceObject(for: object.objectID) as! String }

    /// What the backing store keeps for an object: attributes, and references for relationships.
    private func values(of object: NSManagedObject) -> [String: Any] {
        var values: [String: Any] = [:]
        for (name, property) in object.entity.propertiesByName {
            if property is NSAttributeDescription {
                if let value = object.value(forKey: name) { values[name] = value }
            } else if let relationship = property as? NSRelationshipDescription {
                if relationship.isToMany {
                    values[name] = ((object.value(forKey: name) as? Set<NSManagedObject>) ?? []).map(key).sorted()
                } else {
                    values[name] = (object.value(forKey: name) as? NSManagedObject).map(key) ?? NSNull()
                }
            }
        }
        return values
    }

    // Checkpoint "Fulfilling attribute faults" (and to-one relationships in the node).
    override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        let key = referenceObject(for: objectID) as! String
        backing.note("values \(key)")
        guard let record = backing.records[objectID.entity.name!]?[key] else {
            throw NSError(domain: "DictionaryStore", code: 404, userInfo: [NSLocalizedDescriptionKey: "No record \(key)"])
        }
        var values: [String: Any] = [:]
        for (name, property) in objectID.entity.propertiesByName {
            if property is NSAttributeDescription {
                values[name] = record.values[name]
            } else if let relationship = property as? NSRelationshipDescription, !relationship.isToMany, backing.toOneInNode {
                values[name] = relationshipValue(record.values[name], relationship)
            }
        }
        return NSIncrementalStoreNode(objectID: objectID, withValues: values, version: record.version)
    }

    // Checkpoint "Fulfilling to-many relationship faults" (and lazily resolved to-ones).
    override func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID, with context: NSManagedObjectContext?) throws -> Any {
        let key = referenceObject(for: objectID) as! String
        backing.note("relationship \(key).\(relationship.name)")
        let record = backing.records[objectID.entity.name!]?[key]
        return relationshipValue(record?.values[relationship.name], relationship)
    }

    private func relationshipValue(_ stored: Any?, _ relationship: NSRelationshipDescription) -> Any {
        let destination = relationship.destinationEntity!
        if relationship.isToMany {
            return ((stored as? [String]) ?? []).map { newObjectID(for: destination, referenceObject: $0) }
        }
        guard let key = stored as? String else { return NSNull() }
        return newObjectID(for: destination, referenceObject: key)
    }

    // Special case: creating objects.
    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        backing.note("permanentIDs \(array.count)")
        return array.map { newObjectID(for: $0.entity, referenceObject: backing.newKey($0.entity.name!)) }
    }

    override func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {
        backing.register(objectIDs.map { referenceObject(for: $0) as! String }, 1)
    }

    override func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {
        backing.register(objectIDs.map { referenceObject(for: $0) as! String }, -1)
    }
}

/// A store that sets no metadata: Core Data fills it in.
final class MinimalIncrementalStore: NSIncrementalStore, @unchecked Sendable {
    override func loadMetadata() throws {}
    override class func identifierForNewStore(at storeURL: URL) -> Any { "minimal-\(storeURL.lastPathComponent)" }
}

final class IncrementalStoreTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        NSPersistentStoreCoordinator.registerStoreClass(DictionaryIncrementalStore.self, forStoreType: DictionaryIncrementalStore.storeType)
        NSPersistentStoreCoordinator.registerStoreClass(MinimalIncrementalStore.self, forStoreType: "Minimal")
    }

    /// Department ⇄ Employee, the guide's "two entities".
    static func makeModel() -> NSManagedObjectModel {
        let department = NSEntityDescription(name: "Department")
        let employee = NSEntityDescription(name: "Employee")
        let employees = NSRelationshipDescription(), worksIn = NSRelationshipDescription()
        employees.name = "employees"; employees.maxCount = 0; employees.destinationEntity = employee; employees.inverseRelationship = worksIn
        worksIn.name = "department"; worksIn.maxCount = 1; worksIn.destinationEntity = department; worksIn.inverseRelationship = employees
        department.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), employees]
        employee.properties = [NSAttributeDescription(name: "firstName", type: .stringAttributeType),
                               NSAttributeDescription(name: "salary", type: .integer64AttributeType, isOptional: false, defaultValue: 0),
                               worksIn]
        let model = NSManagedObjectModel()
        model.entities = [department, employee]
        return model
    }

    struct Stack {
        let backing: DictionaryBackingStore
        let coordinator: NSPersistentStoreCoordinator
        let store: NSPersistentStore
        func newContext() -> NSManagedObjectContext {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
    }

    /// A stack on a new backing store "manually pre-populated with a few rows of test data".
    func makeStack(toOneInNode: Bool = true) throws -> Stack {
        let backing = DictionaryBackingStore()
        backing.toOneInNode = toOneInNode
        backing.add("Department", "D-sales", ["name": "Sales", "employees": ["E-ann", "E-bob"]])
        backing.add("Department", "D-lab", ["name": "Lab", "employees": ["E-cy"]])
        backing.add("Employee", "E-ann", ["firstName": "Ann", "salary": 300, "department": "D-sales"], version: 3)
        backing.add("Employee", "E-bob", ["firstName": "Bob", "salary": 100, "department": "D-sales"])
        backing.add("Employee", "E-cy", ["firstName": "Cy", "salary": 200, "department": "D-lab"])
        let url = URL(fileURLWithPath: "/tmp/ocd-incremental-\(UUID().uuidString)")
        DictionaryBackingStore.install(backing, at: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.makeModel())
        let store = try coordinator.addPersistentStore(ofType: DictionaryIncrementalStore.storeType, configurationName: nil, at: url, options: nil)
        return Stack(backing: backing, coordinator: coordinator, store: store)
    }

    private func employees(_ context: NSManagedObjectContext, _ configure: (NSFetchRequest<NSManagedObject>) -> Void = { _ in }) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        configure(request)
        return try context.fetch(request)
    }

    // MARK: The guide's checkpoints

    /// Checkpoint 1: a fetch of every object of one entity returns faults with object IDs, and
    /// does not load any values.
    func testCheckpoint1FetchReturnsFaults() throws {
        let stack = try makeStack()
        let context = stack.newContext()
        try context.performAndWait {
            let results = try employees(context)
            XCTAssertEqual(results.count, 3)
            XCTAssertTrue(results.allSatisfy(\.isFault), "objects come back as faults")
            let references = results.map { (stack.store as! NSIncrementalStore).referenceObject(for: $0.objectID) as? String }
            XCTAssertEqual(Set(references.compactMap { $0 }), ["E-ann", "E-bob", "E-cy"])
            XCTAssertTrue(results.allSatisfy { !$0.objectID.isTemporaryID && $0.objectID.persistentStore === stack.store })
            XCTAssertEqual(stack.backing.log, ["fetch Employee -"], "only execute(_:with:) ran: no values were loaded")

            let idRequest = NSFetchRequest<NSManagedObjectID>(entityName: "Employee")
            idRequest.resultType = .managedObjectIDResultType
            let ids = try context.fetch(idRequest)
            XCTAssertEqual(Set(ids), Set(results.map(\.objectID)))

            // A request typed as the guide's cast target works end to end too.
            let untyped = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
            XCTAssertEqual(try context.fetch(untyped).count, 3)
        }
    }

    /// Checkpoint 2: attribute faults fire through newValuesForObject(with:with:) only when a
    /// value is read; the node's version becomes the object's optimistic-locking version.
    func testCheckpoint2AttributeFaultsFireWithVersions() throws {
        let stack = try makeStack()
        let context = stack.newContext()
        try context.performAndWait {
            let ann = try employees(context) { $0.predicate = NSPredicate(format: "firstName == 'Ann'") }[0]
            stack.backing.clearLog()
            XCTAssertTrue(ann.isFault)
            XCTAssertEqual(ann.value(forKey: "firstName") as? String, "Ann")
            XCTAssertFalse(ann.isFault)
            XCTAssertEqual(ann.value(forKey: "salary") as? Int, 300)
            XCTAssertEqual(stack.backing.log, ["values E-ann"], "one round trip for all attributes, none before the first read")

            // The node's version (3) is what the save checks: change the record behind the
            // context's back, and the save reports the conflict instead of overwriting it.
            ann.setValue(301, forKey: "salary")
            try context.save()
            XCTAssertEqual(stack.backing.records["Employee"]?["E-ann"]?.version, 4, "the store incremented the version")
            stack.backing.locked { stack.backing.records["Employee"]?["E-ann"]?.version = 9 }
            ann.setValue(302, forKey: "salary")
            XCTAssertThrowsError(try context.save()) { error in
                XCTAssertEqual((error as NSError).code, NSManagedObjectMergeError)
            }
            XCTAssertEqual(stack.backing.records["Employee"]?["E-ann"]?.values["salary"] as? Int, 301, "the conflicting save wrote nothing")
        }
    }

    /// Checkpoint 3: fetch requests with sort descriptors and predicates come back filtered and
    /// in order — evaluated by the store, which receives them in the request.
    func testCheckpoint3SortDescriptorsAndPredicates() throws {
        let stack = try makeStack()
        let context = stack.newContext()
        try context.performAndWait {
            let paid = try employees(context) {
                $0.predicate = NSPredicate(format: "salary >= %d", 150)
                $0.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: true)]
            }
            XCTAssertEqual(paid.map { $0.value(forKey: "firstName") as? String }, ["Cy", "Ann"])
            XCTAssertEqual(stack.backing.log.first, "fetch Employee salary >= 150")

            let byNameDescending = try employees(context) {
                $0.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: false)]
                $0.fetchLimit = 2
            }
            XCTAssertEqual(byNameDescending.map { $0.value(forKey: "firstName") as? String }, ["Cy", "Bob"])
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")), 3)
        }
    }

    /// Checkpoint 4: create, update and delete through NSSaveChangesRequest, after
    /// obtainPermanentIDs(for:); a refetch in another context sees the result.
    func testCheckpoint4CreateUpdateDeleteThroughSaveRequest() throws {
        let stack = try makeStack()
        let context = stack.newContext()
        try context.performAndWait {
            let all = try employees(context) { $0.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)] }
            let (ann, bob) = (all[0], all[1])
            let dee = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            dee.setValue("Dee", forKey: "firstName"); dee.setValue(50, forKey: "salary")
            let eve = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            eve.setValue("Eve", forKey: "firstName")
            ann.setValue(333, forKey: "salary")
            context.delete(bob)
            stack.backing.clearLog()
            try context.save()

            let log = stack.backing.log
            let permanent = try XCTUnwrap(log.firstIndex(of: "permanentIDs 2"), "\(log)")
            // Updated: Ann, and Sales (deleting Bob nullified its side of the relationship).
            let save = try XCTUnwrap(log.firstIndex(of: "save +2 ~2 -1"), "\(log)")
            XCTAssertLessThan(permanent, save, "permanent IDs first, then the save request: \(log)")
            XCTAssertEqual(log.filter { $0.hasPrefix("permanentIDs") || $0.hasPrefix("save") }.count, 2, "\(log)")
            XCTAssertFalse(dee.objectID.isTemporaryID)
            let deeKey = try XCTUnwrap((stack.store as! NSIncrementalStore).referenceObject(for: dee.objectID) as? String)
            XCTAssertEqual(stack.backing.records["Employee"]?[deeKey]?.version, 1, "new records start at version 1")
            XCTAssertEqual(stack.backing.records["Employee"]?["E-ann"]?.version, 4, "updated records go up by one")
            XCTAssertNil(stack.backing.records["Employee"]?["E-bob"])
        }
        let other = stack.newContext()
        try other.performAndWait {
            let names = try employees(other) { $0.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)] }
                .map { "\($0.value(forKey: "firstName") as? String ?? "?") \($0.value(forKey: "salary") as? Int ?? -1)" }
            XCTAssertEqual(names, ["Ann 333", "Cy 200", "Dee 50", "Eve 0"])
        }
    }

    /// Checkpoint 5: a to-one relationship comes in the node as an object ID (or, left out of
    /// the node, through newValue(forRelationship:...)); it can be set, changed and removed.
    func testCheckpoint5ToOneRelationships() throws {
        for toOneInNode in [true, false] {
            let stack = try makeStack(toOneInNode: toOneInNode)
            let context = stack.newContext()
            try context.performAndWait {
                let cy = try employees(context) { $0.predicate = NSPredicate(format: "firstName == 'Cy'") }[0]
                XCTAssertEqual(cy.value(forKey: "firstName") as? String, "Cy")
                XCTAssertFalse(stack.backing.log.contains("relationship E-cy.department"), "a to-one left out of the node waits until it is read")
                let lab = try XCTUnwrap(cy.value(forKey: "department") as? NSManagedObject)
                XCTAssertEqual(lab.value(forKey: "name") as? String, "Lab")
                XCTAssertEqual(stack.backing.log.contains("relationship E-cy.department"), !toOneInNode, "\(stack.backing.log)")

                let sales = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Department")).first { $0.value(forKey: "name") as? String == "Sales" }!
                cy.setValue(sales, forKey: "department")
                let newcomer = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
                newcomer.setValue("Flo", forKey: "firstName")
                newcomer.setValue(lab, forKey: "department")
                try context.save()
                XCTAssertEqual(stack.backing.records["Employee"]?["E-cy"]?.values["department"] as? String, "D-sales")

                cy.setValue(nil, forKey: "department")
                try context.save()
                XCTAssertTrue(stack.backing.records["Employee"]?["E-cy"]?.values["department"] is NSNull)
            }
            let other = stack.newContext()
            try other.performAndWait {
                let people = try employees(other) { $0.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)] }
                let departments = people.map { (($0.value(forKey: "department") as? NSManagedObject)?.value(forKey: "name") as? String) ?? "-" }
                XCTAssertEqual(people.map { $0.value(forKey: "firstName") as? String ?? "?" }, ["Ann", "Bob", "Cy", "Flo"])
                XCTAssertEqual(departments, ["Sales", "Sales", "-", "Lab"], "toOneInNode: \(toOneInNode)")
            }
        }
    }

    /// Checkpoint 6: to-many relationships come from newValue(forRelationship:...) as arrays of
    /// object IDs; members can be added and removed, and the change is saved.
    func testCheckpoint6ToManyRelationships() throws {
        let stack = try makeStack()
        let context = stack.newContext()
        try context.performAndWait {
            let departments = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Department"))
            let sales = departments.first { $0.value(forKey: "name") as? String == "Sales" }!
            let lab = departments.first { $0.value(forKey: "name") as? String == "Lab" }!
            XCTAssertFalse(stack.backing.log.contains { $0.hasPrefix("relationship") }, "values load without the to-many: \(stack.backing.log)")
            XCTAssertTrue(sales.hasFault(forRelationshipNamed: "employees"))
            let members = try XCTUnwrap(sales.value(forKey: "employees") as? Set<NSManagedObject>)
            XCTAssertFalse(sales.hasFault(forRelationshipNamed: "employees"))
            XCTAssertEqual(Set(members.map { $0.value(forKey: "firstName") as? String ?? "?" }), ["Ann", "Bob"])
            XCTAssertEqual(stack.backing.log.filter { $0.hasPrefix("relationship") }, ["relationship D-sales.employees"], "only the relationship read was loaded")

            // Move Bob to the lab, add a new employee to sales, and remove Ann.
            let bob = members.first { $0.value(forKey: "firstName") as? String == "Bob" }!
            let ann = members.first { $0.value(forKey: "firstName") as? String == "Ann" }!
            lab.mutableSetValue(forKey: "employees").add(bob)
            let gil = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            gil.setValue("Gil", forKey: "firstName")
            sales.mutableSetValue(forKey: "employees").add(gil)
            sales.mutableSetValue(forKey: "employees").remove(ann)
            try context.save()
            let gilKey = (stack.store as! NSIncrementalStore).referenceObject(for: gil.objectID) as! String
            XCTAssertEqual(stack.backing.records["Department"]?["D-sales"]?.values["employees"] as? [String], [gilKey])
            XCTAssertEqual(stack.backing.records["Department"]?["D-lab"]?.values["employees"] as? [String], ["E-bob", "E-cy"])
        }
        let other = stack.newContext()
        try other.performAndWait {
            let departments = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Department"))
            let names = Dictionary(uniqueKeysWithValues: departments.map { department in
                (department.value(forKey: "name") as! String,
                 Set(((department.value(forKey: "employees") as? Set<NSManagedObject>) ?? []).map { $0.value(forKey: "firstName") as? String ?? "?" }))
            })
            XCTAssertEqual(names, ["Sales": ["Gil"], "Lab": ["Bob", "Cy"]])
        }
    }

    // MARK: Registration, metadata, reference objects, errors

    func testRegisteredStoreClassIsAddedByTypeNameWithItsMetadata() throws {
        XCTAssertTrue(NSPersistentStoreCoordinator.registeredStoreTypes[DictionaryIncrementalStore.storeType] == DictionaryIncrementalStore.self)
        let stack = try makeStack()
        XCTAssertTrue(stack.store is DictionaryIncrementalStore)
        XCTAssertEqual(stack.store.type, DictionaryIncrementalStore.storeType)
        XCTAssertEqual(stack.store.metadata[NSStoreUUIDKey] as? String, stack.backing.uuid)
        XCTAssertEqual(stack.store.metadata[NSStoreTypeKey] as? String, DictionaryIncrementalStore.storeType)
        XCTAssertEqual(stack.store.identifier, stack.backing.uuid)
        let context = stack.newContext()
        try context.performAndWait {
            let uri = try employees(context)[0].objectID.uriRepresentation()
            XCTAssertEqual(uri.host, stack.backing.uuid, "object URIs name the store by its metadata UUID")
            XCTAssertEqual(stack.coordinator.managedObjectID(forURIRepresentation: uri), try employees(context)[0].objectID)
        }
    }

    func testMetadataLeftOutIsFilledIn() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.makeModel())
        let store = try coordinator.addPersistentStore(ofType: "Minimal", configurationName: nil, at: URL(fileURLWithPath: "/tmp/minimal-store"), options: nil)
        XCTAssertEqual(store.metadata[NSStoreTypeKey] as? String, "Minimal")
        XCTAssertEqual(store.metadata[NSStoreUUIDKey] as? String, "minimal-minimal-store", "from identifierForNewStore(at:)")
        XCTAssertEqual(store.identifier, "minimal-minimal-store")
    }

    func testLoadMetadataErrorFailsAddingTheStore() {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.makeModel())
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: DictionaryIncrementalStore.storeType, configurationName: nil, at: URL(fileURLWithPath: "/tmp/nothing-here"), options: nil)) { error in
            XCTAssertEqual((error as NSError).domain, "DictionaryStore")
        }
        XCTAssertTrue(coordinator.persistentStores.isEmpty)
    }

    func testStoredModelVersionHashesMustMatch() throws {
        let stack = try makeStack()
        final class HashedStore: NSIncrementalStore, @unchecked Sendable {
            override func loadMetadata() throws {
                metadata = [NSStoreUUIDKey: "hashed", NSStoreTypeKey: "Hashed", NSStoreModelVersionHashesKey: ["Employee": Data([1, 2, 3])]]
            }
        }
        NSPersistentStoreCoordinator.registerStoreClass(HashedStore.self, forStoreType: "Hashed")
        XCTAssertThrowsError(try stack.coordinator.addPersistentStore(ofType: "Hashed", configurationName: nil, at: URL(fileURLWithPath: "/tmp/hashed"), options: nil)) { error in
            XCTAssertEqual((error as NSError).code, NSPersistentStoreIncompatibleVersionHashError)
        }
    }

    func testReferenceObjectsRoundTripExactly() throws {
        let stack = try makeStack()
        let store = stack.store as! NSIncrementalStore
        let employee = stack.coordinator.managedObjectModel.entitiesByName["Employee"]!
        let department = stack.coordinator.managedObjectModel.entitiesByName["Department"]!
        let byString = store.newObjectID(for: employee, referenceObject: "E-42")
        XCTAssertEqual(store.referenceObject(for: byString) as? String, "E-42")
        XCTAssertEqual(store.newObjectID(for: employee, referenceObject: "E-42"), byString, "the same reference gives an equal ID")
        XCTAssertNotEqual(store.newObjectID(for: department, referenceObject: "E-42"), byString)
        let byNumber = store.newObjectID(for: employee, referenceObject: NSNumber(value: 7))
        XCTAssertTrue(store.referenceObject(for: byNumber) is NSNumber)
        XCTAssertEqual(store.referenceObject(for: byNumber) as? NSNumber, NSNumber(value: 7))
        XCTAssertTrue(byNumber.uriRepresentation().absoluteString.hasSuffix("/Employee/p7"), "integer references are the URI key")
        let byInt = store.newObjectID(for: department, referenceObject: 12)
        XCTAssertEqual(store.referenceObject(for: byInt) as? Int, 12)
        XCTAssertNotEqual(store.newObjectID(for: employee, referenceObject: "7"), byNumber, "the string \"7\" is not the number 7")
    }

    /// A string reference appears in the object's URI as Apple writes it: `p` + the string
    /// escaped with URL path rules; resolving the URI hands the store the raw remainder (escapes
    /// kept), as Apple's coordinator does. Plain strings round-trip, in this stack and the next.
    func testStringReferencesAppearInURIsAsApplesDo() throws {
        let stack = try makeStack()
        let store = stack.store as! NSIncrementalStore
        let employee = stack.coordinator.managedObjectModel.entitiesByName["Employee"]!
        let plain = store.newObjectID(for: employee, referenceObject: "E-ann")
        XCTAssertTrue(plain.uriRepresentation().absoluteString.hasSuffix("/Employee/pE-ann"), plain.uriRepresentation().absoluteString)
        let back = try XCTUnwrap(stack.coordinator.managedObjectID(forURIRepresentation: plain.uriRepresentation()))
        XCTAssertEqual(back, plain)
        XCTAssertEqual(store.referenceObject(for: back) as? String, "E-ann")

        let odd = store.newObjectID(for: employee, referenceObject: "key with/slash")
        XCTAssertTrue(odd.uriRepresentation().absoluteString.contains("/pkey%20with/slash"), odd.uriRepresentation().absoluteString)
        let oddBack = try XCTUnwrap(stack.coordinator.managedObjectID(forURIRepresentation: odd.uriRepresentation()))
        XCTAssertEqual(store.referenceObject(for: oddBack) as? String, "key%20with/slash", "Apple's coordinator does not decode the escapes")

        // Another stack on the same backing store resolves the plain URI to the same record.
        let url = try XCTUnwrap(stack.store.url)
        let other = NSPersistentStoreCoordinator(managedObjectModel: Self.makeModel())
        let otherStore = try other.addPersistentStore(ofType: DictionaryIncrementalStore.storeType, configurationName: nil, at: url, options: nil) as! NSIncrementalStore
        let elsewhere = try XCTUnwrap(other.managedObjectID(forURIRepresentation: plain.uriRepresentation()))
        XCTAssertEqual(otherStore.referenceObject(for: elsewhere) as? String, "E-ann")
    }

    /// A save without changes still sends the store an (empty) save request, as Apple's does.
    func testASaveWithoutChangesSendsAnEmptySaveRequest() throws {
        let stack = try makeStack()
        let context = stack.newContext()
        stack.backing.clearLog()
        try context.performAndWait { try context.save() }
        XCTAssertEqual(stack.backing.log, ["save +0 ~0 -0"])
    }

    func testErrorsFromTheStoreReachTheCallerUnchanged() throws {
        let stack = try makeStack()
        let failure = NSError(domain: "Backend", code: 42, userInfo: ["server": "down"])
        let context = stack.newContext()
        try context.performAndWait {
            let ann = try employees(context) { $0.predicate = NSPredicate(format: "firstName == 'Ann'") }[0]
            ann.setValue(1, forKey: "salary")
            stack.backing.failure = failure
            XCTAssertThrowsError(try employees(context)) { error in
                XCTAssertTrue((error as NSError) === failure, "fetch: \(error)")
            }
            XCTAssertThrowsError(try context.save()) { error in
                XCTAssertTrue((error as NSError) === failure, "save: \(error)")
            }
            XCTAssertTrue(ann.hasChanges, "a failed save keeps the context's changes")
            stack.backing.failure = nil
            XCTAssertNoThrow(try context.save())
            XCTAssertEqual(stack.backing.records["Employee"]?["E-ann"]?.values["salary"] as? Int, 1)

            // A fault whose record is missing: the store's error comes back from existingObject.
            let ghost = (stack.store as! NSIncrementalStore).newObjectID(for: ann.entity, referenceObject: "E-ghost")
            XCTAssertThrowsError(try context.existingObject(with: ghost)) { error in
                XCTAssertEqual((error as NSError).domain, "DictionaryStore")
                XCTAssertEqual((error as NSError).code, 404)
            }
        }
    }

    func testChildContextReadsAndSavesThroughTheParent() throws {
        let stack = try makeStack()
        let parent = stack.newContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait {
            let sales = try child.fetch(NSFetchRequest<NSManagedObject>(entityName: "Department")).first { $0.value(forKey: "name") as? String == "Sales" }!
            let members = (sales.value(forKey: "employees") as? Set<NSManagedObject>) ?? []
            XCTAssertEqual(Set(members.map { $0.value(forKey: "firstName") as? String ?? "?" }), ["Ann", "Bob"])
            members.first { $0.value(forKey: "firstName") as? String == "Bob" }!.setValue(101, forKey: "salary")
            try child.save()
        }
        XCTAssertEqual(stack.backing.records["Employee"]?["E-bob"]?.values["salary"] as? Int, 100, "a child's save stays in the parent")
        try parent.performAndWait { try parent.save() }
        XCTAssertEqual(stack.backing.records["Employee"]?["E-bob"]?.values["salary"] as? Int, 101)
    }

    func testAnErrorFromObtainPermanentIDsFailsTheSaveUnchanged() throws {
        final class NoIDsStore: NSIncrementalStore, @unchecked Sendable {
            static let failure = NSError(domain: "NoIDs", code: 3)
            override func loadMetadata() throws { metadata = [NSStoreUUIDKey: "no-ids", NSStoreTypeKey: "NoIDs"] }
            override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] { throw Self.failure }
        }
        NSPersistentStoreCoordinator.registerStoreClass(NoIDsStore.self, forStoreType: "NoIDs")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.makeModel())
        try coordinator.addPersistentStore(ofType: "NoIDs", configurationName: nil, at: URL(fileURLWithPath: "/tmp/no-ids"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            XCTAssertThrowsError(try context.save()) { error in XCTAssertTrue((error as NSError) === NoIDsStore.failure) }
            XCTAssertTrue(e.objectID.isTemporaryID)
            XCTAssertTrue(e.isInserted)
        }
    }

    /// Contexts on several queues fetch and fire faults at once; the store's registration
    /// callbacks arrive from all of them (run under Thread Sanitizer by CI's filter too).
    func testConcurrentContextsShareTheStore() throws {
        let stack = try makeStack()
        let contexts = (0..<4).map { _ in stack.newContext() }
        let totals = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: contexts.count) { index in
            let context = contexts[index]
            context.performAndWait {
                for _ in 0..<20 {
                    let salaries = ((try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee"))) ?? [])
                        .map { ($0.value(forKey: "salary") as? Int) ?? 0 }
                    totals.add(salaries.reduce(0, +))
                    context.reset()
                }
            }
        }
        XCTAssertEqual(totals.value, 4 * 20 * 600)
        XCTAssertEqual(stack.backing.registeredCount, 0, "every registration was matched by an unregistration")
    }

    func testContextsReportRegisteringAndUnregisteringObjects() throws {
        let stack = try makeStack()
        let context = stack.newContext()
        context.performAndWait {
            XCTAssertEqual(stack.backing.registeredCount, 0)
            var results: [NSManagedObject]? = try? employees(context)
            XCTAssertEqual(results?.count, 3)
            XCTAssertEqual(stack.backing.registeredCount, 3)
            results = nil
            XCTAssertEqual(stack.backing.registeredCount, 0, "released objects are unregistered")
            _ = results

            let kept = try? employees(context)
            XCTAssertEqual(stack.backing.registeredCount, 3)
            context.reset()
            XCTAssertEqual(stack.backing.registeredCount, 0, "reset unregisters every object")
            _ = kept
        }
    }
}

/// A lock-guarded running total for concurrent tests.
final class LockedCounter: @unchecked Sendable {
    // @unchecked Sendable: `total` is guarded by `lock`.
    private let lock = NSLock()
    private var total = 0
    func add(_ n: Int) { lock.lock(); total += n; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return total }
}
