@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Writing keyed archives (compiled models): plain values come back as written, and what has no
/// archived form is refused with the element named. Uses `@testable` for the internal writer.
final class KeyedArchiveWritingTests: XCTestCase {
    private func roundTrip(_ value: Any) throws -> Any? {
        let writer = KeyedArchiveWriter()
        let root = try XCTUnwrap(writer.plainValue(value), "\(value) has an archived form")
        let archive = try XCTUnwrap(KeyedArchiveObjects(try writer.archive(root: root)))
        return archive.plainValue(archive.top["root"])
    }

    func testPlainValuesComeBackAsWritten() throws {
        for text in ["12.5", "-0.001", "0", "123456789012345678901234567890", "79228162514264337593543950335", "1e50"] {
            let decimal = try XCTUnwrap(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            XCTAssertEqual((try roundTrip(NSDecimalNumber(decimal: decimal)) as? NSDecimalNumber)?.decimalValue, decimal, text)
        }
        let uuid = UUID()
        XCTAssertEqual(try roundTrip(uuid) as? UUID, uuid)
        XCTAssertEqual(try roundTrip(URL(string: "https://example.com/a?b=c")!) as? URL, URL(string: "https://example.com/a?b=c"))
        let date = Date(timeIntervalSinceReferenceDate: 12345.5)
        XCTAssertEqual(try roundTrip(date) as? Date, date)
        XCTAssertEqual(try roundTrip("a < b & c") as? String, "a < b & c")
        XCTAssertEqual((try roundTrip(NSNumber(value: 2.5)) as? NSNumber)?.doubleValue, 2.5)
        XCTAssertEqual((try roundTrip(NSNumber(value: Int64.max)) as? NSNumber)?.int64Value, Int64.max)
        XCTAssertEqual(try roundTrip(Data([0, 1, 2])) as? Data, Data([0, 1, 2]))
        let nested = try XCTUnwrap(try roundTrip(["k": ["x", "y"]]) as? [String: Any])
        XCTAssertEqual(nested["k"] as? [String], ["x", "y"])
        XCTAssertNil(KeyedArchiveWriter().plainValue(NSObject()), "an object Foundation can't archive as a plain value")
    }

    private func model(_ configure: (NSEntityDescription, NSManagedObjectModel) -> Void) -> NSManagedObjectModel {
        let entity = NSEntityDescription(name: "Item")
        let model = NSManagedObjectModel()
        configure(entity, model)
        model.entities = [entity]
        return model
    }

    private func assertRefused(_ model: NSManagedObjectModel, mentioning text: String, line: UInt = #line) {
        var encoder = ArchivedModelEncoder(model)
        XCTAssertThrowsError(try encoder.archive(), line: line) { error in
            XCTAssertTrue("\(error)".contains(text), "\(error)", line: line)
        }
    }

    func testWhatHasNoArchivedFormIsRefusedByName() {
        assertRefused(model { entity, _ in
            entity.properties = [NSAttributeDescription(name: "shape", type: .transformableAttributeType, defaultValue: NSObject())]
        }, mentioning: "attribute 'Item.shape' has a default value of type NSObject")
        assertRefused(model { entity, model in
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
            request.predicate = NSPredicate { _, _ in true }
            model.setFetchRequestTemplate(request, forName: "all")
        }, mentioning: "the predicate of the fetch request template 'all' holds a block predicate")
        assertRefused(model { entity, _ in
            let name = NSAttributeDescription(name: "name", type: .stringAttributeType)
            name.setValidationPredicates([NSPredicate(format: "$x := 1 == 1")].compactMap { $0 }, withValidationWarnings: ["w"])
            entity.properties = [name]
        }, mentioning: "a validation predicate of 'Item.name'")
        assertRefused(model { entity, _ in
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true) { _, _ in .orderedSame }]
            let fetched = NSFetchedPropertyDescription()
            fetched.name = "same"
            fetched.fetchRequest = request
            entity.properties = [fetched]
        }, mentioning: "a sort descriptor of the fetched property 'Item.same' holds a sort descriptor on 'name' with a comparator block")
    }
}
