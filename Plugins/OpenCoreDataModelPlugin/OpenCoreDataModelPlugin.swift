import Foundation
import PackagePlugin

/// Generates the `NSManagedObject` subclasses of every Xcode model (`.xcdatamodeld` or
/// `.xcdatamodel`) among a target's files at build time, as Xcode's build does, honouring each
/// entity's Codegen setting: Class Definition (class and properties), Category/Extension
/// (properties; you write the class), Manual/None (nothing).
///
/// ```swift
/// .target(name: "Shop",
///         dependencies: [.product(name: "OpenCoreDataMacros", package: "OpenCoreData")],
///         resources: [.copy("Shop.xcdatamodeld")],
///         plugins: [.plugin(name: "OpenCoreDataModelPlugin", package: "OpenCoreData")])
/// ```
///
/// Each model becomes one generated file, `<Model>+CoreDataClasses.swift`, written by
/// `ocd generate --codegen --single-file`; it is rebuilt when any file of the model changes.
@main
struct OpenCoreDataModelPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let ocd = try context.tool(named: "ocd")
        // SwiftPM lists a model copied as a resource as one entry, and otherwise the files
        // inside it: the model is the entry itself or the folder that holds the file.
        var models: [URL: [URL]] = [:]
        for file in target.sourceFiles {
            var folder = file.url
            var model: URL?
            while folder.pathComponents.count > 1 {
                if folder.pathExtension == "xcdatamodeld" { model = folder; break }
                if folder.pathExtension == "xcdatamodel", model == nil { model = folder }
                folder = folder.deletingLastPathComponent()
            }
            if let model { models[model, default: []].append(contentsOf: Self.files(in: file.url)) }
        }
        return models.keys.sorted { $0.path < $1.path }.map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let fileName = name + "+CoreDataClasses.swift"
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(name)
            return .buildCommand(
                displayName: "Generating the classes of \(model.lastPathComponent)",
                executable: ocd.url,
                arguments: ["generate", model.path, "--codegen", "--output", output.path, "--single-file", fileName],
                inputFiles: models[model]!,
                outputFiles: [output.appendingPathComponent(fileName)])
        }
    }

    /// `url`, or the files below it when it is a folder: the inputs that make the plugin run again.
    private static func files(in url: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey]) else { return [url] }
        let files = enumerator.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        return files.isEmpty ? [url] : files
    }
}
