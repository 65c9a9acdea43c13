import Foundation

/// An index a store builds over some properties of an entity, to speed up fetches that filter or
/// sort by them (Xcode's "Indexes" section of an entity).
///
/// ```swift
/// let byName = NSFetchIndexDescription(name: "byName", elements: [
///     NSFetchIndexElementDescription(property: lastName, collationType: .binary),
///     NSFetchIndexElementDescription(property: firstName, collationType: .binary),
/// ])
/// employee.indexes = [byName]
/// ```
open class NSFetchIndexDescription: NSObject, @unchecked Sendable {
    // @unchecked Sendable: like every description, mutable only until the model is frozen.

    open var name: String { willSet { checkMutable() } }
    /// The indexed properties (or expressions), in index order.
    open var elements: [NSFetchIndexElementDescription] {
        willSet { checkMutable() }
        didSet { for element in elements { element.indexDescription = self } }
    }
    /// Only objects matching this predicate are indexed (a SQL partial index); `nil` indexes all.
    open var partialIndexPredicate: NSPredicate? { willSet { checkMutable() } }
    /// The entity whose ``NSEntityDescription/indexes`` holds this index.
    public internal(set) weak var entity: NSEntityDescription?

    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
        super.init()
        for element in self.elements { element.indexDescription = self }
    }

    func copyIndex() -> NSFetchIndexDescription {
        let copy = NSFetchIndexDescription(name: name, elements: elements.map { $0.copyElement() })
        copy.partialIndexPredicate = partialIndexPredicate
        return copy
    }

    func checkMutable(_ function: StaticString = #function) {
        if let model = entity?.managedObjectModel, model.isFrozen {
            preconditionFailure("Can't modify fetch index '\(name)' (\(function)): its model is in use by a persistent store coordinator and immutable. Copy the model (`model.copy()`) and change the copy.")
        }
    }

    public override var description: String {
        "(NSFetchIndexDescription) \(name): " + elements.map(\.description).joined(separator: ", ")
    }
}

/// How a store compares values in an index element (Apple's values).
public enum NSFetchIndexElementType: UInt, Sendable {
    /// An ordinary B-tree index.
    case binary = 0
    /// A spatial R-tree index, for ranges of numbers (e.g. latitude and longitude).
    case rTree = 1
}

/// One column of a fetch index: a property (or, in Xcode, an expression), its order and its
/// collation.
open class NSFetchIndexElementDescription: NSObject, @unchecked Sendable {
    /// The name this project used before it spelled the type as Apple does.
    public typealias CollationType = NSFetchIndexElementType

    /// The indexed property's name. Kept by name so the element follows its entity into copies
    /// of the model.
    public private(set) var propertyName: String?
    /// The indexed expression, for Xcode index elements written as an expression rather than a
    /// property (`expression="…"`); `nil` for property elements.
    public internal(set) var expression: NSExpression?
    open var collationType: CollationType { willSet { checkMutable() } }
    open var isAscending: Bool = true { willSet { checkMutable() } }
    /// The index this element belongs to.
    public internal(set) weak var indexDescription: NSFetchIndexDescription?

    /// The indexed property, looked up by name in the index's entity (and its superentities).
    open var property: NSPropertyDescription? {
        guard let propertyName else { return nil }
        return indexDescription?.entity?.propertiesByName[propertyName]
    }

    public init(property: NSPropertyDescription, collationType: CollationType) {
        self.propertyName = property.name
        self.collationType = collationType
        super.init()
    }

    /// An element for the property named `propertyName` (the Xcode loader builds elements before
    /// every property of the entity hierarchy exists).
    init(propertyName: String?, expression: NSExpression?, collationType: CollationType) {
        self.propertyName = propertyName
        self.expression = expression
        self.collationType = collationType
        super.init()
    }

    func copyElement() -> NSFetchIndexElementDescription {
        let copy = NSFetchIndexElementDescription(propertyName: propertyName, expression: expression, collationType: collationType)
        copy.isAscending = isAscending
        return copy
    }

    func checkMutable(_ function: StaticString = #function) {
        indexDescription?.checkMutable(function)
    }

    public override var description: String {
        let subject = propertyName ?? expression.map { "\($0)" } ?? "?"
        return "\(subject) \(isAscending ? "ascending" : "descending")\(collationType == .rTree ? " (R-tree)" : "")"
    }
}
