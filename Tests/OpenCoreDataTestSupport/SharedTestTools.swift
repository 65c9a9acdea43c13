import OpenCoreData
import XCTest

// Helpers several test files share: finding the package and the fixtures, and running the
// built `ocd` tool.

/// The package's root folder: the nearest folder above this file that holds `Package.swift`,
/// so that a test finds it from whichever folder of the test target it lives in.
public let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        url.deleteLastPathComponent()
    }
    return url
}()

/// The shared fixtures folder (holding `apple-stores/` and `xcdatamodels/`): `$OCD_FIXTURES`,
/// else `../shared/fixtures` beside the package. It may be missing: see ``appleStores()``.
public var fixturesRoot: URL {
    if let path = ProcessInfo.processInfo.environment["OCD_FIXTURES"], !path.isEmpty { return URL(fileURLWithPath: path) }
    return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
}

/// The `apple-stores/` fixtures folder (in ``fixturesRoot``). Skips the test with instructions
/// when it is missing (`.ci/run` fails on skips).
public func appleStores() throws -> URL {
    let stores = fixturesRoot.appendingPathComponent("apple-stores")
    guard FileManager.default.fileExists(atPath: stores.path) else {
        throw XCTSkip("Fixtures not found at \(stores.path). Set OCD_FIXTURES to the shared fixtures folder (the one holding apple-stores/), or check it out at ../shared/fixtures beside the package.")
    }
    return stores
}

extension XCTestCase {
    /// Copies the Apple-written store at `relative` (under `apple-stores/`) with its
    /// `-wal`/`-shm` into a fresh temporary directory: a store is never opened in place.
    public func copyAppleStore(_ relative: String) throws -> URL {
        let source = try appleStores().appendingPathComponent(relative)
        let directory = try makeTemporaryDirectory("ocd-applestore")
        let destination = directory.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: destination.path + suffix)
        }
        return destination
    }

    /// A new empty folder `prefix`-UUID under the system's temporary directory, removed when the
    /// test ends — also when it fails or throws, so no store files are left behind. Call from
    /// `setUpWithError()` or from a test.
    ///
    /// ```swift
    /// override func setUpWithError() throws { directory = try makeTemporaryDirectory("ocd-prefetch") }
    /// ```
    public func makeTemporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}

/// The `ocd` executable built beside this test bundle.
public func ocdExecutable() throws -> URL { try builtExecutable("ocd") }

/// The executable `name` of this package, built beside this test bundle.
public func builtExecutable(_ name: String) throws -> URL {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [directory, directory.deletingLastPathComponent(), Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        .map { $0.appendingPathComponent(name) }
    guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw XCTSkip("The \(name) executable was not found beside the tests (\(candidates.map(\.path))); run `swift build` first.")
    }
    return executable
}

/// Runs the built executable `name` with `arguments`, killing it after `timeout` seconds;
/// returns (exit status, stdout, stderr). A killed child reports the signal's status (SIGKILL: 9).
public func runBuiltExecutable(_ name: String, _ arguments: [String] = [], timeout: Double = 60) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = try builtExecutable(name)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let child = process
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
}

/// Runs `ocd` with `arguments`; returns (exit status, stdout, stderr).
public func runOCD(_ arguments: [String]) throws -> (Int32, String, String) { try runBuiltExecutable("ocd", arguments) }

/// A second process on a SQLite store file — the built `ocd sql-session` — driven one SQL
/// statement at a time, so a test can hold the write lock or commit a change at an exact moment.
///
/// ```swift
/// let other = try OtherSQLiteProcess(storeURL)
/// try other.run("BEGIN IMMEDIATE")           // the store's write lock is held from here
/// ...                                         // our save waits, then times out
/// try other.run("ROLLBACK")
/// other.finish()
/// ```
public final class OtherSQLiteProcess {
    private let process = Process()
    private let input = Pipe(), output = Pipe()
    private var buffer = Data()

