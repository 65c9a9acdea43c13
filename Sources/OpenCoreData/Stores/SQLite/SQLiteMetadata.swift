import Foundation

/// The store metadata row (`Z_METADATA`): the store UUID in `Z_UUID` and a binary property list
/// of the other keys in `Z_PLIST`, as Apple's framework writes them.
///
/// ```swift
/// let plist = SQLiteMetadata.plist(for: model, configuration: nil)
/// try db.run("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
///            [.text(uuid), .blob(try SQLiteMetadata.encode(plist))])
/// ```
///
/// Version hashes: Apple's byte layout of entity version hashes is undocumented and could not
/// be reproduced, so the hashes we write are our own function of the same inputs
/// (`NSEntityDescription.versionHash`). ``hashSchemeKey`` marks a store written this way, so that
/// on open we compare hashes only when they were made by the same function, and compare a store
/// Apple's framework wrote with the model structurally (see `SQLiteStore.checkCompatibility`).
enum SQLiteMetadata {
    /// Marks metadata whose version hashes were computed by OpenCoreData (value: scheme number).
    static let hashSchemeKey = "OpenCoreDataVersionHashScheme"
    static let hashScheme = 1

    /// The metadata keys of a new store made with `model`.
    ///
    /// A model loaded with its `VersionInfo.plist` knows Apple's hashes for all its entities:
    /// those are written, without ``hashSchemeKey``, so that Apple's framework recognises the
    /// store as made with that model version (after a migration, say). Otherwise our own
    /// hashes are written, marked with ``hashSchemeKey``.
    static func plist(for model: NSManagedObjectModel, entities: [NSEntityDescription]) -> [String: Any] {
        var hashes: [String: Data] = [:]
        for e in entities { if let name = e.name { hashes[name] = e.versionHash } }
        let apple = model.appleEntityVersionHashesByName.flatMap { apple in
            hashes.keys.allSatisfy { apple[$0] != nil } ? hashes.keys.reduce(into: [String: Data]()) { $0[$1] = apple[$1] } : nil
        }
        let written = apple ?? hashes
        var plist: [String: Any] = [
            NSStoreTypeKey: NSSQLiteStoreType,
            NSStoreModelVersionHashesKey: written,
            "NSStoreModelVersionHashesVersion": 3,
            NSStoreModelVersionIdentifiersKey: model.versionIdentifiers.map { "\($0)" }.sorted(),
            NSPersistentStoreModelVersionChecksumKey: NSManagedObjectModel.versionChecksum(of: written),
            "NSPersistenceFrameworkVersion": 1,
            "_NSAutoVacuumLevel": "2",
        ]
        if apple == nil { plist[hashSchemeKey] = hashScheme }
        return plist
    }

    /// Writes `metadata` into `db`'s `Z_METADATA` row: its `NSStoreUUIDKey` (else
    /// `fallbackUUID`) in `Z_UUID`, the rest as a binary property list in `Z_PLIST`. Throws
    /// `invalid()` when the rest holds values a property list cannot.
    static func write(_ metadata: [String: Any], fallbackUUID: @autoclosure () -> String, to db: SQLiteConnection, invalid: () -> NSError) throws {
        var plist = metadata
        let uuid = plist[NSStoreUUIDKey] as? String ?? fallbackUUID()
        plist[NSStoreUUIDKey] = nil
        guard PropertyListSerialization.propertyList(plist, isValidFor: .binary) else { throw invalid() }
        try db.run("UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ?", [.text(uuid), .blob(try encode(plist))])
    }

    static func encode(_ plist: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// Whether `key` is one the store writes for itself (type, UUID, the model's version hashes
    /// and identifiers, framework keys), not one of the application's.
    static func isStoreKey(_ key: String) -> Bool {
        key.hasPrefix("_NS") || StoreMetadataCheck.isStoreKey(key, storeKeys: [hashSchemeKey])
    }

    /// The store UUID and metadata dictionary of `db`'s `Z_METADATA` row; nil when there is no
    /// row or its `Z_PLIST` is not a property list dictionary.
    static func read(from db: SQLiteConnection) throws -> (uuid: String?, plist: [String: Any])? {
        let rows = try db.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") { ($0.text(at: 0), $0.blob(at: 1)) }
        guard let (uuid, data) = rows.first, let data, let plist = decode(data) else { return nil }
        return (uuid, plist)
    }

    /// The metadata dictionary in `data`, or nil if it is not a property list dictionary.
    static func decode(_ data: Data) -> [String: Any]? {
        (try? UntrustedPropertyList.propertyList(from: data)) as? [String: Any]
    }
}
