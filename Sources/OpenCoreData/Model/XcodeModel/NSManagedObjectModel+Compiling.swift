import Foundation

extension NSManagedObjectModel {
    /// Compiles the Xcode model at `source` into a `.momd` folder at `destination`, as Xcode's
    /// model compiler does for an app: one `.mom` per version and a `VersionInfo.plist` naming
    /// the current version, with each version's entity hashes and checksum. An OpenCoreData
    /// addition (`ocd compile` runs it), so a Linux-only project can ship compiled models too.
    ///
    /// ```swift
    /// try NSManagedObjectModel.compileModel(at: URL(fileURLWithPath: "Company.xcdatamodeld"),
    ///                                       to: URL(fileURLWithPath: "Company.momd"))
    /// let model = NSManagedObjectModel(contentsOf: URL(fileURLWithPath: "Company.momd"))
    /// ```
    ///
    /// The `.mom` files are keyed archives of Apple's model classes with the keys Apple's
    /// framework reads; `NSManagedObjectModel(contentsOf:)` reads them back as the source loads.
    /// The hashes in `VersionInfo.plist` are OpenCoreData's own (Apple's algorithm is
    /// undocumented), marked as such so that they are not taken for Apple's.
    ///
    /// - Parameters:
    ///   - source: a `.xcdatamodeld` bundle (every version is compiled) or a `.xcdatamodel` folder.
    ///   - destination: the `.momd` folder to write; created if missing, its files replaced.
    /// - Throws: the loader's errors for `source` (260, 259, 256); `NSFileWriteUnknownError`
    ///   (512) when a version holds what has no archived form (a block predicate, a default
    ///   value Foundation can't archive), naming it, or when the folder can't be written.
    public static func compileModel(at source: URL, to destination: URL) throws {
        let versions = try ModelVersionFile.versions(at: source)
        guard !versions.isEmpty else {
            throw XcodeModelError.noSuchFile(source, "'\(source.path)' holds no model version to compile. Pass a .xcdatamodeld bundle or a .xcdatamodel folder.")
        }
        let current = try XcodeModelLocation.resolve(source).versionName ?? versions.last!.name
        var archives: [(String, Data)] = []
        var hashes: [String: [String: Data]] = [:]
        var checksums: [String: String] = [:]
        for version in versions {
            let model = try version.load()
            var encoder = ArchivedModelEncoder(model)
            do { archives.append((version.name + ".mom", try encoder.archive())) } catch let failure as ArchivedModelEncoder.Failure {
                throw XcodeModelError.unwritable(destination, "Can't compile version '\(version.name)' of '\(source.path)': \(failure).")
            }
            hashes[version.name] = model.entityVersionHashesByName
            checksums[version.name] = model.versionChecksum
        }
        let info: [String: Any] = [
            CompiledModelVersionInfo.currentVersionKey: current,
            CompiledModelVersionInfo.versionHashesKey: hashes,
            CompiledModelVersionInfo.versionChecksumsKey: checksums,
            CompiledModelVersionInfo.hashSchemeKey: CompiledModelVersionInfo.openCoreDataHashScheme,
        ]
        do {
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            for (name, data) in archives { try data.write(to: destination.appendingPathComponent(name), options: .atomic) }
            let plist = try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0)
            try plist.write(to: destination.appendingPathComponent("VersionInfo.plist"), options: .atomic)
        } catch {
            throw XcodeModelError.unwritable(destination, "Can't write the compiled model to '\(destination.path)': \(error.localizedDescription). Check that the folder can be written.", underlying: error)
        }
    }
}
