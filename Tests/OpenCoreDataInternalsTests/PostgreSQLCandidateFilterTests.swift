@_spi(PostgreSQLDriver) @testable import OpenCoreData
import XCTest

/// What the PostgreSQL store narrows in SQL before the context evaluates a predicate: only
/// parts whose SQL keeps every row the evaluator would keep (the answers themselves are
/// checked against a real server in `PostgreSQLStoreTests`).
final class PostgreSQLCandidateFilterTests: XCTestCase {
    /// The plan of an Employee entity in `store` (a plan refers to its store weakly: the
    /// caller keeps it when the test needs its token).
    private func employeePlan(in store: NSPersistentStore = NSPersistentStore(persistentStoreCoordinator: nil, configurationName: nil, at: URL(string: "postgresql://localhost/test")!)) throws -> PostgreSQLEntityPlan {
        try employeePlanAndSchema(in: store).plan
    }

    private func employeePlanAndSchema(in store: NSPersistentStore) throws -> (plan: PostgreSQLEntityPlan, schema: StoreSchema) {
        let employee = NSEntityDescription(name: "Employee")
        employee.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType),
                               NSAttributeDescription(name: "age", type: .integer16AttributeType),
                               NSAttributeDescription(name: "rating", type: .doubleAttributeType),
                               NSAttributeDescription(name: "active", type: .booleanAttributeType),
                               NSAttributeDescription(name: "hired", type: .dateAttributeType)]
        let boss = NSRelationshipDescription()
        boss.name = "boss"
        boss.destinationEntity = employee
        boss.maxCount = 1
        let reports = NSRelationshipDescription()
        reports.name = "reports"
        reports.destinationEntity = employee
        reports.maxCount = 0
        reports.inverseRelationship = boss
        boss.inverseRelationship = reports
        employee.properties += [boss, reports]
        let model = NSManagedObjectModel()
        model.entities = [employee]
        let schema = try StoreSchema(model: model, entityNumbers: nil, existingTables: [])
        return (try PostgreSQLEntityPlan(entity: employee, schema: schema, store: store), schema)
    }

    private func filter(_ format: String, _ arguments: [Any] = [], first: Int = 1) throws -> PostgreSQLCandidateFilter? {
        PostgreSQLCandidateFilter(NSPredicate(format: format, argumentArray: arguments), plan: try employeePlan(), firstParameter: first)
    }

    func testNumbersDatesAndBooleansAreComparedInSQL() throws {
        let cases: [(String, [Any], String, [PostgreSQLValue])] = [
            ("age >= 30", [], "\"ZAGE\" >= $3", [.integer(30)]),
            // A stored NaN is neither smaller nor larger than anything in memory; PostgreSQL
            // orders it above every number. As a number it equals every number, as a date none.
            ("rating < 2", [], "\"ZRATING\" < $3", [.double(2)]),
            ("rating <= 2", [], "(\"ZRATING\" <= $3 OR \"ZRATING\" = 'NaN'::float8)", [.double(2)]),
            ("rating > 2", [], "(\"ZRATING\" > $3 AND \"ZRATING\" <> 'NaN'::float8)", [.double(2)]),
            ("rating >= 2", [], "\"ZRATING\" >= $3", [.double(2)]),
            ("rating == 2", [], "(\"ZRATING\" = $3 OR \"ZRATING\" = 'NaN'::float8)", [.double(2)]),
            ("rating != 2", [], "(\"ZRATING\" IS NULL OR (\"ZRATING\" <> $3 AND \"ZRATING\" <> 'NaN'::float8))", [.double(2)]),
            ("active == YES", [], "\"ZACTIVE\" = $3", [.bool(true)]),
            ("hired > %@", [Date(timeIntervalSinceReferenceDate: 5)], "(\"ZHIRED\" > $3 AND \"ZHIRED\" <> 'NaN'::float8)", [.double(5)]),
            ("hired == %@", [Date(timeIntervalSinceReferenceDate: 5)], "\"ZHIRED\" = $3", [.double(5)]),
            ("hired != %@", [Date(timeIntervalSinceReferenceDate: 5)], "(\"ZHIRED\" IS NULL OR \"ZHIRED\" <> $3)", [.double(5)]),
            ("age == nil", [], "\"ZAGE\" IS NULL", []),
            ("age IN {1, 2}", [], "(\"ZAGE\" = $3 OR \"ZAGE\" = $4)", [.integer(1), .integer(2)]),
            ("age IN %@", [[Int]()], "FALSE", []),
            // NULL (a NULL column) is the evaluator's false, so NOT reads it as FALSE first.
            ("NOT (age > 2)", [], "NOT COALESCE(\"ZAGE\" > $3, FALSE)", [.integer(2)]),
            ("age != nil", [], "\"ZAGE\" IS NOT NULL", []),
        ]
        for (format, arguments, sql, values) in cases {
            let f = try XCTUnwrap(try filter(format, arguments, first: 3), format)
            XCTAssertEqual(f.sql, sql, format)
            XCTAssertEqual(f.values, values, format)
        }
    }

    func testOnlyAWholeTranslatedPredicateIsDecidedInSQL() throws {
        for format in ["age >= 30", "age != 5", "active == YES", "age == nil", "age > 1 AND active == NO", "age < 3 OR age > 60",
                       "rating < 2", "rating > 2", "hired > %@", "age > 1 AND rating > 2"] {
            let arguments: [Any] = format.contains("%@") ? [Date(timeIntervalSinceReferenceDate: 5)] : []
            XCTAssertEqual(try filter(format, arguments)?.isExact, true, "\(format): the SQL keeps exactly the evaluator's rows")
        }
        for format in ["age > 1 AND name CONTAINS 'x'", "rating > 1 AND NOT (name == 'x')"] {
            XCTAssertEqual(try filter(format)?.isExact, false, "\(format): the evaluator decides what the SQL keeps")
        }
    }

    func testAToOneIsComparedByItsKeyOnlyWhenTheStoreAnswerIsFinal() throws {
        let store = NSPersistentStore(persistentStoreCoordinator: nil, configurationName: nil, at: URL(string: "postgresql://localhost/test")!)
        let plan = try employeePlan(in: store)
        let token = store.token
        let predicate = NSPredicate(format: "boss == nil")
        XCTAssertNil(PostgreSQLCandidateFilter(predicate, plan: plan, firstParameter: 1), "without the store's token (unsaved changes evaluated in memory)")
        XCTAssertEqual(PostgreSQLCandidateFilter(predicate, plan: plan, firstParameter: 1, storeToken: token)?.sql, "\"ZBOSS\" IS NULL")
        let id = NSManagedObjectID(entity: plan.entity, store: store, primaryKey: 7)
        let equal = try XCTUnwrap(PostgreSQLCandidateFilter(NSPredicate(format: "boss == %@", id), plan: plan, firstParameter: 2, storeToken: token))
        XCTAssertEqual(equal.sql, "\"ZBOSS\" = $2")
        XCTAssertEqual(equal.values, [.integer(7)])
        XCTAssertEqual(PostgreSQLCandidateFilter(NSPredicate(format: "boss != %@", id), plan: plan, firstParameter: 1, storeToken: token)?.sql,
                       "(\"ZBOSS\" IS NULL OR \"ZBOSS\" <> $1)")
        XCTAssertEqual(PostgreSQLCandidateFilter(NSPredicate(format: "boss == %@", id), plan: plan, firstParameter: 1, storeToken: token &+ 1)?.sql,
                       "FALSE", "an ID of another store equals nothing")
    }

    func testAKeyPathIsReadOncePerRowHoweverOftenItsClauseNamesIt() throws {
        let store = NSPersistentStore(persistentStoreCoordinator: nil, configurationName: nil, at: URL(string: "postgresql://localhost/test")!)
        let (plan, schema) = try employeePlanAndSchema(in: store)
        let boss = "(SELECT a1.\"ZRATING\" FROM \"ZEMPLOYEE\" a1 WHERE a1.\"Z_PK\" = \"ZEMPLOYEE\".\"ZBOSS\")"
        let f = try XCTUnwrap(PostgreSQLCandidateFilter(NSPredicate(format: "boss.rating <= 2"), plan: plan, firstParameter: 1, storeToken: store.token, schema: schema))
        XCTAssertEqual(f.sql, "(SELECT (ocd_once.v <= $1 OR ocd_once.v = 'NaN'::float8) FROM (SELECT \(boss) AS v OFFSET 0) ocd_once)")
        for format in ["boss.rating IN {1, 2, 3}", "boss.rating BETWEEN {1, 2}", "boss.rating != 2", "boss.age > 3"] {
            let f = try XCTUnwrap(PostgreSQLCandidateFilter(NSPredicate(format: format), plan: plan, firstParameter: 1, storeToken: store.token, schema: schema), format)
            XCTAssertEqual(f.sql.components(separatedBy: "FROM \"ZEMPLOYEE\" a1").count, 2, "\(format): \(f.sql)")
        }
    }

    /// A SUBQUERY's members are the alias `m`, its columns qualified with it; the owner is the
    /// fetched row, named by its table (here the same table: a reflexive relationship).
    func testASubqueryCountsTheMembersItsPredicateHoldsFor() throws {
        let store = NSPersistentStore(persistentStoreCoordinator: nil, configurationName: nil, at: URL(string: "postgresql://localhost/test")!)
        let (plan, schema) = try employeePlanAndSchema(in: store)
        let f = try XCTUnwrap(PostgreSQLCandidateFilter(NSPredicate(format: "SUBQUERY(reports, $r, $r.age > 30 AND age < 60).@count == 0"),
                                                        plan: plan, firstParameter: 1, storeToken: store.token, schema: schema))
        XCTAssertEqual(f.sql, "(SELECT ocd_once.v = $3 FROM (SELECT (SELECT count(*) FROM \"ZEMPLOYEE\" m WHERE m.\"ZBOSS\" = \"ZEMPLOYEE\".\"Z_PK\" "
                       + "AND (m.\"ZAGE\" > $1 AND m.\"ZAGE\" < $2)) AS v OFFSET 0) ocd_once)")
        XCTAssertEqual(f.values, [.integer(30), .integer(60), .integer(0)])
        XCTAssertTrue(f.isExact)
        XCTAssertNil(PostgreSQLCandidateFilter(NSPredicate(format: "SUBQUERY(reports, $r, $r.age > 30).@count == 0"), plan: plan, firstParameter: 1, schema: schema),
                     "without the store's token: unsaved members are counted in memory only")
        for format in ["SUBQUERY(reports, $r, $r.boss == nil).@count == 0", "SUBQUERY(reports, $r, $other.age > 30).@count == 0",
                       "SUBQUERY(reports, $r, $r.boss.age > 30).@count == 0", "SUBQUERY(boss, $r, $r.age > 30).@count == 0"] {
            XCTAssertNil(PostgreSQLCandidateFilter(NSPredicate(format: format), plan: plan, firstParameter: 1, storeToken: store.token, schema: schema), format)
        }
    }

    func testStringEqualityComparesNormalizedFormsWhereTheDatabaseCanNormalize() throws {
        let plan = try employeePlan()
        XCTAssertNil(PostgreSQLCandidateFilter(NSPredicate(format: "name == 'x'"), plan: plan, firstParameter: 1), "a database that can't normalize: memory")
        let equal = try XCTUnwrap(PostgreSQLCandidateFilter(NSPredicate(format: "name == 'x'"), plan: plan, firstParameter: 1, comparesStrings: true))
        XCTAssertEqual(equal.sql, "normalize(\"ZNAME\", NFC) = normalize($1::text, NFC)")
        XCTAssertEqual(equal.values, [.text("x")])
        XCTAssertEqual(PostgreSQLCandidateFilter(NSPredicate(format: "name != 'x'"), plan: plan, firstParameter: 1, comparesStrings: true)?.sql,
                       "(\"ZNAME\" IS NULL OR NOT normalize(\"ZNAME\", NFC) = normalize($1::text, NFC))")
        for format in ["name ==[c] 'x'", "name < 'x'", "name BEGINSWITH 'x'", "name == 5"] {
            XCTAssertNil(PostgreSQLCandidateFilter(NSPredicate(format: format), plan: plan, firstParameter: 1, comparesStrings: true), format)
        }
    }

    func testAnInListLongerThanAStatementTakesIsLeftToMemory() throws {
        let most = PostgreSQLCandidateFilter.maximumMembers
        XCTAssertEqual(try filter("age IN %@", [Array(0..<most)])?.values.count, most)
        XCTAssertNil(try filter("age IN %@", [Array(0...most)]), "PostgreSQL takes at most 65,535 parameters a statement")
        let lists = (0..<7).map { _ in "age IN %@" }.joined(separator: " OR ")
        XCTAssertNil(try filter(lists, Array(repeating: Array(0..<most), count: 7)), "nor several lists beyond it together")
    }

    /// Every value bound is a parameter of the clause: a part translated and then given up (a
    /// NOT or an OR around a partly translated AND) takes its values back.
    func testTheClauseBindsExactlyItsValues() throws {
        // (An AND narrows by its parts up to the first it can't translate: the given-up part
        // comes second.)
        for format in ["age < 5 AND NOT (age > 1 AND name BEGINSWITH 'x')", "age < 5 AND ((age > 1 AND name BEGINSWITH 'x') OR rating > 2)",
                       "rating > 1 AND NOT (age IN {1, 2} AND name == 'x')"] {
            let f = try XCTUnwrap(try filter(format), format)
            let parameters = Set(f.sql.matches(of: /\$([0-9]+)/).map { Int($0.output.1)! })
            XCTAssertEqual(parameters, Set(1...f.values.count), "\(format): \(f.sql) with \(f.values)")
        }
    }

    func testNotEqualKeepsNilBecauseTheEvaluatorDoes() throws {
        XCTAssertEqual(try filter("age != 5")?.sql, "(\"ZAGE\" IS NULL OR \"ZAGE\" <> $1)")
    }

    func testAnAndNarrowsByItsPartsUpToTheFirstItCannotTranslate() throws {
        let f = try XCTUnwrap(try filter("age > 1 AND name CONTAINS 'x' AND rating < 3"))
        XCTAssertEqual(f.sql, "(\"ZAGE\" > $1)", "the part after the string comparison could hide a row on which it throws")
        XCTAssertEqual(f.values, [.integer(1)])
        let nested = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "age > 1"), NSPredicate(format: "name CONTAINS 'x'")]),
            NSPredicate(format: "rating < 3"),
        ])
        XCTAssertEqual(PostgreSQLCandidateFilter(nested, plan: try employeePlan(), firstParameter: 1)?.sql, "((\"ZAGE\" > $1))",
                       "a partly translated AND stops the outer one")
    }

    func testAnOrNarrowsOnlyWhenEveryPartTranslates() throws {
        XCTAssertEqual(try filter("age > 1 OR rating >= 3")?.sql, "(\"ZAGE\" > $1 OR \"ZRATING\" >= $2)")
        XCTAssertNil(try filter("age > 1 OR name == 'x'"))
        let f = try XCTUnwrap(try filter("rating > 4 AND (age > 1 OR name == 'x')"))
        XCTAssertEqual(f.values, [.double(4)], "the OR's values were taken back")
    }

    func testWhatSQLWouldDecideDifferentlyIsLeftToMemory() throws {
        for format in ["name == 'Zoë'", "name BEGINSWITH 'a'", "age < nil", "NOT (name == 'x')", "active == 2",
                       "age == 'x'", "rating == %@", "age IN {1, 'x'}", "name IN {'a'}", "ANY name == 'x'", "boss == nil"] {
            XCTAssertNil(try filter(format, format.contains("%@") ? [Double.nan] : []), format)
        }
    }
}

