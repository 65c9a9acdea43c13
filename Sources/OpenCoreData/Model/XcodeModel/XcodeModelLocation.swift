import Foundation

/// Where the model file of a model path is: resolves a `.xcdatamodeld` bundle to its current
/// version, a `.xcdatamodel` folder to its `contents` (or the Xcode 3 `elements` archive), a
/// compiled `.momd` folder to the `.mom` of its current version (from its `VersionInfo.plist`),
/// and accepts a `contents` XML file or a `.mom` given directly.
struct XcodeModelLocation {
    enum Format { case xml, legacyElementsArchive, compiled }

    /// The file to parse.
    let fileURL: URL
    let format: Format
    /// The version's name without `.xcdatamodel` ("Model 2"), when the path names one.
    let versionName: String?
    /// The `.xcdatamodeld` bundle, when the path is one.
    let bundleURL: URL?
    /// Notes about choosing the version (e.g. `.xccurrentversion` names a missing version).
    let warnings: [String]

    static func resolve(_ url: URL) throws -> XcodeModelLocation {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw XcodeModelError.noSuchFile(url, "No Xcode model at '\(url.path)'. Pass the path of a .xcdatamodeld bundle, a .xcdatamodel folder, or a model's 'contents' file.")
        }
        guard isDirectory.boolValue else {
            if url.pathExtension == "mom" {
                return compiledVersion(url)
            }
            if url.lastPathComponent == "VersionInfo.plist" {
                return try compiledModel(url.deletingLastPathComponent())
            }
            if url.pathExtension == "omo" {
                throw XcodeModelError.corrupt(url, "'\(url.path)' is the optimized form (.omo) of a compiled model, which OpenCoreData does not read. Pass the .momd folder or the .mom beside it: the same model in the keyed-archive form.")
            }
            let folder = url.deletingLastPathComponent()
            let versionName = folder.pathExtension == "xcdatamodel" ? folder.deletingPathExtension().lastPathComponent : nil
            let format: Format = url.lastPathComponent == "elements" ? .legacyElementsArchive : .xml
            return XcodeModelLocation(fileURL: url, format: format, versionName: versionName, bundleURL: nil, warnings: [])
        }
        if url.pathExtension == "momd" {
            return try compiledModel(url)
        }
        if let version = try versionFolder(url) {
            return version
        }
        // A bundle: the versions are the .xcdatamodel folders inside.
        let children = (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
        let versions = children.filter { $0.hasSuffix(".xcdatamodel") }
            .sorted { naturallyBefore(($0 as NSString).deletingPathExtension, ($1 as NSString).deletingPathExtension) }
        guard !versions.isEmpty else {
            throw XcodeModelError.noSuchFile(url, "'\(url.path)' is a folder with neither a 'contents' file nor any .xcdatamodel version inside. Pass a .xcdatamodeld bundle or a .xcdatamodel folder made by Xcode.")
        }
        var warnings: [String] = []
        var chosen = versions.last!
        if let current = currentVersionName(in: url) {
            if versions.contains(current) {
                chosen = current
            } else {
                warnings.append("The bundle's .xccurrentversion names '\(current)', which is not in the bundle; loaded '\(chosen)', the last version. Set the current version in Xcode.")
            }
        } else if versions.count > 1 {
            warnings.append("The bundle has no readable .xccurrentversion; loaded '\(chosen)', the last of \(versions.count) versions. Set the current version in Xcode.")
        }
        let versionURL = url.appendingPathComponent(chosen, isDirectory: true)
        guard let version = try versionFolder(versionURL) else {
            throw XcodeModelError.noSuchFile(versionURL, "The model version '\(chosen)' in '\(url.path)' has no 'contents' file. Open the model in Xcode and save it again.")
        }
        return XcodeModelLocation(fileURL: version.fileURL, format: version.format, versionName: version.versionName, bundleURL: url, warnings: warnings)
    }

    /// A `.mom` file: one compiled version, named by its file; its `.momd` folder, when it is in
    /// one, gives Apple's version hashes.
    private static func compiledVersion(_ url: URL) -> XcodeModelLocation {
        let folder = url.deletingLastPathComponent()
        let bundle = folder.pathExtension == "momd" && FileManager.default.fileExists(atPath: folder.appendingPathComponent("VersionInfo.plist").path) ? folder : nil
        return XcodeModelLocation(fileURL: url, format: .compiled, versionName: url.deletingPathExtension().lastPathComponent, bundleURL: bundle, warnings: [])
    }

