import Foundation

extension NSManagedObjectModel {
    /// The model's problems, one sentence each, naming the entity and property and saying what to
    /// fix. Empty when the model is usable.
    ///
    /// ```swift
    /// for problem in model.validationProblems() { print(problem) }
    /// ```
    public func validationProblems() -> [String] {
        // An inheritance cycle makes every walk up the hierarchy endless (inherited properties,
        // isKindOf), so it is reported alone.
        for entity in entities {
            var visited: Set<ObjectIdentifier> = [ObjectIdentifier(entity)]
            var current = entity.superentity
            while let e = current {
                guard visited.insert(ObjectIdentifier(e)).inserted else {
                    return ["Entity '\(entity.name ?? "?")' inherits from itself (through '\(e.name ?? "?")'). Remove one of the subentity links."]
                }
                current = e.superentity
            }
        }
        var problems: [String] = []
        var seen = Set<String>()
        for configuration in configurations where !Self.isIdentifier(configuration) {
            problems.append("Configuration name '\(configuration)' is not allowed. \(Self.identifierRule)")
        }
        for entity in entities {
            guard let name = entity.name, !name.isEmpty else {
                problems.append("An entity has no name. Give every entity a name.")
                continue
            }
            guard Self.isIdentifier(name) else {
                // Its properties are not checked: every message about them would repeat the name.
                problems.append("Entity name '\(name)' is not allowed. \(Self.identifierRule)")
                continue
            }
            for index in entity.indexes where !Self.isIdentifier(index.name) {
                problems.append("Fetch index '\(index.name)' of entity '\(name)' has a name that is not allowed. \(Self.identifierRule)")
            }
            if !seen.insert(name).inserted { problems.append("Two entities are named '\(name)'. Entity names must be unique.") }
            if let sup = entity.superentity, !entities.contains(where: { $0 === sup }) {
                problems.append("Entity '\(name)' inherits from '\(sup.name ?? "?")', which is not in this model. Add it to the model's entities.")
            }
            let className = entity.managedObjectClassName ?? "NSManagedObject"
            if ManagedObjectClassResolver.resolve(className) == nil {
                problems.append("Entity '\(name)' names class '\(className)', which is not an NSManagedObject subclass this program contains. Use \"Module.ClassName\" of a class that inherits from NSManagedObject.")
            }
            for constraint in entity.uniquenessConstraints {
                for case let key as String in constraint {
                    let head = String(key.prefix { $0 != "." })
                    if entity.propertiesByName[head] is NSCompositeAttributeDescription {
                        problems.append("Uniqueness constraint '\(key)' of entity '\(name)' names a composite attribute, which OpenCoreData can't constrain yet. Constrain other attributes.")
                    }
                }
            }
            var names = Set<String>()
            for p in entity.allProperties where !names.insert(p.name).inserted {
                problems.append("Entity '\(name)' has two properties named '\(p.name)' (possibly one inherited). Rename one.")
            }
            for p in entity.properties {
                if p.name.isEmpty {
                    problems.append("Entity '\(name)' has a property without a name.")
                } else if !Self.isIdentifier(p.name) {
                    problems.append("Property name '\(name).\(p.name)' is not allowed. \(Self.identifierRule)")
                } else if Self.reservedPropertyNames.contains(p.name) {
                    problems.append("Property name '\(name).\(p.name)' is reserved: it is the name of an NSManagedObject or NSObject member. Rename the property.")
                }
                if let derived = p as? NSDerivedAttributeDescription {
                    do { _ = try Derivation(derived, of: entity) } catch let unsupported as Derivation.Unsupported { problems.append(unsupported.problem) } catch {}
                }
                if let composite = p as? NSCompositeAttributeDescription {
                    problems += Self.problems(of: composite, in: name)
                }
                if let a = p as? NSAttributeDescription, a.attributeType == .undefinedAttributeType, !a.isTransient {
                    problems.append("Attribute '\(name).\(a.name)' has no type (undefined). Set attributeType, or make it transient.")
                }
                guard let r = p as? NSRelationshipDescription else { continue }
                guard let dest = r.destinationEntity ?? r.destinationEntityName.flatMap({ entitiesByName[$0] }) else {
                    problems.append("Relationship '\(name).\(r.name)' has no destination entity\(r.destinationEntityName.map { " ('\($0)' is not in the model)" } ?? ""). Set destinationEntity.")
                    continue
                }
                if !entities.contains(where: { $0 === dest }) {
                    problems.append("Relationship '\(name).\(r.name)' points to entity '\(dest.name ?? "?")', which is not in this model.")
                }
                if let inv = r.inverseRelationship {
                    guard let inverseOwner = inv.entity else {
                        problems.append("Relationship '\(name).\(r.name)' has inverse '\(inv.name)', which belongs to no entity. Add it to the properties of '\(dest.name ?? "?")'.")
                        continue
                    }
                    if !dest.isKindOf(entity: inverseOwner) && !inverseOwner.isKindOf(entity: dest) {
                        problems.append("Relationship '\(name).\(r.name)' has inverse '\(inv.entity?.name ?? "?").\(inv.name)', which is not a relationship of its destination '\(dest.name ?? "?")'.")
                    } else if let back = inv.destinationEntity, !entity.isKindOf(entity: back) {
                        problems.append("Relationship '\(name).\(r.name)' has inverse '\(inv.entity?.name ?? "?").\(inv.name)', but that inverse points to '\(back.name ?? "?")', not to '\(name)'. Make the two relationships point at each other.")
                    }
                } else if let invName = r.inverseName {
                    problems.append("Relationship '\(name).\(r.name)' names inverse '\(invName)', which '\(dest.name ?? "?")' does not have.")
                }
                if r.minCount < 0 || r.maxCount < 0 || (r.maxCount > 0 && r.minCount > r.maxCount) {
                    problems.append("Relationship '\(name).\(r.name)' has minCount \(r.minCount) and maxCount \(r.maxCount); need 0 ≤ minCount ≤ maxCount (maxCount 0 = unlimited).")
                }
            }
        }
        return problems
    }

