import Foundation

/// Sorts objects in memory by sort descriptors, the way a store orders rows.
enum SortEvaluation {
    static func sorted(_ objects: [NSManagedObject], by descriptors: [NSSortDescriptor]) throws -> [NSManagedObject] {
        // Read each key once per object, not once per comparison.
        let keys = objects.map { object in descriptors.map { $0.sortValue(of: object) } }
        let order = objects.indices.sorted { a, b in
            for (d, descriptor) in descriptors.enumerated() {
                switch descriptor.compareSortValues(keys[a][d], keys[b][d]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return a < b  // stable: equal keys keep the store's order
        }
        return order.map { objects[$0] }
    }
}
