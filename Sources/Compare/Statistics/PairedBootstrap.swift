import Corpus
/// A paired bootstrap that resamples clusters (threads) with replacement, a fixed seed (stated in the
/// output), `replicates` draws (default 2000); statistic = f(new values) − f(base values) of the
/// resampled items. Percentile 95% interval; two-sided p = min(1, 2·min(share ≤ 0, share ≥ 0)).
/// RNG: xoshiro256** seeded by SplitMix64 from `seed` (documented so a reference can replay it).
///
/// For statistics with no handy standard error, above all latency percentiles (p50, p95), the
/// interval comes from the spread of the statistic over resampled corpora. Threads are resampled
/// whole, keeping each thread's items paired and together, so correlation within a thread widens
/// the interval as it should. The procedure, exactly (Tests/CompareTests/Statistics/reference.py
/// replays it):
/// - the generator's state is four successive SplitMix64 outputs of `seed`;
/// - the G distinct clusters are ordered by ascending id; each replicate draws G positions in
///   0..<G, each the high word of next() · G with Lemire's rejection of a biased low word;
/// - a replicate's items are every item of every drawn cluster, a cluster as often as it was drawn;
///   its difference is statistic(their new values) − statistic(their base values), and a replicate
///   for which either is nil is left out;
/// - the interval is the 2.5th and 97.5th percentile of the differences (linear, as `Percentile`),
///   the standard error their sample standard deviation (n − 1; 0 for a single replicate).
///
/// `statistic` must not depend on the order of its values: it is handed them in ascending order
/// (NaN last), so a percentile is `Percentile.of(values, q)` with no sort (and an extra
/// `.sorted()` costs one pass). That keeps 2000 replicates of 100,000 items to a pass over the
/// items per replicate and side, plus whatever the statistic costs.
public struct PairedBootstrap: Sendable {
    /// Seeds the generator; a report states it so a comparison can be replayed.
    public var seed: UInt64
    /// Resampled corpora to draw; fewer than one gives no estimate.
    public var replicates: Int

    public init(seed: UInt64 = 20_261_201, replicates: Int = 2000) {
        self.seed = seed
        self.replicates = replicates
    }

    /// The bootstrap of statistic(new) − statistic(base) over `pairs`; nil when there are no
    /// pairs, no replicates, the statistic is nil on the whole sample, or nil on every replicate.
    public func estimate(_ pairs: [PairedObservation], statistic: ([Double]) -> Double?) -> Estimate? {
        guard !pairs.isEmpty, replicates > 0 else { return nil }
        let resampler = ClusterResampler(pairs)
        guard let base = statistic(resampler.baseValues), let new = statistic(resampler.newValues) else {
            return nil
        }

        var generator = Xoshiro256(seed: seed)
        var counts = [Int32](repeating: 0, count: resampler.clusterCount)
        var differences: [Double] = []
        differences.reserveCapacity(replicates)
        for _ in 0..<replicates {
            resampler.draw(into: &counts, using: &generator)
            let total = resampler.itemCount(counts)
            let resampledBase = statistic(resampler.resample(
                resampler.baseValues, resampler.baseClusters, counts: counts, total: total))
            let resampledNew = statistic(resampler.resample(
                resampler.newValues, resampler.newClusters, counts: counts, total: total))
            if let resampledBase, let resampledNew {
                differences.append(resampledNew - resampledBase)
            }
        }
        guard !differences.isEmpty else { return nil }
        return Estimate(base: base, new: new, differences: differences)
    }
}
