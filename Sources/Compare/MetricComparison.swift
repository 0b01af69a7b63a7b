import ReplayKit

/// One metric of one job in one slice, compared: both runs' values over the paired items, the
/// difference NEW − BASE with its 95% interval, the test, the Holm-adjusted p-value, the smallest
/// difference these items could detect, and the verdict.
///
/// With no pairs every number is nil (nothing was compared) and the verdict is `noPairs`.
public struct MetricComparison: Sendable, Equatable {
    public var metric: MetricDefinition
    /// Items paired and measured in both runs.
    public var pairs: Int
    /// Threads those items are in: the clusters of the standard error (and of the bootstrap).
    public var clusters: Int
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
    public var verdict: MetricVerdict

    public init(metric: MetricDefinition, pairs: Int = 0, clusters: Int = 0, base: Double? = nil, new: Double? = nil,
                difference: Double? = nil, lower: Double? = nil, upper: Double? = nil, standardError: Double? = nil,
                pValue: Double? = nil, adjustedPValue: Double? = nil, minimumDetectable: Double? = nil,
                baseOnly: Int? = nil, newOnly: Int? = nil, verdict: MetricVerdict = .noPairs) {
        self.metric = metric
        self.pairs = pairs
        self.clusters = clusters
        self.base = base
        self.new = new
        self.difference = difference
        self.lower = lower
        self.upper = upper
        self.standardError = standardError
        self.pValue = pValue
        self.adjustedPValue = adjustedPValue
        self.minimumDetectable = minimumDetectable
        self.baseOnly = baseOnly
        self.newOnly = newOnly
        self.verdict = verdict
    }
}
