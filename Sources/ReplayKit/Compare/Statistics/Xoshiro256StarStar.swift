/// xoshiro256** (Blackman and Vigna, 2018) seeded by SplitMix64: the paired bootstrap's random draws.
///
/// Written out here rather than taken from the standard library, whose `random(in:using:)`
/// algorithms may change between releases: a comparison must give the same interval for the same
/// seed on every machine and toolchain, and a reference implementation must be able to replay it
/// (Tests/ReplayKitTests/Statistics/reference.py does). The whole state is four SplitMix64 outputs
/// of the seed, in order; bounded draws use Lemire's multiply-high with rejection, so they are unbiased.
struct Xoshiro256StarStar: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose whole state comes from `seed`.
    init(seed: UInt64) {
        var mixer = seed
        s0 = Xoshiro256StarStar.splitMix(&mixer)
        s1 = Xoshiro256StarStar.splitMix(&mixer)
        s2 = Xoshiro256StarStar.splitMix(&mixer)
        s3 = Xoshiro256StarStar.splitMix(&mixer)
    }

    /// One SplitMix64 step (Steele, Lea and Flood, 2014): advances `state`, returns a mixed value.
    static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        let result = rotate(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotate(s3, 45)
        return result
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// A uniform integer in 0..<`n` (`n` > 0): the high word of next() · n, drawn again while the
    /// low word falls in the 2^64 mod n values that would favour some results (Lemire, 2019).
    mutating func below(_ n: UInt64) -> UInt64 {
        precondition(n > 0, "below(_:) needs a positive bound")
        var product = next().multipliedFullWidth(by: n)
        if product.low < n {
            let threshold = (0 &- n) % n
            while product.low < threshold {
                product = next().multipliedFullWidth(by: n)
            }
        }
        return product.high
    }
}
