import Foundation
import OpenCoreData

/// Writes `text` and a newline to standard error: the tools' errors and usage lines.
package func printToolError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// A program built beside `ocd` that does what `ocd` cannot link: `ocd-port` (swift-syntax) and
/// `ocd-postgresql` (SwiftNIO). `ocd` stays light because every app's build runs it (the model
/// plugin), and runs these for the commands that need them.
package enum SiblingProgram {
    /// Runs the program `name` from `ocd`'s folder with `arguments`, in the foreground, and
    /// returns its exit status; 1, with what to build, when it is not there.
    ///
    /// ```swift
    /// exit(SiblingProgram.run("ocd-port", arguments, by: "ocd port", build: "it compiles swift-syntax, about 2 minutes"))
    /// ```
    package static func run(_ name: String, _ arguments: [String], by command: String, build: String) -> Int32 {
        let own = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let program = own.deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            printToolError("\(command): '\(name)' is not built beside ocd (\(program.path)). Build it once with `swift build --product \(name)` (\(build)), then run \(command) again.")
            return 1
        }
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            printToolError("\(command): could not run \(program.path): \(error.localizedDescription)")
            return 1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `ocd-postgresql` for a command given a `postgresql://` URL.
    package static func runPostgreSQLTool(_ arguments: [String], by command: String) -> Int32 {
        // ocd-postgresql registers the driver; if it could not, running itself again would loop.
        guard (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).lastPathComponent != "ocd-postgresql" else {
            printToolError("\(command): the PostgreSQL driver is not registered in ocd-postgresql.")
            return 1
        }
        return run("ocd-postgresql", arguments, by: command, build: "it compiles SwiftNIO and postgres-nio, about 4 minutes")
    }
}

/// Errors of the tools' own checks, as the library's: `NSCocoaErrorDomain` with Core Data's codes.
package enum ToolError {
    package static func make(_ code: Int, _ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// `NSPersistentStoreOpenError` (134080).
    package static func openError(_ message: String) -> NSError { make(NSPersistentStoreOpenError, message) }
}
