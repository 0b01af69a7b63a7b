/// One row of the metrics: a metric under one key of one dimension, with its counts and rate.
///
/// A cell with a small denominator is flagged, never dropped: a reader decides what to make of
/// 3 of 4, and the dashboard draws it hollow so it does not look as sure as 300 of 400.
public struct RateCell: Sendable, Equatable {
    /// Below this many in the denominator, a cell is a small sample (the normal-approximation
    /// rule of thumb; Wilson intervals stay valid below it, but rates jump around).
    public static let smallSampleThreshold = 30

    /// What is measured.
    public let metric: Metric
    /// What it is broken down by.
    public let dimension: MetricDimension
    /// The value of the dimension ("all" for overall, "unknown" when missing).
    public let key: String
    /// Hits, for a share; the sum, for a mean.
    public let numerator: Int
    /// The population, for a share; the count, for a mean.
    public let denominator: Int

    /// The share (or mean); `nil` when the denominator is 0.
    public var rate: Double? {
        denominator > 0 ? Double(numerator) / Double(denominator) : nil
    }

    /// The 95% Wilson interval of a share; `nil` for a mean or an empty cell.
    public var interval: WilsonInterval? {
        metric.isMean ? nil : WilsonInterval(successes: numerator, trials: denominator)
    }

    /// The interval's lower bound, if any.
    public var low: Double? { interval?.low }
    /// The interval's upper bound, if any.
    public var high: Double? { interval?.high }

    /// Whether the denominator is below `smallSampleThreshold` (0/0 included).
    public var smallSample: Bool { denominator < RateCell.smallSampleThreshold }
}
