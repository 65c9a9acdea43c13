import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsattributedescription,
// .../nsattributetype and .../nsattributedescription/attributetype-swift.struct (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSAttributeDescription.h and
// onestack.dev's iOS reference (NSAttributeDescription, NSAttributeType, NSAttributeDescription.AttributeType).

/// api: NSAttributeDescription.init()
func api_NSAttributeDescription_init() {
    let attribute: NSAttributeDescription = NSAttributeDescription()
    _ = attribute
}

/// api: NSAttributeDescription.attributeValueClassName
func api_NSAttributeDescription_attributeValueClassName(_ attribute: NSAttributeDescription) {
    let className: String? = attribute.attributeValueClassName
    attribute.attributeValueClassName = className
}

/// api: NSAttributeDescription.type
func api_NSAttributeDescription_type(_ attribute: NSAttributeDescription) {
    let type: NSAttributeDescription.AttributeType = attribute.type
    attribute.type = type
    attribute.type = .string
}

/// api: NSAttributeDescription.attributeType
func api_NSAttributeDescription_attributeType(_ attribute: NSAttributeDescription) {
    // Deprecated in favor of `type`.
    let type: NSAttributeType = attribute.attributeType
    attribute.attributeType = type
    attribute.attributeType = .stringAttributeType
}

/// api: NSAttributeDescription.allowsCloudEncryption
func api_NSAttributeDescription_allowsCloudEncryption(_ attribute: NSAttributeDescription) {
    let allows: Bool = attribute.allowsCloudEncryption
    attribute.allowsCloudEncryption = allows
}

/// api: NSAttributeDescription.allowsExternalBinaryDataStorage
func api_NSAttributeDescription_allowsExternalBinaryDataStorage(_ attribute: NSAttributeDescription) {
    let allows: Bool = attribute.allowsExternalBinaryDataStorage
    attribute.allowsExternalBinaryDataStorage = allows
}

/// api: NSAttributeDescription.defaultValue
func api_NSAttributeDescription_defaultValue(_ attribute: NSAttributeDescription) {
    let value: Any? = attribute.defaultValue
    attribute.defaultValue = value
    attribute.defaultValue = "default"
}

/// api: NSAttributeDescription.preservesValueInHistoryOnDeletion
func api_NSAttributeDescription_preservesValueInHistoryOnDeletion(_ attribute: NSAttributeDescription) {
    let preserves: Bool = attribute.preservesValueInHistoryOnDeletion
    attribute.preservesValueInHistoryOnDeletion = preserves
}

/// api: NSAttributeDescription.valueTransformerName
func api_NSAttributeDescription_valueTransformerName(_ attribute: NSAttributeDescription) {
    let name: String? = attribute.valueTransformerName
    attribute.valueTransformerName = name
}

/// api: NSAttributeDescription.versionHash
func api_NSAttributeDescription_versionHash(_ attribute: NSAttributeDescription) {
    let hash: Data = attribute.versionHash
    _ = hash
}

