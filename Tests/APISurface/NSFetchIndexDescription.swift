import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchindexdescription (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSFetchIndexDescription.h.

/// api: NSFetchIndexDescription.init(name:elements:)
func api_NSFetchIndexDescription_initName(_ name: String, _ elements: [NSFetchIndexElementDescription]?) {
    let index: NSFetchIndexDescription = NSFetchIndexDescription(name: name, elements: elements)
    let empty: NSFetchIndexDescription = NSFetchIndexDescription(name: name, elements: nil)
    _ = (index, empty)
}

/// api: NSFetchIndexDescription.name
func api_NSFetchIndexDescription_name(_ index: NSFetchIndexDescription) {
    let name: String = index.name
    index.name = name
}

/// api: NSFetchIndexDescription.elements
func api_NSFetchIndexDescription_elements(_ index: NSFetchIndexDescription) {
    let elements: [NSFetchIndexElementDescription] = index.elements
    index.elements = elements
}

/// api: NSFetchIndexDescription.entity
func api_NSFetchIndexDescription_entity(_ index: NSFetchIndexDescription) {
    let entity: NSEntityDescription? = index.entity
    _ = entity
}

/// api: NSFetchIndexDescription.partialIndexPredicate
func api_NSFetchIndexDescription_partialIndexPredicate(_ index: NSFetchIndexDescription) {
    let predicate: NSPredicate? = index.partialIndexPredicate
    index.partialIndexPredicate = predicate
    index.partialIndexPredicate = nil
}
