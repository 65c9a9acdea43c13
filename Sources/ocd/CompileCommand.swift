import OpenCoreData

/// `ocd compile <model> [--output <momd>]`: compiles an Xcode model (every version of a
/// `.xcdatamodeld`, or one `.xcdatamodel`) into a `.momd` folder, as Xcode's model compiler does
/// for an app, then loads every version back to check it.
///
/// ```
/// $ ocd compile Company.xcdatamodeld --output Resources/Company.momd
/// Compiled 2 versions of Company.xcdatamodeld into Resources/Company.momd (current: "Company 2")
///   Company.mom     3 entities
///   Company 2.mom   4 entities
/// ```
enum CompileCommand {
    static let usage = "usage: ocd compile <path to .xcdatamodeld or .xcdatamodel> [--output <.momd folder>]\n  writes one .mom per version and a VersionInfo.plist; the output defaults to the model's name with .momd, beside it"

    /// Returns the exit status: 0 when compiled, 1 when the model can't be read or compiled,
    /// 2 for wrong arguments.
    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var output: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--output", "-o": output = rest.popFirst()
            default:
                if path != nil || argument.hasPrefix("-") {
                    ModelCommand.printError("ocd compile: unexpected argument '\(argument)'\n\(usage)")
                    return 2
                }
                path = argument
            }
        }
        guard let path else {
            ModelCommand.printError(usage)
            return 2
        }
        let source = URL(fileURLWithPath: path)
        let destination = URL(fileURLWithPath: output ?? source.deletingPathExtension().path + ".momd")
        do {
            try NSManagedObjectModel.compileModel(at: source, to: destination)
            let info = try CompiledModelVersionInfo(contentsOf: destination)
            let versions = info.versionHashes.keys.sorted()
            print("Compiled \(versions.count) version\(versions.count == 1 ? "" : "s") of \(source.lastPathComponent) into \(destination.path) (current: \"\(info.currentVersionName ?? "?")\")")
            for version in versions {
                let model = try NSManagedObjectModel.load(contentsOf: destination.appendingPathComponent(version + ".mom"))
                print("  \(version).mom  \(model.entities.count) entit\(model.entities.count == 1 ? "y" : "ies")")
            }
            return 0
        } catch {
            ModelCommand.printError("ocd compile: \(error.localizedDescription)")
            return 1
        }
    }
}
