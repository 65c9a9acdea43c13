import Foundation

/// `ocd port <directory>`: ports every Swift file under a directory that uses Core Data, writes
/// the class-name registrations the removed `@objc(Name)` attributes stood for, and reports what
/// changed and what is left to do by hand.
///
/// ```swift
/// let run = try DirectoryPorter.port(directory: URL(fileURLWithPath: "Sources/Persistence"), dryRun: false)
/// print(run.report)
/// ```
///
/// Running it again changes nothing: every edit recognises its own result. Files that don't
/// use Core Data, and folders named `.build` or starting with a dot, are left alone.
public enum DirectoryPorter {
    public struct Run: Sendable {
        /// What changed and what is left, file by file, for people.
        public var report: String
        /// With `dryRun`, the unified diff of every change; empty otherwise.
        public var diff: String
        public var filesChanged: Int
        public var filesLeftToDo: Int
    }

    /// The file `ocd port` writes the class-name registrations into.
    public static let registrationFileName = "OpenCoreDataClassNames.swift"

    public static func port(directory: URL, dryRun: Bool) throws -> Run {
        let files = try swiftFiles(under: directory)
        var report = "", diff = ""
        var changed = 0, leftToDo = 0, scanned = 0
        var classNames: [SourcePorter.ClassName] = []
        var moduleForRegistrations = "OpenCoreData"
        let sources = try files.map { try String(contentsOf: $0, encoding: .utf8) }
        let managedClasses = SourcePorter.managedClasses(in: sources)
        for (file, source) in zip(files, sources) where file.lastPathComponent != registrationFileName {
            let relative = String(file.path.dropFirst(directory.path.count).drop { $0 == "/" })
            let result = SourcePorter.port(source, fileName: relative, managedClasses: managedClasses)
            guard result.usesCoreData else { continue }
            scanned += 1
            classNames += result.classNames
            if result.text.contains("import OpenCoreDataMacros") { moduleForRegistrations = "OpenCoreDataMacros" }
            if result.text != source {
                changed += 1
                if dryRun { diff += LineDiff.unified(old: source, new: result.text, name: relative) } else { try Data(result.text.utf8).write(to: file, options: .atomic) }
            }
            if !result.leftToDo.isEmpty { leftToDo += 1 }
            guard !result.changes.isEmpty || !result.leftToDo.isEmpty else { continue }
            report += "\(relative)\n"
            for change in result.changes { report += "  changed  \(change)\n" }
            for item in result.leftToDo { report += "  BY HAND  \(item)\n" }
        }
        if !classNames.isEmpty {
            let registrations = registrationFile(classNames, module: moduleForRegistrations)
            let url = directory.appendingPathComponent(registrationFileName)
            if dryRun {
                diff += LineDiff.unified(old: "", new: registrations, name: registrationFileName)
            } else {
                try Data(registrations.utf8).write(to: url, options: .atomic)
            }
            report += "\(registrationFileName)\n  written  the model's class names for \(classNames.map(\.swiftClass).joined(separator: ", ")). Call OpenCoreDataClassNames.register() once, before loading the model.\n"
        }
        let verb = dryRun ? "would change" : "changed"
        report += "\n\(scanned) file\(scanned == 1 ? " uses" : "s use") Core Data; \(verb) \(changed); \(leftToDo) need a hand (BY HAND above).\n"
        return Run(report: report, diff: diff, filesChanged: changed, filesLeftToDo: leftToDo)
    }

    /// The registrations of `classNames`. A second run finds no `@objc(Name)` left and leaves
    /// the file as the first wrote it.
    static func registrationFile(_ classNames: [SourcePorter.ClassName], module: String) -> String {
        var text = """
        // Written by `ocd port`: the class names this program's model gives without a module, which
        // Xcode wrote beside `@objc(Name)`. Linux has no Objective-C runtime to find a class by
        // that name, so the program registers it. Call `OpenCoreDataClassNames.register()` once,
        // before it loads the model.
        import \(module)

        enum OpenCoreDataClassNames {
            static func register() {

        """
        for name in classNames {
            text += "        NSManagedObject.register(\(name.swiftClass).self, forClassName: \"\(name.modelName)\")\n"
        }
        text += "    }\n}\n"
        return text
    }

    static func swiftFiles(under directory: URL) throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PortError("'\(directory.path)' is not a directory. Give the folder of the Swift files to port.")
        }
        var files: [URL] = []
        func walk(_ folder: URL) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
                if isFolder.boolValue { try walk(url) } else if name.hasSuffix(".swift") { files.append(url) }
            }
        }
        try walk(directory)
        return files
    }
}

public struct PortError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
