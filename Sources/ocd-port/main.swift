import Foundation
import OCDPort

// ocd-port: `ocd port`'s work, in a program of its own because it needs swift-syntax, which the
// `ocd` tool (the README's first command) builds without. `ocd port` runs it.

let usage = """
usage: ocd port <directory> [--dry-run]
  ports the Swift files under <directory> that use Core Data to OpenCoreData: imports,
  @NSManaged → @ManagedProperty / @ManagedAccessor, @objc(Name) → a class-name registration
  (OpenCoreDataClassNames.swift), #keyPath(A.b) → "b"; then lists what needs a hand.
  --dry-run   print the changes as a unified diff and write nothing
"""

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") { print(usage); exit(0) }
let dryRun = arguments.contains("--dry-run")
arguments.removeAll { $0 == "--dry-run" }
guard arguments.count == 1, let directory = arguments.first, !directory.hasPrefix("-") else {
    FileHandle.standardError.write(Data("ocd port: give one directory\n\n\(usage)\n".utf8))
    exit(2)
}
do {
    let run = try DirectoryPorter.port(directory: URL(fileURLWithPath: directory), dryRun: dryRun)
    if dryRun { print(run.diff, terminator: "") }
    print(run.report, terminator: "")
} catch {
    FileHandle.standardError.write(Data("ocd port: \(error)\n".utf8))
    exit(1)
}
