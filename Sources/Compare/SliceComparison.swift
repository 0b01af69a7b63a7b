import ReplayKit

/// One job's metrics compared over one slice of its items: all of them, or those of one app
/// build, one model version, one locale, or one app build × model-version cell (BASE's labels
/// for a paired item).
public struct SliceComparison: Sendable, Equatable {
    /// Which items: all, or those of a build, a model version or a locale.
    public enum Dimension: String, Sendable, CaseIterable {
        case overall = "all"
        case build
        case model
        case locale
        /// One (app build, model version) cell: `label` the build, `model` the version.
        case cell
    }

    public var dimension: Dimension
    /// The build, model or locale label (a `ReportLabel`, as the runs wrote it); "all" for the whole job.
    public var label: String
    /// A cell's model-version label; nil for every other dimension.
    public var model: String? = nil
    /// The `eligible` counts: items in each run, paired, in one run only, left out as repeated.
    public var eligible: JoinCounts
    /// Every metric of the job, in the order of `Comparison.metrics(for:)`.
    public var metrics: [MetricComparison]

    /// Compares `metrics` over `pairs`, then adjusts their p-values by Holm's method across the
    /// metrics that were tested, and gives each its verdict.
    public static func compare(_ dimension: Dimension, label: String, model: String? = nil, pairs: [ItemPair], eligible: JoinCounts,
                               metrics: [MetricDefinition], bootstrap: PairedBootstrap) -> SliceComparison {
        var results = metrics.map { MetricEstimator.compare($0, pairs, bootstrap: bootstrap) }
        let tested = results.indices.filter { results[$0].pValue != nil }
        let adjusted = Holm.adjust(tested.map { results[$0].pValue! })
        for (index, p) in zip(tested, adjusted) { results[index].adjustedPValue = p }
        for index in results.indices {
            results[index].verdict = MetricVerdict(results[index].metric, difference: results[index].difference ?? 0,
                                                   adjusted: results[index].adjustedPValue)
        }
        return SliceComparison(dimension: dimension, label: label, model: model, eligible: eligible, metrics: results)
    }

    /// The metric of `key`, if the job has it.
    public func metric(_ key: String) -> MetricComparison? { metrics.first { $0.metric.key == key } }
}
