import Foundation

/// The `VersionInfo.plist` of a compiled model (`Name.momd/`): which version is current, and
/// the entity version hashes Apple's model compiler computed for every version.
///
/// ```swift
/// let info = try CompiledModelVersionInfo(contentsOf: URL(fileURLWithPath: "Model.momd"))
/// let hashes = info.entityVersionHashes(forVersion: "Model 2")   // ["Car": 32 bytes, ...]
/// ```
///
/// Those hashes are the ones Apple's Core Data writes into a store's metadata
/// (`NSStoreModelVersionHashes`). OpenCoreData cannot compute Apple's bytes itself (the
/// algorithm is undocumented), so a store made by Apple is matched to a model by these.
public struct CompiledModelVersionInfo: Sendable {
    /// `NSManagedObjectModel_CurrentVersionName`: the version a `.momd` loads by default.
    public let currentVersionName: String?
    /// `NSManagedObjectModel_VersionHashes`: version name → entity name → 32-byte hash.
    public let versionHashes: [String: [String: Data]]
    /// `NSManagedObjectModel_VersionChecksums`: version name → Apple's model checksum (base64).
    public let versionChecksums: [String: String]
    /// Whether `ocd compile` wrote this file: its hashes and checksums are then OpenCoreData's
    /// own, not Apple's.
    public let isCompiledByOpenCoreData: Bool

    static let currentVersionKey = "NSManagedObjectModel_CurrentVersionName"
    static let versionHashesKey = "NSManagedObjectModel_VersionHashes"
    static let versionChecksumsKey = "NSManagedObjectModel_VersionChecksums"
    /// Written by `ocd compile` beside Apple's keys: whose hashes these are.
    static let hashSchemeKey = "OCDVersionHashScheme"
    static let openCoreDataHashScheme = "OpenCoreData"

    /// Reads `url`, which is a `.momd` folder or its `VersionInfo.plist`.
    ///
    /// Throws `NSFileReadNoSuchFileError` when there is no `VersionInfo.plist`, and
    /// `NSFileReadCorruptFileError` when it is not a property list of the expected shape.
    public init(contentsOf url: URL) throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        let plistURL = isDirectory.boolValue ? url.appendingPathComponent("VersionInfo.plist") : url
        guard exists, FileManager.default.fileExists(atPath: plistURL.path) else {
            throw XcodeModelError.noSuchFile(plistURL, "No VersionInfo.plist at '\(plistURL.path)'. Pass a compiled model folder (.momd) made by Xcode, or its VersionInfo.plist.")
        }
        let data: Data
        do { data = try Data(contentsOf: plistURL) } catch {
            throw XcodeModelError.unreadable(plistURL, "Could not read '\(plistURL.path)': \(error.localizedDescription). Check that the file is readable.", underlying: error)
        }
        let plist: [String: Any]
        do {
            guard let dict = try UntrustedPropertyList.propertyList(from: data) as? [String: Any] else {
                throw XcodeModelError.corrupt(plistURL, "'\(plistURL.path)' is a property list but not a dictionary; a VersionInfo.plist made by Xcode is one.")
            }
            plist = dict
        } catch where (error as NSError).userInfo[NSFilePathErrorKey] != nil {
            throw error // ours, from the guard above
        } catch {
            throw XcodeModelError.corrupt(plistURL, "'\(plistURL.path)' is not a property list (\(error.localizedDescription)). Pass the VersionInfo.plist of a .momd made by Xcode.", underlying: error)
        }
        currentVersionName = plist[Self.currentVersionKey] as? String
        var hashes: [String: [String: Data]] = [:]
        for case let (version, entities as [String: Any]) in (plist[Self.versionHashesKey] as? [String: Any]) ?? [:] {
            hashes[version] = entities.compactMapValues { $0 as? Data }
        }
        versionHashes = hashes
        versionChecksums = ((plist[Self.versionChecksumsKey] as? [String: Any]) ?? [:]).compactMapValues { $0 as? String }
        isCompiledByOpenCoreData = plist[Self.hashSchemeKey] as? String == Self.openCoreDataHashScheme
    }

    /// The entity hashes of `version` ("Model 2"); the current version's when `version` is nil.
    public func entityVersionHashes(forVersion version: String?) -> [String: Data]? {
        guard let name = version ?? currentVersionName else { return nil }
        return versionHashes[name]
    }
}
