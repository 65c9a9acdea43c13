/// A fast hash for keys the framework hands out itself — primary keys, object addresses — where
/// `Dictionary` and `Set` would otherwise run SipHash on every lookup.
///
/// Types implement `_rawHashValue(seed:)` with it:
///
/// ```swift
/// func _rawHashValue(seed: Int) -> Int { SplitMixHash.hash(word, seed: seed) }
/// ```
///
/// It is the finaliser of SplitMix64 (a multiply-xorshift mix: two multiplications and three
/// shift-xors, every input bit reaching every output bit). It gives no protection against
/// chosen-key flooding, which these keys don't need: they are not strings from outside.
enum SplitMixHash {
    @inline(__always)
    static func hash(_ word: UInt64, seed: Int) -> Int {
        var x = word ^ UInt64(bitPattern: Int64(seed))
        x = (x ^ (x >> 30)) &* 0xbf58_476d_1ce4_e5b9
        x = (x ^ (x >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(truncatingIfNeeded: x ^ (x >> 31))
    }
}
