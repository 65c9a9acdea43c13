import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchedresultschangetype
// (`enum NSFetchedResultsChangeType`, `init?(rawValue: UInt)`; insert = 1, delete = 2, move = 3,
// update = 4; Hashable, Sendable), cross-checked against a second copy of Apple's reference pages.

/// api: NSFetchedResultsChangeType.insert
func api_NSFetchedResultsChangeType_insert() {
    let _: NSFetchedResultsChangeType = .insert
}

/// api: NSFetchedResultsChangeType.delete
func api_NSFetchedResultsChangeType_delete() {
    let _: NSFetchedResultsChangeType = .delete
}

/// api: NSFetchedResultsChangeType.move
func api_NSFetchedResultsChangeType_move() {
    let _: NSFetchedResultsChangeType = .move
}

/// api: NSFetchedResultsChangeType.update
func api_NSFetchedResultsChangeType_update() {
    let _: NSFetchedResultsChangeType = .update
}

/// api: NSFetchedResultsChangeType.init(rawValue:)
func api_NSFetchedResultsChangeType_init_rawValue() {
    let type: NSFetchedResultsChangeType? = NSFetchedResultsChangeType(rawValue: 1)
    let _: UInt? = type?.rawValue
}

/// api: NSFetchedResultsChangeType.Hashable
func api_NSFetchedResultsChangeType_Hashable(_ type: NSFetchedResultsChangeType) {
    func requireHashable<T: Hashable & Sendable>(_ value: T) -> Int { value.hashValue }
    let _: Int = requireHashable(type)
    let _: Bool = type == .insert
}
