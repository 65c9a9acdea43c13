import Foundation

/// The version checksums of a versioned model, and the model versions a bundle holds.
///
/// ```swift
/// let checksums = try NSManagedObjectModel.checksumsForVersionedModel(at: modelURL)
/// // ["Model": "u970Qg…", "Model 2": "rzn6eN…"]
/// ```
extension NSManagedObjectModel {
    /// The version checksum of every version of the model at `modelURL`, keyed by version name.
    ///
    /// `modelURL` is a compiled `.momd` (its `VersionInfo.plist` is read, as on Apple platforms)
    /// or an Xcode `.xcdatamodeld` bundle, whose versions are loaded and their
    /// ``versionChecksum`` computed; a single `.xcdatamodel` answers its own version.
    ///
    /// - Throws: `NSFileReadNoSuchFileError` when there is no model at `modelURL`,
    ///   `NSFileReadCorruptFileError` when it is not one.
    /// Whether `hashes` (entity name → version hash, as a store's metadata keeps them) are this
    /// model's: OpenCoreData's own, or Apple's from its `VersionInfo.plist`.
    func hasEntityVersionHashes(_ hashes: [String: Data]) -> Bool {
        entityVersionHashesByName == hashes || appleEntityVersionHashesByName == hashes
    }

    public class func checksumsForVersionedModel(at modelURL: URL) throws -> [String: String] {
        if modelURL.pathExtension == "momd" {
            let info = try CompiledModelVersionInfo(contentsOf: modelURL)
            var checksums = info.versionChecksums
            // Older compilers wrote only the hashes; the checksum is their digest.
            for (version, hashes) in info.versionHashes where checksums[version] == nil {
                checksums[version] = versionChecksum(of: hashes)
            }
            return checksums
        }
        var checksums: [String: String] = [:]
        for version in try ModelVersionFile.versions(at: modelURL) {
            checksums[version.name] = try version.load().versionChecksum
        }
        return checksums
    }
}

/// One version of a model among a program's files: a `.xcdatamodel` folder, alone or in a
/// `.xcdatamodeld` bundle (with Apple's version hashes when a compiled `.momd` of the same name
/// lies beside the bundle), or a compiled `.mom`, alone or in a `.momd`; loaded on demand.
struct ModelVersionFile {
    /// The version's name ("Model 2" for `Model 2.xcdatamodel`).
    let name: String
    let url: URL

    func load() throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(contentsOf: url)
    }

    /// The versions of the model at `url`: every `.xcdatamodel` of a `.xcdatamodeld`, every
    /// `.mom` of a compiled `.momd`, or the one `.xcdatamodel` or `.mom` itself.
    static func versions(at url: URL) throws -> [ModelVersionFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw XcodeModelError.noSuchFile(url, "No model at '\(url.path)'. Pass the path of a .xcdatamodeld bundle, a .xcdatamodel folder or a compiled .momd.")
        }
        if url.pathExtension == "xcdatamodel" || url.pathExtension == "mom" {
            return [ModelVersionFile(name: url.deletingPathExtension().lastPathComponent, url: url)]
        }
        let versionExtension: String
        switch url.pathExtension {
        case "xcdatamodeld" where isDirectory.boolValue: versionExtension = ".xcdatamodel"
        case "momd" where isDirectory.boolValue: versionExtension = ".mom"
        default:
            throw XcodeModelError.corrupt(url, "'\(url.path)' is not a versioned model. Pass a .xcdatamodeld bundle, a .xcdatamodel folder or a compiled .momd.")
        }
        let children = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return children.filter { $0.hasSuffix(versionExtension) }.sorted().map {
            ModelVersionFile(name: ($0 as NSString).deletingPathExtension, url: url.appendingPathComponent($0, isDirectory: versionExtension == ".xcdatamodel"))
        }
    }

    /// The bundles a program's models are looked for in (`NSPersistentContainer(name:)`, staged
    /// and lightweight migration): the main bundle, the bundles loaded in the process, and the
    /// SwiftPM resource bundles (`*.resources`) beside the executable.
    static func programBundles() -> [Bundle] {
        var bundles = [Bundle.main] + Bundle.allBundles
        let folder = Bundle.main.bundleURL
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for entry in contents.sorted() where entry.hasSuffix(".resources") || entry.hasSuffix(".bundle") {
            if let bundle = Bundle(path: folder.appendingPathComponent(entry).path) { bundles.append(bundle) }
        }
        var seen = Set<String>()
        return bundles.filter { seen.insert($0.bundlePath).inserted }
    }

    /// Every model version among `bundles`' resources (see
    /// ``NSManagedObjectModel/modelPaths(in:)``), in a stable order.
    static func versions(in bundles: [Bundle]) -> [ModelVersionFile] {
        NSManagedObjectModel.modelPaths(in: bundles).flatMap { (try? versions(at: URL(fileURLWithPath: $0))) ?? [] }
    }
}