/// The notification each save of the PostgreSQL store sends: history number, saver, records.
final class PostgreSQLChangeNoticeTests: XCTestCase {
    func testANoticeNamesTheChangedRecordsAndReadsBack() {
        let notice = PostgreSQLChangeNotice(historyNumber: 42, saver: "AB12CD34", records: [.init(entity: 3, key: 7, version: 2), .init(entity: 4, key: 9_000_000_000, version: .max)])
        XCTAssertEqual(notice.payload, "42;AB12CD34;3.7.2 4.9000000000.9223372036854775807")
        XCTAssertEqual(PostgreSQLChangeNotice(payload: notice.payload), notice)
        let withoutHistory = PostgreSQLChangeNotice(payload: ";AB12CD34;3.7.5")
        XCTAssertNil(withoutHistory.historyNumber)
        XCTAssertEqual(withoutHistory.records, [.init(entity: 3, key: 7, version: 5)])
    }

    func testTooManyRecordsOrAnUnreadablePayloadNameEveryRecord() {
        let many = PostgreSQLChangeNotice(historyNumber: nil, saver: "S", records: (0..<2_000).map { .init(entity: 12, key: Int64($0) + 1_000_000, version: 1) })
        XCTAssertLessThan(many.payload.utf8.count, 8_000, "PostgreSQL refuses payloads of 8,000 bytes")
        XCTAssertEqual(many.payload, ";S;*")
        XCTAssertNil(PostgreSQLChangeNotice(payload: many.payload).records)
        let earlierServer = PostgreSQLChangeNotice(payload: "17")
        XCTAssertEqual(earlierServer.historyNumber, 17, "a server of an earlier version sends only the number")
        XCTAssertNil(earlierServer.records)
        XCTAssertNil(PostgreSQLChangeNotice(payload: "1;S;3.x.1").records)
        XCTAssertNil(PostgreSQLChangeNotice(payload: "1;S;3.7").records, "a record without its version")
    }
}
