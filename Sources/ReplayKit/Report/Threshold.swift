import Jobs
import Privacy

/// A CI gate: a report number that must be at least a given value (`--fail-under
/// chips.in_budget.device=0.9`), or at most one, for what must stay low: a never rule, a fallback
/// (`--fail-over chips.violations.chips_agent_voice=0`), over a job's every place or over a
/// slice of them (`chips[build=2.4.1 (534),model=27.0].answered_rate`, `GateKey`).
///
/// The path is one in that slice's metrics as report.json spells them; a name that is not a path
/// there is looked up as a quality measure, so `route.accuracy` means
/// `jobs.route.quality.accuracy.mean`.
public struct Threshold: Sendable, Equatable {
    /// Which side of `limit` the report's number must be on.
    public enum Bound: String, Sendable, Equatable {
        /// At least `limit` (`--fail-under`).
        case atLeast = ">="
        /// At most `limit` (`--fail-over`).
        case atMost = "<="
    }

    public var key: GateKey
    public var limit: Double
    public var bound: Bound

    package init(key: GateKey, minimum: Double) { (self.key, self.limit, self.bound) = (key, minimum, .atLeast) }
    package init(key: GateKey, maximum: Double) { (self.key, self.limit, self.bound) = (key, maximum, .atMost) }

    /// `key >= 0.9`, `key <= 0`: the gate as people read it (junit.xml writes `<` as `&lt;`).
    public var name: String { "\(key) \(bound.rawValue) \(limit)" }

    /// Judges the report: one verdict per slice the key names (a `*` names several), each met,
    /// not met, or without data (which is not met). A `*` that matches no label is one verdict
    /// without data, so a gate never vanishes. Labels are judged with the team's list `listed`.
    public func judge(_ report: RunReport, listed: TeamLabels = .none) -> [Verdict] {
        guard let job = report.jobs[key.job] else { return [Verdict(threshold: self, value: nil)] }
        let slices = key.slices(of: job, listed: listed)
        guard !slices.isEmpty else { return [Verdict(threshold: self, value: nil)] }
        return slices.map { slice in
            var gate = self
            gate.key = slice.key
            let value = slice.metrics.flatMap { metrics in
                metrics.at(key.path)?.doubleValue ?? metrics.at("quality." + key.path + ".mean")?.doubleValue
            }
            return Verdict(threshold: gate, value: value)
        }
    }

    /// One threshold's outcome on one slice.
    public struct Verdict: Sendable, Equatable {
        /// The gate, its key naming the slice judged (a label where the gate said `*`).
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
    public init(parsing text: String, bound: Bound = .atLeast) throws(GateKey.Problem) {
        let (key, value) = try GateKey.parsingAssignment(text)
        self = bound == .atLeast ? Threshold(key: key, minimum: value) : Threshold(key: key, maximum: value)
    }
}
