import Foundation

/// Latencies (or token counts) in logarithmic buckets 2% wide: percentiles within 1%, in constant memory, mergeable.
///
/// A corpus may hold millions of screens; keeping every latency to sort at the end would make
/// memory grow with the corpus. Buckets also merge exactly, so sharded runs can be combined.
public struct LogHistogram: Sendable, Equatable {
    static let floor = 0.01          // ms; anything faster counts here
    static let growth = 1.02
    static let bucketCount = 1200    // 0.01 ms × 1.02^1200 ≈ 2.0e8 ms: far past any budget

    /// How many values fell in each bucket, by bucket index.
    public private(set) var buckets: [Int: Int] = [:]
    /// How many latencies were added.
    public private(set) var count = 0
    /// Their sum in nanoseconds (millionths of a millisecond), an integer so that merging in any
    /// order gives the same bits: floating-point sums depend on the order of the additions.
    public private(set) var sumNanoseconds = 0

    /// Their sum, in milliseconds, for the mean (each value counted to the nanosecond).
    public var sum: Double { Double(sumNanoseconds) / 1_000_000 }

    public init() {}

    /// A histogram with these buckets, count and sum (read back from a state file).
    public init(buckets: [Int: Int], count: Int, sumNanoseconds: Int) {
        self.buckets = buckets
        self.count = count
        self.sumNanoseconds = sumNanoseconds
    }

    /// Adds one latency in milliseconds.
    public mutating func add(_ milliseconds: Double) {
        let clamped = max(milliseconds, Self.floor)
        let index = min(Self.bucketCount, Int((log(clamped / Self.floor) / log(Self.growth)).rounded(.down)))
        buckets[index, default: 0] += 1
        count += 1
        sumNanoseconds += Self.nanoseconds(milliseconds)
    }

    /// Adds every latency of `other`.
    public mutating func merge(_ other: LogHistogram) {
        for (index, n) in other.buckets { buckets[index, default: 0] += n }
        count += other.count
        sumNanoseconds += other.sumNanoseconds
    }

    /// `milliseconds` in whole nanoseconds, clamped to what an `Int` holds.
    static func nanoseconds(_ milliseconds: Double) -> Int {
        guard milliseconds.isFinite else { return 0 }
        return Int(max(-9e15, min(9e15, (milliseconds * 1_000_000).rounded())))
    }

    /// The latency below which `fraction` of them fall (nearest rank), or nil when empty.
    public func percentile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for index in buckets.keys.sorted() {
            seen += buckets[index]!
            if seen >= rank {
                // The bucket's geometric middle.
                return Self.floor * pow(Self.growth, Double(index) + 0.5)
            }
        }
        return nil
    }
}
