import Foundation

/// The file of the built-in atomic stores, a property list:
///
/// ```
/// {
///   "OpenCoreDataAtomicStore": 1,                       // format version
///   "metadata": { "NSStoreType": "Binary", "NSStoreUUID": "…", "NSStoreModelVersionHashes": { "Employee": <data>, … } },
///   "entities": {
///     "Employee": [ { "_ref": 1, "firstName": "Ann", "salary": 300,
///                     "department": ["Department", 2],                      // to-one
///                     "projects": [["Project", 1], ["Project", 4]] } ],     // to-many
///     …
///   }
/// }
/// ```
///
/// Attributes are stored as property-list values by attribute type: integers, doubles and
/// booleans as numbers, dates as seconds since 2001-01-01 (an XML property-list date keeps
/// only whole seconds), strings and data as themselves, decimals, UUIDs and URIs as
/// strings, object-ID attributes as URI strings, transformable values as the data their value
/// transformer (`valueTransformerName`) makes, or as themselves when they are `Data`. A nil value has no key. Relationships name the related record by entity
/// and reference, so a subentity's records are found.
enum PropertyListStoreFormat {
    static let formatKey = "OpenCoreDataAtomicStore"
    static let formatVersion = 1
    static let referenceKey = "_ref"

    struct Document {
        var metadata: [String: Any]
        var entities: [String: [[String: Any]]]

        /// Parses a store file, or throws 134080 (not a property list: corrupt or torn) or
        /// 134010 (a property list of the other format, or not a store).
        init(decoding data: Data, expecting expected: PropertyListSerialization.PropertyListFormat, storeType: String, url: URL) throws {
            if data.starts(with: Array("SQLite format 3".utf8)) {
                throw CoreDataError.make(NSPersistentStoreTypeMismatchError, "\(url.path) is a SQLite store, not a '\(storeType)' store. Open it with NSSQLiteStoreType.", [NSStoreTypeKey: NSSQLiteStoreType])
            }
            var format = PropertyListSerialization.PropertyListFormat.binary
            let plist: Any
            do {
                plist = try UntrustedPropertyList.propertyList(from: data, format: &format)
            } catch {
                throw CoreDataError.make(NSPersistentStoreOpenError, "The store at \(url.path) is damaged or not a store file (it is not a readable property list: \(error.localizedDescription)). The file was not changed; restore it from a backup, or delete it to start over.", [NSUnderlyingErrorKey: error, NSFilePathErrorKey: url.path])
            }
            guard let root = plist as? [String: Any], root[formatKey] != nil,
                  let metadata = root["metadata"] as? [String: Any], let entities = root["entities"] as? [String: Any] else {
                throw CoreDataError.make(NSPersistentStoreTypeMismatchError, "\(url.path) is a property list but not a Core Data store file. Check the URL.", [NSFilePathErrorKey: url.path])
            }
            guard format == expected else {
                let actual = format == .xml ? NSXMLStoreType : NSBinaryStoreType
                throw CoreDataError.make(NSPersistentStoreTypeMismatchError, "\(url.path) is a '\(actual)' store, not '\(storeType)'. Open it with addPersistentStore(ofType: \"\(actual)\", ...).", [NSStoreTypeKey: actual])
            }
            self.metadata = metadata
            self.entities = [:]
            for (name, records) in entities {
                guard let records = records as? [[String: Any]] else { throw Self.damaged(url, "the records of '\(name)' are not a list") }
                self.entities[name] = records
            }
        }

