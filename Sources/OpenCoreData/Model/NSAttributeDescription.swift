import Foundation

/// The type of an attribute's values, with Apple's raw values (they appear in compiled models).
public enum NSAttributeType: UInt, Sendable {
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    case UUIDAttributeType = 1100
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    case compositeAttributeType = 2100

    var isInteger: Bool {
        self == .integer16AttributeType || self == .integer32AttributeType || self == .integer64AttributeType
    }
    var isNumeric: Bool {
        isInteger || self == .doubleAttributeType || self == .floatAttributeType || self == .decimalAttributeType
    }

    /// `number` in this type's width: an `NSNumber` of 16, 32 or 64 bits, a float, a double or
    /// a Boolean, or an `NSDecimalNumber`; nil for a type that holds no number. (An archived
    /// integer is 64 bits, an aggregate's `@avg` of integers fractional, and so on.)
    func number(_ number: NSNumber) -> NSNumber? {
        switch self {
        case .integer16AttributeType: return NSNumber(value: number.int16Value)
        case .integer32AttributeType: return NSNumber(value: number.int32Value)
        case .integer64AttributeType: return NSNumber(value: number.int64Value)
        case .floatAttributeType: return NSNumber(value: number.floatValue)
        case .doubleAttributeType: return NSNumber(value: number.doubleValue)
        case .booleanAttributeType: return NSNumber(value: number.boolValue)
        case .decimalAttributeType: return NSDecimalNumber(decimal: number.decimalValue)
        default: return nil
        }
    }
}

/// An attribute: a typed value of an entity, such as a name, a salary or a birth date.
///
/// ```swift
/// let salary = NSAttributeDescription()
/// salary.name = "salary"
/// salary.attributeType = .integer64AttributeType
/// salary.defaultValue = 0
/// salary.setValidationPredicates([NSPredicate(format: "SELF >= 0")],
///                                withValidationWarnings: ["salary can't be negative"])
/// ```
open class NSAttributeDescription: NSPropertyDescription, @unchecked Sendable {
    open var attributeType: NSAttributeType = .undefinedAttributeType { willSet { checkMutable() } }
    /// The class name of the values, as Core Data reports it ("NSString", "NSNumber", ...).
    open var attributeValueClassName: String? {
        get { _attributeValueClassName ?? attributeType.defaultValueClassName }
        set { checkMutable(); _attributeValueClassName = newValue }
    }
    private var _attributeValueClassName: String?
    /// The value a newly inserted object starts with.
    open var defaultValue: Any? { willSet { checkMutable() } }
    /// What a newly inserted object holds: `defaultValue`, except for a composite attribute,
    /// which fills in its elements' defaults.
    var initialValue: Any? { defaultValue }
    /// For transformable attributes: the registered `ValueTransformer` name. `nil` means
    /// `NSSecureUnarchiveFromData`, as on Apple platforms.
    open var valueTransformerName: String? { willSet { checkMutable() } }
    open var allowsExternalBinaryDataStorage: Bool = false { willSet { checkMutable() } }
    open var preservesValueInHistoryOnDeletion: Bool = false { willSet { checkMutable() } }
    open var allowsCloudEncryption: Bool = false { willSet { checkMutable() } }

    override func copyDescription() -> NSPropertyDescription {
        // type(of: self): derived and composite attributes copy as their own class.
        let copy = Swift.type(of: self).init()
        copyCommonFields(to: copy)
        copy.attributeType = attributeType
        copy._attributeValueClassName = _attributeValueClassName
        copy.defaultValue = defaultValue
        copy.valueTransformerName = valueTransformerName
        copy.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        copy.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        copy.allowsCloudEncryption = allowsCloudEncryption
        return copy
    }

    public required init() { super.init() }

    /// A convenience for building models in code: `NSAttributeDescription(name: "age", type: .integer16AttributeType)`.
    public convenience init(name: String, type: NSAttributeType, isOptional: Bool = true, defaultValue: Any? = nil) {
        self.init()
        self.name = name
        self.attributeType = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }
}

extension NSAttributeType {
    var defaultValueClassName: String? {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType: return "NSNumber"
        case .decimalAttributeType: return "NSDecimalNumber"
        case .stringAttributeType: return "NSString"
        case .dateAttributeType: return "NSDate"
        case .binaryDataAttributeType: return "NSData"
        case .UUIDAttributeType: return "NSUUID"
        case .URIAttributeType: return "NSURL"
        case .objectIDAttributeType: return "NSManagedObjectID"
        case .transformableAttributeType, .undefinedAttributeType, .compositeAttributeType: return nil
        }
    }
}
