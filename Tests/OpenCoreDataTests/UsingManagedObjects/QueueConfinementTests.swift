@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// The queue check behind the debug-build precondition ("used off its queue"). The precondition
/// itself would end the test process, so this tests what it relies on.
final class QueueConfinementTests: XCTestCase {
    func testPrivateQueueContextKnowsWhenItIsOnItsQueue() {
        let stack = TestStack()
        XCTAssertFalse(stack.context.isOnQueue, "the test thread is not the context's queue")
        stack.context.performAndWait { XCTAssertTrue(stack.context.isOnQueue) }
        let other = stack.newContext()
        stack.context.performAndWait {
            XCTAssertFalse(other.isOnQueue, "one context's queue is not another's")
            other.performAndWait { XCTAssertTrue(other.isOnQueue) }
        }
        let done = expectation(description: "perform")
        stack.context.perform {
            XCTAssertTrue(stack.context.isOnQueue)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }

    func testMainQueueContextIsOnItsQueueOnTheMainThread() {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertTrue(context.isOnQueue)
        let done = expectation(description: "background")
        DispatchQueue.global().async {
            XCTAssertFalse(context.isOnQueue)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }

    #if DEBUG
    /// `hasChanges` reads the change sets without a queue check of its own: the context's state
    /// checks every access itself. Run in a child process, since the check ends the process it
    /// runs in.
    func testReadingChangesOffTheContextsQueueStopsADebugBuildWithAMessage() throws {
        let directory = try makeTemporaryDirectory("ocd-off-queue")
        let store = directory.appendingPathComponent("Store.sqlite")
        let process = Process()
        process.executableURL = try builtExecutable("ocd-torture")
        process.arguments = ["off-queue", store.path]
        // No crash report: the runtime's backtracer would inherit the output and could fill it.
        // Standard error goes to a file, which cannot fill up the way a pipe nobody reads does.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { _, new in new }
        let errorsFile = directory.appendingPathComponent("stderr.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: errorsFile.path, contents: nil))
        let errors = try FileHandle(forWritingTo: errorsFile)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try errors.close()
        let message = try String(contentsOf: errorsFile, encoding: .utf8)
        XCTAssertEqual(printed, "saved\n", "the read off the queue must not go through")
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertTrue(message.contains("was used off its queue. Wrap the call in context.perform { } or context.performAndWait { }"), message)
    }
    #endif

    /// The overlay's spelling makes the same contexts: `.mainQueue` and `.privateQueue` wrap the
    /// concurrency types.
    func testContextsMadeWithTheOverlaysConcurrencyTypes() {
        XCTAssertEqual(NSManagedObjectContext(.mainQueue).concurrencyType, .mainQueueConcurrencyType)
        let context = NSManagedObjectContext(.privateQueue)
        XCTAssertEqual(context.concurrencyType, .privateQueueConcurrencyType)
        XCTAssertFalse(context.isOnQueue)
        context.performAndWait { XCTAssertTrue(context.isOnQueue) }
        XCTAssertEqual(NSManagedObjectContext.ConcurrencyType.mainQueue.rawValue, .mainQueueConcurrencyType)
        XCTAssertEqual(NSManagedObjectContext.ConcurrencyType(rawValue: .privateQueueConcurrencyType), .privateQueue)
        XCTAssertEqual(NSManagedObjectContextConcurrencyType.privateQueueConcurrencyType.rawValue, 1)
        XCTAssertEqual(NSManagedObjectContextConcurrencyType.mainQueueConcurrencyType.rawValue, 2)
    }
}