        /// Creates and registers the store's cache nodes: all nodes first, then relationships.
        func makeNodes(in store: NSAtomicStore, model: NSManagedObjectModel) throws {
            let url = store.url ?? URL(fileURLWithPath: "/")
            var created: [(NSAtomicStoreCacheNode, [String: Any])] = []
            var byID: [NSManagedObjectID: NSAtomicStoreCacheNode] = [:]
            for (name, records) in entities {
                guard let entity = model.entitiesByName[name], let layout = entity.layout else {
                    throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError, "\(url.path) has records of entity '\(name)', which the model does not have. Open it with the model it was made with.")
                }
                for record in records {
                    guard let reference = record[referenceKey] else { throw Self.damaged(url, "a '\(name)' record has no reference") }
                    let node = NSAtomicStoreCacheNode(objectID: store.objectID(for: entity, withReferenceObject: Self.plainReference(reference)))
                    for i in layout.persistentIndexes {
                        guard let attribute = layout.properties[i] as? NSAttributeDescription, let value = record[attribute.name] else { continue }
                        node.setValue(try Self.decode(value, for: attribute, store: store, url: url), forKey: attribute.name)
                    }
                    created.append((node, record))
                    byID[node.objectID] = node
                }
            }
            for (node, record) in created {
                for case let relationship as NSRelationshipDescription in node.objectID.entity.layout!.properties where !relationship.isTransient {
                    guard let value = record[relationship.name] else { continue }
                    func target(_ pair: Any) throws -> NSAtomicStoreCacheNode {
                        guard let pair = pair as? [Any], pair.count == 2, let name = pair[0] as? String, let entity = model.entitiesByName[name],
                              let related = byID[store.objectID(for: entity, withReferenceObject: Self.plainReference(pair[1]))] else {
                            throw Self.damaged(url, "'\(node.objectID.entity.name ?? "?").\(relationship.name)' names a record that is not in the file")
                        }
                        return related
                    }
                    if !relationship.isToMany {
                        node.setValue(try target(value), forKey: relationship.name)
                    } else {
                        guard let pairs = value as? [Any] else { throw Self.damaged(url, "'\(relationship.name)' is not a list") }
                        let related = try pairs.map(target)
                        node.setValue(relationship.isOrdered ? related as Any : Set(related) as Any, forKey: relationship.name)
                    }
                }
            }
            store.addCacheNodes(Set(created.map(\.0)))
        }

        /// The file's bytes for `nodes`.
        static func encode(_ nodes: Set<NSAtomicStoreCacheNode>, metadata: [String: Any], of store: NSAtomicStore, format: PropertyListSerialization.PropertyListFormat) throws -> Data {
            var entities: [String: [[String: Any]]] = [:]
            for node in nodes.sorted(by: { ($0.objectID.entity.name ?? "", $0.objectID.primaryKey) < ($1.objectID.entity.name ?? "", $1.objectID.primaryKey) }) {
                let entity = node.objectID.entity
                var record: [String: Any] = [referenceKey: try plistReference(store.referenceObject(for: node.objectID), of: node)]
                for property in entity.layout?.properties ?? [] where !property.isTransient {
                    guard let value = node.value(forKey: property.name) else { continue }
                    switch property {
                    case let attribute as NSAttributeDescription:
                        if let encoded = try encode(value, for: attribute, of: node) { record[attribute.name] = encoded }
                    case let relationship as NSRelationshipDescription:
                        func pair(_ element: Any) throws -> [Any] {
                            let id = (element as? NSAtomicStoreCacheNode)?.objectID ?? (element as? NSManagedObjectID)
                            guard let id, id.persistentStore === store else {
                                throw CoreDataError.make(NSPersistentStoreSaveError, "'\(entity.name ?? "?").\(relationship.name)' of \(node.objectID.uriRepresentation().absoluteString) holds \(type(of: element)), not a node of this store. Relationships between stores are not supported; use fetched properties.")
                            }
                            return [id.entity.name ?? "", try plistReference(store.referenceObject(for: id), of: node)]
                        }
                        if !relationship.isToMany {
                            record[relationship.name] = try pair(value)
                        } else {
                            let elements: [Any]
                            switch value {
                            case let array as [NSAtomicStoreCacheNode]: elements = array
                            case let set as Set<NSAtomicStoreCacheNode>: elements = set.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
                            case let set as NSOrderedSet: elements = set.array
                            case let set as NSSet: elements = set.allObjects
                            case let array as [Any]: elements = array
                            default: elements = [value]
                            }
                            record[relationship.name] = try elements.map(pair)
                        }
                    default:
                        break
                    }
                }
                entities[entity.name ?? "", default: []].append(record)
            }
            let root: [String: Any] = [formatKey: formatVersion, "metadata": plistMetadata(metadata), "entities": entities]
            do {
                return try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
            } catch {
                throw CoreDataError.make(NSPersistentStoreSaveError, "Could not encode the store as a property list: \(error.localizedDescription).", [NSUnderlyingErrorKey: error])
            }
        }

