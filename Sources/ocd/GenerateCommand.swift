@_spi(Tooling) import OpenCoreData

/// `ocd generate <model> --output <folder> [--codegen] [--single-file]`: writes the Swift classes
/// of a model's entities in the shape Xcode generates (see ``ClassGenerator``), one file per
/// entity, or one file for the whole model (what the model plugin uses).
///
/// ```
/// $ ocd generate Company.xcdatamodeld --output Sources/Company/Model
/// Wrote 2 files for Company.xcdatamodeld (version "Company 2") into Sources/Company/Model
///   Department+CoreData.swift
///   Employee+CoreData.swift
/// ```
enum GenerateCommand {
    static let usage = """
    usage: ocd generate <path to .xcdatamodeld or .xcdatamodel> --output <folder> [--codegen] [--single-file <name>.swift]
      writes each entity's class, properties and to-many accessors, as Xcode generates them
      --codegen      only the entities whose Codegen is Class Definition or Category/Extension, as Xcode's build does
      --single-file  one file of that name for all entities, instead of one file per entity
    """

    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var output: String?
        var singleFile: String?
        var honoringCodegen = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--output", "-o": output = rest.popFirst()
            case "--single-file": singleFile = rest.popFirst()
            case "--codegen": honoringCodegen = true
            default:
                if path != nil || argument.hasPrefix("-") {
                    ModelCommand.printError("ocd generate: unexpected argument '\(argument)'\n\(usage)")
                    return 2
                }
                path = argument
            }
        }
        guard let path, let output else {
            ModelCommand.printError(usage)
            return 2
        }
        do {
            let generator = try ClassGenerator(model: URL(fileURLWithPath: path))
            var files = generator.files(honoringCodegen: honoringCodegen)
            if let singleFile {
                // The model plugin declares this one output before the model is read, so it is
                // written even when no entity gets code.
                let body = files.map(\.text).joined(separator: "\n")
                files = [ClassGenerator.File(name: singleFile, text: body.isEmpty ? "// No entity of \(generator.sourceDescription) gets generated code.\n" : body)]
            }
            let folder = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files {
                try Data(file.text.utf8).write(to: folder.appendingPathComponent(file.name), options: .atomic)
            }
            print("Wrote \(files.count) file\(files.count == 1 ? "" : "s") for \(generator.sourceDescription) into \(folder.path)")
            for file in files { print("  \(file.name)") }
            return 0
        } catch {
            ModelCommand.printError("ocd generate: \(error.localizedDescription)")
            return 1
        }
    }
}
