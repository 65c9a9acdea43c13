import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// A main-queue context in the programs servers and command-line tools are: one whose main thread
/// is parked in `dispatchMain()`, and one with an async `main`. There the main queue and the main
/// actor run on dispatch worker threads, so "on the main queue" cannot mean "on thread 0".
/// Each program (`Tests/Programs/`) runs three patterns: `perform`, `performAndWait` from a
/// main-queue block, and `@MainActor` code after an `await`; a trap, a deadlock or a wrong count
/// ends it with a non-zero status.
final class MainQueueProgramTests: XCTestCase {
    private let expectedLines = [
        "perform: ok",
        "performAndWait from the main queue: ok",
        "@MainActor after await: ok",
        "all passed",
    ]

    func testAMainQueueContextWorksInAProgramThatCallsDispatchMain() throws {
        let (status, output, errors) = try runBuiltExecutable("main-queue-dispatch-main", timeout: 30)
        XCTAssertEqual(status, 0, "stdout:\n\(output)\nstderr:\n\(errors)")
        XCTAssertEqual(output.split(separator: "\n").map(String.init), expectedLines)
    }

    func testAMainQueueContextWorksInAProgramWithAnAsyncMain() throws {
        let (status, output, errors) = try runBuiltExecutable("main-queue-async-main", timeout: 30)
        XCTAssertEqual(status, 0, "stdout:\n\(output)\nstderr:\n\(errors)")
        XCTAssertEqual(output.split(separator: "\n").map(String.init), expectedLines)
    }
}