    /// A compiled `.momd` folder: the `.mom` its `VersionInfo.plist` names current, or its only
    /// `.mom` when it has no `VersionInfo.plist`.
    private static func compiledModel(_ url: URL) throws -> XcodeModelLocation {
        let moms = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0.hasSuffix(".mom") }.sorted()
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("VersionInfo.plist").path) else {
            guard moms.count == 1 else {
                throw XcodeModelError.noSuchFile(url, "The compiled model '\(url.path)' has no VersionInfo.plist to say which of its \(moms.count) .mom files is current. Pass the .mom of the version you want, or compile the model again.")
            }
            return compiledVersion(url.appendingPathComponent(moms[0]))
        }
        let info = try CompiledModelVersionInfo(contentsOf: url)
        guard let current = info.currentVersionName else {
            throw XcodeModelError.corrupt(url.appendingPathComponent("VersionInfo.plist"), "The VersionInfo.plist of '\(url.path)' names no current version (NSManagedObjectModel_CurrentVersionName). Pass the .mom of the version you want, or compile the model again.")
        }
        let mom = url.appendingPathComponent(current + ".mom")
        guard FileManager.default.fileExists(atPath: mom.path) else {
            throw XcodeModelError.noSuchFile(mom, "The compiled model '\(url.path)' names '\(current)' as its current version, but has no '\(current).mom' (it has \(moms)). Compile the model again.")
        }
        return XcodeModelLocation(fileURL: mom, format: .compiled, versionName: current, bundleURL: url, warnings: [])
    }

    /// A folder holding `contents` (XML, Xcode 4 and later) or `elements` (Xcode 3 archive).
    private static func versionFolder(_ url: URL) throws -> XcodeModelLocation? {
        let fm = FileManager.default
        let name = url.pathExtension == "xcdatamodel" ? url.deletingPathExtension().lastPathComponent : nil
        let contents = url.appendingPathComponent("contents")
        if fm.fileExists(atPath: contents.path) {
            return XcodeModelLocation(fileURL: contents, format: .xml, versionName: name, bundleURL: nil, warnings: [])
        }
        let elements = url.appendingPathComponent("elements")
        if fm.fileExists(atPath: elements.path) {
            return XcodeModelLocation(fileURL: elements, format: .legacyElementsArchive, versionName: name, bundleURL: nil, warnings: [])
        }
        if url.pathExtension == "xcdatamodel" {
            throw XcodeModelError.corrupt(url, "The model version folder '\(url.path)' has no 'contents' file. Open the model in Xcode and save it again, or pass the folder that holds 'contents'.")
        }
        return nil
    }

    /// Orders version names as Xcode numbers them: "Model" < "Model 2" < "Model 10" (numbers by
    /// value, not by character; a name before its numbered successors).
    static func naturallyBefore(_ a: String, _ b: String) -> Bool {
        func chunks(_ s: String) -> [(text: String, number: Int?)] {
            var result: [(String, Int?)] = []
            var current = ""
            var inDigits = false
            for c in s {
                if !current.isEmpty && c.isASCII && c.isNumber != inDigits {
                    result.append((current, inDigits ? Int(current) : nil)); current = ""
                }
                inDigits = c.isASCII && c.isNumber
                current.append(c)
            }
            if !current.isEmpty { result.append((current, inDigits ? Int(current) : nil)) }
            return result
        }
        let x = chunks(a), y = chunks(b)
        for (p, q) in zip(x, y) {
            if let m = p.number, let n = q.number {
                if m != n { return m < n }
            } else if p.text != q.text {
                return p.text < q.text
            }
        }
        return x.count < y.count
    }

    /// `_XCCurrentVersionName` of the bundle's `.xccurrentversion` plist.
    private static func currentVersionName(in bundle: URL) -> String? {
        let url = bundle.appendingPathComponent(".xccurrentversion")
        guard let data = try? Data(contentsOf: url),
              let plist = try? UntrustedPropertyList.propertyList(from: data) as? [String: Any]
        else { return nil }
        return plist["_XCCurrentVersionName"] as? String
    }

    /// The compiled `Name.momd` beside a `Name.xcdatamodeld` bundle, when it holds a
    /// `VersionInfo.plist` (projects sometimes keep the compiled model next to the source).
    var siblingCompiledModel: URL? {
        guard let bundleURL else { return nil }
        if format == .compiled { return bundleURL }
        let name = bundleURL.deletingPathExtension().lastPathComponent
        let momd = bundleURL.deletingLastPathComponent().appendingPathComponent(name + ".momd")
        return FileManager.default.fileExists(atPath: momd.appendingPathComponent("VersionInfo.plist").path) ? momd : nil
    }
}
