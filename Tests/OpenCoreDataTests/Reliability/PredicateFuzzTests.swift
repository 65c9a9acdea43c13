import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Random and mutated formats must throw or parse, never crash or hang.
final class PredicateFuzzTests: XCTestCase {
    private let seeds = [
        "a == 1 AND (b BEGINSWITH[cd] 'x' OR NOT c IN {1, 2, 3})",
        "ANY friends.name LIKE[c] 'a*' AND friends.@count BETWEEN {1, 5}",
        "SUBQUERY(items, $i, $i.price * $i.qty > 10).@count > 0",
        "TERNARY(a > 1, CAST(b, 'NSNumber'), -c ** 2) == sum:({1, 2})",
        "$x := now() > CAST(0, 'NSDate') OR x[FIRST] MATCHES '[a-z]+' OR #size == \"q\\\"\"",
        "FUNCTION(name, 'uppercaseString') ==[n] %@ AND %K < %d",
    ]

    func testRandomBytesNeverCrash() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        let deadline = Date().addingTimeInterval(2)
        var parsed = 0, rejected = 0
        while Date() < deadline {
            let length = Int.random(in: 0...40, using: &rng)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let format = String(decoding: bytes, as: UTF8.self)
            if (try? NSPredicate(validatingFormat: format, argumentArray: ["v", "k", 1])) != nil { parsed += 1 } else { rejected += 1 }
        }
        XCTAssertGreaterThan(parsed + rejected, 100)
    }

    func testMutatedValidFormatsNeverCrash() {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array("()[]{}'\"$%@#.,=!<>&|*+-/^:? aZ09\\ANDORNOTINANYALLSELF")
        let deadline = Date().addingTimeInterval(3)
        var parsed = 0, rejected = 0
        let object: [String: Any] = ["a": 2, "b": "xy", "c": 3, "friends": [["name": "ann"]], "items": [["price": 2, "qty": 9]], "name": "n", "x": ["q"]]
        while Date() < deadline {
            var chars = Array(seeds.randomElement(using: &rng)!)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let position = Int.random(in: 0...chars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where position < chars.count: chars.remove(at: position)
                case 1: chars.insert(alphabet.randomElement(using: &rng)!, at: position)
                default:
                    if position < chars.count { chars[position] = alphabet.randomElement(using: &rng)! }
                }
            }
            let format = String(chars)
            guard let p = try? NSPredicate(validatingFormat: format, argumentArray: ["v", "k", 1, 2, 3]) else { rejected += 1; continue }
            parsed += 1
            // Whatever parses must print, re-parse equal, and evaluate without crashing.
            let printed = p.predicateFormat
            if let again = try? NSPredicate(validatingFormat: printed, argumentArray: []) {
                XCTAssertEqual(again, p, "\(format) → \(printed)")
            }
            _ = try? p.evaluateThrowing(with: object, substitutionVariables: ["x": 1])
        }
        XCTAssertGreaterThan(parsed, 10)
        XCTAssertGreaterThan(rejected, 10)
    }
}