    /// What Apple's framework refuses in a composite attribute (it raises when the elements are
    /// set): element types it cannot store, a default that is not a dictionary, nesting that
    /// never ends; and what would make the value ambiguous, two elements of one name.
    static func problems(of composite: NSCompositeAttributeDescription, in entity: String) -> [String] {
        var problems: [String] = []
        if let value = composite.defaultValue, !(value is [String: Any]) {
            problems.append("Composite attribute '\(entity).\(composite.name)' has a default value of type \(type(of: value)); a composite's default value must be a dictionary keyed by element names.")
        }
        func check(_ c: NSCompositeAttributeDescription, _ path: String, depth: Int) {
            guard depth <= NSCompositeAttributeDescription.maximumDepth else {
                problems.append("Composite attribute '\(entity).\(composite.name)' nests composites more than \(NSCompositeAttributeDescription.maximumDepth) deep (a composite may not contain itself).")
                return
            }
            var names = Set<String>()
            for element in c.elements {
                let qualified = "'\(entity).\(path).\(element.name)'"
                if !isIdentifier(element.name) {
                    problems.append("Composite element name \(qualified) is not allowed. \(identifierRule)")
                } else if !names.insert(element.name).inserted {
                    problems.append("Composite attribute '\(entity).\(path)' has two elements named '\(element.name)'. Rename one.")
                }
                if let nested = element as? NSCompositeAttributeDescription {
                    check(nested, path + "." + element.name, depth: depth + 1)
                    continue
                }
                switch element.attributeType {
                case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
                    problems.append("Composite element \(qualified) has type \(element.attributeType), which a composite can't hold. Use another type.")
                case .binaryDataAttributeType where element.allowsExternalBinaryDataStorage:
                    problems.append("Composite element \(qualified) allows external storage, which a composite can't hold. Turn it off.")
                default:
                    break
                }
            }
        }
        check(composite, composite.name, depth: 1)
        return problems
    }

    /// Whether `name` may name an entity, property, configuration or fetch index: a letter, then
    /// letters, digits and underscores (ASCII), as Xcode's model editor requires. The SQLite store
    /// builds table, column and index names from these, so nothing else may reach its SQL.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, first.isASCIILetter else { return false }
        return name.utf8.allSatisfy { $0.isASCIILetter || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") }
    }

    static let identifierRule = "Names start with a letter (A–Z, a–z) followed by letters, digits or underscores, as in Xcode's model editor."

    /// Names a property may not have because an `NSManagedObject` member without parameters has
    /// them already (Apple: "a property name cannot be the same as any no-parameter method name of
    /// NSObject or NSManagedObject"); key-value coding would reach the member, not the property.
    static let reservedPropertyNames: Set<String> = [
        "description", "debugDescription", "hash", "self", "class", "superclass",
        "entity", "objectID", "managedObjectContext", "isFault", "faultingState", "isInserted",
        "isUpdated", "isDeleted", "hasChanges", "hasPersistentChangedValues", "changedValues",
        "changedValuesForCurrentEvent",
    ]

    /// Throws an `NSError` (NSCoreDataError, 134060) listing ``validationProblems()``.
    public func validate() throws {
        let problems = validationProblems()
        guard !problems.isEmpty else { return }
        throw CoreDataError.make(NSCoreDataError, "The managed object model is not valid: " + problems.joined(separator: " "), ["NSValidationProblems": problems])
    }
}

private extension UInt8 {
    var isASCIILetter: Bool { (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z")) }
}
