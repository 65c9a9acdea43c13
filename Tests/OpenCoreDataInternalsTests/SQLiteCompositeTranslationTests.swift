@testable import OpenCoreData
import XCTest

/// A key path into a composite attribute is its leaf element's column, so predicates and sort
/// descriptors on elements are decided in SQL (no row is read to be filtered in memory).
final class SQLiteCompositeTranslationTests: XCTestCase {
    private func placeTable() throws -> (NSEntityDescription, StoreSchema) {
        let place = NSEntityDescription(name: "Place")
        let position = NSCompositeAttributeDescription()
        position.name = "position"
        position.elements = [NSAttributeDescription(name: "floor", type: .integer16AttributeType)]
        let location = NSCompositeAttributeDescription()
        location.name = "location"
        location.elements = [NSAttributeDescription(name: "latitude", type: .doubleAttributeType),
                             NSAttributeDescription(name: "label", type: .stringAttributeType), position]
        place.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), location]
        let model = NSManagedObjectModel()
        model.entities = [place]
        return (place, try StoreSchema(model: model, entityNumbers: nil, existingTables: []))
    }

    func testElementKeyPathsAreDecidedInSQL() throws {
        let (place, schema) = try placeTable()
        let table = schema.table(for: place)
        for (format, column) in [("location.latitude > 1.5", "ZLATITUDE"), ("location.position.floor == 2", "ZFLOOR"),
                                 ("location.label BEGINSWITH 'A'", "ZLABEL"), ("location.latitude == nil", "ZLATITUDE")] {
            let filter = try XCTUnwrap(SQLitePredicateFilter(NSPredicate(format: format), entity: place, table: table, schema: schema), format)
            XCTAssertTrue(filter.isExact, format)
            XCTAssertTrue(filter.sql.contains(column), "\(format): \(filter.sql)")
        }
        // An element that does not exist, or a composite compared whole, is left to memory.
        XCTAssertFalse(SQLitePredicateFilter(NSPredicate(format: "location.altitude > 1"), entity: place, table: table, schema: schema)?.isExact ?? false)
        XCTAssertFalse(SQLitePredicateFilter(NSPredicate(format: "location == nil"), entity: place, table: table, schema: schema)?.isExact ?? false)
    }

    func testElementKeyPathsOrderInSQL() throws {
        let (place, schema) = try placeTable()
        let table = schema.table(for: place)
        XCTAssertEqual(SQLiteFetchQuery.orderTerm(NSSortDescriptor(key: "location.latitude", ascending: false), entity: place, table: table), "\"ZLATITUDE\" DESC")
        XCTAssertEqual(SQLiteFetchQuery.orderTerm(NSSortDescriptor(key: "location.position.floor", ascending: true), entity: place, table: table), "\"ZFLOOR\" ASC")
        XCTAssertNil(SQLiteFetchQuery.orderTerm(NSSortDescriptor(key: "location.position", ascending: true), entity: place, table: table), "a nested composite has no column")
    }
}
