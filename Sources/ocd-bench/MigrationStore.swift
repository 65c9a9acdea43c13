import Foundation
import OCDBenchKit
import OpenCoreData

/// `ocd-bench --migration-store <rows> <directory>`: the input of the lightweight-migration
/// memory measurement (docs/PERFORMANCE.md). Writes two Xcode model versions and a store of the
/// first with `rows` items, each with a to-one group and two tags (many-to-many):
///
/// ```
/// $ ocd-bench --migration-store 500000 /tmp/m
/// $ /usr/bin/time -f "%M KiB peak" ocd migrate /tmp/m/Store.sqlite --from /tmp/m/V1.xcdatamodel --to /tmp/m/V2.xcdatamodel
/// ```
///
/// `%M` is the child's maximum resident set size (`ru_maxrss`), the VmHWM of its
/// `/proc/<pid>/status` at exit. V2 renames Group to Team (`elementID`) and adds `Item.note`,
/// so every row is rewritten.
enum MigrationStore {
    static let v1 = """
        <entity name="Item" representedClassName="Item">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="number" attributeType="Integer 64" defaultValueString="0"/>
            <relationship name="group" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Group" inverseName="items" inverseEntity="Group"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="Group" representedClassName="Group">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="group" inverseEntity="Item"/>
        </entity>
        <entity name="Tag" representedClassName="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
        """
    static let v2 = """
        <entity name="Item" representedClassName="Item">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="number" attributeType="Integer 64" defaultValueString="0"/>
            <attribute name="note" optional="YES" attributeType="String"/>
            <relationship name="group" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="items" inverseEntity="Team"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="Team" representedClassName="Team" elementID="Group">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="group" inverseEntity="Item"/>
        </entity>
        <entity name="Tag" representedClassName="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
        """

    static func writeModel(_ name: String, _ entities: String, in directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            \(entities)
            </model>
            """
        try Data(xml.utf8).write(to: folder.appendingPathComponent("contents"))
        return folder
    }

    static func make(rows: Int, in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let v1 = try writeModel("V1", v1, in: directory)
        _ = try writeModel("V2", v2, in: directory)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try NSManagedObjectModel.load(contentsOf: v1))
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                                       at: directory.appendingPathComponent("Store.sqlite"),
                                                       options: [NSSQLitePragmasOption: ["synchronous": "OFF"]])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            func insert(_ entity: String, _ key: String, _ value: String) -> NSManagedObject {
                let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                object.setValue(value, forKey: key)
                return object
            }
            let groups = (0..<100).map { insert("Group", "title", "G\($0)") }
            let tags = (0..<1_000).map { insert("Tag", "label", "T\($0)") }
            try context.save()
            let groupIDs = groups.map(\.objectID), tagIDs = tags.map(\.objectID)
            // Saved in chunks, the context reset after each, so the generator itself stays small.
            var start = 0
            while start < rows {
                for i in start..<min(rows, start + 20_000) {
                    let item = insert("Item", "name", "Item \(i)")
                    item.setValue(i, forKey: "number")
                    item.setValue(context.object(with: groupIDs[i % groupIDs.count]), forKey: "group")
                    item.setValue(Set([context.object(with: tagIDs[i % tagIDs.count]), context.object(with: tagIDs[(i * 7 + 3) % tagIDs.count])]), forKey: "tags")
                }
                try context.save()
                context.reset()
                start += 20_000
            }
        }
        try coordinator.remove(store)
    }
}
