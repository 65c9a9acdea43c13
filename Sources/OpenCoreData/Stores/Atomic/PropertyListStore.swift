import Foundation

/// The built-in atomic stores: the whole object graph in one property-list file, binary
/// (``NSBinaryStoreType``) or XML (``NSXMLStoreType``), read in `load()` and rewritten
/// atomically (``AtomicFileWriter``) in `save()`.
///
/// ```swift
/// try coordinator.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: url)
/// ```
///
/// The file (see ``PropertyListStoreFormat``) keeps the metadata (type, UUID, model version
/// hashes) and, per entity, its records keyed by integer reference. Opening a file that is not
/// a property list, or is torn, throws `NSPersistentStoreOpenError` (134080); a property list of
/// the other format, another store type, or not a store at all, throws
/// `NSPersistentStoreTypeMismatchError` (134010); one made with another model throws
/// `NSPersistentStoreIncompatibleVersionHashError` (134100). The file is only read then.
class PropertyListStore: NSAtomicStore, @unchecked Sendable {
    // @unchecked Sendable: all data lives in NSAtomicStore, under its lock.
    class var format: PropertyListSerialization.PropertyListFormat { .binary }
    class var storeType: String { NSBinaryStoreType }

    override var type: String { Self.storeType }

    override func load() throws {
        guard let url, let model = persistentStoreCoordinator?.managedObjectModel else { return }
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CoreDataError.make(NSPersistentStoreOpenError, "Could not read the store at \(url.path): \(error.localizedDescription). Check that the file is readable.", [NSUnderlyingErrorKey: error, NSFilePathErrorKey: url.path])
        }
        if data.isEmpty { return }   // an empty file is a new store, as for SQLite
        let document = try PropertyListStoreFormat.Document(decoding: data, expecting: Self.format, storeType: type, url: url)
        metadata = document.metadata
        if let storedType = metadata[NSStoreTypeKey] as? String, storedType != type {
            throw CoreDataError.make(NSPersistentStoreTypeMismatchError, "\(url.path) is a '\(storedType)' store, not '\(type)'. Open it with addPersistentStore(ofType: \"\(storedType)\", ...).", [NSStoreTypeKey: storedType])
        }
        // Check the model before decoding values, so a store of another model fails as such.
        try StoreMetadataCheck.checkModel(of: self, against: model)
        try document.makeNodes(in: self, model: model)
    }

    /// The metadata of the store file at `url`, read without adding the store.
    override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try document(at: url).metadata
    }

    /// Replaces the application's metadata of the store file at `url`, rewriting the file
    /// atomically; the store's own keys (type, UUID, version hashes) are kept when `metadata`
    /// leaves them out, as for SQLite stores.
    override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        var document = try document(at: url)
        var updated = metadata ?? [:]
        for (key, value) in document.metadata where updated[key] == nil
            && (key == NSStoreTypeKey || key == NSStoreUUIDKey || key.hasPrefix("NSStoreModelVersion")) {
            updated[key] = value
        }
        guard PropertyListSerialization.propertyList(updated, isValidFor: format) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The metadata for \(url.path) holds values a property list cannot (use strings, numbers, dates, data, arrays and dictionaries); the store was left unchanged.", [NSFilePathErrorKey: url.path])
        }
        document.metadata = updated
        try AtomicFileWriter.write(try document.encoded(format: format), to: url)
    }

    private class func document(at url: URL) throws -> PropertyListStoreFormat.Document {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.make(NSFileReadNoSuchFileError, "There is no store at \(url.path).", [NSFilePathErrorKey: url.path])
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw CoreDataError.make(NSPersistentStoreOpenError, "Could not read the store at \(url.path): \(error.localizedDescription).", [NSUnderlyingErrorKey: error, NSFilePathErrorKey: url.path])
        }
        return try PropertyListStoreFormat.Document(decoding: data, expecting: format, storeType: storeType, url: url)
    }

    override func save() throws {
        guard let url else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "A \(type) store needs a file URL; add it with addPersistentStore(ofType:configurationName:at:options:) and a URL.")
        }
        let data = try PropertyListStoreFormat.Document.encode(cacheNodes(), metadata: metadata ?? [:], of: self, format: Self.format)
        try AtomicFileWriter.write(data, to: url)
    }
}

/// `NSBinaryStoreType`: a binary property list.
final class BinaryStore: PropertyListStore, @unchecked Sendable {
    override class var format: PropertyListSerialization.PropertyListFormat { .binary }
    override class var storeType: String { NSBinaryStoreType }
}

/// `NSXMLStoreType`: an XML property list.
final class XMLStore: PropertyListStore, @unchecked Sendable {
    override class var format: PropertyListSerialization.PropertyListFormat { .xml }
    override class var storeType: String { NSXMLStoreType }
}
