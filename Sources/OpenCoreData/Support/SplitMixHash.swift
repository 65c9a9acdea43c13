/// A fast hash for keys the framework hands out itself — primary keys, object addresses — where
/// `Dictionary` and `Set` would otherwise run SipHash on every lookup.
///
/// Types implement `_rawHashValue(seed:)` with it:
///
/// ```swift
/// func _rawHashValue(seed: Int) -> Int { SplitMixHash.hash(word, seed: seed) }
/// ```
///
/// It is the finaliser of SplitMix64 (a multiply-xorshift mix: about a dozen instructions, every
/// input bit reaching every output bit). It gives no protection against chosen-key flooding,
/// which these keys don't need: they are not strings from outside.
enum SplitMixHash {
    @inline(__always)
    static func hash(_ word: UInt64, seed: Int) -> Int {
        var x = word ^ UInt64(bitPattern: Int64(seed))
        x = (x ^ (x >> 30)) &* 0xbf58_476d_1ce4_e5b9
        x = (x ^ (x >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(truncatingIfNeeded: x ^ (x >> 31))
    }

    /// The number of low bits ``hashKeepingRuns(_:seed:)`` passes through unmixed.
    static var runBits: Int { 3 }

    /// ``hash(_:seed:)`` of all but the word's three low bits, which are kept as they are: eight
    /// consecutive words (primary keys 8k to 8k + 7) hash to eight consecutive values, so a
    /// `Dictionary` keeps them in neighbouring buckets, while the runs themselves are spread as
    /// well as single words are.
    ///
    /// Why: the identity map and the row cache hold hundreds of thousands of keys, far more
    /// than the CPU caches do, and objects come and go in primary-key order (a fetch sorted by
    /// nothing returns rows in `Z_PK` order; its result array releases them in that order). With
    /// every key in a random bucket, each lookup missed the cache two or three times; freeing
    /// 200,000 fetched objects spent a quarter of W2's time in those misses. Eight keys a run
    /// take 128 bytes of keys and 64 of pointer-sized values: a few cache lines shared by eight
    /// lookups, and W2 ran about a quarter faster. Runs of four gained less; sixteen no more;
    /// thirty-two less, because deleting a key makes `Dictionary` rehash the rest of its probe
    /// chain, and longer runs make longer chains.
    @inline(__always)
    static func hashKeepingRuns(_ word: UInt64, seed: Int) -> Int {
        let low = (1 as UInt64) << runBits - 1
        return hash(word >> runBits, seed: seed) << runBits | Int(truncatingIfNeeded: word & low)
    }
}
