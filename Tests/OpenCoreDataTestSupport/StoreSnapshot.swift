import Foundation
import OpenCoreData

/// Every object of the store at `url`, read with `model` through Core Data's API, as text:
/// `Entity/p<primary key>` → its attribute values and the keys of its related objects. Two
/// stores with equal snapshots hold the same objects under the same primary keys (object URIs
/// differ only in their store UUID). The store is opened read-only.
///
/// ```swift
/// XCTAssertEqual(try storeSnapshot(at: copyURL, type: NSSQLiteStoreType, model: model),
///                try storeSnapshot(at: originalURL, type: NSSQLiteStoreType, model: model))
/// ```
public func storeSnapshot(at url: URL, type: String, model: NSManagedObjectModel) throws -> [String: String] {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    let store = try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: [NSReadOnlyPersistentStoreOption: true])
    defer { try? coordinator.remove(store) }
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    func key(_ id: NSManagedObjectID) -> String { "\(id.entity.name ?? "?")/\(id.uriRepresentation().lastPathComponent)" }
    return try context.performAndWait {
        var snapshot: [String: String] = [:]
        for entity in model.entities where entity.superentity == nil {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
            for object in try context.fetch(request) {
                var fields: [String] = []
                for (name, property) in object.entity.propertiesByName.sorted(by: { $0.key < $1.key }) {
                    let value = object.value(forKey: name)
                    if let relationship = property as? NSRelationshipDescription {
                        if !relationship.isToMany {
                            fields.append("\(name)=\((value as? NSManagedObject).map { key($0.objectID) } ?? "nil")")
                        } else if let ordered = value as? NSOrderedSet {
                            fields.append("\(name)=[\(ordered.array.compactMap { ($0 as? NSManagedObject).map { key($0.objectID) } }.joined(separator: ","))]")
                        } else if let set = value as? Set<NSManagedObject> {
                            fields.append("\(name)={\(set.map { key($0.objectID) }.sorted().joined(separator: ","))}")
                        } else if let set = value as? NSSet {
                            fields.append("\(name)={\(set.compactMap { ($0 as? NSManagedObject).map { key($0.objectID) } }.sorted().joined(separator: ","))}")
                        } else {
                            fields.append("\(name)=\(String(describing: value))")
                        }
                    } else {
                        fields.append("\(name)=\(value.map { String(describing: $0) } ?? "nil")")
                    }
                }
                snapshot[key(object.objectID)] = fields.joined(separator: "; ")
            }
        }
        return snapshot
    }
}
