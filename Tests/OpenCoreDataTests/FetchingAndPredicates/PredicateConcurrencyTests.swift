import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Predicates are immutable and `Sendable`: one instance may be evaluated from many threads.
final class PredicateConcurrencyTests: XCTestCase {
    func testOnePredicateEvaluatedFromManyThreads() {
        let predicate = NSPredicate(format: "name MATCHES[c] 'a.*[0-9]' AND name LIKE[cd] '*N*' AND age > 10")
        let names = (0..<1000).map { $0 % 2 == 0 ? "Anna\($0)" : "bob\($0)" }
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var total = 0
            func add(_ n: Int) { lock.lock(); total += n; lock.unlock() }
        }
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var matches = 0
            for (i, name) in names.enumerated() where predicate.evaluate(with: ["name": name, "age": i]) { matches += 1 }
            counter.add(matches)
        }
        // Even indexes 12...998 are "Anna<i>" with age i > 10: 494 per thread.
        XCTAssertEqual(counter.total, 8 * 494)
    }

    func testParsingFromManyThreads() {
        final class Failures: @unchecked Sendable {
            let lock = NSLock()
            var formats: [String] = []
            func add(_ f: String) { lock.lock(); formats.append(f); lock.unlock() }
        }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let format = "a == \(i) AND " + String(repeating: "(", count: 60) + "b == 1" + String(repeating: ")", count: 60)
            for _ in 0..<20 {
                guard let p = try? NSPredicate(validatingFormat: format, argumentArray: []), p.evaluate(with: ["a": i, "b": 1]) else {
                    failures.add(format)
                    return
                }
            }
        }
        XCTAssertEqual(failures.formats, [])
    }
}