/// api: NSAttributeDescription.AttributeType.binaryData
func api_NSAttributeDescription_AttributeType_binaryData() {
    let type: NSAttributeDescription.AttributeType = .binaryData
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.binaryData
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.boolean
func api_NSAttributeDescription_AttributeType_boolean() {
    let type: NSAttributeDescription.AttributeType = .boolean
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.boolean
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.composite
func api_NSAttributeDescription_AttributeType_composite() {
    let type: NSAttributeDescription.AttributeType = .composite
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.composite
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.date
func api_NSAttributeDescription_AttributeType_date() {
    let type: NSAttributeDescription.AttributeType = .date
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.date
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.decimal
func api_NSAttributeDescription_AttributeType_decimal() {
    let type: NSAttributeDescription.AttributeType = .decimal
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.decimal
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.double
func api_NSAttributeDescription_AttributeType_double() {
    let type: NSAttributeDescription.AttributeType = .double
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.double
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.float
func api_NSAttributeDescription_AttributeType_float() {
    let type: NSAttributeDescription.AttributeType = .float
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.float
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.integer16
func api_NSAttributeDescription_AttributeType_integer16() {
    let type: NSAttributeDescription.AttributeType = .integer16
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.integer16
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.integer32
func api_NSAttributeDescription_AttributeType_integer32() {
    let type: NSAttributeDescription.AttributeType = .integer32
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.integer32
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.integer64
func api_NSAttributeDescription_AttributeType_integer64() {
    let type: NSAttributeDescription.AttributeType = .integer64
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.integer64
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.objectID
func api_NSAttributeDescription_AttributeType_objectID() {
    let type: NSAttributeDescription.AttributeType = .objectID
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.objectID
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.string
func api_NSAttributeDescription_AttributeType_string() {
    let type: NSAttributeDescription.AttributeType = .string
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.string
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.transformable
func api_NSAttributeDescription_AttributeType_transformable() {
    let type: NSAttributeDescription.AttributeType = .transformable
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.transformable
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.undefined
func api_NSAttributeDescription_AttributeType_undefined() {
    let type: NSAttributeDescription.AttributeType = .undefined
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.undefined
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.uri
func api_NSAttributeDescription_AttributeType_uri() {
    let type: NSAttributeDescription.AttributeType = .uri
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.uri
    _ = (type, qualified)
}

/// api: NSAttributeDescription.AttributeType.uuid
func api_NSAttributeDescription_AttributeType_uuid() {
    let type: NSAttributeDescription.AttributeType = .uuid
    let qualified: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType.uuid
    _ = (type, qualified)
}

// unconfirmed: Apple's page lists AttributeType as RawRepresentable (and Hashable) but does not show
// the raw-value initializer; raw type NSAttributeType and a non-failable init are inferred.
/// api: NSAttributeDescription.AttributeType.init(rawValue:)
func api_NSAttributeDescription_AttributeType_initRawValue(_ raw: NSAttributeType) {
    let type: NSAttributeDescription.AttributeType = NSAttributeDescription.AttributeType(rawValue: raw)
    _ = type
}

// unconfirmed: as above; `rawValue: NSAttributeType` inferred from the RawRepresentable conformance.
/// api: NSAttributeDescription.AttributeType.rawValue
func api_NSAttributeDescription_AttributeType_rawValue(_ type: NSAttributeDescription.AttributeType) {
    let raw: NSAttributeType = type.rawValue
    _ = raw
}

/// api: NSAttributeType.binaryDataAttributeType
func api_NSAttributeType_binaryDataAttributeType() {
    let type: NSAttributeType = .binaryDataAttributeType
    let qualified: NSAttributeType = NSAttributeType.binaryDataAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.booleanAttributeType
func api_NSAttributeType_booleanAttributeType() {
    let type: NSAttributeType = .booleanAttributeType
    let qualified: NSAttributeType = NSAttributeType.booleanAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.compositeAttributeType
func api_NSAttributeType_compositeAttributeType() {
    let type: NSAttributeType = .compositeAttributeType
    let qualified: NSAttributeType = NSAttributeType.compositeAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.dateAttributeType
func api_NSAttributeType_dateAttributeType() {
    let type: NSAttributeType = .dateAttributeType
    let qualified: NSAttributeType = NSAttributeType.dateAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.decimalAttributeType
func api_NSAttributeType_decimalAttributeType() {
    let type: NSAttributeType = .decimalAttributeType
    let qualified: NSAttributeType = NSAttributeType.decimalAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.doubleAttributeType
func api_NSAttributeType_doubleAttributeType() {
    let type: NSAttributeType = .doubleAttributeType
    let qualified: NSAttributeType = NSAttributeType.doubleAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.floatAttributeType
func api_NSAttributeType_floatAttributeType() {
    let type: NSAttributeType = .floatAttributeType
    let qualified: NSAttributeType = NSAttributeType.floatAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.integer16AttributeType
func api_NSAttributeType_integer16AttributeType() {
    let type: NSAttributeType = .integer16AttributeType
    let qualified: NSAttributeType = NSAttributeType.integer16AttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.integer32AttributeType
func api_NSAttributeType_integer32AttributeType() {
    let type: NSAttributeType = .integer32AttributeType
    let qualified: NSAttributeType = NSAttributeType.integer32AttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.integer64AttributeType
func api_NSAttributeType_integer64AttributeType() {
    let type: NSAttributeType = .integer64AttributeType
    let qualified: NSAttributeType = NSAttributeType.integer64AttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.objectIDAttributeType
func api_NSAttributeType_objectIDAttributeType() {
    let type: NSAttributeType = .objectIDAttributeType
    let qualified: NSAttributeType = NSAttributeType.objectIDAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.stringAttributeType
func api_NSAttributeType_stringAttributeType() {
    let type: NSAttributeType = .stringAttributeType
    let qualified: NSAttributeType = NSAttributeType.stringAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.transformableAttributeType
func api_NSAttributeType_transformableAttributeType() {
    let type: NSAttributeType = .transformableAttributeType
    let qualified: NSAttributeType = NSAttributeType.transformableAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.undefinedAttributeType
func api_NSAttributeType_undefinedAttributeType() {
    let type: NSAttributeType = .undefinedAttributeType
    let qualified: NSAttributeType = NSAttributeType.undefinedAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.URIAttributeType
func api_NSAttributeType_URIAttributeType() {
    let type: NSAttributeType = .URIAttributeType
    let qualified: NSAttributeType = NSAttributeType.URIAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.UUIDAttributeType
func api_NSAttributeType_UUIDAttributeType() {
    let type: NSAttributeType = .UUIDAttributeType
    let qualified: NSAttributeType = NSAttributeType.UUIDAttributeType
    _ = (type, qualified)
}

/// api: NSAttributeType.init(rawValue:)
func api_NSAttributeType_initRawValue(_ raw: UInt) {
    let type: NSAttributeType? = NSAttributeType(rawValue: raw)
    _ = type
}

/// api: NSAttributeType.rawValue
func api_NSAttributeType_rawValue(_ type: NSAttributeType) {
    let raw: UInt = type.rawValue
    _ = raw
}

// `public typealias RawValue = CoreData.NSAttributeType` in the iOS 18 CoreData.swiftinterface; onestack's
// reference lists NSAttributeDescription.AttributeType.RawValue as its own type.
/// api: NSAttributeDescription.AttributeType.RawValue
func api_NSAttributeDescription_AttributeType_RawValue_typealias(_ type: NSAttributeDescription.AttributeType) {
    let _: NSAttributeDescription.AttributeType.RawValue.Type = NSAttributeType.self
    let raw: NSAttributeDescription.AttributeType.RawValue = type.rawValue
    let _: NSAttributeType = raw
}
