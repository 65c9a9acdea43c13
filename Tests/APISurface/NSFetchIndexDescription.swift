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

// MARK: - NSCoding, NSCopying

// Conformances from Apple's declaration (`@interface NSFetchIndexDescription : NSObject <NSCoding, NSCopying>`). Swift spells the
// requirements `init?(coder: NSCoder)`, `func encode(with coder: NSCoder)` and `func copy(with zone: NSZone? = nil) -> Any`.

/// api: NSFetchIndexDescription.init(coder:)
func api_NSFetchIndexDescription_init_coder(_ coder: NSCoder) {
    let decoded: NSFetchIndexDescription? = NSFetchIndexDescription(coder: coder)
    _ = decoded
}

/// api: NSFetchIndexDescription.encode(with:)
func api_NSFetchIndexDescription_encode_with(_ index: NSFetchIndexDescription, _ coder: NSCoder) {
    func archivable<T: NSCoding>(_ value: T) -> T { value }
    archivable(index).encode(with: coder)
}

/// api: NSFetchIndexDescription.copy(with:)
func api_NSFetchIndexDescription_copy_with(_ index: NSFetchIndexDescription) {
    func copyable<T: NSCopying>(_ value: T) -> T { value }
    let copied: Any = copyable(index).copy(with: nil)
    let _: NSFetchIndexDescription? = copied as? NSFetchIndexDescription
    let _: NSFetchIndexDescription? = index.copy() as? NSFetchIndexDescription
}
