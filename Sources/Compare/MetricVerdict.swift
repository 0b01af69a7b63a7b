import ReplayKit

/// What a comparison concludes about one metric, after Holm's adjustment across the metrics of
/// a job within a slice.
public enum MetricVerdict: String, Sendable, CaseIterable, Codable {
    /// The adjusted p-value is below 0.05 and the difference goes the better way.
    case better
    /// The adjusted p-value is below 0.05 and the difference goes the worse way.
    case worse
    /// A metric with no better side (a size) whose adjusted p-value is below 0.05.
    case changed
    /// The data do not show a difference. This is not evidence that there is none: the minimum
    /// detectable difference says how large a difference could have gone unseen.
    case noDetectableChange = "no detectable change"
    /// No item has the metric in both runs: nothing was compared.
    case noPairs = "no pairs"

    /// The significance level the verdict uses, on Holm-adjusted p-values.
    public static let alpha = 0.05

    /// The verdict for `metric` with difference `difference` and Holm-adjusted p-value `adjusted`
    /// (nil: no pairs).
    public init(_ metric: MetricDefinition, difference: Double, adjusted: Double?) {
        guard let adjusted else { self = .noPairs; return }
        guard adjusted < Self.alpha, difference != 0 else { self = .noDetectableChange; return }
        switch metric.direction {
        case .neutral: self = .changed
        default: self = metric.isBetter(difference) ? .better : .worse
        }
    }
}
