import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchindexelementdescription and
// .../nsfetchindexelementtype (iOS 18 / macOS 15 SDK), cross-checked against the generated Swift
// interface of CoreData/NSFetchIndexElementDescription.h.

/// api: NSFetchIndexElementDescription.init(property:collationType:)
func api_NSFetchIndexElementDescription_initProperty(_ property: NSPropertyDescription, _ collation: NSFetchIndexElementType) {
    let element: NSFetchIndexElementDescription = NSFetchIndexElementDescription(property: property, collationType: collation)
    let binary: NSFetchIndexElementDescription = NSFetchIndexElementDescription(property: property, collationType: .binary)
    _ = (element, binary)
}

/// api: NSFetchIndexElementDescription.property
func api_NSFetchIndexElementDescription_property(_ element: NSFetchIndexElementDescription) {
    let property: NSPropertyDescription? = element.property
    _ = property
}

/// api: NSFetchIndexElementDescription.propertyName
func api_NSFetchIndexElementDescription_propertyName(_ element: NSFetchIndexElementDescription) {
    let name: String? = element.propertyName
    _ = name
}

/// api: NSFetchIndexElementDescription.collationType
func api_NSFetchIndexElementDescription_collationType(_ element: NSFetchIndexElementDescription) {
    let collation: NSFetchIndexElementType = element.collationType
    element.collationType = collation
}

/// api: NSFetchIndexElementDescription.isAscending
func api_NSFetchIndexElementDescription_isAscending(_ element: NSFetchIndexElementDescription) {
    let ascending: Bool = element.isAscending
    element.isAscending = ascending
}

/// api: NSFetchIndexElementDescription.indexDescription
func api_NSFetchIndexElementDescription_indexDescription(_ element: NSFetchIndexElementDescription) {
    let index: NSFetchIndexDescription? = element.indexDescription
    _ = index
}

/// api: NSFetchIndexElementType.binary
func api_NSFetchIndexElementType_binary() {
    let type: NSFetchIndexElementType = .binary
    let qualified: NSFetchIndexElementType = NSFetchIndexElementType.binary
    _ = (type, qualified)
}

/// api: NSFetchIndexElementType.rTree
func api_NSFetchIndexElementType_rTree() {
    let type: NSFetchIndexElementType = .rTree
    let qualified: NSFetchIndexElementType = NSFetchIndexElementType.rTree
    _ = (type, qualified)
}

/// api: NSFetchIndexElementType.init(rawValue:)
func api_NSFetchIndexElementType_initRawValue(_ raw: UInt) {
    let type: NSFetchIndexElementType? = NSFetchIndexElementType(rawValue: raw)
    _ = type
}

/// api: NSFetchIndexElementType.rawValue
func api_NSFetchIndexElementType_rawValue(_ type: NSFetchIndexElementType) {
    let raw: UInt = type.rawValue
    _ = raw
}

// MARK: - NSCoding, NSCopying

// Conformances from Apple's declaration (`@interface NSFetchIndexElementDescription : NSObject <NSCoding, NSCopying>`). Swift spells the
// requirements `init?(coder: NSCoder)`, `func encode(with coder: NSCoder)` and `func copy(with zone: NSZone? = nil) -> Any`.

/// api: NSFetchIndexElementDescription.init(coder:)
func api_NSFetchIndexElementDescription_init_coder(_ coder: NSCoder) {
    let decoded: NSFetchIndexElementDescription? = NSFetchIndexElementDescription(coder: coder)
    _ = decoded
}

/// api: NSFetchIndexElementDescription.encode(with:)
func api_NSFetchIndexElementDescription_encode_with(_ element: NSFetchIndexElementDescription, _ coder: NSCoder) {
    func archivable<T: NSCoding>(_ value: T) -> T { value }
    archivable(element).encode(with: coder)
}

/// api: NSFetchIndexElementDescription.copy(with:)
func api_NSFetchIndexElementDescription_copy_with(_ element: NSFetchIndexElementDescription) {
    func copyable<T: NSCopying>(_ value: T) -> T { value }
    let copied: Any = copyable(element).copy(with: nil)
    let _: NSFetchIndexElementDescription? = copied as? NSFetchIndexElementDescription
    let _: NSFetchIndexElementDescription? = element.copy() as? NSFetchIndexElementDescription
}
