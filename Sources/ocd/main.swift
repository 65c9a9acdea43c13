import OCDCommands
import OpenCoreData

// ocd: OpenCoreData's command-line tool.

let usage = """
usage: ocd <command>

commands:
  demo    a guided tour: model, insert, relate, validate, undo, save, fetch, delete
  model   print a model (.momd, .mom, .xcdatamodeld, .xcdatamodel): entities, properties, problems
  compile compile an Xcode model into a .momd, as Xcode does: ocd compile <model> [--output <.momd>]
  generate write the model's NSManagedObject subclasses, as Xcode generates them: ocd generate <model> --output <folder>
  inspect print a Core Data store (SQLite or postgresql://): metadata, entities with row counts, tables and columns
  copy    copy a store into a new one, keeping primary keys: ocd copy <from> <to> (SQLite or postgresql://)
  migrate migrate a SQLite store to a new model version: ocd migrate <store> --from <old model> --to <new model>
  port    port Swift sources from Apple's Core Data: ocd port <directory> [--dry-run]
"""

let arguments = CommandLine.arguments.dropFirst()

/// Each command's own usage, for `ocd <command> --help` and `ocd help <command>`.
let commandUsages: [String: String] = [
    "demo": "usage: ocd demo\n  a guided tour of OpenCoreData: model, insert, relate, validate, undo, save, fetch, delete",
    "model": ModelCommand.usage,
    "compile": CompileCommand.usage,
    "generate": GenerateCommand.usage,
    "inspect": InspectCommand.usage,
    "copy": CopyCommand.usage,
    "migrate": MigrateCommand.usage,
    "port": PortCommand.usage,
    "sql-session": SQLSessionCommand.usage,
]
if let command = arguments.first, let commandUsage = commandUsages[command],
   arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
    print(commandUsage)
    exit(0)
}
if arguments.first == "help", let command = arguments.dropFirst().first {
    guard let commandUsage = commandUsages[command] else {
        print("ocd: unknown command '\(command)'\n\n\(usage)")
        exit(2)
    }
    print(commandUsage)
    exit(0)
}

switch arguments.first {
case "demo":
    do {
        try Demo.run()
    } catch {
        print("ocd demo failed: \(error)")
        exit(1)
    }
case "model":
    exit(ModelCommand.run(Array(arguments.dropFirst())))
case "generate":
    exit(GenerateCommand.run(Array(arguments.dropFirst())))
case "compile":
    exit(CompileCommand.run(Array(arguments.dropFirst())))
case "inspect":
    exit(InspectCommand.run(Array(arguments.dropFirst())))
case "copy":
    exit(CopyCommand.run(Array(arguments.dropFirst())))
case "migrate":
    exit(MigrateCommand.run(Array(arguments.dropFirst())))
case "port":
    exit(PortCommand.run(Array(arguments.dropFirst())))
case "sql-session":
    // Diagnostic, not in the usage text: another process on a store file, for tests.
    exit(SQLSessionCommand.run(Array(arguments.dropFirst())))
case "help", "-h", "--help", nil:
    print(usage)
default:
    print("ocd: unknown command '\(arguments.first!)'\n\n\(usage)")
    exit(2)
}
