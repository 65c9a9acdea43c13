import Foundation

/// The fetch requests a model loader reads before every entity exists (fetched properties,
/// templates), with the entity each names, given their entities once the model is complete.
///
/// ```swift
/// pending.add(request, entityName: "Person", owner: "fetch request template 'ducks'")
/// warnings += pending.resolve(in: model)   // a sentence for each entity the model lacks
/// ```
struct PendingRequestEntities {
    private var requests: [(request: NSFetchRequest<NSFetchRequestResult>, entityName: String, owner: String)] = []

    mutating func add(_ request: NSFetchRequest<NSFetchRequestResult>, entityName: String, owner: String) {
        requests.append((request, entityName, owner))
    }

    /// Gives each request its entity; returns a warning for each entity `model` lacks.
    mutating func resolve(in model: NSManagedObjectModel) -> [String] {
        let byName = model.entitiesByName
        var warnings: [String] = []
        for (request, entityName, owner) in requests {
            if let entity = byName[entityName] {
                request.entity = entity
            } else {
                warnings.append("The \(owner) fetches entity '\(entityName)', which is not in the model.")
            }
        }
        requests = []
        return warnings
    }
}
