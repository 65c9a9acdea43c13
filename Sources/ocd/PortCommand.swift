import Foundation

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
        let own = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let porter = own.deletingLastPathComponent().appendingPathComponent("ocd-port")
        guard FileManager.default.isExecutableFile(atPath: porter.path) else {
            print("ocd port: the source rewriter 'ocd-port' is not built beside ocd (\(porter.path)). Build it once with `swift build --product ocd-port` (it compiles swift-syntax, about 2 minutes), then run ocd port again.")
            return 1
        }
        let process = Process()
        process.executableURL = porter
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            print("ocd port: could not run \(porter.path): \(error.localizedDescription)")
            return 1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