    public init(_ store: URL, busyTimeout: Double = 10) throws {
        process.executableURL = try ocdExecutable()
        process.arguments = ["sql-session", store.path, "--busy-timeout", String(busyTimeout)]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // A child that hangs must not hang the suite: kill it after a minute, which ends its
        // output and makes the waiting `run` throw.
        let child = process
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if child.isRunning { child.terminate() } }
    }

    deinit { finish() }

    /// Runs `sql` in the other process; returns its rows (NULL as "NULL"); throws its SQLite
    /// error as an NSError whose description holds SQLite's message.
    @discardableResult
    public func run(_ sql: String) throws -> [[String]] {
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
        var rows: [[String]] = []
        while true {
            let line = try readLine()
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "row": rows.append(Array(fields.dropFirst()))
            case "ok": return rows
            default: throw NSError(domain: "OtherSQLiteProcess", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(sql): \(line)"])
            }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                throw NSError(domain: "OtherSQLiteProcess", code: 2, userInfo: [NSLocalizedDescriptionKey: "ocd sql-session ended without answering"])
            }
            buffer.append(chunk)
        }
    }

    /// Ends the other process (closing its input; SQLite rolls back an open transaction) and
    /// waits for it. Idempotent.
    public func finish() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A temporary folder holding one SQLite store of ``CompanyModel``: opens stacks on it and reads
/// the file with plain SQL, for tests of what a save leaves on disk. Removes the folder in deinit.
///
/// ```swift
/// let store = try TemporaryCompanyStore()
/// try store.seed([("Ann", 1000, "Archer")])
/// let (_, context) = try store.open(options: [NSPersistentStoreTimeoutOption: 0.5])
/// XCTAssertEqual(try store.sql("SELECT ZSALARY FROM ZEMPLOYEE"), [["1000"]])
/// ```
public final class TemporaryCompanyStore {
    public let directory: URL
    public let url: URL
    public let model = CompanyModel.make()

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("Company.sqlite")
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A new coordinator with the store added, and a private-queue context on it.
    public func open(options: [AnyHashable: Any]? = nil) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        return (coordinator, newContext(coordinator))
    }

    /// Saves employees (first name, salary, last name) through a stack of its own, then closes it.
    public func seed(_ employees: [(String, Int64, String?)]) throws {
        let (coordinator, context) = try open()
        try context.performAndWait {
            for (firstName, salary, lastName) in employees {
                let e = Employee(context: context)
                e.firstName = firstName
                e.salary = salary
                e.lastName = lastName
            }
            try context.save()
        }
        try coordinator.remove(coordinator.persistentStores[0])
    }

    /// The rows of `query` on the file, as text (NULL as nil), read by a separate connection.
    public func sql(_ query: String, _ bindings: [String] = []) throws -> [[String?]] {
        try SQLiteInspector.rows(at: url.path, query, bindings)
    }

    /// The employee named `firstName`, fetched in `context` (call on its queue).
    public func employee(_ firstName: String, in context: NSManagedObjectContext) throws -> Employee {
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = NSPredicate(format: "firstName == %@", firstName)
        return try XCTUnwrap(context.fetch(request).first)
    }
}

/// The error `body` throws, as an NSError, or nil.
public func thrownError(_ body: () throws -> Void) -> NSError? {
    do { try body(); return nil } catch { return error as NSError }
}

/// Runs `body` in its own scope so its locals are released when it returns (what
/// `autoreleasepool` does for these tests on Apple platforms).
public func autoreleasepoolCompat<T>(_ body: () throws -> T) rethrows -> T { try body() }

/// Loading the model at `url` fails as the loader promises: `NSManagedObjectModel(contentsOf:)`
/// is nil, and `load(contentsOf:)` throws a Cocoa error of `code` whose message contains
/// `text` and whose user info names the file.
public func assertModelLoadFails(_ url: URL, code: Int, mentioning text: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertNil(NSManagedObjectModel(contentsOf: url), file: file, line: line)
    XCTAssertThrowsError(try NSManagedObjectModel.load(contentsOf: url), file: file, line: line) { error in
        let e = error as NSError
        XCTAssertEqual(e.domain, NSCocoaErrorDomain, file: file, line: line)
        XCTAssertEqual(e.code, code, e.localizedDescription, file: file, line: line)
        XCTAssertTrue(e.localizedDescription.contains(text), e.localizedDescription, file: file, line: line)
        XCTAssertNotNil(e.userInfo[NSFilePathErrorKey], file: file, line: line)
    }
}
