import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The SQLite store: values and relationships survive a reopen, the file has Apple's layout,
/// saves are version-checked, and bad files fail with Apple's error codes and stay untouched.
final class SQLiteStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-sqlite")
    }

    private var storeURL: URL { directory.appendingPathComponent("Company.sqlite") }

    /// A coordinator with a SQLite store at `url` and a private-queue context on it.
    private func open(_ model: NSManagedObjectModel, at url: URL? = nil, options: [AnyHashable: Any]? = nil) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url ?? storeURL, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    private func sql(_ query: String, _ bindings: [String] = [], at url: URL? = nil) throws -> [[String?]] {
        try SQLiteInspector.rows(at: (url ?? storeURL).path, query, bindings)
    }

    private func openError(_ body: () throws -> Void) -> NSError? {
        do { try body(); return nil } catch { return error as NSError }
    }

    // MARK: Values

    private static func allTypesModel() -> NSManagedObjectModel {
        let sample = NSEntityDescription(name: "Sample")
        sample.properties = [
            NSAttributeDescription(name: "int16", type: .integer16AttributeType),
            NSAttributeDescription(name: "int32", type: .integer32AttributeType),
            NSAttributeDescription(name: "int64", type: .integer64AttributeType),
            NSAttributeDescription(name: "double", type: .doubleAttributeType),
            NSAttributeDescription(name: "float", type: .floatAttributeType),
            NSAttributeDescription(name: "decimal", type: .decimalAttributeType),
            NSAttributeDescription(name: "string", type: .stringAttributeType),
            NSAttributeDescription(name: "flag", type: .booleanAttributeType),
            NSAttributeDescription(name: "date", type: .dateAttributeType),
            NSAttributeDescription(name: "data", type: .binaryDataAttributeType),
            NSAttributeDescription(name: "uuid", type: .UUIDAttributeType),
            NSAttributeDescription(name: "url", type: .URIAttributeType),
            NSAttributeDescription(name: "transformable", type: .transformableAttributeType),
        ]
        let model = NSManagedObjectModel()
        model.entities = [sample]
        return model
    }

    /// `NSSQLiteManualVacuumOption` rebuilds the file when the store is added (its free pages go
    /// back) and `NSSQLiteAnalyzeOption` gathers the planner's statistics (`sqlite_stat1`); a
    /// store added without them does neither.
    func testVacuumAndAnalyzeOptionsRunWhenTheStoreIsAdded() throws {
        let url = try makeTemporaryDirectory("ocd-vacuum").appendingPathComponent("Company.sqlite")
        let model = CompanyModel.make()
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
            let context = newContext(coordinator)
            try context.performAndWait {
                let filler = String(repeating: "x", count: 2_000)
                for i in 0..<400 {
                    let e = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
                    e.setValue("\(i)", forKey: "firstName")
                    e.setValue("\(filler)@example.com", forKey: "email")
                }
                try context.save()
                for e in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee")) { context.delete(e) }
                try context.save()
            }
            try coordinator.remove(coordinator.persistentStores[0])
        }
        func freePages() throws -> Int { Int(try SQLiteInspector.rows(at: url.path, "PRAGMA freelist_count")[0][0] ?? "") ?? -1 }
        func hasStatistics() throws -> Bool { try !SQLiteInspector.rows(at: url.path, "SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'").isEmpty }
        _ = try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        XCTAssertGreaterThan(try freePages(), 0, "deleting rows leaves free pages")
        XCTAssertFalse(try hasStatistics())
        _ = try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url,
            options: [NSSQLiteManualVacuumOption: true, NSSQLiteAnalyzeOption: true])
        XCTAssertEqual(try freePages(), 0, "the vacuum gave the free pages back")
        XCTAssertTrue(try hasStatistics(), "the analysis wrote its statistics")
    }

    func testEveryAttributeTypeSurvivesAReopen() throws {
        let uuid = UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115")!
        let date = Date(timeIntervalSinceReferenceDate: 123_456.5)
        do {
            let (_, context) = try open(Self.allTypesModel())
            try context.performAndWait {
                let full = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context)
                full.setValue(-12, forKey: "int16")
                full.setValue(70_000, forKey: "int32")
                full.setValue(Int64.max - 1, forKey: "int64")
                full.setValue(3.25, forKey: "double")
                full.setValue(Float(1.5), forKey: "float")
                full.setValue(Decimal(string: "12.75")!, forKey: "decimal")
                full.setValue("héllo ✓", forKey: "string")
                full.setValue(true, forKey: "flag")
                full.setValue(date, forKey: "date")
                full.setValue(Data([0, 1, 2, 255]), forKey: "data")
                full.setValue(uuid, forKey: "uuid")
                full.setValue(URL(string: "https://example.com/a?b=c")!, forKey: "url")
                full.setValue(NSArray(array: [NSString(string: "a"), NSString(string: "b")]), forKey: "transformable")
                let empty = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context)
                empty.setValue(Data(), forKey: "data")  // an empty blob is not NULL
                try context.save()
            }
        }

        let (_, context) = try open(Self.allTypesModel())  // a fresh model: hashes must be stable
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Sample")
            request.predicate = NSPredicate(format: "string != nil")
            let full = try XCTUnwrap(context.fetch(request).first)
            XCTAssertEqual(full.value(forKey: "int16") as? Int, -12)
            XCTAssertEqual(full.value(forKey: "int32") as? Int, 70_000)
            XCTAssertEqual(full.value(forKey: "int64") as? Int64, Int64.max - 1)
            XCTAssertEqual(full.value(forKey: "double") as? Double, 3.25)
            XCTAssertEqual(full.value(forKey: "float") as? Float, 1.5)
            XCTAssertEqual(full.value(forKey: "decimal") as? Decimal, Decimal(string: "12.75"))
            XCTAssertEqual(full.value(forKey: "string") as? String, "héllo ✓")
            XCTAssertEqual(full.value(forKey: "flag") as? Bool, true)
            XCTAssertEqual(full.value(forKey: "date") as? Date, date)
            XCTAssertEqual(full.value(forKey: "data") as? Data, Data([0, 1, 2, 255]))
            XCTAssertEqual(full.value(forKey: "uuid") as? UUID, uuid)
            XCTAssertEqual(full.value(forKey: "url") as? URL, URL(string: "https://example.com/a?b=c"))
            let array = try XCTUnwrap(full.value(forKey: "transformable") as? NSArray)
            XCTAssertEqual(array.map { "\($0)" }, ["a", "b"])

            request.predicate = NSPredicate(format: "string == nil")
            let empty = try XCTUnwrap(context.fetch(request).first)
            XCTAssertEqual(empty.value(forKey: "data") as? Data, Data())
            for key in ["int16", "double", "decimal", "flag", "date", "uuid", "url", "transformable"] {
                XCTAssertNil(empty.value(forKey: key), key)
            }
        }

        // Apple's column encodings, read as another tool would.
        let raw = try sql("SELECT ZFLAG, typeof(ZDATE), ZDATE, length(ZUUID), hex(ZUUID), ZURL, typeof(ZDECIMAL), ZDECIMAL, typeof(ZINT64) FROM ZSAMPLE WHERE ZSTRING IS NOT NULL")
        XCTAssertEqual(raw.first, ["1", "real", "123456.5", "16", "FEFE4176912D429F9C83662FFF641115", "https://example.com/a?b=c", "real", "12.75", "integer"])
        XCTAssertEqual(try sql("SELECT typeof(ZDATA), length(ZDATA) FROM ZSAMPLE WHERE ZSTRING IS NULL").first, ["blob", "0"])
    }

    func testAValueThatCannotBeArchivedFailsTheSaveAndWritesNothing() throws {
        struct NotCodable { let x = 1 }
        let (_, context) = try open(Self.allTypesModel())
        let error: NSError? = context.performAndWait {
            let sample = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context)
            sample.setValue(NotCodable(), forKey: "transformable")
            return openError { try context.save() }
        }
        XCTAssertEqual(error?.code, NSPersistentStoreSaveError)
        XCTAssertTrue(error?.localizedDescription.contains("NSCoding") ?? false, error?.localizedDescription ?? "")
        XCTAssertEqual(try sql("SELECT count(*) FROM ZSAMPLE"), [["0"]])
    }

    // MARK: Relationships and inheritance

    /// Sales ⇠ Ann, Boss (a Manager); Ann reports to Boss; Ann works on Apollo and Gemini, Boss
    /// on Apollo; Apollo's milestones are three, one, two (ordered); Ann has badge B-1.
    private func saveCompany(_ context: NSManagedObjectContext) throws {
        try context.performAndWait {
            let sales = Department(context: context)
            sales.name = "Sales"
            let boss = NSEntityDescription.insertNewObject(forEntityName: "Manager", into: context) as! Employee
            boss.firstName = "Boss"
            boss.salary = 5000
            boss.setValue(7, forKey: "bonus")
            boss.department = sales
            let ann = Employee(context: context)
            ann.firstName = "Ann"
            ann.salary = 1000
            ann.department = sales
            ann.manager = boss
            let apollo = Project(context: context)
            apollo.title = "Apollo"
            let gemini = Project(context: context)
            gemini.title = "Gemini"
            ann.projects = [apollo, gemini]
            boss.projects = [apollo]
            let milestones = ["one", "two", "three"].map { title -> Milestone in
                let m = Milestone(context: context)
                m.title = title
                return m
            }
            apollo.milestones = [milestones[2], milestones[0], milestones[1]]
            let badge = Badge(context: context)
            badge.code = "B-1"
            ann.badge = badge
            try context.save()
        }
    }

    private func employee(_ name: String, in context: NSManagedObjectContext) throws -> Employee {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = NSPredicate(format: "firstName == %@", name)
        return try XCTUnwrap(context.fetch(request).first)
    }

    func testRelationshipsAndInheritanceSurviveAReopen() throws {
        try saveCompany(open(CompanyModel.make()).1)

        let (_, context) = try open(CompanyModel.make())
        try context.performAndWait {
            let ann = try employee("Ann", in: context)
            let boss = try XCTUnwrap(ann.manager)
            XCTAssertEqual(boss.entity.name, "Manager", "the row's Z_ENT says which entity it is")
            XCTAssertEqual(boss.firstName, "Boss")
            XCTAssertEqual(boss.value(forKey: "bonus") as? Int, 7)
            XCTAssertEqual(boss.directReports.map(\.firstName), ["Ann"])
            XCTAssertEqual(ann.department?.name, "Sales")
            XCTAssertEqual(Set(ann.department?.employees.compactMap(\.firstName) ?? []), ["Ann", "Boss"])
            XCTAssertEqual(Set(ann.projects.compactMap(\.title)), ["Apollo", "Gemini"])
            let apollo = try XCTUnwrap(ann.projects.first { $0.title == "Apollo" })
            XCTAssertEqual(Set(apollo.members.compactMap(\.firstName)), ["Ann", "Boss"])
            XCTAssertEqual(apollo.milestones.map(\.title), ["three", "one", "two"], "ordered to-many keeps its order")
            XCTAssertTrue(apollo.milestones[0].project === apollo)
            XCTAssertEqual(ann.badge?.code, "B-1")
            XCTAssertTrue(ann.badge?.owner === ann, "one-to-one: both sides")
            XCTAssertEqual(try context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 2, "includes the Manager")
            XCTAssertEqual(try context.fetch(NSFetchRequest<Employee>(entityName: "Manager")).map(\.firstName), ["Boss"])
            let onlyEmployees = NSFetchRequest<Employee>(entityName: "Employee")
            onlyEmployees.includesSubentities = false
            XCTAssertEqual(try context.fetch(onlyEmployees).map(\.firstName), ["Ann"])

            // Change membership and order, delete a milestone.
            let milestones = apollo.milestones
            apollo.milestones = [milestones[1], milestones[0]]  // one, three
            context.delete(milestones[2])                        // two
            ann.projects = [apollo]
            try context.save()
        }

        let (_, reopened) = try open(CompanyModel.make())
        try reopened.performAndWait {
            let ann = try employee("Ann", in: reopened)
            XCTAssertEqual(ann.projects.compactMap(\.title), ["Apollo"])
            let apollo = try XCTUnwrap(ann.projects.first)
            XCTAssertEqual(apollo.milestones.map(\.title), ["one", "three"])
            let gemini = try XCTUnwrap(reopened.fetch(NSFetchRequest<Project>(entityName: "Project")).first { $0.title == "Gemini" })
            XCTAssertTrue(gemini.members.isEmpty)
        }
        XCTAssertEqual(try sql("SELECT count(*) FROM ZMILESTONE"), [["2"]])
        XCTAssertEqual(try sql("SELECT count(*) FROM Z_3PROJECTS"), [["2"]], "Apollo: Ann and Boss")
    }

    func testToManyMembersAreRightForLargeAndSmallFetches() throws {
        // Up to 256 fetched rows read members by owner key, more read the whole relationship.
        do {
            let (_, context) = try open(CompanyModel.make())
            try context.performAndWait {
                for i in 0..<300 {
                    let project = Project(context: context)
                    project.title = "P\(i)"
                    project.milestones = (0..<(i % 3)).map { j in
                        let m = Milestone(context: context)
                        m.title = "P\(i)-M\(j)"
                        return m
                    }
                }
                try context.save()
            }
        }
        for format in ["title != nil", "title IN {'P7', 'P8', 'P299'}"] {
            let (_, context) = try open(CompanyModel.make())
            try context.performAndWait {
                let request = NSFetchRequest<Project>(entityName: "Project")
                request.predicate = OpenCoreData.NSPredicate(format: format)
                let projects = try context.fetch(request)
                XCTAssertEqual(projects.count, format == "title != nil" ? 300 : 3)
                for project in projects {
                    let i = Int(project.title!.dropFirst())!
                    XCTAssertEqual(project.milestones.map(\.title), (0..<(i % 3)).map { "P\(i)-M\($0)" }, "\(format): \(project.title!)")
                }
            }
        }
    }

    func testDeletingAnObjectRemovesItsRowAndJoinTableRows() throws {
        try saveCompany(open(CompanyModel.make()).1)
        let (_, context) = try open(CompanyModel.make())
        try context.performAndWait {
            context.delete(try employee("Ann", in: context))
            try context.save()
        }
        XCTAssertEqual(try sql("SELECT ZFIRSTNAME FROM ZEMPLOYEE"), [["Boss"]])
        XCTAssertEqual(try sql("SELECT count(*) FROM Z_3PROJECTS"), [["1"]], "only Boss–Apollo is left")
        XCTAssertEqual(try sql("SELECT count(*) FROM ZBADGE"), [["0"]], "cascade")
    }

    // MARK: Layout

    /// Apple's fetch from a table of one entity neither tests nor reads `Z_ENT`
    /// (`SELECT 0, t0.Z_PK, t0.Z_OPT, ... FROM ZDEPARTMENT t0`); a table holding an entity and
    /// its subentities is filtered and decoded by it. A row whose `Z_ENT` names no entity shows
    /// which: it is a Department (Project, Milestone) all the same, and no Employee.
    func testOnlyTablesOfSeveralEntitiesAreReadByZ_ENT() throws {
        try saveCompany(open(CompanyModel.make()).1)
        for table in ["ZDEPARTMENT", "ZPROJECT", "ZMILESTONE"] {
            try SQLiteInspector.execute(at: storeURL.path, "UPDATE \(table) SET Z_ENT = 99")
        }
        try SQLiteInspector.execute(at: storeURL.path, "UPDATE ZEMPLOYEE SET Z_ENT = 99 WHERE ZFIRSTNAME = 'Boss'")

        let (_, context) = try open(CompanyModel.make())
        try context.performAndWait {
            let departments = NSFetchRequest<NSManagedObject>(entityName: "Department")
            XCTAssertEqual(try context.fetch(departments).map { $0.value(forKey: "name") as? String }, ["Sales"])
            XCTAssertEqual(try context.count(for: departments), 1)
            departments.fetchBatchSize = 1
            XCTAssertEqual(try context.fetch(departments).map { $0.value(forKey: "name") as? String }, ["Sales"])
            let names = NSFetchRequest<NSDictionary>(entityName: "Department")
            names.resultType = .dictionaryResultType
            names.propertiesToFetch = ["name"]
            XCTAssertEqual(try context.fetch(names).map { $0["name"] as? String }, ["Sales"])

            let employees = NSFetchRequest<Employee>(entityName: "Employee")
            XCTAssertEqual(try context.fetch(employees).map(\.firstName), ["Ann"], "Boss's row names no entity")
            XCTAssertEqual(try context.count(for: employees), 1)
            let ann = try employee("Ann", in: context)
            XCTAssertEqual(ann.department?.name, "Sales", "the to-one target's row is read without its Z_ENT")
            XCTAssertEqual(Set(ann.projects.compactMap(\.title)), ["Apollo", "Gemini"], "many-to-many members")
            let apollo = try XCTUnwrap(ann.projects.first { $0.title == "Apollo" })
            XCTAssertEqual(apollo.milestones.map(\.title), ["three", "one", "two"], "one-to-many members")
            XCTAssertEqual(Set(ann.department?.employees.compactMap(\.firstName) ?? []), ["Ann"], "Boss's row names no entity")
        }
    }

    func testTheFileHasApplesTablesColumnsAndIndexes() throws {
        let (coordinator, context) = try open(CompanyModel.make())
        try saveCompany(context)

        let tables = try sql("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { $0[0]! }
        XCTAssertEqual(tables, ["ZBADGE", "ZDEPARTMENT", "ZEMPLOYEE", "ZMILESTONE", "ZPROJECT", "Z_3PROJECTS", "Z_METADATA", "Z_PRIMARYKEY"])
        func columns(_ table: String) throws -> [String] { try sql("SELECT name || ' ' || type FROM pragma_table_info(?)", [table]).map { $0[0]! } }
        XCTAssertEqual(try columns("ZEMPLOYEE"), ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZSALARY INTEGER", "ZBADGE INTEGER", "ZDEPARTMENT INTEGER",
                                                  "ZMANAGER INTEGER", "Z3_MANAGER INTEGER", "ZBONUS INTEGER", "ZSTARTDATE TIMESTAMP",
                                                  "ZEMAIL VARCHAR", "ZFIRSTNAME VARCHAR", "ZLASTNAME VARCHAR"],
                       "transient isSelected has no column; Manager's bonus lives in the root's table")
        XCTAssertEqual(try columns("ZBADGE"), ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZOWNER INTEGER", "Z3_OWNER INTEGER", "ZCODE VARCHAR"])
        XCTAssertEqual(try columns("ZDEPARTMENT"), ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZBUDGET FLOAT", "ZNAME VARCHAR"])
        XCTAssertEqual(try columns("ZMILESTONE"), ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZPROJECT INTEGER", "Z_FOK_PROJECT INTEGER", "ZTITLE VARCHAR"])
        XCTAssertEqual(try columns("Z_3PROJECTS"), ["Z_3MEMBERS INTEGER", "Z_6PROJECTS INTEGER"])
        XCTAssertEqual(try columns("Z_PRIMARYKEY"), ["Z_ENT INTEGER", "Z_NAME VARCHAR", "Z_SUPER INTEGER", "Z_MAX INTEGER"])
        XCTAssertEqual(try columns("Z_METADATA"), ["Z_VERSION INTEGER", "Z_UUID VARCHAR(255)", "Z_PLIST BLOB"])

        let indexes = try sql("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").map { $0[0]! }
        XCTAssertEqual(indexes, ["ZBADGE_ZOWNER_INDEX", "ZEMPLOYEE_ZBADGE_INDEX", "ZEMPLOYEE_ZDEPARTMENT_INDEX", "ZEMPLOYEE_ZMANAGER_INDEX",
                                 "ZEMPLOYEE_Z_ENT_INDEX", "ZMILESTONE_ZPROJECT_INDEX", "Z_3PROJECTS_Z_6PROJECTS_INDEX"])

        XCTAssertEqual(try sql("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"),
                       [["1", "Badge", "0"], ["2", "Department", "0"], ["3", "Employee", "0"], ["4", "Manager", "3"], ["5", "Milestone", "0"], ["6", "Project", "0"]])
        XCTAssertEqual(try sql("SELECT ZFIRSTNAME, Z_ENT FROM ZEMPLOYEE ORDER BY ZFIRSTNAME"), [["Ann", "3"], ["Boss", "4"]])
        XCTAssertEqual(try sql("SELECT b.ZOWNER = e.Z_PK, b.Z3_OWNER FROM ZBADGE b, ZEMPLOYEE e WHERE e.ZFIRSTNAME = 'Ann'"), [["1", "3"]])
        XCTAssertEqual(try sql("SELECT m.ZTITLE FROM ZMILESTONE m ORDER BY m.Z_FOK_PROJECT"), [["three"], ["one"], ["two"]])
        XCTAssertEqual(try sql("PRAGMA journal_mode"), [["wal"]])
        XCTAssertEqual(try sql("PRAGMA auto_vacuum"), [["2"]])

        let store = try XCTUnwrap(coordinator.persistentStores.first)
        let meta = try sql("SELECT Z_VERSION, Z_UUID FROM Z_METADATA")
        XCTAssertEqual(meta, [["1", store.identifier]])
        XCTAssertEqual(store.metadata[NSStoreUUIDKey] as? String, store.identifier)
        XCTAssertEqual(store.metadata[NSStoreTypeKey] as? String, "SQLite")
        XCTAssertEqual(store.metadata[NSStoreModelVersionHashesKey] as? [String: Data], coordinator.managedObjectModel.entityVersionHashesByName)
        XCTAssertEqual(store.type, NSSQLiteStoreType)
        // Z_PLIST is a binary property list.
        XCTAssertTrue(try sql("SELECT hex(substr(Z_PLIST, 1, 8)) FROM Z_METADATA")[0][0] == "62706C6973743030", "bplist00")
    }

    func testObjectIDsNameTheStoreUUIDAndPrimaryKey() throws {
        let (coordinator, context) = try open(CompanyModel.make())
        let uri: URL = try context.performAndWait {
            let d = Department(context: context)
            d.name = "R&D"
            try context.save()
            return d.objectID.uriRepresentation()
        }
        let uuid = try XCTUnwrap(coordinator.persistentStores.first?.identifier)
        XCTAssertEqual(uri.absoluteString, "x-coredata://\(uuid)/Department/p1")
        XCTAssertNotNil(coordinator.managedObjectID(forURIRepresentation: uri))
    }

    // MARK: Keys and versions

    func testPrimaryKeysComeFromZMAXOnTheRootRowAndZOPTCountsSaves() throws {
        let (_, context) = try open(CompanyModel.make())
        try context.performAndWait {
            for name in ["A", "B"] { Employee(context: context).firstName = name }
            (NSEntityDescription.insertNewObject(forEntityName: "Manager", into: context) as! Employee).firstName = "M"
            try context.save()
        }
        XCTAssertEqual(try sql("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (2, 3, 4) ORDER BY Z_ENT"),
                       [["Department", "0"], ["Employee", "3"], ["Manager", "0"]], "one key sequence per hierarchy, kept on the root")
        XCTAssertEqual(try sql("SELECT DISTINCT Z_OPT FROM ZEMPLOYEE"), [["1"]])

        try context.performAndWait {
            let a = try employee("A", in: context)
            a.salary = 10
            try context.save()
            a.salary = 20
            try context.save()
            context.delete(try employee("B", in: context))
            try context.save()
            Employee(context: context).firstName = "C"
            try context.save()
        }
        XCTAssertEqual(try sql("SELECT ZFIRSTNAME, Z_OPT, ZSALARY FROM ZEMPLOYEE ORDER BY ZFIRSTNAME"),
                       [["A", "3", "20"], ["C", "1", "0"], ["M", "1", "0"]])
        XCTAssertEqual(try sql("SELECT Z_PK FROM ZEMPLOYEE WHERE ZFIRSTNAME = 'C'"), [["4"]], "a deleted key is not reused")
        XCTAssertEqual(try sql("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 3"), [["4"]])
    }

    func testAnUpdateWritesOnlyTheColumnsThatChanged() throws {
        let (_, context) = try open(CompanyModel.make())
        let ann = try context.performAndWait {
            let ann = Employee(context: context)
            ann.firstName = "Ann"
            ann.salary = 100
            try context.save()
            return ann
        }
        // A column changed behind the store's back (no Z_OPT bump) while the object still holds
        // the old value: a save that does not change that column leaves it alone, as Apple's
        // UPDATE names only the changed columns.
        try SQLiteInspector.execute(at: storeURL.path, "UPDATE ZEMPLOYEE SET ZFIRSTNAME = 'Written elsewhere'")
        try context.performAndWait {
            XCTAssertEqual(ann.firstName, "Ann")
            ann.salary = 200
            try context.save()
        }
        XCTAssertEqual(try sql("SELECT ZFIRSTNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE"), [["Written elsewhere", "200", "2"]])

        // A change of every column, and a save that changes no column (a to-many only), work too.
        try context.performAndWait {
            ann.firstName = "Anne"
            ann.salary = 300
            try context.save()
            let department = Department(context: context)
            department.name = "R&D"
            try context.save()
            department.employees = [ann]
            try context.save()
        }
        XCTAssertEqual(try sql("SELECT ZFIRSTNAME, ZSALARY, Z_OPT, ZDEPARTMENT IS NOT NULL FROM ZEMPLOYEE"), [["Anne", "300", "4", "1"]])
        XCTAssertEqual(try sql("SELECT ZNAME, Z_OPT FROM ZDEPARTMENT"), [["R&D", "2"]], "the department's Z_OPT counts its to-many change")
    }

    func testAnEntityWithMoreThan64ColumnsUpdatesEveryColumn() throws {
        let wide = NSEntityDescription(name: "Wide")
        wide.properties = (0..<70).map { NSAttributeDescription(name: "a\($0)", type: .integer64AttributeType) }
        let model = NSManagedObjectModel()
        model.entities = [wide]
        let (_, context) = try open(model)
        let object = try context.performAndWait {
            let object = NSManagedObject(entity: wide, insertInto: context)
            object.setValue(1, forKey: "a0")
            try context.save()
            object.setValue(7, forKey: "a69")
            try context.save()
            return object
        }
        // Unlike a narrow entity's (above), this UPDATE writes every column, so the value
        // written elsewhere is overwritten with the object's.
        try SQLiteInspector.execute(at: storeURL.path, "UPDATE ZWIDE SET ZA0 = 5")
        try context.performAndWait {
            object.setValue(8, forKey: "a69")
            try context.save()
        }
        XCTAssertEqual(try sql("SELECT ZA0, ZA69, Z_OPT FROM ZWIDE"), [["1", "8", "3"]], "past 64 columns the UPDATE writes them all")
    }

    func testPastSixtyFourChangedColumnSetsAnEntityUpdatesEveryColumn() throws {
        let narrow = NSEntityDescription(name: "Narrow")
        narrow.properties = (0..<8).map { NSAttributeDescription(name: "a\($0)", type: .integer64AttributeType, isOptional: false, defaultValue: 0) }
        let model = NSManagedObjectModel()
        model.entities = [narrow]
        let (_, context) = try open(model)
        let object = try context.performAndWait {
            let object = NSManagedObject(entity: narrow, insertInto: context)
            try context.save()
            // 64 different sets of changed columns (SQLiteEntityPlan.partialUpdateLimit): each
            // gets its own UPDATE statement.
            for mask in 1...64 {
                for a in 0..<8 where mask & (1 << a) != 0 { object.setValue((object.value(forKey: "a\(a)") as! Int) + 1, forKey: "a\(a)") }
                try context.save()
            }
            return object
        }
        try SQLiteInspector.execute(at: storeURL.path, "UPDATE ZNARROW SET ZA7 = 999")
        try context.performAndWait {
            object.setValue(100, forKey: "a0")  // a set seen before: only ZA0 is written
            try context.save()
        }
        XCTAssertEqual(try sql("SELECT ZA0, ZA7 FROM ZNARROW"), [["100", "999"]])
        try context.performAndWait {
            object.setValue(101, forKey: "a0")
            object.setValue(5, forKey: "a6")  // a new set past the limit: every column is written
            try context.save()
        }
        XCTAssertEqual(try sql("SELECT ZA0, ZA6, ZA7 FROM ZNARROW"), [["101", "5", "0"]], "ZA7 written back with the object's value")
    }

    func testAStaleUpdateFromAnotherCoordinatorFailsWithAMergeErrorAndWritesNothing() throws {
        let model = CompanyModel.make()
        let (_, first) = try open(model)
        let (_, second) = try open(model)
        try first.performAndWait {
            let ann = Employee(context: first)
            ann.firstName = "Ann"
            ann.salary = 1000
            let d = Department(context: first)
            d.name = "Sales"
            Employee(context: first).firstName = "Temp"
            try first.save()
        }
        let stale = try second.performAndWait { try employee("Ann", in: second) }  // version 1
        let fresh = try second.performAndWait { try employee("Temp", in: second) }
        try first.performAndWait {
            try employee("Ann", in: first).salary = 2000
            try first.save()
        }
        let error: NSError? = second.performAndWait {
            stale.salary = 3000
            second.delete(fresh)                 // runs before the failing update: rolled back
            let d = Department(context: second)  // an insert in the same save is not written either
            d.name = "Ops"
            return openError { try second.save() }
        }
        XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
        XCTAssertEqual(error?.code, NSManagedObjectMergeError)
        XCTAssertEqual(try sql("SELECT ZFIRSTNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE ORDER BY ZFIRSTNAME"), [["Ann", "2000", "2"], ["Temp", "0", "1"]])
        XCTAssertEqual(try sql("SELECT ZNAME FROM ZDEPARTMENT"), [["Sales"]])

        // A delete of a row changed since it was fetched is refused the same way.
        let staleDepartment = try second.performAndWait {
            second.rollback()
            return try XCTUnwrap(second.fetch(NSFetchRequest<Department>(entityName: "Department")).first)
        }
        try first.performAndWait {
            try XCTUnwrap(first.fetch(NSFetchRequest<Department>(entityName: "Department")).first).budget = 5
            try first.save()
        }
        let deleteError: NSError? = second.performAndWait {
            second.delete(staleDepartment)
            return openError { try second.save() }
        }
        XCTAssertEqual(deleteError?.code, NSManagedObjectMergeError)
        XCTAssertEqual(try sql("SELECT ZNAME, ZBUDGET FROM ZDEPARTMENT"), [["Sales", "5.0"]])
    }

    // MARK: Bad files and options

    /// Apple's framework reports a file that is not a database as NSFileReadCorruptFileError
    /// with SQLITE_NOTADB (26) under NSSQLiteErrorDomain.
    func testAFileThatIsNotADatabaseFailsWith259AndIsLeftUnchanged() throws {
        let bytes = Data(String(repeating: "this is not a database ", count: 400).utf8)
        try bytes.write(to: storeURL)
        let error = openError { _ = try open(CompanyModel.make()) }
        XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
        XCTAssertEqual(error?.code, NSFileReadCorruptFileError)
        XCTAssertEqual(error?.userInfo["NSSQLiteErrorDomain"] as? Int, 26)
        XCTAssertEqual(try Data(contentsOf: storeURL), bytes)
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + "-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path + "-journal"))
    }

    func testASQLiteFileThatIsNotACoreDataStoreFailsWith134080() throws {
        try SQLiteInspector.execute(at: storeURL.path, "CREATE TABLE notes (body TEXT)")
        try SQLiteInspector.execute(at: storeURL.path, "INSERT INTO notes VALUES ('keep me')")
        let before = try Data(contentsOf: storeURL)
        let error = openError { _ = try open(CompanyModel.make()) }
        XCTAssertEqual(error?.code, NSPersistentStoreOpenError)
        XCTAssertEqual(try Data(contentsOf: storeURL), before)
        XCTAssertEqual(try sql("SELECT body FROM notes"), [["keep me"]])
    }

    func testAStoreOfAnotherModelFailsWith134100() throws {
        _ = try open(CompanyModel.make())
        let changed = CompanyModel.make()
        changed.entitiesByName["Department"]!.properties.append(NSAttributeDescription(name: "code", type: .stringAttributeType))
        let error = openError { _ = try open(changed) }
        XCTAssertEqual(error?.domain, NSCocoaErrorDomain)
        XCTAssertEqual(error?.code, NSPersistentStoreIncompatibleVersionHashError)
        XCTAssertTrue(error?.localizedDescription.contains("Department") ?? false, error?.localizedDescription ?? "")
    }

    func testAReadOnlyStoreFetchesButRefusesSaves() throws {
        try saveCompany(open(CompanyModel.make()).1)
        let (coordinator, context) = try open(CompanyModel.make(), options: [NSReadOnlyPersistentStoreOption: true])
        XCTAssertEqual(coordinator.persistentStores.first?.isReadOnly, true)
        let error: NSError? = try context.performAndWait {
            XCTAssertEqual(try context.count(for: NSFetchRequest<Employee>(entityName: "Employee")), 2)
            try employee("Ann", in: context).salary = 1
            return openError { try context.save() }
        }
        XCTAssertEqual(error?.code, NSPersistentStoreSaveError)
        XCTAssertEqual(try sql("SELECT ZSALARY FROM ZEMPLOYEE WHERE ZFIRSTNAME = 'Ann'"), [["1000"]])
    }

    /// New objects of one entity, and of several, need a writable store for their permanent IDs.
    func testNewObjectsForAReadOnlyStoreFailTheSaveAndWriteNothing() throws {
        try saveCompany(open(CompanyModel.make()).1)
        let (_, context) = try open(CompanyModel.make(), options: [NSReadOnlyPersistentStoreOption: true])
        for entities in [["Department"], ["Department", "Project"]] {
            let error: NSError? = context.performAndWait {
                for name in entities {
                    NSEntityDescription.insertNewObject(forEntityName: name, into: context).setValue("New", forKey: name == "Project" ? "title" : "name")
                }
                defer { context.rollback() }
                return openError { try context.save() }
            }
            XCTAssertEqual(error?.code, NSPersistentStoreSaveError, "\(entities)")
            XCTAssertTrue(error?.localizedDescription.contains("read-only") ?? false, error?.localizedDescription ?? "")
        }
        XCTAssertEqual(try sql("SELECT count(*) FROM ZDEPARTMENT"), [["1"]])
        XCTAssertEqual(try sql("SELECT count(*) FROM ZPROJECT"), [["2"]])
    }

    func testAReadOnlyStoreThatDoesNotExistFailsWith134080() {
        let error = openError { _ = try open(CompanyModel.make(), options: [NSReadOnlyPersistentStoreOption: true]) }
        XCTAssertEqual(error?.code, NSPersistentStoreOpenError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeURL.path))
    }

    func testPragmasOptionIsAppliedAndChecked() throws {
        _ = try open(CompanyModel.make(), options: [NSSQLitePragmasOption: ["journal_mode": "DELETE"]])
        XCTAssertEqual(try sql("PRAGMA journal_mode"), [["delete"]])

        let other = directory.appendingPathComponent("Other.sqlite")
        let error = openError { _ = try open(CompanyModel.make(), at: other, options: [NSSQLitePragmasOption: ["journal_mode": "WAL; DROP TABLE Z_METADATA"]]) }
        XCTAssertEqual(error?.code, NSPersistentStoreOpenError)
    }

    func testASQLiteStoreNeedsAFileURL() {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CompanyModel.make())
        let error = openError { try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: nil) }
        XCTAssertEqual(error?.code, NSPersistentStoreOpenError)
    }
    // MARK: Several coordinators

    func testCoordinatorsOnOneFileSaveConcurrentlyWithoutLosingOrSharingKeys() throws {
        let model = CompanyModel.make()
        _ = try open(model)  // create the file once, so the workers don't race to create it
        let workers = 4, perWorker = 40
        let url = storeURL
        let failures = FailureBox()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                // Each worker has its own coordinator, so its own SQLite connection: they
                // meet only in the file (BEGIN IMMEDIATE and the busy timeout).
                let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
                let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                context.persistentStoreCoordinator = coordinator
                try context.performAndWait {
                    for i in 0..<perWorker {
                        let e = Employee(context: context)
                        e.firstName = "W\(worker)-\(i)"
                        e.lastName = "worker \(worker)"
                        if i % 8 == 7 { try context.save() }
                    }
                    try context.save()
                }
            } catch {
                failures.append("worker \(worker): \(error)")
            }
        }
        XCTAssertEqual(failures.messages, [])
        XCTAssertEqual(try sql("SELECT count(*), count(DISTINCT Z_PK), max(Z_PK) FROM ZEMPLOYEE"), [["160", "160", "160"]])
        XCTAssertEqual(try sql("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Employee'"), [["160"]])
    }

    func testATruncatedStoreFailsWith259AndIsLeftUnchanged() throws {
        try saveCompany(open(CompanyModel.make()).1)
        let (coordinator, _) = try open(CompanyModel.make())
        try coordinator.remove(coordinator.persistentStores[0])  // closing checkpoints the WAL into the file
        let truncated = try Data(contentsOf: storeURL).prefix(1000)
        let damaged = directory.appendingPathComponent("Damaged.sqlite")
        try truncated.write(to: damaged)
        let error = openError { _ = try open(CompanyModel.make(), at: damaged) }
        XCTAssertEqual(error?.code, NSFileReadCorruptFileError)
        XCTAssertEqual(try Data(contentsOf: damaged), truncated)
    }
}

/// Collects failures from concurrent workers.
final class FailureBox: @unchecked Sendable {
    // @unchecked Sendable: `list` is guarded by `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ message: String) { lock.lock(); list.append(message); lock.unlock() }
    var messages: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
