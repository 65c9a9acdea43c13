import OpenCoreData
import XCTest

// Helpers several test files share: finding the fixtures and running the built `ocd` tool.

/// The `apple-stores/` fixtures folder: under `$OCD_FIXTURES`, else `../shared/fixtures` beside
/// the package. Skips the test with instructions when it is missing (`.ci/run` fails on skips).
func appleStores() throws -> URL {
    let root: URL
    if let path = ProcessInfo.processInfo.environment["OCD_FIXTURES"], !path.isEmpty {
        root = URL(fileURLWithPath: path)
    } else {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }
    let stores = root.appendingPathComponent("apple-stores")
    guard FileManager.default.fileExists(atPath: stores.path) else {
        throw XCTSkip("Fixtures not found at \(stores.path). Set OCD_FIXTURES to the shared fixtures folder (the one holding apple-stores/), or check it out at ../shared/fixtures beside the package.")
    }
    return stores
}

/// The `ocd` executable built beside this test bundle.
func ocdExecutable() throws -> URL {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [directory, directory.deletingLastPathComponent(), Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        .map { $0.appendingPathComponent("ocd") }
    guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw XCTSkip("The ocd executable was not found beside the tests (\(candidates.map(\.path))); run `swift build` first.")
    }
    return executable
}

/// Runs `ocd` with `arguments`; returns (exit status, stdout, stderr).
func runOCD(_ arguments: [String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = try ocdExecutable()
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
}
