import OpenCoreDataMacros
import XCTest

// `PortedNotebook.swift` and `OpenCoreDataClassNames.swift` in this target are exactly what
// `ocd port` writes for `Tests/OCDPortTests/Samples/Notebook+CoreData.swift.txt` (a file in
// Xcode's generated shape; `OCDPortTests` checks the port produces them byte for byte). That they
// compile here is half the test; this is the other half: the ported code works.

final class PortedSampleTests: XCTestCase {
    private func model() -> NSManagedObjectModel {
        // The class names as Xcode writes them beside @objc(Name): no module.
        let notebook = NSEntityDescription(name: "PortedNotebook", className: "PortedNotebook", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
            NSAttributeDescription(name: "pageCount", type: .integer64AttributeType, isOptional: false, defaultValue: 0),
            NSAttributeDescription(name: "rating", type: .integer16AttributeType),
            NSAttributeDescription(name: "created", type: .dateAttributeType),
        ])
        let page = NSEntityDescription(name: "PortedPage", className: "PortedPage", properties: [
            NSAttributeDescription(name: "number", type: .integer16AttributeType, isOptional: false, defaultValue: 0),
        ])
        let label = NSEntityDescription(name: "PortedLabel", className: "PortedLabel", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
        ])
        func pair(_ toMany: String, _ member: NSEntityDescription, ordered: Bool) {
            let many = NSRelationshipDescription(), one = NSRelationshipDescription()
            many.name = toMany; many.maxCount = 0; many.isOrdered = ordered; many.destinationEntity = member; many.inverseRelationship = one
            one.name = "notebook"; one.maxCount = 1; one.destinationEntity = notebook; one.inverseRelationship = many
            notebook.properties += [many]
            member.properties += [one]
        }
        pair("pages", page, ordered: true)
        pair("labels", label, ordered: false)
        let model = NSManagedObjectModel()
        model.entities = [notebook, page, label]
        return model
    }

    func testThePortedSampleRunsAsItDidOnApplePlatforms() throws {
        OpenCoreDataClassNames.register()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-ported-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent("Notes.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let notebook = try XCTUnwrap(NSEntityDescription.insertNewObject(forEntityName: "PortedNotebook", into: context) as? PortedNotebook,
                                         "the registered class name finds the Swift class")
            notebook.title = "Field notes"
            notebook.rating = 5
            notebook.created = Date(timeIntervalSinceReferenceDate: 0)
            for n in [3, 1, 2] {
                let page = PortedPage(context: context)
                page.number = Int16(n)
                notebook.addToPages(page)
            }
            let first = PortedPage(context: context)
            first.number = 0
            notebook.insertIntoPages(first, at: 0)
            let label = PortedLabel(context: context)
            label.name = "travel"
            notebook.addToLabels(label)
            XCTAssertTrue(label.notebook === notebook)
            try context.save()
            context.reset()

            let request: NSFetchRequest<PortedNotebook> = PortedNotebook.fetchRequest()
            let fetched = try XCTUnwrap(try context.fetch(request).first)
            XCTAssertEqual(fetched.title, "Field notes")
            XCTAssertEqual(fetched.rating, 5)
            XCTAssertEqual((fetched.pages?.array as? [PortedPage])?.map(\.number), [0, 3, 1, 2])
            XCTAssertEqual(fetched.labels?.count, 1)
            let later = try context.fetch(PortedNotebook.pages(after: 1, in: fetched))
            XCTAssertEqual(later.map(\.number), [2, 3], "the #keyPath request, ported to strings")
            fetched.removeFromPages(at: 0)
            fetched.removeFromLabels(NSSet(array: [fetched.labels!.anyObject()!]))
            XCTAssertEqual(fetched.pages?.count, 3)
            XCTAssertEqual(fetched.labels?.count, 0)
        }
    }
}
