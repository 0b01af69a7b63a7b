import ReplayKit

/// One metric of one job in one slice, compared: both runs' values over the paired items, the
/// difference NEW − BASE with its 95% interval, the test, the Holm-adjusted p-value, the smallest
/// difference these items could detect, and the verdict.
///
/// With no pairs every number is nil (nothing was compared) and the verdict is `noPairs`.
public struct MetricComparison: Sendable, Equatable {
    public var metric: MetricDefinition
    /// Items paired and measured in both runs.
    public var pairs: Int = 0
    /// Threads those items are in: the clusters of the standard error (and of the bootstrap).
    public var clusters: Int = 0
    public var base: Double?
    public var new: Double?
    /// NEW − BASE.
    public var difference: Double?
    /// The 95% interval of the difference.
    public var lower: Double?
    public var upper: Double?
    public var standardError: Double?
    /// Two-sided: exact McNemar (rates), normal with clustered errors (means), bootstrap (percentiles).
    public var pValue: Double?
    /// `pValue` after Holm's adjustment across the job's metrics in this slice.
    public var adjustedPValue: Double?
    /// The smallest difference a two-sided test at 0.05 would detect with 80% power, given the
    /// standard error observed: (z.975 + z.80) · SE. Zero when no item differs.
    public var minimumDetectable: Double?
    /// For a rate: items yes in BASE only (b) and in NEW only (c), the McNemar test's counts.
    public var baseOnly: Int?
    public var newOnly: Int?
    public var verdict: MetricVerdict = .noPairs
}
