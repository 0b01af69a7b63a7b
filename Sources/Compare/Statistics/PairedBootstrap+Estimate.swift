extension PairedBootstrap {
    /// What a paired bootstrap found: the statistic on each side of the whole sample, their
    /// difference, and the spread of that difference over the replicates.
    public struct Estimate: Sendable, Equatable {
        /// statistic(base values) and statistic(new values) of all the pairs.
        public var base: Double; public var new: Double
        /// new − base.
        public var difference: Double
        /// The 2.5th and 97.5th percentiles of the replicate differences.
        public var lower: Double; public var upper: Double
        /// min(1, 2 · min(share of replicate differences ≤ 0, share ≥ 0)). It moves in steps of
        /// 2 / replicates, so 0 means no replicate reached zero: read it as p < 2 / replicates.
        public var pValue: Double
        /// sd of the replicate differences (the sample standard deviation, n − 1; 0 for one replicate).
        public var standardError: Double
        /// (z_.975 + z_.80) · standardError: the difference findable at 80% power, two-sided α = 0.05.
        public var minimumDetectable: Double

        /// The estimate from the statistic on each side and the replicates' differences (at least one).
        init(base: Double, new: Double, differences: [Double]) {
            let sorted = differences.sorted { $0 < $1 || (!$0.isNaN && $1.isNaN) }
            let count = Double(sorted.count)
            let mean = sorted.reduce(0, +) / count
            let squares = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            let atMostZero = Double(sorted.count(where: { $0 <= 0 })) / count
            let atLeastZero = Double(sorted.count(where: { $0 >= 0 })) / count
            self.base = base
            self.new = new
            difference = new - base
            lower = Percentile.of(sorted, 0.025)!
            upper = Percentile.of(sorted, 0.975)!
            pValue = min(1, 2 * min(atMostZero, atLeastZero))
            standardError = sorted.count > 1 ? (squares / (count - 1)).squareRoot() : 0
            minimumDetectable = PairedDifference.detectableMultiple * standardError
        }
    }
}
