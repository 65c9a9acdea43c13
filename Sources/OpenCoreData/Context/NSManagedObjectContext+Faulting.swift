import Foundation

/// Faulting: objects that stand for a record without its values until they are used.
///
/// ```swift
/// let employee = context.object(with: id)   // a fault: no store access
/// employee.value(forKey: "name")            // fires it: the values load
/// ```
///
/// Relationship faults load through `NSManagedObjectContext+RelationshipLoading.swift`, batch
/// faults through `FetchBatchLoader.swift`; turning objects back into faults is in
/// `NSManagedObjectContext+Refresh.swift`.
extension NSManagedObjectContext {
    /// The object for `objectID`: the registered one, or a fault that loads on first use. Does
    /// not touch the store.
    public func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        assertOnQueue()
        return object(identifiedBy: .id(objectID))
    }

    /// ``object(with:)`` for an identity, which makes no ID object.
    func object(identifiedBy identity: ObjectIdentity) -> NSManagedObject {
        if let registered = registry.object(for: identity.key) { return registered }
        let object = makeObject(for: identity)
        object.slots = []
        object.flags.insert(.fault)
        return object
    }

    /// The object for `objectID`, loaded; throws if the store has no such record.
    public func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        assertOnQueue()
        if let registered = registry.object(for: objectID.key), !registered.isFault { return registered }
        return try readingQueryGeneration {
            guard let row = try sourceRow(for: objectID) else {
                throw CoreDataError.make(NSManagedObjectReferentialIntegrityError, "existingObject(with:): no record with ID \(objectID.uriRepresentation().absoluteString) exists in the store (it may have been deleted, or never saved).")
            }
            return materialize(row)
        }
    }

    /// The object for `objectID` if this context has it registered; nil otherwise.
    public func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        registry.object(for: objectID.key)
    }

    /// Makes `object`, a fault whose record is gone, an object with nothing to read: nil
    /// attributes and to-ones, empty to-manys.
    func giveNoValues(to object: NSManagedObject) {
        object.flags.remove(.fault)
        object.slots = object.layout.properties.map { p in
            (p as? NSRelationshipDescription)?.isToMany == true ? .toMany(RelatedObjects()) : .null
        }
    }

    /// Loads a fault's values from its store.
    func fulfillFault(for object: NSManagedObject) {
        readingQueryGeneration { fulfillFaultInQueryGeneration(for: object) }
    }

    /// ``fulfillFault(for:)``, inside the context's query generation if it is pinned to one.
    private func fulfillFaultInQueryGeneration(for object: NSManagedObject) {
        // An inserted object refreshed without merging: nothing to reload (see `refresh(_:mergeChanges:)`).
        if object.flags.contains(.inserted) { giveNoValues(to: object); return }
        if !object.flags.contains(.holdsSnapshot), fulfillFaultFromBatch(object) { return }
        let row: StoreRow?
        if parent != nil || object.flags.contains(.holdsSnapshot) {
            row = parent != nil ? try? sourceRow(for: object.objectID)
                : try? persistentStoreCoordinator?.currentRow(for: object.objectID, stalenessInterval: stalenessInterval, in: self)
        } else {
            row = try? persistentStoreCoordinator?.retainedRow(for: object.objectID, stalenessInterval: stalenessInterval, in: self)
            if row != nil { object.flags.insert(.holdsSnapshot) }
        }
        guard let row else {
            // The record is gone. An inaccessible fault the context handles reads as default
            // values and counts as deleted (isDeleted, not in deletedObjects: the store has
            // nothing to delete). Otherwise Apple raises "could not fulfill a fault"; a property
            // getter cannot throw, so the object reads as default values (docs/DEVIATIONS.md).
            giveNoValues(to: object)
            if shouldHandleInaccessibleFault(object, for: object.objectID, triggeredByProperty: nil) { object.flags.insert(.deleted) }
            return
        }
        fill(object, from: row)
    }
}

extension NSManagedObject {
    /// A fetched property's value: the fetch request run with `$FETCH_SOURCE` = this object and
    /// `$FETCHED_PROPERTY` = the description, cached until the object is refreshed.
    func fetchedPropertyValue(_ property: NSFetchedPropertyDescription, slot i: Int) -> [NSManagedObject] {
        if let cached = cachedFetchedProperty(slot: i) { return cached }
        guard let context = managedObjectContext, let template = property.fetchRequest else { return [] }
        let request = template.copyRequest(as: NSManagedObject.self)
        request.predicate = template.predicate?.withSubstitutionVariables(["FETCH_SOURCE": self, "FETCHED_PROPERTY": property])
        let result = (try? context.fetch(request)) ?? []
        cacheFetchedProperty(result, slot: i)
        return result
    }
}
