import Foundation

// The Foundation classes Xcode's generated subclasses declare: `NSNumber?` for a number that
// is not a scalar, `NSDecimalNumber?` for a decimal, `NSSet?` and `NSOrderedSet?` for to-many
// relationships. `@ManagedProperty` and `@Managed` take them as Xcode declares them:
//
//     @ManagedProperty var rating: NSNumber?
//     @ManagedProperty var price: NSDecimalNumber?
//     @ManagedProperty var tags: NSSet?
//     @ManagedProperty var chapters: NSOrderedSet?

extension NSNumber: ManagedPropertyValue {
    /// The attribute's value as an `NSNumber` of its type's width (an `NSDecimalNumber` for a
    /// decimal); zero where a non-optional property reads nil.
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        let number: NSNumber
        switch object.readStored(slot) {
        case .decimal(let d): number = NSDecimalNumber(decimal: d)
        default: number = object.publicValue(slot: slot) as? NSNumber ?? NSNumber(value: 0)
        }
        if Self.self == NSDecimalNumber.self, !(number is NSDecimalNumber) {
            return NSDecimalNumber(decimal: number.decimalValue) as! Self
        }
        guard let typed = number as? Self else {
            preconditionFailure("@Managed var \(object.layout.properties[slot].name): a \(Self.self) property can't hold the attribute's NSNumber; declare it NSNumber.")
        }
        return typed
    }

    public static func write(_ value: NSNumber, to object: NSManagedObject, slot: Int) {
        object.writeAttribute(value, slot: slot)
    }
}

extension NSURL: ManagedPropertyValue {
    /// A URI attribute's value (or a transformable one's) as `NSURL`, as Xcode declares a URI
    /// attribute that is not a scalar.
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        let url: NSURL?
        switch object.readStored(slot) {
        case .url(let u): url = NSURL(string: u.absoluteString)
        case .boxed(let box): url = (box.value as? NSURL) ?? (box.value as? URL).flatMap { NSURL(string: $0.absoluteString) }
        default: url = nil
        }
        guard let typed = (url ?? NSURL(string: "about:blank")) as? Self else {
            preconditionFailure("@Managed var \(object.layout.properties[slot].name): declare the URI property as NSURL or URL, not \(Self.self).")
        }
        return typed
    }

    public static func write(_ value: NSURL, to object: NSManagedObject, slot: Int) {
        object.writeAttribute(URL(string: value.absoluteString ?? ""), slot: slot)
    }
}

extension NSSet: ManagedPropertyValue {
    /// The relationship's members, as a snapshot (use `mutableSetValue(forKey:)` or the
    /// generated `addTo…` accessors to change them in place).
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        guard let set = NSSet(array: object.readToMany(slot).objects) as? Self else {
            preconditionFailure("@Managed var \(object.layout.properties[slot].name): declare the to-many property as NSSet, not \(Self.self).")
        }
        return set
    }

    public static func write(_ value: NSSet, to object: NSManagedObject, slot: Int) {
        object.replaceToMany(slot: slot, withElements: value.allObjects)
    }
}

extension NSOrderedSet: ManagedPropertyValue {
    /// The ordered relationship's members, as a snapshot (see `NSSet`'s).
    public static func read(from object: NSManagedObject, slot: Int) -> Self {
        guard let set = NSOrderedSet(array: object.readToMany(slot).objects) as? Self else {
            preconditionFailure("@Managed var \(object.layout.properties[slot].name): declare the to-many property as NSOrderedSet, not \(Self.self).")
        }
        return set
    }

    public static func write(_ value: NSOrderedSet, to object: NSManagedObject, slot: Int) {
        object.replaceToMany(slot: slot, withElements: value.array)
    }
}

extension NSManagedObject {
    /// Replaces the members of the to-many relationship in `slot` with the elements of a
    /// Foundation collection, which must be managed objects.
    func replaceToMany(slot: Int, withElements elements: [Any]) {
        guard let r = layout.properties[slot] as? NSRelationshipDescription else { return }
        replaceToMany(r, slot: slot, with: Self.objects(in: elements, for: r, of: self))
    }
}
