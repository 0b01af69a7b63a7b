import ReplayKit

/// Compares one metric over paired items, with the statistics of `Compare/Statistics`: before
/// Holm's adjustment, which needs every metric of the slice (`SliceComparison`).
///
/// - a rate: `PairedDifference` of the 0/1 values (the interval, clustered by thread), and the
///   exact McNemar p-value of the discordant pairs (b: yes in BASE only, c: yes in NEW only);
/// - a mean: `PairedDifference` (interval and normal p-value, clustered by thread);
/// - a percentile: `PairedBootstrap` resampling threads, with the comparison's seed.
public enum MetricEstimator {
    static func compare(_ metric: MetricDefinition, _ pairs: [ItemPair], bootstrap: PairedBootstrap) -> MetricComparison {
        var observations: [PairedObservation] = []
        observations.reserveCapacity(pairs.count)
        for pair in pairs {
            guard let base = metric.value(of: pair.base), let new = metric.value(of: pair.new) else { continue }
            observations.append(PairedObservation(base: base, new: new, cluster: pair.cluster))
        }
        switch metric.kind {
        case .rate, .mean:
            return compare(metric, observations)
        case .percentile:
            guard let quantile = metric.quantile,
                  let estimate = bootstrap.estimate(observations, statistic: { Percentile.of($0, quantile) }) else {
                return MetricComparison(metric: metric)
            }
            return MetricComparison(
                metric: metric, pairs: observations.count, clusters: Set(observations.map(\.cluster)).count,
                base: estimate.base, new: estimate.new, difference: estimate.difference, lower: estimate.lower, upper: estimate.upper,
                standardError: estimate.standardError, pValue: estimate.pValue, minimumDetectable: estimate.minimumDetectable,
                verdict: .noDetectableChange)
        }
    }

    /// A rate or a mean (`metric.kind`, not a percentile) compared over `observations` already
    /// paired, before Holm's adjustment: the `PairedDifference` of the values (interval and
    /// minimum detectable difference, clustered by `cluster`), and for a rate (0/1 values) the
    /// exact McNemar p-value of the discordant pairs in place of the normal one. Every number
    /// nil with no observation. Other comparisons of paired outcomes (`replay probe compare`)
    /// test their rates and means with it as `replay compare` does.
    public static func compare(_ metric: MetricDefinition, _ observations: [PairedObservation]) -> MetricComparison {
        precondition(metric.kind != .percentile, "a percentile is compared by the paired bootstrap")
        guard let estimate = PairedDifference.estimate(observations) else { return MetricComparison(metric: metric) }
        var result = MetricComparison(
            metric: metric, pairs: estimate.count, clusters: estimate.clusters, base: estimate.baseMean, new: estimate.newMean,
            difference: estimate.difference, lower: estimate.lower, upper: estimate.upper, standardError: estimate.standardError,
            pValue: estimate.pValue, minimumDetectable: estimate.minimumDetectable, verdict: .noDetectableChange)
        if metric.kind == .rate {
            let baseOnly = observations.filter { $0.base == 1 && $0.new == 0 }.count
            let newOnly = observations.filter { $0.base == 0 && $0.new == 1 }.count
            result.baseOnly = baseOnly
            result.newOnly = newOnly
            result.pValue = McNemar.exactPValue(baseOnly: baseOnly, newOnly: newOnly)
        }
        return result
    }
}
