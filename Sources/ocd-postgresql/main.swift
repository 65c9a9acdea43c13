import OCDCommands
import OpenCoreDataPostgreSQL

// ocd-postgresql: `ocd copy` and `ocd inspect` for stores at postgresql:// URLs. `ocd` runs it
// for such URLs (it is built without SwiftNIO); it can also be run directly, with the same
// arguments.

// Naming the store type registers the PostgreSQL driver.
_ = OCDPostgreSQLStoreType

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "copy":
    exit(CopyCommand.run(Array(arguments.dropFirst())))
case "inspect":
    exit(InspectCommand.run(Array(arguments.dropFirst())))
default:
    printToolError("usage: ocd-postgresql copy|inspect ...  (as `ocd copy` and `ocd inspect`)\n\n\(CopyCommand.usage)\n\(InspectCommand.usage)")
    exit(2)
}
