/// xoshiro256** (Blackman and Vigna, 2018) seeded through SplitMix64: the corpus's only source of
/// randomness, and the paired bootstrap's (`replay compare`).
///
/// Deliberately not a `RandomNumberGenerator`: the standard library's `random(in:using:)`
/// algorithms may change between Swift releases, and a corpus must stay byte-identical for a
/// seed, as a comparison's intervals must, so bounded draws are done here with Lemire's
/// multiply-high: `below(_:)` as the corpus has always drawn (its tiny bias is part of the
/// corpora's bytes), `unbiased(below:)` with rejection for statistics. The whole state is four
/// SplitMix64 outputs of the seed, in order, so a reference implementation can replay it
/// (Tests/CompareTests/Statistics/reference.py does).
public struct Xoshiro256: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose whole state comes from `seed`.
    public init(seed: UInt64) {
        var mixer = seed
        s0 = Xoshiro256.splitMix(&mixer)
        s1 = Xoshiro256.splitMix(&mixer)
        s2 = Xoshiro256.splitMix(&mixer)
        s3 = Xoshiro256.splitMix(&mixer)
    }

    /// One SplitMix64 step (Steele, Lea and Flood, 2014): advances `state`, returns a mixed value.
    public static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
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

    /// A uniform integer in `0..<n` (`n > 0`), as the corpus draws it (no rejection).
    mutating func below(_ n: Int) -> Int {
        precondition(n > 0, "below(_:) needs a positive bound")
        return Int(next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// A uniform integer in 0..<`n` (`n` > 0): the high word of next() · n, drawn again while the
    /// low word falls in the 2^64 mod n values that would favour some results (Lemire, 2019).
    public mutating func unbiased(below n: UInt64) -> UInt64 {
        precondition(n > 0, "unbiased(below:) needs a positive bound")
        var product = next().multipliedFullWidth(by: n)
        if product.low < n {
            let threshold = (0 &- n) % n
            while product.low < threshold {
                product = next().multipliedFullWidth(by: n)
            }
        }
        return product.high
    }

    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) * 0x1.0p-53 < p
    }

    /// A uniform element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// An index into `weights`, chosen in proportion to the weights.
    mutating func weighted(_ weights: [Int]) -> Int {
        var roll = below(weights.reduce(0, +))
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }

    /// Up to `count` distinct indices below `n`, in ascending order.
    mutating func distinct(_ count: Int, below n: Int) -> [Int] {
        var chosen: [Int] = []
        let wanted = min(count, n)
        while chosen.count < wanted {
            let candidate = below(n)
            if !chosen.contains(candidate) { chosen.append(candidate) }
        }
        return chosen.sorted()
    }
}
