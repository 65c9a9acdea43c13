import Foundation

extension NSManagedObjectContext {
    /// Throws the error a predicate with the same key throws (`NSKeyValueValidationError`, 1024)
    /// when a sort descriptor's key path names no property of the request's entity, instead of
    /// returning the objects unsorted: `NSSortDescriptor(key: "sqe", ...)`, a typo for `"seq"`.
    ///
    /// A key path is followed through relationships to their destinations; what follows an
    /// attribute, a collection operator (`@count`) or `self` is not checked, since it is read
    /// from the value by key-value coding. A request whose entity can't be resolved is left to
    /// the fetch, which says so.
    func checkSortKeys<T>(of request: NSFetchRequest<T>) throws {
        guard let descriptors = request.sortDescriptors, !descriptors.isEmpty,
              let entity = request.entity ?? request.entityName.flatMap({ persistentStoreCoordinator?.managedObjectModel.entitiesByName[$0] })
        else { return }
        for descriptor in descriptors {
            guard let key = descriptor.key, !key.isEmpty else { continue }
            var current = entity
            for component in KeyPathEvaluator.components(of: key) {
                if component == "self" || component.hasPrefix("@") { break }
                // A frozen entity's layout answers without building `propertiesByName`.
                let property = current.layout.map { layout in layout.indexByName[component].map { layout.properties[$0] } } ?? current.propertiesByName[component]
                guard let property else {
                    throw KeyValueCodingError.undefinedKey(component, in: "Entity '\(current.name ?? "?")' (sort descriptor key '\(key)')")
                }
                guard let relationship = property as? NSRelationshipDescription, let destination = relationship.destinationEntity else { break }
                current = destination
            }
        }
    }
}
