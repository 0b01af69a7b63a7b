import Jobs
import Privacy

/// A CI gate: a report number that must be at least a given value (`--fail-under chips.in_budget.device=0.9`).
///
/// The key is `<job>.<path in that job's report block>`; a name that is not a path there is
/// looked up as a quality measure, so `route.accuracy` means `jobs.route.quality.accuracy.mean`.
public struct Threshold: Sendable, Equatable {
    public var key: String
    public var minimum: Double

    package init(key: String, minimum: Double) { (self.key, self.minimum) = (key, minimum) }

    /// What the report says for this key: the number, or nil when there is none (no data).
    /// The key past the job is a path in the job's block as report.json spells it.
    public func value(in report: RunReport) -> Double? {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let kind = JobKind(rawValue: parts[0]), let job = report.jobs[kind] else { return nil }
        if let direct = ReportValue(encoding: job).at(parts[1])?.doubleValue { return direct }
        return job.overall.quality[QualityName(parts[1])]?.mean
    }

    /// Judges the report: met, not met, or no data (which is not met).
    public func judge(_ report: RunReport) -> Verdict {
        guard let value = value(in: report) else { return Verdict(threshold: self, value: nil) }
        return Verdict(threshold: self, value: value)
    }

    /// One threshold's outcome.
    public struct Verdict: Sendable, Equatable {
        public var threshold: Threshold
        /// The report's number; nil when it had none.
        public var value: Double?

        package init(threshold: Threshold, value: Double?) { (self.threshold, self.value) = (threshold, value) }

        public var met: Bool { value.map { $0 >= threshold.minimum } ?? false }

        /// One line for people: `chips.in_budget.device 0.250 < 0.9 (not met)`.
        public var line: String {
            guard let value else { return "\(threshold.key): no data (not met; needs \(threshold.minimum))" }
            let shown = (value * 1000).rounded() / 1000
            return met ? "\(threshold.key) \(shown) >= \(threshold.minimum) (met)"
                       : "\(threshold.key) \(shown) < \(threshold.minimum) (not met)"
        }
    }
}

extension Threshold {
    /// Parses `KEY=VALUE`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let value = Double(parts[1]), value.isFinite, parts[0].contains(".") else { return nil }
        self.init(key: String(parts[0]), minimum: value)
    }
}
