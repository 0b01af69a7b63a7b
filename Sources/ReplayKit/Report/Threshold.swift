import Jobs
import Privacy

/// A CI gate: a report number that must be at least a given value (`--fail-under
/// chips.in_budget.device=0.9`), or at most one, for what must stay low: a never rule, a fallback
/// (`--fail-over chips.violations.never:chips_agent_voice=0`).
///
/// The key is `<job>.<path in that job's report block>`; a name that is not a path there is
/// looked up as a quality measure, so `route.accuracy` means `jobs.route.quality.accuracy.mean`.
public struct Threshold: Sendable, Equatable {
    /// Which side of `limit` the report's number must be on.
    public enum Bound: String, Sendable, Equatable {
        /// At least `limit` (`--fail-under`).
        case atLeast = ">="
        /// At most `limit` (`--fail-over`).
        case atMost = "<="
    }

    public var key: String
    public var limit: Double
    public var bound: Bound

    package init(key: String, minimum: Double) { (self.key, self.limit, self.bound) = (key, minimum, .atLeast) }
    package init(key: String, maximum: Double) { (self.key, self.limit, self.bound) = (key, maximum, .atMost) }

    /// `key >= 0.9`, `key <= 0`: the gate as people read it (junit.xml writes `<` as `&lt;`).
    public var name: String { "\(key) \(bound.rawValue) \(limit)" }

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

        public var met: Bool {
            guard let value else { return false }
            switch threshold.bound {
            case .atLeast: return value >= threshold.limit
            case .atMost: return value <= threshold.limit
            }
        }

        /// One line for people: `chips.in_budget.device 0.250 < 0.9 (not met)`, `route.fallbacks.time_budget 3 > 0 (not met)`.
        public var line: String {
            let (kept, broken, needs) = threshold.bound == .atLeast ? (">=", "<", "at least") : ("<=", ">", "at most")
            guard let value else { return "\(threshold.key): no data (not met; needs \(needs) \(threshold.limit))" }
            let shown = (value * 1000).rounded() / 1000
            return met ? "\(threshold.key) \(shown) \(kept) \(threshold.limit) (met)"
                       : "\(threshold.key) \(shown) \(broken) \(threshold.limit) (not met)"
        }
    }
}

extension Threshold {
    /// Parses `KEY=VALUE` as a gate of `bound` (`--fail-under` at least, `--fail-over` at most).
    public init?(parsing text: String, bound: Bound = .atLeast) {
        let parts = text.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let value = Double(parts[1]), value.isFinite, parts[0].contains(".") else { return nil }
        self = bound == .atLeast ? Threshold(key: String(parts[0]), minimum: value) : Threshold(key: String(parts[0]), maximum: value)
    }
}