        // MARK: Values

        private static func encode(_ value: Any, for attribute: NSAttributeDescription, of node: NSAtomicStoreCacheNode) throws -> Any? {
            switch StoredValue(value, for: attribute) {
            case .null: return nil
            case .integer(let i): return NSNumber(value: i)
            case .double(let d): return NSNumber(value: d)
            case .bool(let b): return NSNumber(value: b)
            case .string(let s): return s
            case .date(let d): return NSNumber(value: d.timeIntervalSinceReferenceDate)   // XML dates keep only seconds
            case .data(let d): return d
            case .decimal(let d): return NSDecimalNumber(decimal: d).stringValue
            case .uuid(let u): return u.uuidString
            case .url(let u): return u.absoluteString
            case .objectID(let id): return id.uriRepresentation().absoluteString
            case .objectIDs: return nil
            case .boxed(let box):
                if let composite = attribute as? NSCompositeAttributeDescription {
                    // A dictionary of the elements' property-list values.
                    guard let dictionary = box.value as? [String: Any] else {
                        throw CoreDataError.make(NSPersistentStoreSaveError, "Can't store the value of '\(node.objectID.entity.name ?? "?").\(attribute.name)': a composite attribute's value is a dictionary keyed by element names, not a \(type(of: box.value)).")
                    }
                    var encoded: [String: Any] = [:]
                    for element in composite.elements {
                        if let value = dictionary[element.name], let plist = try encode(value, for: element, of: node) { encoded[element.name] = plist }
                    }
                    return encoded
                }
                if let data = box.value as? Data, attribute.valueTransformerName == nil { return data }
                let name = attribute.valueTransformerName ?? "(none)"
                guard let transformer = transformer(of: attribute),
                      let data = transformer.storedData(for: box.value) else {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "Can't store the value of '\(node.objectID.entity.name ?? "?").\(attribute.name)' (\(type(of: box.value))): its value transformer '\(name)' is not registered or did not produce Data. Register a ValueTransformer that turns the value into Data and set the attribute's valueTransformerName.")
                }
                return data
            }
        }

        /// The transformer of a transformable attribute: the one registered under its name; for
        /// no name or Apple's keyed-archive names, the secure keyed-archive transformer (Apple's
        /// default since it deprecated the insecure ones).
        private static func transformer(of attribute: NSAttributeDescription) -> ValueTransformer? {
            let defaults = [NSValueTransformerName.secureUnarchiveFromDataTransformerName, .keyedUnarchiveFromDataTransformerName, .unarchiveFromDataTransformerName].map(\.rawValue)
            guard let name = attribute.valueTransformerName, !name.isEmpty, !defaults.contains(name) else {
                return ValueTransformer.registered(.secureUnarchiveFromDataTransformerName)
            }
            return ValueTransformer.registered(NSValueTransformerName(name))
        }

        private static func decode(_ value: Any, for attribute: NSAttributeDescription, store: NSAtomicStore, url: URL) throws -> Any? {
            let stored: StoredValue
            switch (attribute.attributeType, value) {
            case (.decimalAttributeType, let s as String):
                guard let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")) else { throw damaged(url, "'\(attribute.name)' holds '\(s)', not a decimal number") }
                stored = .decimal(d)
            case (.UUIDAttributeType, let s as String):
                guard let u = UUID(uuidString: s) else { throw damaged(url, "'\(attribute.name)' holds '\(s)', not a UUID") }
                stored = .uuid(u)
            case (.dateAttributeType, let n as NSNumber):
                stored = .date(Date(timeIntervalSinceReferenceDate: n.doubleValue))
            case (.URIAttributeType, let s as String):
                guard let u = URL(string: s) else { throw damaged(url, "'\(attribute.name)' holds '\(s)', not a URI") }
                stored = .url(u)
            case (.objectIDAttributeType, let s as String):
                guard let uri = URL(string: s), let id = store.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri) else { return nil }
                stored = .objectID(id)
            case (.compositeAttributeType, let encoded as [String: Any]):
                guard let composite = attribute as? NSCompositeAttributeDescription else { return nil }
                var dictionary: [String: Any] = [:]
                for element in composite.elements {
                    if let plist = encoded[element.name], let value = try decode(plist, for: element, store: store, url: url) { dictionary[element.name] = value }
                }
                return dictionary.isEmpty ? nil : dictionary
            case (.transformableAttributeType, let data as Data):
                // No transformer name: the value was Data and was stored as is.
                guard let transformerName = attribute.valueTransformerName else {
                    // No transformer name: Data stored as is, or a value the default transformer archived.
                    return transformer(of: attribute)?.value(fromStored: data) ?? data
                }
                guard let transformer = transformer(of: attribute),
                      let original = transformer.value(fromStored: data) else {
                    throw damaged(url, "the value transformer '\(transformerName)' of '\(attribute.name)' is not registered or could not read the stored data")
                }
                return original
            default:
                stored = StoredValue(value, for: attribute)
                if case .boxed = stored { throw damaged(url, "'\(attribute.name)' holds a \(type(of: value)), not a \(attribute.attributeType) value") }
            }
            return stored.publicValue(for: attribute)
        }

        /// References are written as property-list values: integers (the built-in stores' own)
        /// or strings.
        private static func plistReference(_ reference: Any, of node: NSAtomicStoreCacheNode) throws -> Any {
            if let i = reference as? Int { return NSNumber(value: i) }
            if let s = reference as? String { return s }
            if let n = reference as? NSNumber { return n }
            throw CoreDataError.make(NSPersistentStoreSaveError, "The reference object of \(node.objectID.uriRepresentation().absoluteString) is a \(type(of: reference)); a property-list store can write only integer or string references.")
        }

        /// Integer references come back as `Int`, whatever number type the file decoder made.
        private static func plainReference(_ reference: Any) -> Any {
            if let s = reference as? String { return s }
            if let n = reference as? NSNumber, let i = Int(exactly: n.doubleValue) { return i }
            if let i = reference as? Int { return i }
            return reference
        }

        /// The metadata entries a property list can hold (others are not saved).
        /// The file again, with ``metadata`` as it is now and the records as they were read.
        func encoded(format: PropertyListSerialization.PropertyListFormat) throws -> Data {
            let root: [String: Any] = [formatKey: formatVersion, "metadata": Self.plistMetadata(metadata), "entities": entities]
            return try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
        }

        private static func plistMetadata(_ metadata: [String: Any]) -> [String: Any] {
            func plist(_ value: Any) -> Any? {
                switch value {
                case is String, is Date, is Data, is Bool, is Int, is Double, is NSNumber: return value
                case let dictionary as [String: Any]: return dictionary.compactMapValues(plist)
                case let array as [Any]: return array.compactMap(plist)
                default: return nil
                }
            }
            return metadata.compactMapValues(plist)
        }

        private static func damaged(_ url: URL, _ detail: String) -> NSError {
            CoreDataError.make(NSPersistentStoreOpenError, "The store at \(url.path) is damaged: \(detail). The file was not changed; restore it from a backup.", [NSFilePathErrorKey: url.path])
        }
    }
}
