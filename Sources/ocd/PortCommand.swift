import Foundation
import OCDCommands

/// `ocd port <directory> [--dry-run]`: runs `ocd-port`, the source rewriter, which is a program
/// of its own because it needs swift-syntax and `ocd` builds without it.
enum PortCommand {
    static let usage = """
    usage: ocd port <directory> [--dry-run]
      ports the Swift files under <directory> that use Core Data to OpenCoreData: imports,
      @NSManaged → @ManagedProperty / @ManagedAccessor, @objc(Name) → a class-name registration,
      #keyPath(A.b) → "b"; then lists what needs a hand. --dry-run prints a diff and writes nothing.
      Needs the ocd-port program beside ocd: swift build --product ocd-port
    """

    static func run(_ arguments: [String]) -> Int32 {
        SiblingProgram.run("ocd-port", arguments, by: "ocd port", build: "it compiles swift-syntax, about 2 minutes")
    }
}
