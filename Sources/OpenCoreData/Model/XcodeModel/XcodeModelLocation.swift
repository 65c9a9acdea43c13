import Foundation

/// Where the model file of an Xcode model path is: resolves a `.xcdatamodeld` bundle to its
/// current version, a `.xcdatamodel` folder to its `contents` (or the Xcode 3 `elements`
/// archive), and accepts a `contents` XML file given directly.
struct XcodeModelLocation {
    enum Format { case xml, legacyElementsArchive }

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
            if url.pathExtension == "mom" || url.pathExtension == "omo" || url.lastPathComponent == "VersionInfo.plist" {
                throw XcodeModelError.corrupt(url, "'\(url.path)' is part of a compiled model (.momd), whose format Apple does not document. Load the Xcode source model (.xcdatamodeld) instead; pass the .momd as versionInfo to get Apple's version hashes.")
            }
            let folder = url.deletingLastPathComponent()
            let versionName = folder.pathExtension == "xcdatamodel" ? folder.deletingPathExtension().lastPathComponent : nil
            let format: Format = url.lastPathComponent == "elements" ? .legacyElementsArchive : .xml
            return XcodeModelLocation(fileURL: url, format: format, versionName: versionName, bundleURL: nil, warnings: [])
        }
        if url.pathExtension == "momd" {
            throw XcodeModelError.corrupt(url, "'\(url.path)' is a compiled model (.momd), whose format Apple does not document. Load the Xcode source model (.xcdatamodeld) it was compiled from, and pass this .momd as versionInfo to get Apple's version hashes.")
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
        let name = bundleURL.deletingPathExtension().lastPathComponent
        let momd = bundleURL.deletingLastPathComponent().appendingPathComponent(name + ".momd")
        return FileManager.default.fileExists(atPath: momd.appendingPathComponent("VersionInfo.plist").path) ? momd : nil
    }
}
