import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

// Typed accessors written with `ManagedPropertyKey` (what the `@ManagedProperty` macro expands
// to): the same storage, change tracking and inverse maintenance as `@Managed` and KVC, for
// any entity that uses the class, whatever slot the property has there.

final class KeyedCrew: NSManagedObject {
    static let nameKey = ManagedPropertyKey<String?>("name")
    static let rankKey = ManagedPropertyKey<Int16>("rank")
    static let shipKey = ManagedPropertyKey<KeyedShip?>("ship")
    var name: String? {
        get { self[managed: Self.nameKey] }
        set { self[managed: Self.nameKey] = newValue }
    }
    var rank: Int16 {
        get { self[managed: Self.rankKey] }
        set { self[managed: Self.rankKey] = newValue }
    }
    var ship: KeyedShip? {
        get { self[managed: Self.shipKey] }
        set { self[managed: Self.shipKey] = newValue }
    }
}

final class KeyedShip: NSManagedObject {
    static let titleKey = ManagedPropertyKey<String?>("title")
    static let crewKey = ManagedPropertyKey<Set<KeyedCrew>>("crew")
    var title: String? {
        get { self[managed: Self.titleKey] }
        set { self[managed: Self.titleKey] = newValue }
    }
    var crew: Set<KeyedCrew> {
        get { self[managed: Self.crewKey] }
        set { self[managed: Self.crewKey] = newValue }
    }
}

/// One property of each scalar type with its own non-generic subscript.
final class KeyedGauge: NSManagedObject {
    static let i64Key = ManagedPropertyKey<Int64>("i64"), intKey = ManagedPropertyKey<Int>("int")
    static let i32Key = ManagedPropertyKey<Int32>("i32"), i16Key = ManagedPropertyKey<Int16>("i16")
    static let dKey = ManagedPropertyKey<Double>("d"), bKey = ManagedPropertyKey<Bool>("b")
    var i64: Int64 { get { self[managed: Self.i64Key] } set { self[managed: Self.i64Key] = newValue } }
    var int: Int { get { self[managed: Self.intKey] } set { self[managed: Self.intKey] = newValue } }
    var i32: Int32 { get { self[managed: Self.i32Key] } set { self[managed: Self.i32Key] = newValue } }
    var i16: Int16 { get { self[managed: Self.i16Key] } set { self[managed: Self.i16Key] = newValue } }
    var d: Double { get { self[managed: Self.dKey] } set { self[managed: Self.dKey] = newValue } }
    var b: Bool { get { self[managed: Self.bKey] } set { self[managed: Self.bKey] = newValue } }
    var all: [Double] { [Double(i64), Double(int), Double(i32), Double(i16), d, b ? 1 : 0] }
}

