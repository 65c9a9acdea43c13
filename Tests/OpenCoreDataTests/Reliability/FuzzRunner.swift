import OpenCoreDataTestSupport
import Foundation
import XCTest

/// A deterministic mutation fuzzer for the test suite (libFuzzer needs a separate
/// `-sanitize=fuzzer` build; this runs in every `swift test`).
///
/// ```swift
/// try FuzzRunner(target: "predicate", seeds: extraSeeds).run { input in
///     _ = try? NSPredicate(validatingFormat: String(decoding: input, as: UTF8.self), argumentArray: [])
/// }
/// ```
///
/// It runs every file of `FuzzCorpus/<target>/regressions/` as it is, then every seed, then
/// `OCD_FUZZ_ITERATIONS` mutations of seeds (default 300; the same inputs in every run unless
/// `OCD_FUZZ_SEED` changes the generator's seed). Before each input it writes the input to
/// `$TMPDIR/ocd-fuzz-<target>.current`, so the input of a crash survives the process.
struct FuzzRunner {
    let target: String
    private(set) var seeds: [Data]
    private let regressions: [Data]
    /// Byte strings a mutation may insert: the target's keywords and delimiters.
    var dictionary: [Data] = []

    static var iterations: Int { Int(ProcessInfo.processInfo.environment["OCD_FUZZ_ITERATIONS"] ?? "") ?? 300 }
    static var generatorSeed: UInt64 { UInt64(ProcessInfo.processInfo.environment["OCD_FUZZ_SEED"] ?? "") ?? 0x0CD_F022 }

    /// The folder of `target`'s committed corpus.
    static func corpus(_ target: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzCorpus").appendingPathComponent(target)
    }

    init(target: String, seeds extraSeeds: [Data] = []) throws {
        self.target = target
        func files(_ folder: URL) -> [Data] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            return names.compactMap { name -> Data? in
                var isDirectory: ObjCBool = false
                let url = folder.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue, name != "README.md" else { return nil }
                return try? Data(contentsOf: url)
            }
        }
        let folder = Self.corpus(target)
        regressions = files(folder.appendingPathComponent("regressions"))
        seeds = files(folder) + extraSeeds
        guard !seeds.isEmpty else { throw XCTSkip("fuzz target \(target) has no seeds") }
    }

    /// Runs `body` on every input; returns how many inputs ran. `body` must not crash or hang,
    /// whatever the input; it reports wrong answers with XCTest assertions.
    @discardableResult
    func run(_ body: (Data) throws -> Void) rethrows -> Int {
        let current = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-fuzz-\(target).current")
        var count = 0
        for input in regressions + seeds {
            try? input.write(to: current)
            try body(input)
            count += 1
        }
        var rng = SplitMix64(seed: Self.generatorSeed ^ UInt64(truncatingIfNeeded: target.hashValueStable))
        for _ in 0..<Self.iterations {
            let input = mutate(seeds[Int(rng.next() % UInt64(seeds.count))], &rng)
            try? input.write(to: current)
            try body(input)
            count += 1
        }
        try? FileManager.default.removeItem(at: current)
        return count
    }

    /// One to four mutations of `seed`: flipped bits, random bytes, deleted, duplicated or
    /// inserted runs, a splice of another seed, a dictionary word.
    private func mutate(_ seed: Data, _ rng: inout SplitMix64) -> Data {
        var bytes = [UInt8](seed)
        for _ in 0..<(1 + Int(rng.next() % 4)) {
            let position = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count + 1))
            switch rng.next() % 7 {
            case 0 where position < bytes.count:
                bytes[position] ^= UInt8(1 << (rng.next() % 8))
            case 1 where position < bytes.count:
                bytes[position] = UInt8(truncatingIfNeeded: rng.next())
            case 2:
                let end = min(bytes.count, position + 1 + Int(rng.next() % 32))
                if position < end { bytes.removeSubrange(position..<end) }
            case 3:
                let end = min(bytes.count, position + 1 + Int(rng.next() % 64))
                if position < end { bytes.insert(contentsOf: Array(bytes[position..<end]), at: position) }
            case 4:
                let other = [UInt8](seeds[Int(rng.next() % UInt64(seeds.count))])
                guard !other.isEmpty else { break }
                let start = Int(rng.next() % UInt64(other.count))
                let end = min(other.count, start + 1 + Int(rng.next() % 64))
                bytes.insert(contentsOf: other[start..<end], at: position)
            case 5 where !dictionary.isEmpty:
                bytes.insert(contentsOf: dictionary[Int(rng.next() % UInt64(dictionary.count))], at: position)
            default:
                bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
            }
        }
        return Data(bytes)
    }
}

private extension String {
    /// A hash that is the same in every run (Swift's `hashValue` is seeded per process).
    var hashValueStable: Int { utf8.reduce(5381) { ($0 &* 33) &+ Int($1) } }
}