final class ManagedPropertyKeyTests: XCTestCase {
    /// Ship ⇄ Crew (one-to-many), and `extraCrewEntities` more entities of class `KeyedCrew`
    /// whose `name` and `rank` sit at other slots, behind padding attributes.
    static func model(extraCrewEntities: Int = 0) -> NSManagedObjectModel {
        let crew = NSEntityDescription(name: "Crew", className: "OpenCoreDataInternalsTests.KeyedCrew", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "rank", type: .integer16AttributeType, isOptional: false, defaultValue: 0),
        ])
        let ship = NSEntityDescription(name: "Ship", className: "OpenCoreDataInternalsTests.KeyedShip", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
        ])
        let toShip = NSRelationshipDescription(), toCrew = NSRelationshipDescription()
        toShip.name = "ship"; toShip.maxCount = 1; toShip.destinationEntity = ship; toShip.inverseRelationship = toCrew
        toCrew.name = "crew"; toCrew.maxCount = 0; toCrew.destinationEntity = crew; toCrew.inverseRelationship = toShip
        crew.properties += [toShip]
        ship.properties += [toCrew]
        var entities = [crew, ship]
        for n in 0..<extraCrewEntities {
            // Padding first, then rank before name: every entity puts them at other slots.
            let padding = (0...n).map { NSAttributeDescription(name: "aPad\($0)", type: .stringAttributeType) }
            entities.append(NSEntityDescription(name: "Crew\(n)", className: "OpenCoreDataInternalsTests.KeyedCrew", properties: padding + [
                NSAttributeDescription(name: "rank", type: .integer16AttributeType, isOptional: false, defaultValue: 0),
                NSAttributeDescription(name: "name", type: .stringAttributeType),
            ]))
        }
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    static func gaugeModel() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Gauge", className: "OpenCoreDataInternalsTests.KeyedGauge", properties: [
            NSAttributeDescription(name: "i64", type: .integer64AttributeType, isOptional: false, defaultValue: 0),
            NSAttributeDescription(name: "int", type: .integer64AttributeType, isOptional: false, defaultValue: 0),
            NSAttributeDescription(name: "i32", type: .integer32AttributeType, isOptional: false, defaultValue: 0),
            NSAttributeDescription(name: "i16", type: .integer16AttributeType, isOptional: false, defaultValue: 0),
            NSAttributeDescription(name: "d", type: .doubleAttributeType, isOptional: false, defaultValue: 0),
            NSAttributeDescription(name: "b", type: .booleanAttributeType, isOptional: false, defaultValue: false),
        ])]
        return model
    }

    func testScalarReadsOfFetchedObjectsFollowChangesFaultsAndRefreshes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-keyed-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.gaugeModel())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let stack = TestStack(model: coordinator.managedObjectModel, coordinator: coordinator, context: {
            let c = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            c.persistentStoreCoordinator = coordinator
            return c
        }())
        try stack.context.performAndWait {
            let g = KeyedGauge(context: stack.context)
            g.i64 = 1 << 40; g.int = -7; g.i32 = 70_000; g.i16 = -300; g.d = 2.5; g.b = true
            try stack.context.save()
            stack.context.reset()

            for asFaults in [false, true] {
                let request = NSFetchRequest<KeyedGauge>(entityName: "Gauge")
                request.returnsObjectsAsFaults = asFaults
                let fetched = try stack.context.fetch(request)[0]
                XCTAssertEqual(fetched.isFault, asFaults)
                XCTAssertEqual(fetched.all, [Double(1 << 40), -7, 70_000, -300, 2.5, 1], "fetched as \(asFaults ? "a fault" : "an object")")

                fetched.i64 = 5; fetched.int = 6; fetched.i32 = 7; fetched.i16 = 8; fetched.d = 9.5; fetched.b = false
                XCTAssertEqual(fetched.all, [5, 6, 7, 8, 9.5, 0], "reads after a change see the change, not the fetched row")
                stack.context.refresh(fetched, mergeChanges: false)
                XCTAssertTrue(fetched.isFault)
                XCTAssertEqual(fetched.all, [Double(1 << 40), -7, 70_000, -300, 2.5, 1], "a refreshed fault reads the store's values")
                stack.context.reset()
            }

            // A value of another numeric kind in the row (as KVC may store one) is converted.
            let g2 = try stack.context.fetch(NSFetchRequest<KeyedGauge>(entityName: "Gauge"))[0]
            g2.setPrimitiveValue(3.0, forKey: "i64")
            g2.setPrimitiveValue(1, forKey: "b")
            XCTAssertEqual(g2.i64, 3)
            XCTAssertTrue(g2.b)
        }
    }

    func testKeyedAccessorsShareStorageWithKeyValueCoding() throws {
        let stack = TestStack(model: Self.model())
        try stack.context.performAndWait {
            let c = KeyedCrew(context: stack.context)
            c.name = "Ada"
            c.rank += 3
            XCTAssertEqual(c.value(forKey: "name") as? String, "Ada")
            XCTAssertEqual(c.value(forKey: "rank") as? Int, 3)
            c.setValue("Grace", forKey: "name")
            XCTAssertEqual(c.name, "Grace")
            try stack.context.save()

            c.rank = 4
            XCTAssertEqual(c.changedValues()["rank"] as? Int, 4, "a keyed write is tracked as a change")
            XCTAssertEqual(c.committedValues(forKeys: ["rank"])["rank"] as? Int, 3)
            c.name = nil
            XCTAssertNil(c.name)
        }
    }

    func testKeyedRelationshipsMaintainInverses() {
        let stack = TestStack(model: Self.model())
        stack.context.performAndWait {
            let ship = KeyedShip(context: stack.context), a = KeyedCrew(context: stack.context), b = KeyedCrew(context: stack.context)
            a.ship = ship
            XCTAssertEqual(ship.crew, [a], "setting the to-one adds to the inverse to-many")
            ship.crew.insert(b)
            XCTAssertTrue(b.ship === ship, "inserting into the to-many sets the inverse to-one")
            a.ship = nil
            XCTAssertEqual(ship.crew, [b])
        }
    }

    func testOneKeyServesEntitiesThatPlaceThePropertyAtDifferentSlots() throws {
        // Seven entities share the class: more than the key's four inline entries.
        let stack = TestStack(model: Self.model(extraCrewEntities: 6))
        let entities = ["Crew"] + (0..<6).map { "Crew\($0)" }
        try stack.context.performAndWait {
            var made: [KeyedCrew] = []
            for round in 0..<3 {  // alternate entities, so each access may find another's entry first
                for (i, name) in entities.enumerated() {
                    let c = NSEntityDescription.insertNewObject(forEntityName: name, into: stack.context) as! KeyedCrew
                    c.name = "\(name)-\(round)"
                    c.rank = Int16(i * 10 + round)
                    made.append(c)
                }
            }
            for c in made {
                let name = c.entity.name!
                XCTAssertEqual(c.value(forKey: "name") as? String, c.name, "\(name): the keyed write went to the entity's own name slot")
                XCTAssertEqual((c.value(forKey: "rank") as? Int).map(Int16.init), c.rank)
                XCTAssertTrue(c.name?.hasPrefix(name + "-") == true, "\(name) read \(c.name ?? "nil")")
            }
            try stack.context.save()
            let fetched = try stack.context.fetch(NSFetchRequest<KeyedCrew>(entityName: "Crew3"))
            XCTAssertEqual(Set(fetched.map(\.rank)), [40, 41, 42])
        }
    }

    func testSwiftKeyPathsThroughKeyedAccessorsHaveNames() throws {
        let stack = TestStack(model: Self.model())
        XCTAssertEqual(try KeyPathNames.name(of: \KeyedCrew.rank), "rank")
        XCTAssertEqual(try KeyPathNames.name(of: \KeyedCrew.ship?.title), "ship.title")
        try stack.context.performAndWait {
            for (name, rank) in [("b", 2), ("a", 1), ("c", 3)] {
                let c = KeyedCrew(context: stack.context)
                c.name = name
                c.rank = Int16(rank)
            }
            try stack.context.save()
            let request = NSFetchRequest<KeyedCrew>(entityName: "Crew")
            request.sortDescriptors = [try NSSortDescriptor(translating: SortDescriptor(\KeyedCrew.rank, order: .reverse))]
            XCTAssertEqual(try stack.context.fetch(request).map(\.name), ["c", "b", "a"])
        }
    }

    /// `ManagedPropertyKey` caches entity → slot in process-wide atomics: contexts on several
    /// queues resolve and read the same keys at once, for entities no key has seen yet (new
    /// models, more entities than the key's four inline entries).
    func testManagedPropertyKeysResolveConcurrentlyOnSeveralQueues() throws {
        for _ in 0..<3 {
            let model = ManagedPropertyKeyTests.model(extraCrewEntities: 6)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
            let entities = ["Crew"] + (0..<6).map { "Crew\($0)" }
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                context.persistentStoreCoordinator = coordinator
                context.performAndWait {
                    for (i, name) in (entities + entities.reversed()).enumerated() {
                        let c = NSEntityDescription.insertNewObject(forEntityName: name, into: context) as! KeyedCrew
                        c.name = "\(name)-\(worker)"
                        c.rank = Int16(worker * 100 + i)
                        XCTAssertEqual(c.value(forKey: "name") as? String, "\(name)-\(worker)")
                        XCTAssertEqual(c.value(forKey: "rank") as? Int, worker * 100 + i)
                    }
                    try! context.save()
                }
            }
        }
    }
}
